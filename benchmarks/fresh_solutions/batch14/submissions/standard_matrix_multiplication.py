project_json_src='''
[
    {
        "op": "DenseGemmCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "a",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "b",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "c",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseGemmTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);   // matmul API tiling (single/base shapes, core split)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseGemmCustom, DenseGemmTilingData)
}
"""

host_operator_src="""
#include "dense_gemm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
struct GemmShape {
    int32_t m;
    int32_t n;
    int32_t k;
};

static bool ReadShape(gert::TilingContext* ctx, GemmShape& s)
{
    const gert::Shape& a = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = ctx->GetInputShape(1)->GetStorageShape();
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(1) != b.GetDim(0)) {
        return false;
    }
    s.m = static_cast<int32_t>(a.GetDim(0));
    s.k = static_cast<int32_t>(a.GetDim(1));
    s.n = static_cast<int32_t>(b.GetDim(1));
    return true;
}

static DataType ToMmType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GemmShape s;
    if (!ReadShape(context, s)) {
        return ge::GRAPH_FAILED;
    }
    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cubeCores = ascendc.GetCoreNumAic();
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    DataType mt = ToMmType(dt);

    // multi-core split of C over M/N is left to the tiling solver; A, B, C stay in GM as ND
    MultiCoreMatmulTiling solver(ascendc);
    solver.SetDim(cubeCores);
    solver.SetAType(TPosition::GM, CubeFormat::ND, mt, false);
    solver.SetBType(TPosition::GM, CubeFormat::ND, mt, false);
    solver.SetCType(TPosition::GM, CubeFormat::ND, mt);
    solver.SetShape(s.m, s.n, s.k);
    solver.SetOrgShape(s.m, s.n, s.k);
    solver.EnableBias(false);
    solver.SetBufferSpace(-1, -1, -1);

    DenseGemmTilingData tiling;
    if (solver.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t used = static_cast<uint32_t>(tiling.mm.get_usedCoreNum());
    context->SetBlockDim(used == 0 ? 1 : used);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    // matmul API needs the library system workspace only
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendc.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class DenseGemmCustom : public OpDef {
public:
    explicit DenseGemmCustom(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseGemmCustom);
}
"""

kernel_src="""
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

// Offsets of this core's C block: cores are laid out over (mBlocks x nBlocks) of singleCoreM x singleCoreN.
struct BlockCoord {
    uint64_t aOff;
    uint64_t bOff;
    uint64_t cOff;
    int32_t tailM;
    int32_t tailN;
};

__aicore__ inline BlockCoord LocateBlock(const TCubeTiling& t, uint32_t blockIdx)
{
    uint32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    uint32_t mIdx = blockIdx % mBlocks;
    uint32_t nIdx = blockIdx / mBlocks;
    BlockCoord c;
    c.aOff = (uint64_t)mIdx * t.singleCoreM * t.Ka;
    c.bOff = (uint64_t)nIdx * t.singleCoreN;
    c.cOff = (uint64_t)mIdx * t.singleCoreM * t.N + (uint64_t)nIdx * t.singleCoreN;
    int32_t remM = t.M - (int32_t)(mIdx * t.singleCoreM);
    int32_t remN = t.N - (int32_t)(nIdx * t.singleCoreN);
    c.tailM = remM < t.singleCoreM ? remM : t.singleCoreM;
    c.tailN = remN < t.singleCoreN ? remN : t.singleCoreN;
    return c;
}

template <typename T>
class DenseGemmKernel {
public:
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline DenseGemmKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& t)
    {
        tiling = t;
        aGm.SetGlobalBuffer((__gm__ T*)a, (uint64_t)t.M * t.Ka);
        bGm.SetGlobalBuffer((__gm__ T*)b, (uint64_t)t.Kb * t.N);
        cGm.SetGlobalBuffer((__gm__ T*)c, (uint64_t)t.M * t.N);
    }

    __aicore__ inline void Process(TPipe* pipe)
    {
        uint32_t idx = GetBlockIdx();
        if (idx >= static_cast<uint32_t>(tiling.usedCoreNum)) {
            return;
        }
        BlockCoord bc = LocateBlock(tiling, idx);
        if (bc.tailM <= 0 || bc.tailN <= 0) {
            return;
        }
        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm, &tiling);
        mm.SetTensorA(aGm[bc.aOff]);
        mm.SetTensorB(bGm[bc.bOff]);
        mm.SetTail(bc.tailM, bc.tailN);
        mm.IterateAll(cGm[bc.cOff]);
        mm.End();
    }

private:
    matmul::Matmul<AType, BType, CType, BiasType> mm;
    TCubeTiling tiling;
    GlobalTensor<T> aGm, bGm, cGm;
};

extern "C" __global__ __aicore__ void dense_gemm_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                        GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    if (TILING_KEY_IS(0)) {
        DenseGemmKernel<float> op;
        op.Init(a, b, c, td.mm);
        op.Process(&pipe);
    } else if (TILING_KEY_IS(1)) {
        DenseGemmKernel<half> op;
        op.Init(a, b, c, td.mm);
        op.Process(&pipe);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor dense_gemm_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "dense_gemm expects 2-D operands");
    TORCH_CHECK(a.size(1) == b.size(0), "inner dimensions differ");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.to(a.scalar_type()).contiguous();
    at::Tensor c = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnDenseGemmCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("dense_gemm_custom", &dense_gemm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("dense_gemm_custom", &dense_gemm_impl_npu, "C = A @ B");
}
"""
