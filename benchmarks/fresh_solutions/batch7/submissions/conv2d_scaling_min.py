project_json_src='''
[
    {
        "op": "ScaledChannelMinCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "scale", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledChannelMinTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);        // H * W
  TILING_DATA_FIELD_DEF(uint32_t, spanLen);        // spatial elements per work unit
  TILING_DATA_FIELD_DEF(uint32_t, chanPerLoad);    // channels fetched per DMA
  TILING_DATA_FIELD_DEF(uint32_t, spansPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, spansPerCore);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledChannelMinCustom, ScaledChannelMinTilingData)
}
"""

host_operator_src="""
#include "scaled_channel_min_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t SPAN = 512;                 // floats along H*W per unit
constexpr uint32_t LOAD_BYTES = 64 * 1024;     // one input buffer (double buffered)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint32_t hw = xs.GetDim(2) * xs.GetDim(3);
    float scale = *context->GetAttrs()->GetAttrPointer<float>(0);

    uint32_t span = hw < SPAN ? (hw + 7) / 8 * 8 : SPAN;
    uint32_t chan = LOAD_BYTES / (span * sizeof(float));
    if (chan > c) chan = c;
    if (chan == 0) chan = 1;

    uint32_t spansPerImage = (hw + span - 1) / span;
    uint32_t units = n * spansPerImage;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (units + cores - 1) / cores;
    uint32_t used = (units + perCore - 1) / perCore;

    ScaledChannelMinTilingData td;
    td.set_batch(n);
    td.set_channels(c);
    td.set_spatial(hw);
    td.set_spanLen(span);
    td.set_chanPerLoad(chan);
    td.set_spansPerImage(spansPerImage);
    td.set_spansPerCore(perCore);
    td.set_scale(scale);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, 1);
    ys->SetDim(2, xs->GetDim(2));
    ys->SetDim(3, xs->GetDim(3));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ScaledChannelMinCustom : public OpDef {
public:
    explicit ScaledChannelMinCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale").Float();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaledChannelMinCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// y[n, 0, s] = min_c (scale * x[n, c, s]).
// For a negative scale the order flips, so we reduce with max instead and
// multiply afterwards.  Channels are pulled in groups with one strided DMA
// and folded with a halving tree of vector Min/Max calls.
class ScaledChannelMin {
public:
    __aicore__ inline ScaledChannelMin() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaledChannelMinTilingData& td)
    {
        batch = td.batch;
        channels = td.channels;
        spatial = td.spatial;
        span = td.spanLen;
        chanPerLoad = td.chanPerLoad;
        spansPerImage = td.spansPerImage;
        scale = td.scale;
        useMax = scale < 0.0f;

        uint32_t units = batch * spansPerImage;
        unitLo = GetBlockIdx() * td.spansPerCore;
        unitHi = unitLo + td.spansPerCore;
        if (unitHi > units) unitHi = units;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(inQ, 2, chanPerLoad * span * sizeof(float));
        pipe.InitBuffer(outQ, 2, span * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = unitLo; u < unitHi; ++u) {
            uint32_t img = u / spansPerImage;
            uint32_t s0 = (u % spansPerImage) * span;
            uint32_t len = (spatial - s0) < span ? (spatial - s0) : span;

            LocalTensor<float> best = outQ.AllocTensor<float>();
            for (uint32_t c0 = 0; c0 < channels; c0 += chanPerLoad) {
                uint32_t cnt = (channels - c0) < chanPerLoad ? (channels - c0) : chanPerLoad;
                Fetch(img, c0, s0, cnt, len);
                Fold(best, cnt, len, c0 == 0);
            }
            Muls(best, best, scale, len);
            outQ.EnQue(best);
            Store(img, s0, len);
        }
    }

private:
    __aicore__ inline void Fetch(uint32_t img, uint32_t c0, uint32_t s0, uint32_t cnt, uint32_t len)
    {
        LocalTensor<float> buf = inQ.AllocTensor<float>();
        uint32_t lenAligned = (len + 7) / 8 * 8;
        DataCopyExtParams cp{(uint16_t)cnt, (uint32_t)(len * sizeof(float)),
                             (uint32_t)((spatial - len) * sizeof(float)),
                             (uint32_t)((span - lenAligned) / 8), 0};
        DataCopyPadExtParams<float> nopad{false, 0, 0, 0.0f};
        uint64_t src = ((uint64_t)img * channels + c0) * spatial + s0;
        DataCopyPad(buf, xGm[src], cp, nopad);
        inQ.EnQue(buf);
    }

    __aicore__ inline void Pick(const LocalTensor<float>& dst, const LocalTensor<float>& a,
                                const LocalTensor<float>& b, uint32_t n)
    {
        if (useMax) {
            Max(dst, a, b, n);
        } else {
            Min(dst, a, b, n);
        }
    }

    __aicore__ inline void Fold(LocalTensor<float>& best, uint32_t cnt, uint32_t len, bool firstGroup)
    {
        LocalTensor<float> buf = inQ.DeQue<float>();
        // halving tree: rows [0, half) <- pick(rows [0, half), rows [rows-half, rows))
        uint32_t rows = cnt;
        while (rows > 1) {
            uint32_t half = rows / 2;
            if (len == span) {
                // rows are contiguous at pitch span -> one call covers them all
                Pick(buf, buf, buf[(rows - half) * span], half * span);
            } else {
                for (uint32_t r = 0; r < half; ++r) {
                    Pick(buf[r * span], buf[r * span], buf[(rows - half + r) * span], len);
                }
            }
            rows -= half;
        }
        if (firstGroup) {
            Adds(best, buf, 0.0f, len);
        } else {
            Pick(best, best, buf, len);
        }
        inQ.FreeTensor(buf);
    }

    __aicore__ inline void Store(uint32_t img, uint32_t s0, uint32_t len)
    {
        LocalTensor<float> res = outQ.DeQue<float>();
        DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)img * spatial + s0], res, cp);
        outQ.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<float> xGm, yGm;
    uint32_t batch, channels, spatial, span, chanPerLoad, spansPerImage;
    uint32_t unitLo, unitHi;
    float scale;
    bool useMax;
};

extern "C" __global__ __aicore__ void scaled_channel_min_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ScaledChannelMin op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Convolution runs on the built-in NPU conv; the scale and the channel-wise
// minimum are fused into one custom reduction over the conv output.
at::Tensor conv_scaled_channel_min_npu(const at::Tensor& x, const at::Tensor& weight,
                                       const at::Tensor& bias, double scale)
{
    at::Tensor conv = at::conv2d(x, weight, bias).contiguous();
    at::Tensor y = at::empty({conv.size(0), 1, conv.size(2), conv.size(3)}, conv.options());
    float s = static_cast<float>(scale);
    EXEC_NPU_CMD(aclnnScaledChannelMinCustom, conv, s, y);
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_scaled_channel_min", &conv_scaled_channel_min_npu,
          "conv2d, multiply by scale, min over channels (keepdim)");
}
"""
