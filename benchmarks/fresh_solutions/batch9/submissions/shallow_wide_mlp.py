project_json_src='''
[
    {
        "op": "AffineRectifyCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "weight",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "bias",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {
                "name": "apply_relu",
                "param_type": "optional",
                "type": "bool",
                "default_value": "true"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AffineRectifyTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, applyRelu);
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);     // number of singleCoreM blocks along M
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AffineRectifyCustom, AffineRectifyTilingData)
}
"""

host_operator_src="""
#include "affine_rectify_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
namespace {
constexpr uint32_t KEY_FP32 = 0;
constexpr uint32_t KEY_FP16 = 1;

struct GemmShape {
    int64_t m;
    int64_t n;
    int64_t k;
};

// x: [M, K], weight: [N, K] (nn.Linear layout, consumed transposed), bias: [N]
bool ReadShape(gert::TilingContext *ctx, GemmShape &s)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(1)) {
        return false;
    }
    s.m = xs.GetDim(0);
    s.k = xs.GetDim(1);
    s.n = ws.GetDim(0);
    return true;
}

int32_t BuildCubeTiling(const platform_ascendc::PlatformAscendC &plat, const GemmShape &s,
                        matmul_tiling::DataType dt, uint32_t usedCores, TCubeTiling &out)
{
    using namespace matmul_tiling;
    MultiCoreMatmulTiling mt(plat);
    mt.SetDim(usedCores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, dt, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, dt, true);
    // C is fetched block by block into UB so the rectifier runs before write-back
    mt.SetCType(TPosition::VECIN, CubeFormat::ND, dt);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, dt);
    mt.SetShape(s.m, s.n, s.k);
    mt.SetOrgShape(s.m, s.n, s.k);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    return mt.GetTiling(out);
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    GemmShape shape;
    if (!ReadShape(context, shape)) {
        return ge::GRAPH_FAILED;
    }
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = plat.GetCoreNumAic();
    uint32_t aivNum = plat.GetCoreNumAiv();

    ge::DataType inType = context->GetInputDesc(0)->GetDataType();
    bool isHalf = (inType == ge::DT_FLOAT16);
    matmul_tiling::DataType mmType = isHalf ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    AffineRectifyTilingData tiling;
    if (BuildCubeTiling(plat, shape, mmType, aivNum, tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    const bool *relu = context->GetAttrs()->GetAttrPointer<bool>(0);
    tiling.set_applyRelu((relu == nullptr || *relu) ? 1U : 0U);
    int32_t singleM = tiling.mm.get_singleCoreM();
    tiling.set_mBlocks(static_cast<uint32_t>((shape.m + singleM - 1) / singleM));

    context->SetTilingKey(isHalf ? KEY_FP16 : KEY_FP32);
    context->SetBlockDim(aicNum);   // mix kernel: one cube core drives two vector cores
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *ws = context->GetInputShape(1);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(2);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class AffineRectifyCustom : public OpDef {
public:
    explicit AffineRectifyCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("apply_relu").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AffineRectifyCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t MinU(uint32_t a, uint32_t b) { return a < b ? a : b; }

// Per-core window of the global GEMM: offsets into A/B/C/bias and the valid extent.
struct CoreWindow {
    uint64_t offA;
    uint64_t offB;
    uint64_t offC;
    uint64_t offBias;
    uint32_t rows;
    uint32_t cols;
    bool valid;
};

__aicore__ inline CoreWindow LocateWindow(const TCubeTiling &t, uint32_t mBlocks, uint32_t idx)
{
    CoreWindow w;
    uint32_t mIdx = idx % mBlocks;
    uint32_t nIdx = idx / mBlocks;
    uint32_t m0 = mIdx * t.singleCoreM;
    uint32_t n0 = nIdx * t.singleCoreN;
    w.valid = (m0 < (uint32_t)t.M) && (n0 < (uint32_t)t.N);
    w.rows = w.valid ? MinU(t.singleCoreM, t.M - m0) : 0;
    w.cols = w.valid ? MinU(t.singleCoreN, t.N - n0) : 0;
    w.offA = (uint64_t)m0 * t.Ka;
    w.offB = (uint64_t)n0 * t.Kb;          // B stored as [N, K]
    w.offC = (uint64_t)m0 * t.N + n0;
    w.offBias = n0;
    return w;
}

template <typename T>
class AffineRectifyKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T, false>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline AffineRectifyKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const TCubeTiling &t, uint32_t mBlocks, uint32_t applyRelu, TPipe *p)
    {
        tiling = t;
        relu = applyRelu != 0;
        pipe = p;
        win = LocateWindow(tiling, mBlocks, GetBlockIdx());
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), (uint64_t)tiling.M * tiling.Ka);
        wGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(w), (uint64_t)tiling.N * tiling.Kb);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), (uint64_t)tiling.N);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), (uint64_t)tiling.M * tiling.N);
        // one baseM x baseN result block per slot
        pipe->InitBuffer(outQue, BUFFER_NUM, tiling.baseM * tiling.baseN * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (!win.valid) {
            return;
        }
        mm.SetTail(win.rows, win.cols);
        mm.SetTensorA(xGm[win.offA]);
        mm.SetTensorB(wGm[win.offB], true);
        mm.SetBias(bGm[win.offBias]);

        uint32_t mRounds = CeilDivU(win.rows, tiling.baseM);
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<T> blk = outQue.AllocTensor<T>();
            mm.template GetTensorC<true>(blk, false, true);
            if (relu) {
                Relu(blk, blk, tiling.baseM * tiling.baseN);
            }
            outQue.EnQue(blk);
            WriteBlock(step, mRounds);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void WriteBlock(uint32_t step, uint32_t mRounds)
    {
        LocalTensor<T> blk = outQue.DeQue<T>();
        uint32_t mi = step % mRounds;
        uint32_t ni = step / mRounds;
        uint32_t r0 = mi * tiling.baseM;
        uint32_t c0 = ni * tiling.baseN;
        uint32_t rows = MinU(tiling.baseM, win.rows - r0);
        uint32_t cols = MinU(tiling.baseN, win.cols - c0);
        uint64_t dst = win.offC + (uint64_t)r0 * tiling.N + c0;
        // rows in UB are baseN wide; GM rows are N wide
        DataCopyExtParams cp;
        cp.blockCount = (uint16_t)rows;
        cp.blockLen = cols * sizeof(T);
        cp.srcStride = (tiling.baseN - cols) * sizeof(T) / 32;
        cp.dstStride = (tiling.N - cols) * sizeof(T);
        cp.rsv = 0;
        DataCopyPad(yGm[dst], blk, cp);
        outQue.FreeTensor(blk);
    }

    TPipe *pipe;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    TCubeTiling tiling;
    CoreWindow win;
    bool relu;
};

template <typename T>
__aicore__ inline void RunAffineRectify(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                        const AffineRectifyTilingData &td)
{
    TPipe pipe;
    AffineRectifyKernel<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(x, w, b, y, td.mm, td.mBlocks, td.applyRelu, &pipe);
    op.Process();
}

extern "C" __global__ __aicore__ void affine_rectify_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RunAffineRectify<float>(x, weight, bias, y, td);
    } else if (TILING_KEY_IS(1)) {
        RunAffineRectify<half>(x, weight, bias, y, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// y = relu?(x @ weight^T + bias)
at::Tensor affine_rectify_impl_npu(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &bias,
                                   bool apply_relu)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "expected 2-D x and weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnAffineRectifyCustom, x, weight, bias, apply_relu, y);
    return y;
}

// Whole MLP: every hidden layer fused with ReLU, the head layer without.
at::Tensor affine_rectify_stack_npu(const at::Tensor &x, const std::vector<at::Tensor> &weights,
                                    const std::vector<at::Tensor> &biases)
{
    TORCH_CHECK(weights.size() == biases.size() && !weights.empty(), "weights/biases mismatch");
    at::Tensor h = x.contiguous();
    for (size_t i = 0; i < weights.size(); ++i) {
        bool last = (i + 1 == weights.size());
        h = affine_rectify_impl_npu(h, weights[i].contiguous(), biases[i].contiguous(), !last);
    }
    return h;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("affine_rectify_custom", &affine_rectify_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("affine_rectify_custom", &affine_rectify_impl_npu, "relu(x @ W^T + b)");
    m.def("affine_rectify_stack", &affine_rectify_stack_npu, "stack of affine+relu layers");
}
"""
