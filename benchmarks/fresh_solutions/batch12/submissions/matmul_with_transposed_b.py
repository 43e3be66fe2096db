project_json_src='''
[
    {
        "op": "RowInnerProductGemmCustom",
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
BEGIN_TILING_DATA_DEF(RowInnerProductGemmTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, blocksM);   // core grid along M
  TILING_DATA_FIELD_DEF(uint32_t, blocksN);   // core grid along N
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowInnerProductGemmCustom, RowInnerProductGemmTilingData)
}
"""

host_operator_src="""
#include "row_inner_product_gemm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {

// Wraps MultiCoreMatmulTiling for C[M,N] = A[M,K] * B[N,K]^T.
class GemmTilingHelper {
public:
    GemmTilingHelper(const platform_ascendc::PlatformAscendC& p, matmul_tiling::DataType t) : plat(p), dtype(t) {}

    bool Build(int32_t m, int32_t n, int32_t k, TCubeTiling& out, uint32_t& bm, uint32_t& bn)
    {
        uint32_t cores = plat.GetCoreNumAic();
        matmul_tiling::MultiCoreMatmulTiling mt(plat);
        mt.SetDim(cores);
        mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype, false);
        mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype, true);
        mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dtype);
        mt.SetOrgShape(m, n, k);
        mt.SetShape(m, n, k);
        mt.SetBias(false);
        mt.SetBufferSpace(-1, -1, -1);
        if (mt.GetTiling(out) == -1) {
            return false;
        }
        bm = (m + out.get_singleCoreM() - 1) / out.get_singleCoreM();
        bn = (n + out.get_singleCoreN() - 1) / out.get_singleCoreN();
        return true;
    }

private:
    const platform_ascendc::PlatformAscendC& plat;
    matmul_tiling::DataType dtype;
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& as = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bs = context->GetInputShape(1)->GetStorageShape();
    int32_t m = static_cast<int32_t>(as.GetDim(0));
    int32_t k = static_cast<int32_t>(as.GetDim(1));
    int32_t n = static_cast<int32_t>(bs.GetDim(0));
    if (bs.GetDim(1) != k) {
        return ge::GRAPH_FAILED;
    }
    bool fp16 = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;

    RowInnerProductGemmTilingData td;
    GemmTilingHelper helper(plat, fp16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT);
    uint32_t bm = 1, bn = 1;
    if (!helper.Build(m, n, k, td.cube, bm, bn)) {
        return ge::GRAPH_FAILED;
    }
    td.set_blocksM(bm);
    td.set_blocksN(bn);

    context->SetBlockDim(bm * bn);
    context->SetTilingKey(fp16 ? 2 : 1);
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
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class RowInnerProductGemmCustom : public OpDef {
public:
    explicit RowInnerProductGemmCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(RowInnerProductGemmCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

// Per-core region of C; edge cores get the remainder along M/N.
struct CoreRegion {
    uint32_t rows;
    uint32_t cols;
    uint64_t aOff;
    uint64_t bOff;
    uint64_t cOff;
};

__aicore__ inline CoreRegion LocateRegion(const TCubeTiling& t, uint32_t blocksM, uint32_t blk)
{
    CoreRegion r;
    uint32_t mi = blk % blocksM;
    uint32_t ni = blk / blocksM;
    uint32_t m0 = mi * t.singleCoreM;
    uint32_t n0 = ni * t.singleCoreN;
    r.rows = (t.M - m0) < (uint32_t)t.singleCoreM ? (t.M - m0) : t.singleCoreM;
    r.cols = (t.N - n0) < (uint32_t)t.singleCoreN ? (t.N - n0) : t.singleCoreN;
    r.aOff = (uint64_t)m0 * t.Ka;
    r.bOff = (uint64_t)n0 * t.Kb;    // B is stored [N, K]: a row block of B is a column block of B^T
    r.cOff = (uint64_t)m0 * t.N + n0;
    return r;
}

template <typename T>
class RowInnerProductGemm {
public:
    using AT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    matmul::Matmul<AT, BT, CT, BiasT> mm;
    TPipe pipe;

    __aicore__ inline RowInnerProductGemm() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& t, uint32_t bm, uint32_t bn)
    {
        cube = t;
        blocksM = bm;
        blocksN = bn;
        aGm.SetGlobalBuffer((__gm__ T*)a, (uint64_t)t.M * t.Ka);
        bGm.SetGlobalBuffer((__gm__ T*)b, (uint64_t)t.N * t.Kb);
        cGm.SetGlobalBuffer((__gm__ T*)c, (uint64_t)t.M * t.N);
    }

    __aicore__ inline void Process()
    {
        uint32_t blk = GetBlockIdx();
        if (blk >= blocksM * blocksN) {
            return;
        }
        CoreRegion reg = LocateRegion(cube, blocksM, blk);
        mm.SetTensorA(aGm[reg.aOff]);
        mm.SetTensorB(bGm[reg.bOff], true);
        if (reg.rows != (uint32_t)cube.singleCoreM || reg.cols != (uint32_t)cube.singleCoreN) {
            mm.SetTail(reg.rows, reg.cols);
        }
        // cube accumulates in fp32 in L0C and writes straight to GM (fixpipe casts for fp16)
        mm.IterateAll(cGm[reg.cOff]);
        mm.End();
    }

private:
    GlobalTensor<T> aGm, bGm, cGm;
    TCubeTiling cube;
    uint32_t blocksM = 1;
    uint32_t blocksN = 1;
};

template <typename T>
__aicore__ inline void RunGemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    RowInnerProductGemm<T> op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
    op.Init(a, b, c, td.cube, td.blocksM, td.blocksN);
    op.Process();
}

extern "C" __global__ __aicore__ void row_inner_product_gemm_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    if (TILING_KEY_IS(1)) {
        RunGemm<float>(a, b, c, tiling);
    } else if (TILING_KEY_IS(2)) {
        RunGemm<half>(a, b, c, tiling);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// C = A @ B^T with B given as [N, K]; no explicit transpose is materialised.
at::Tensor row_inner_product_gemm_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "expected 2-D operands");
    TORCH_CHECK(a.size(1) == b.size(1), "inner dimensions differ: ", a.size(1), " vs ", b.size(1));
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.to(a.scalar_type()).contiguous();
    at::Tensor c = at::empty({a.size(0), b.size(0)}, a.options());
    EXEC_NPU_CMD(aclnnRowInnerProductGemmCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("row_inner_product_gemm_custom", &row_inner_product_gemm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("row_inner_product_gemm_custom", &row_inner_product_gemm_impl_npu, "A @ B.T");
}
"""
