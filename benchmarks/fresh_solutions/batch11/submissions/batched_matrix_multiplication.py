project_json_src='''
[
    {
        "op": "StackedGemmCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "a",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "b",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "c",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StackedGemmTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);      // ceil(M / singleCoreM)
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);      // ceil(N / singleCoreN)
  TILING_DATA_FIELD_DEF(uint32_t, workers);      // vector-side workers driving the cube
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StackedGemmCustom, StackedGemmTilingData)
}
"""

host_operator_src="""
#include "stacked_gemm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
namespace {
matmul_tiling::DataType ToMmType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
}

uint32_t CeilDiv(uint32_t a, uint32_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& as = context->GetInputShape(0)->GetOriginShape();   // [B, M, K]
    const gert::Shape& bs = context->GetInputShape(1)->GetOriginShape();   // [B, K, N]
    if (as.GetDimNum() != 3 || bs.GetDimNum() != 3 || as.GetDim(0) != bs.GetDim(0) || as.GetDim(2) != bs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int32_t batch = as.GetDim(0);
    int32_t m = as.GetDim(1);
    int32_t k = as.GetDim(2);
    int32_t n = bs.GetDim(2);
    matmul_tiling::DataType mt = ToMmType(context->GetInputDesc(0)->GetDataType());

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = plat.GetCoreNumAiv();
    uint32_t aicNum = plat.GetCoreNumAic();

    // one matrix of the stack is split over all workers; every worker then walks the batch
    matmul_tiling::MultiCoreMatmulTiling mmTiling(plat);
    mmTiling.SetDim(aivNum);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mt);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mt);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mt);
    mmTiling.SetShape(m, n, k);
    mmTiling.SetOrgShape(m, n, k);
    mmTiling.SetBias(false);
    mmTiling.SetBufferSpace(-1, -1, -1);

    StackedGemmTilingData td;
    if (mmTiling.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t mBlocks = CeilDiv(m, td.mm.get_singleCoreM());
    uint32_t nBlocks = CeilDiv(n, td.mm.get_singleCoreN());
    td.set_batch(batch);
    td.set_mBlocks(mBlocks);
    td.set_nBlocks(nBlocks);
    td.set_workers(aivNum);

    context->SetBlockDim(aicNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();   // matmul API message/scratch area
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* as = context->GetInputShape(0);
    const gert::Shape* bs = context->GetInputShape(1);
    gert::Shape* cs = context->GetOutputShape(0);
    cs->SetDimNum(3);
    cs->SetDim(0, as->GetDim(0));
    cs->SetDim(1, as->GetDim(1));
    cs->SetDim(2, bs->GetDim(2));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class StackedGemmCustom : public OpDef {
public:
    explicit StackedGemmCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StackedGemmCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// Which output block a work item maps to, and its valid extent.
struct GemmBlock {
    uint64_t offA;
    uint64_t offB;
    uint64_t offC;
    int32_t tailM;
    int32_t tailN;
};

__aicore__ inline GemmBlock LocateBlock(const TCubeTiling& t, uint32_t mBlocks, uint32_t batchIdx, uint32_t blk)
{
    uint32_t mi = blk % mBlocks;
    uint32_t ni = blk / mBlocks;
    uint64_t strideA = (uint64_t)t.M * t.Ka;
    uint64_t strideB = (uint64_t)t.Kb * t.N;
    uint64_t strideC = (uint64_t)t.M * t.N;
    GemmBlock g;
    g.offA = batchIdx * strideA + (uint64_t)mi * t.singleCoreM * t.Ka;
    g.offB = batchIdx * strideB + (uint64_t)ni * t.singleCoreN;
    g.offC = batchIdx * strideC + (uint64_t)mi * t.singleCoreM * t.N + (uint64_t)ni * t.singleCoreN;
    int32_t remM = t.M - (int32_t)(mi * t.singleCoreM);
    int32_t remN = t.N - (int32_t)(ni * t.singleCoreN);
    g.tailM = remM < t.singleCoreM ? remM : t.singleCoreM;
    g.tailN = remN < t.singleCoreN ? remN : t.singleCoreN;
    return g;
}

template <typename T>
class StackedGemm {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline StackedGemm() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const StackedGemmTilingData& td)
    {
        batch = td.batch;
        mBlocks = td.mBlocks;
        blocksPerMat = td.mBlocks * td.nBlocks;
        workers = td.workers;
        cube = td.mm;
        uint64_t sizeA = (uint64_t)batch * cube.M * cube.Ka;
        uint64_t sizeB = (uint64_t)batch * cube.Kb * cube.N;
        uint64_t sizeC = (uint64_t)batch * cube.M * cube.N;
        aGm.SetGlobalBuffer((__gm__ T*)a, sizeA);
        bGm.SetGlobalBuffer((__gm__ T*)b, sizeB);
        cGm.SetGlobalBuffer((__gm__ T*)c, sizeC);
    }

    // work item u = batchIdx * blocksPerMat + blk, dealt round-robin over workers
    __aicore__ inline void Process()
    {
        uint32_t total = batch * blocksPerMat;
        for (uint32_t u = GetBlockIdx(); u < total; u += workers) {
            GemmBlock g = LocateBlock(cube, mBlocks, u / blocksPerMat, u % blocksPerMat);
            if (g.tailM <= 0 || g.tailN <= 0) {
                continue;
            }
            mm.SetTensorA(aGm[g.offA]);
            mm.SetTensorB(bGm[g.offB]);
            mm.SetTail(g.tailM, g.tailN);
            mm.IterateAll(cGm[g.offC]);
        }
        mm.End();
    }

    Matmul<AType, BType, CType, BiasType> mm;

private:
    GlobalTensor<T> aGm, bGm, cGm;
    TCubeTiling cube;
    uint32_t batch = 0, mBlocks = 0, blocksPerMat = 0, workers = 1;
};

template <typename T>
__aicore__ inline void RunStackedGemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, const StackedGemmTilingData& td)
{
    TPipe pipe;
    StackedGemm<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(a, b, c, td);
    op.Process();
}

extern "C" __global__ __aicore__ void stacked_gemm_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    RunStackedGemm<DTYPE_A>(a, b, c, td);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// C[i] = A[i] @ B[i]
at::Tensor stacked_gemm_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "expected 3-D operands");
    TORCH_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1), "bmm shape mismatch");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.to(a.scalar_type()).contiguous();
    at::Tensor c = at::empty({ac.size(0), ac.size(1), bc.size(2)}, ac.options());
    EXEC_NPU_CMD(aclnnStackedGemmCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("stacked_gemm_custom", &stacked_gemm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("stacked_gemm_custom", &stacked_gemm_impl_npu, "batched matrix multiplication");
}
"""
