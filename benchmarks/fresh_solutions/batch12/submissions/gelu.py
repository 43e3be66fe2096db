project_json_src='''
[
    {
        "op": "SmoothGaussianGateCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SmoothGaussianGateTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);   // number of elements in x
  TILING_DATA_FIELD_DEF(uint64_t, perCoreLength); // elements owned by every core but the last
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile, 32B aligned
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SmoothGaussianGateCustom, SmoothGaussianGateTilingData)
}
"""

host_operator_src="""
#include "smooth_gaussian_gate_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t KEY_FP32 = 1;
constexpr uint32_t KEY_FP16 = 2;
constexpr uint32_t ALIGN_BYTES = 32;

struct GateTilingPlan {
    uint64_t total = 0;
    uint64_t perCore = 0;
    uint32_t tile = 0;
    uint32_t cores = 1;
};

// UB budget per element: x/y queues double buffered in the I/O type plus two fp32 scratch buffers.
GateTilingPlan PlanGate(uint64_t total, uint32_t typeSize, uint32_t coreNum, uint64_t ubSize)
{
    GateTilingPlan p;
    p.total = total;
    uint32_t alignElems = ALIGN_BYTES / typeSize;
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + alignElems - 1) / alignElems * alignElems;
    if (perCore == 0) {
        perCore = alignElems;
    }
    p.perCore = perCore;
    p.cores = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (p.cores == 0) {
        p.cores = 1;
    }
    uint64_t bytesPerElem = 2ULL * 2ULL * typeSize + 3ULL * sizeof(float);
    uint64_t tile = (ubSize - 8 * 1024) / bytesPerElem;
    tile = tile / 64 * 64;   // keep full 256B repeats
    if (tile > perCore) {
        tile = (perCore + 63) / 64 * 64;
    }
    p.tile = static_cast<uint32_t>(tile);
    return p;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendc.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendc.GetCoreNumAiv();

    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dtype == ge::DT_FLOAT16) ? 2 : 4;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();

    GateTilingPlan plan = PlanGate(total, typeSize, coreNum, ubSize);

    SmoothGaussianGateTilingData tiling;
    tiling.set_totalLength(plan.total);
    tiling.set_perCoreLength(plan.perCore);
    tiling.set_tileLength(plan.tile);
    context->SetBlockDim(plan.cores);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? KEY_FP16 : KEY_FP32);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SmoothGaussianGateCustom : public OpDef {
public:
    explicit SmoothGaussianGateCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SmoothGaussianGateCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = x * sigmoid(2*sqrt(2/pi) * (x + 0.044715 x^3)), evaluated in fp32.
// This equals 0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715x^3))).
struct GateMath {
    static constexpr float CUBIC = 0.044715f;
    static constexpr float NEG_TWO_SQRT_2_OVER_PI = -1.5957691216057308f;

    __aicore__ static inline void Apply(const LocalTensor<float>& dst, const LocalTensor<float>& x,
                                        const LocalTensor<float>& tmp, uint32_t n)
    {
        Mul(tmp, x, x, n);                          // x^2
        Muls(tmp, tmp, CUBIC, n);                   // 0.044715 x^2
        Adds(tmp, tmp, 1.0f, n);                    // 1 + 0.044715 x^2
        Mul(tmp, tmp, x, n);                        // x + 0.044715 x^3
        Muls(tmp, tmp, NEG_TWO_SQRT_2_OVER_PI, n);
        Exp(tmp, tmp, n);                           // exp(-2u)
        Adds(tmp, tmp, 1.0f, n);
        Div(dst, x, tmp, n);                        // x / (1 + exp(-2u))
    }
};

template <typename T>
class SmoothGaussianGateKernel {
public:
    __aicore__ inline SmoothGaussianGateKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t tile)
    {
        uint64_t start = perCore * GetBlockIdx();
        coreLen = (start >= total) ? 0 : ((total - start) < perCore ? (total - start) : perCore);
        tileLen = tile;
        xGm.SetGlobalBuffer((__gm__ T*)x + start, coreLen);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, coreLen);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
        if constexpr (!IsSameType<T, float>::value) {
            // fp16 path: upcast buffers for input and result
            pipe.InitBuffer(xf32Buf, tileLen * sizeof(float));
            pipe.InitBuffer(yf32Buf, tileLen * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (coreLen == 0) {
            return;
        }
        uint64_t tiles = (coreLen + tileLen - 1) / tileLen;
        for (uint64_t i = 0; i < tiles; ++i) {
            uint64_t off = i * tileLen;
            uint32_t cnt = static_cast<uint32_t>((coreLen - off) < tileLen ? (coreLen - off) : tileLen);
            CopyIn(off, cnt);
            Compute(cnt);
            CopyOut(off, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        // vector ops run on the 64-aligned length; padded lanes are never written back
        uint32_t n = (cnt + 63) / 64 * 64;
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            GateMath::Apply(yl, xl, tmp, n);
        } else {
            LocalTensor<float> xf = xf32Buf.Get<float>();
            LocalTensor<float> yf = yf32Buf.Get<float>();
            Cast(xf, xl, RoundMode::CAST_NONE, n);
            GateMath::Apply(yf, xf, tmp, n);
            Cast(yl, yf, RoundMode::CAST_ROUND, n);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> tmpBuf, xf32Buf, yf32Buf;
    GlobalTensor<T> xGm, yGm;
    uint64_t coreLen = 0;
    uint32_t tileLen = 0;
};

extern "C" __global__ __aicore__ void smooth_gaussian_gate_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        SmoothGaussianGateKernel<float> op;
        op.Init(x, y, td.totalLength, td.perCoreLength, td.tileLength);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        SmoothGaussianGateKernel<half> op;
        op.Init(x, y, td.totalLength, td.perCoreLength, td.tileLength);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor smooth_gaussian_gate_impl_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnSmoothGaussianGateCustom, xc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("smooth_gaussian_gate_custom", &smooth_gaussian_gate_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("smooth_gaussian_gate_custom", &smooth_gaussian_gate_impl_npu, "GELU-style smooth gate");
}
"""
