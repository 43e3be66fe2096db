project_json_src='''
[
    {
        "op": "RaggedDenseProductCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "a", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "b", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "c", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RaggedDenseProductTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RaggedDenseProductCustom, RaggedDenseProductTilingData)
}
"""

host_operator_src="""
#include "ragged_dense_product_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
namespace {
// M, K, N are arbitrary (odd, prime-ish); the cube tiler handles the tails and
// the kernel clips the last block of each core with SetTail.
struct GemmDims {
    int32_t m, k, n;
    bool Read(gert::TilingContext *ctx)
    {
        const gert::Shape &as = ctx->GetInputShape(0)->GetOriginShape();
        const gert::Shape &bs = ctx->GetInputShape(1)->GetOriginShape();
        if (as.GetDimNum() != 2 || bs.GetDimNum() != 2 || as.GetDim(1) != bs.GetDim(0)) return false;
        m = static_cast<int32_t>(as.GetDim(0));
        k = static_cast<int32_t>(as.GetDim(1));
        n = static_cast<int32_t>(bs.GetDim(1));
        return true;
    }
};

matmul_tiling::DataType ToCubeType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GemmDims d{};
    if (!d.Read(context)) return ge::GRAPH_FAILED;
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    matmul_tiling::DataType ct = ToCubeType(dt);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cubeCores = plat.GetCoreNumAic();

    matmul_tiling::MultiCoreMatmulTiling mt(plat);
    mt.SetDim(cubeCores);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, ct, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, ct, false);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, ct);
    mt.SetShape(d.m, d.n, d.k);
    mt.SetOrgShape(d.m, d.n, d.k);
    mt.EnableBias(false);
    mt.SetBufferSpace(-1, -1, -1);

    RaggedDenseProductTilingData td;
    if (mt.GetTiling(td.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t used = static_cast<uint32_t>(td.cube.get_usedCoreNum());
    context->SetBlockDim(used == 0 ? 1 : used);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());   // matmul library scratch only
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* as = context->GetInputShape(0);
    const gert::Shape* bs = context->GetInputShape(1);
    gert::Shape* cs = context->GetOutputShape(0);
    cs->SetDimNum(2);
    cs->SetDim(0, as->GetDim(0));
    cs->SetDim(1, bs->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class RaggedDenseProductCustom : public OpDef {
public:
    explicit RaggedDenseProductCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(RaggedDenseProductCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

// Core-level block placement inside the global M x N output.
struct BlockSlot {
    uint64_t offA = 0, offB = 0, offC = 0;
    int32_t rows = 0, cols = 0;

    __aicore__ inline bool Locate(const TCubeTiling &t, uint32_t blockIdx)
    {
        uint32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        uint32_t nBlocks = (t.N + t.singleCoreN - 1) / t.singleCoreN;
        if (blockIdx >= mBlocks * nBlocks) return false;
        uint32_t mi = blockIdx % mBlocks;
        uint32_t ni = blockIdx / mBlocks;
        uint64_t m0 = static_cast<uint64_t>(mi) * t.singleCoreM;
        uint64_t n0 = static_cast<uint64_t>(ni) * t.singleCoreN;
        offA = m0 * t.Ka;
        offB = n0;
        offC = m0 * t.N + n0;
        // ragged edges: the last block row / column is shorter
        rows = static_cast<int32_t>(t.M - m0) < t.singleCoreM ? static_cast<int32_t>(t.M - m0) : t.singleCoreM;
        cols = static_cast<int32_t>(t.N - n0) < t.singleCoreN ? static_cast<int32_t>(t.N - n0) : t.singleCoreN;
        return rows > 0 && cols > 0;
    }
};

template <typename T>
class RaggedDenseProduct {
public:
    using AType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;
    using BType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;
    using CType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;
    using BiasType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline RaggedDenseProduct() {}
    __aicore__ inline bool Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling)
    {
        t = tiling;
        if (!slot.Locate(t, AscendC::GetBlockIdx())) {
            return false;
        }
        aGm.SetGlobalBuffer((__gm__ T *)a, static_cast<uint64_t>(t.M) * t.Ka);
        bGm.SetGlobalBuffer((__gm__ T *)b, static_cast<uint64_t>(t.Kb) * t.N);
        cGm.SetGlobalBuffer((__gm__ T *)c, static_cast<uint64_t>(t.M) * t.N);
        aGm = aGm[slot.offA];
        bGm = bGm[slot.offB];
        cGm = cGm[slot.offC];
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        mm.SetTail(slot.rows, slot.cols);
        mm.IterateAll(cGm);
        mm.End();
    }

    matmul::Matmul<AType, BType, CType, BiasType> mm;

private:
    AscendC::GlobalTensor<T> aGm, bGm, cGm;
    TCubeTiling t;
    BlockSlot slot;
};

template <typename T>
__aicore__ inline void RunProduct(GM_ADDR a, GM_ADDR b, GM_ADDR c, const RaggedDenseProductTilingData &td)
{
    AscendC::TPipe pipe;
    RaggedDenseProduct<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
    if (op.Init(a, b, c, td.cube)) {
        op.Process();
    }
}

extern "C" __global__ __aicore__ void ragged_dense_product_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    if (TILING_KEY_IS(0)) {
        RunProduct<float>(a, b, c, td);
    } else if (TILING_KEY_IS(1)) {
        RunProduct<half>(a, b, c, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor ragged_dense_product_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "expected 2-D operands");
    TORCH_CHECK(a.size(1) == b.size(0), "inner dimensions differ");
    TORCH_CHECK(a.scalar_type() == b.scalar_type(), "operand dtypes differ");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor c = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnRaggedDenseProductCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("ragged_dense_product_custom", &ragged_dense_product_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("ragged_dense_product_custom", &ragged_dense_product_impl_npu, "C = A @ B for arbitrary M, K, N");
}
"""
