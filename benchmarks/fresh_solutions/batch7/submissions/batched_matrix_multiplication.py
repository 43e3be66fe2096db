project_json_src='''
[
    {
        "op": "BatchedGemmF32Custom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "a",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "b",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "c",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchedGemmF32TilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, tileM);       // rows of C produced by one work item
  TILING_DATA_FIELD_DEF(uint32_t, tileN);       // cols of C produced by one work item
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BatchedGemmF32Custom, BatchedGemmF32TilingData)
}
"""

host_operator_src="""
#include "batched_gemm_f32_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
// Upper bounds of the C sub-block one cube core owns per work item.
constexpr uint32_t MAX_TILE_M = 512;
constexpr uint32_t MAX_TILE_N = 512;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetStorageShape();
    if (aShape.GetDimNum() != 3 || bShape.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = aShape.GetDim(0);
    uint32_t m = aShape.GetDim(1);
    uint32_t k = aShape.GetDim(2);
    uint32_t n = bShape.GetDim(2);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = plat.GetCoreNumAic();

    uint32_t tileM = m < MAX_TILE_M ? m : MAX_TILE_M;
    uint32_t tileN = n < MAX_TILE_N ? n : MAX_TILE_N;
    uint32_t mBlocks = (m + tileM - 1) / tileM;
    uint32_t nBlocks = (n + tileN - 1) / tileN;
    uint32_t items = batch * mBlocks * nBlocks;
    uint32_t used = items < aicNum ? items : aicNum;
    if (used == 0) used = 1;
    uint32_t perCore = (items + used - 1) / used;
    used = (items + perCore - 1) / perCore;

    // Single-core matmul tiling for one (tileM x K) * (K x tileN) problem
    // living inside the full row-major matrices.
    matmul_tiling::MatmulApiTiling mmt(plat);
    mmt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmt.SetBias(false);
    mmt.SetOrgShape(m, n, k);
    mmt.SetShape(tileM, tileN, k);
    mmt.SetBufferSpace(-1, -1, -1);

    BatchedGemmF32TilingData td;
    if (mmt.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_batch(batch);
    td.set_m(m);
    td.set_n(n);
    td.set_k(k);
    td.set_tileM(tileM);
    td.set_tileN(tileN);
    td.set_mBlocks(mBlocks);
    td.set_nBlocks(nBlocks);
    td.set_itemsPerCore(perCore);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(3);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, a->GetDim(1));
    c->SetDim(2, b->GetDim(2));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class BatchedGemmF32Custom : public OpDef {
public:
    explicit BatchedGemmF32Custom(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BatchedGemmF32Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using namespace AscendC;

using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

// C[b] = A[b] * B[b]; work items are (batch, mBlock, nBlock) tiles of C,
// dealt out to the cube cores in contiguous ranges.
class BatchedGemmF32 {
public:
    __aicore__ inline BatchedGemmF32() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const BatchedGemmF32TilingData& td)
    {
        batch = td.batch; m = td.m; n = td.n; k = td.k;
        tileM = td.tileM; tileN = td.tileN;
        mBlocks = td.mBlocks; nBlocks = td.nBlocks;

        uint32_t total = batch * mBlocks * nBlocks;
        first = GetBlockIdx() * td.itemsPerCore;
        last = first + td.itemsPerCore;
        if (last > total) last = total;

        aGm.SetGlobalBuffer((__gm__ float*)a, (uint64_t)batch * m * k);
        bGm.SetGlobalBuffer((__gm__ float*)b, (uint64_t)batch * k * n);
        cGm.SetGlobalBuffer((__gm__ float*)c, (uint64_t)batch * m * n);
    }

    template <class MM>
    __aicore__ inline void Process(MM& mm)
    {
        const uint32_t perBatch = mBlocks * nBlocks;
        for (uint32_t item = first; item < last; ++item) {
            uint32_t bi = item / perBatch;
            uint32_t rem = item % perBatch;
            uint32_t mi = rem / nBlocks;
            uint32_t ni = rem % nBlocks;

            uint32_t rowStart = mi * tileM;
            uint32_t colStart = ni * tileN;
            uint32_t curM = (m - rowStart) < tileM ? (m - rowStart) : tileM;
            uint32_t curN = (n - colStart) < tileN ? (n - colStart) : tileN;

            uint64_t aOff = (uint64_t)bi * m * k + (uint64_t)rowStart * k;
            uint64_t bOff = (uint64_t)bi * k * n + colStart;
            uint64_t cOff = (uint64_t)bi * m * n + (uint64_t)rowStart * n + colStart;

            mm.SetTensorA(aGm[aOff]);
            mm.SetTensorB(bGm[bOff]);
            if (curM != tileM || curN != tileN) {
                mm.SetTail(curM, curN, k);     // edge tile of C
            } else {
                mm.SetTail(tileM, tileN, k);
            }
            mm.IterateAll(cGm[cOff]);
        }
        mm.End();
    }

private:
    GlobalTensor<float> aGm, bGm, cGm;
    uint32_t batch, m, n, k;
    uint32_t tileM, tileN, mBlocks, nBlocks;
    uint32_t first, last;
};

extern "C" __global__ __aicore__ void batched_gemm_f32_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SetSysWorkspace(workspace);
    GET_TILING_DATA(td, tiling);

    TPipe pipe;
    matmul::Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.mmTiling);

    BatchedGemmF32 op;
    op.Init(a, b, c, td);
    op.Process(mm);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor batched_gemm_f32_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "expected 3-D operands");
    TORCH_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1), "bmm shape mismatch");
    at::Tensor lhs = a.contiguous();
    at::Tensor rhs = b.contiguous();
    at::Tensor out = at::empty({a.size(0), a.size(1), b.size(2)}, a.options());
    EXEC_NPU_CMD(aclnnBatchedGemmF32Custom, lhs, rhs, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("batched_gemm_f32", &batched_gemm_f32_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("batched_gemm_f32", &batched_gemm_f32_npu, "C[b] = A[b] @ B[b] (fp32)");
}
"""
