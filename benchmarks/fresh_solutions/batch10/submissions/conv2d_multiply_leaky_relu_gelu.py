project_json_src='''
[
    {
        "op": "ChannelScaleLeakyGeluCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "scale",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "attr": [
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelScaleLeakyGeluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerPlane);
  TILING_DATA_FIELD_DEF(uint64_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint64_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(float, negSlope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelScaleLeakyGeluCustom, ChannelScaleLeakyGeluTilingData)
}
"""

host_operator_src="""
#include "channel_scale_leaky_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB budget per element: in (2 buffers) + out (2 buffers) in T, plus 2 float scratch rows
static uint32_t ChooseTileLen(uint64_t ubBytes, uint32_t typeSize, uint32_t planeSize)
{
    uint64_t perElem = 4ULL * typeSize + 2ULL * sizeof(float);
    uint64_t maxLen = (ubBytes - 4096) / perElem;
    maxLen = maxLen / 64 * 64;
    if (maxLen > 8192) {
        maxLen = 8192;
    }
    uint32_t aligned = (planeSize + 63) / 64 * 64;
    return aligned < maxLen ? aligned : static_cast<uint32_t>(maxLen);
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = xs.GetDim(0);
    uint32_t channels = xs.GetDim(1);
    uint32_t planeSize = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        planeSize *= xs.GetDim(i);
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t cores = platform.GetCoreNumAiv();

    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dtype == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t tileLen = ChooseTileLen(ubSize, typeSize, planeSize);
    uint32_t tilesPerPlane = (planeSize + tileLen - 1) / tileLen;
    uint64_t totalTiles = (uint64_t)batch * channels * tilesPerPlane;
    uint64_t tilesPerCore = (totalTiles + cores - 1) / cores;
    uint32_t used = static_cast<uint32_t>((totalTiles + tilesPerCore - 1) / tilesPerCore);

    const float* slope = context->GetAttrs()->GetAttrPointer<float>(0);

    ChannelScaleLeakyGeluTilingData tiling;
    tiling.set_channels(channels);
    tiling.set_planeSize(planeSize);
    tiling.set_tileLen(tileLen);
    tiling.set_tilesPerPlane(tilesPerPlane);
    tiling.set_totalTiles(totalTiles);
    tiling.set_tilesPerCore(tilesPerCore);
    tiling.set_negSlope(slope == nullptr ? 0.01f : *slope);

    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);
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
class ChannelScaleLeakyGeluCustom : public OpDef {
public:
    explicit ChannelScaleLeakyGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ChannelScaleLeakyGeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float GELU_K = 1.5957691216057308f;   // 2 * sqrt(2 / pi)
constexpr float GELU_C = 0.044715f;

// gelu(x) ~= x * sigmoid(GELU_K * (x + GELU_C * x^3)); tmp must not alias src/dst
__aicore__ inline void GeluInplace(const LocalTensor<float>& v, const LocalTensor<float>& tmp, uint32_t n)
{
    Mul(tmp, v, v, n);
    PipeBarrier<PIPE_V>();
    Muls(tmp, tmp, GELU_C, n);
    PipeBarrier<PIPE_V>();
    Adds(tmp, tmp, 1.0f, n);
    PipeBarrier<PIPE_V>();
    Mul(tmp, tmp, v, n);
    PipeBarrier<PIPE_V>();
    Muls(tmp, tmp, -GELU_K, n);
    PipeBarrier<PIPE_V>();
    Exp(tmp, tmp, n);
    PipeBarrier<PIPE_V>();
    Adds(tmp, tmp, 1.0f, n);
    PipeBarrier<PIPE_V>();
    Div(v, v, tmp, n);
    PipeBarrier<PIPE_V>();
}

template <typename T>
class ChannelScaleLeakyGelu {
public:
    __aicore__ inline ChannelScaleLeakyGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR y, uint32_t channels, uint32_t planeSize,
                                uint32_t tileLen, uint32_t tilesPerPlane, uint64_t totalTiles,
                                uint64_t tilesPerCore, float negSlope)
    {
        this->channels = channels;
        this->planeSize = planeSize;
        this->tileLen = tileLen;
        this->tilesPerPlane = tilesPerPlane;
        this->negSlope = negSlope;
        tileBegin = GetBlockIdx() * tilesPerCore;
        tileEnd = tileBegin + tilesPerCore < totalTiles ? tileBegin + tilesPerCore : totalTiles;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        scaleGm.SetGlobalBuffer((__gm__ T*)scale, channels);

        pipe.InitBuffer(inQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(valBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t t = tileBegin; t < tileEnd; ++t) {
            uint64_t plane = t / tilesPerPlane;
            uint32_t inPlane = static_cast<uint32_t>(t % tilesPerPlane) * tileLen;
            uint32_t len = planeSize - inPlane < tileLen ? planeSize - inPlane : tileLen;
            uint64_t offset = plane * planeSize + inPlane;
            float s = ToFloat(scaleGm.GetValue(static_cast<uint32_t>(plane % channels)));
            CopyIn(offset, len);
            Compute(len, s);
            CopyOut(offset, len);
        }
    }

private:
    __aicore__ inline float ToFloat(T v)
    {
        if constexpr (IsSameType<T, float>::value) {
            return v;
        } else {
            return static_cast<float>(v);
        }
    }

    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        LocalTensor<T> xl = inQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[offset], cp, pad);
        inQue.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t len, float s)
    {
        LocalTensor<T> xl = inQue.DeQue<T>();
        LocalTensor<float> v = valBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            Muls(v, xl, s, len);
        } else {
            Cast(v, xl, RoundMode::CAST_NONE, len);
            PipeBarrier<PIPE_V>();
            Muls(v, v, s, len);
        }
        inQue.FreeTensor(xl);
        PipeBarrier<PIPE_V>();
        LeakyRelu(v, v, negSlope, len);
        PipeBarrier<PIPE_V>();
        GeluInplace(v, tmp, len);

        LocalTensor<T> yl = outQue.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(yl, v, (len + 7) / 8 * 8);
        } else {
            Cast(yl, v, RoundMode::CAST_ROUND, len);
        }
        outQue.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        LocalTensor<T> yl = outQue.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[offset], yl, cp);
        outQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> valBuf, tmpBuf;
    GlobalTensor<T> xGm, yGm, scaleGm;
    uint32_t channels, planeSize, tileLen, tilesPerPlane;
    uint64_t tileBegin, tileEnd;
    float negSlope;
};

extern "C" __global__ __aicore__ void channel_scale_leaky_gelu_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        ChannelScaleLeakyGelu<half> op;
        op.Init(x, scale, y, td.channels, td.planeSize, td.tileLen, td.tilesPerPlane,
                td.totalTiles, td.tilesPerCore, td.negSlope);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        ChannelScaleLeakyGelu<float> op;
        op.Init(x, scale, y, td.channels, td.planeSize, td.tileLen, td.tilesPerPlane,
                td.totalTiles, td.tilesPerCore, td.negSlope);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = gelu(leaky_relu(x * scale[c]))
at::Tensor channel_scale_leaky_gelu_impl_npu(const at::Tensor& x, const at::Tensor& scale, double negativeSlope)
{
    at::Tensor xc = x.contiguous();
    at::Tensor s = scale.reshape({-1}).to(x.scalar_type()).contiguous();
    TORCH_CHECK(s.numel() == x.size(1), "scale must hold one value per channel");
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnChannelScaleLeakyGeluCustom, xc, s, negativeSlope, y);
    return y;
}

// conv2d on the cube via aten, then the fused epilogue kernel
at::Tensor conv_scale_leaky_gelu_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                          const at::Tensor& scale)
{
    at::Tensor conv = at::conv2d(x, weight, bias);
    return channel_scale_leaky_gelu_impl_npu(conv, scale, 0.01);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_scale_leaky_gelu_custom", &channel_scale_leaky_gelu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_scale_leaky_gelu_custom", &channel_scale_leaky_gelu_impl_npu,
          "gelu(leaky_relu(x * per-channel scale))");
    m.def("conv_scale_leaky_gelu", &conv_scale_leaky_gelu_impl_npu, "conv2d + scale + leaky_relu + gelu");
}
"""
