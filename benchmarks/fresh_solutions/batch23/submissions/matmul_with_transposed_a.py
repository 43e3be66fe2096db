project_json_src = '''
[
    {
        "op": "LhsTransposedGemmCustom",
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
                "type": ["float", "float"]
            }
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LhsTransposedGemmTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LhsTransposedGemmCustom, LhsTransposedGemmTilingData)
}
"""

host_operator_src = """
#include "lhs_transposed_gemm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
// A is stored K x M and consumed transposed, B is K x N, C is M x N.
struct GemmShape {
    int32_t m;
    int32_t n;
    int32_t k;
};

static bool ReadShape(gert::TilingContext *context, GemmShape &s)
{
    const gert::Shape &a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &b = context->GetInputShape(1)->GetStorageShape();
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(0) != b.GetDim(0)) {
        return false;
    }
    s.k = static_cast<int32_t>(a.GetDim(0));
    s.m = static_cast<int32_t>(a.GetDim(1));
    s.n = static_cast<int32_t>(b.GetDim(1));
    return true;
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    GemmShape shape{};
    if (!ReadShape(context, shape)) {
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = platform.GetCoreNumAic();

    ge::DataType inDt = context->GetInputDesc(0)->GetDataType();
    matmul_tiling::DataType mmIn = (inDt == ge::DT_FLOAT16) ? matmul_tiling::DataType::DT_FLOAT16
                                                            : matmul_tiling::DataType::DT_FLOAT;
    context->SetTilingKey(inDt == ge::DT_FLOAT16 ? 1 : 0);

    MultiCoreMatmulTiling mm(platform);
    mm.SetDim(aicNum);
    mm.SetAType(TPosition::GM, CubeFormat::ND, mmIn, true);
    mm.SetBType(TPosition::GM, CubeFormat::ND, mmIn, false);
    mm.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(shape.m, shape.n, shape.k);
    mm.SetOrgShape(shape.m, shape.n, shape.k);
    mm.SetBias(false);
    mm.SetBufferSpace(-1, -1, -1);

    LhsTransposedGemmTilingData tiling;
    if (mm.GetTiling(tiling.cube) == -1) {
        return ge::GRAPH_FAILED;
    }

    // number of (M, N) output blocks actually produced by the split
    int32_t singleM = tiling.cube.get_singleCoreM();
    int32_t singleN = tiling.cube.get_singleCoreN();
    uint32_t mBlocks = (shape.m + singleM - 1) / singleM;
    uint32_t nBlocks = (shape.n + singleN - 1) / singleN;
    uint32_t used = mBlocks * nBlocks;
    if (used > aicNum) {
        used = aicNum;
    }
    tiling.set_usedCoreNum(used);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *a = context->GetInputShape(0);
    const gert::Shape *b = context->GetInputShape(1);
    gert::Shape *c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(1));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
}

namespace ops {
class LhsTransposedGemmCustom : public OpDef {
public:
    explicit LhsTransposedGemmCustom(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LhsTransposedGemmCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

// Per-core placement of one singleCoreM x singleCoreN block of C.
struct BlockPlacement {
    uint64_t offsetA;  // column offset into A (K x M), A is read transposed
    uint64_t offsetB;  // column offset into B (K x N)
    uint64_t offsetC;  // row-major offset into C (M x N)
    int32_t tailM;
    int32_t tailN;
};

__aicore__ inline BlockPlacement PlaceBlock(const TCubeTiling &t, uint32_t blockIdx)
{
    BlockPlacement p{};
    uint32_t nBlocks = CeilDivU(t.N, t.singleCoreN);
    uint32_t mIdx = blockIdx / nBlocks;
    uint32_t nIdx = blockIdx % nBlocks;
    uint32_t mStart = mIdx * t.singleCoreM;
    uint32_t nStart = nIdx * t.singleCoreN;
    p.offsetA = mStart;
    p.offsetB = nStart;
    p.offsetC = static_cast<uint64_t>(mStart) * t.N + nStart;
    int32_t remM = t.M - static_cast<int32_t>(mStart);
    int32_t remN = t.N - static_cast<int32_t>(nStart);
    p.tailM = remM < t.singleCoreM ? remM : t.singleCoreM;
    p.tailN = remN < t.singleCoreN ? remN : t.singleCoreN;
    return p;
}

template <typename T>
class LhsTransposedGemmKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, false>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline LhsTransposedGemmKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling, uint32_t usedCores)
    {
        tiling_ = tiling;
        usedCores_ = usedCores;
        aGm_.SetGlobalBuffer((__gm__ T *)a, static_cast<uint64_t>(tiling.Ka) * tiling.M);
        bGm_.SetGlobalBuffer((__gm__ T *)b, static_cast<uint64_t>(tiling.Kb) * tiling.N);
        cGm_.SetGlobalBuffer((__gm__ float *)c, static_cast<uint64_t>(tiling.M) * tiling.N);
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        uint32_t total = CeilDivU(tiling_.M, tiling_.singleCoreM) * CeilDivU(tiling_.N, tiling_.singleCoreN);
        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm_, &tiling_);
        // blocks are strided over the launched cores in case the split exceeds them
        for (uint32_t blk = GetBlockIdx(); blk < total; blk += usedCores_) {
            BlockPlacement p = PlaceBlock(tiling_, blk);
            mm_.SetTensorA(aGm_[p.offsetA], true);
            mm_.SetTensorB(bGm_[p.offsetB]);
            mm_.SetTail(p.tailM, p.tailN);
            mm_.IterateAll(cGm_[p.offsetC]);
        }
        mm_.End();
    }

private:
    Matmul<AType, BType, CType, BiasType> mm_;
    GlobalTensor<T> aGm_;
    GlobalTensor<T> bGm_;
    GlobalTensor<float> cGm_;
    TCubeTiling tiling_;
    uint32_t usedCores_ = 1;
};

extern "C" __global__ __aicore__ void lhs_transposed_gemm_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (workspace == nullptr) {
        return;
    }
    SetSysWorkspace(workspace);
    TPipe pipe;
    if (TILING_KEY_IS(1)) {
        LhsTransposedGemmKernel<half> op;
        op.Init(a, b, c, td.cube, td.usedCoreNum);
        op.Process(&pipe);
    } else if (TILING_KEY_IS(0)) {
        LhsTransposedGemmKernel<float> op;
        op.Init(a, b, c, td.cube, td.usedCoreNum);
        op.Process(&pipe);
    }
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// C = A^T @ B with A given as (K, M); the transpose is handled inside the cube kernel.
at::Tensor lhs_transposed_gemm_impl_npu(const at::Tensor &a, const at::Tensor &b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "expected 2-D operands");
    TORCH_CHECK(a.size(0) == b.size(0), "reduction dims differ");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor c = at::empty({a.size(1), b.size(1)}, a.options().dtype(at::kFloat));
    EXEC_NPU_CMD(aclnnLhsTransposedGemmCustom, ac, bc, c);
    if (a.scalar_type() != at::kFloat) {
        return c.to(a.scalar_type());
    }
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("lhs_transposed_gemm_custom", &lhs_transposed_gemm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("lhs_transposed_gemm_custom", &lhs_transposed_gemm_impl_npu, "A^T @ B");
}
"""
