project_json_src='''
[
    {
        "op": "ChannelAffineReluCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "feat",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "scale",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float"]
            },
            {
                "name": "shift",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float"]
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
            {
                "name": "channels",
                "param_type": "required",
                "type": "int"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelAffineReluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, srcChannels);   // channel count of the (wider) source buffer
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // leading channels that are normalised
  TILING_DATA_FIELD_DEF(uint32_t, spatial);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, totalPlanes);   // batch * channels
  TILING_DATA_FIELD_DEF(uint32_t, basePlanes);    // planes per core ...
  TILING_DATA_FIELD_DEF(uint32_t, extraPlanes);   // ... and the first extraPlanes cores take one more
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelAffineReluCustom, ChannelAffineReluTilingData)
}
"""

host_operator_src="""
#include "channel_affine_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& fs = context->GetInputShape(0)->GetOriginShape();   // [N, Csrc, H, W]
    if (fs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = fs.GetDim(0);
    uint32_t csrc = fs.GetDim(1);
    uint32_t hw = fs.GetDim(2) * fs.GetDim(3);
    uint32_t ch = static_cast<uint32_t>(*context->GetAttrs()->GetInt(0));
    if (ch == 0 || ch > csrc) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t planes = n * ch;
    uint32_t used = planes < cores ? planes : cores;

    ChannelAffineReluTilingData td;
    td.set_srcChannels(csrc);
    td.set_channels(ch);
    td.set_spatial(hw);
    td.set_tileLen(hw < TILE_ELEMS ? (hw + 15) / 16 * 16 : TILE_ELEMS);
    td.set_totalPlanes(planes);
    td.set_basePlanes(planes / used);
    td.set_extraPlanes(planes % used);

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
    const gert::Shape* fs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *fs;
    ys->SetDim(1, *context->GetAttrs()->GetInt(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelAffineReluCustom : public OpDef {
public:
    explicit ChannelAffineReluCustom(const char* name) : OpDef(name)
    {
        this->Input("feat").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("channels").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelAffineReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Range of (n, c) planes owned by this core: balanced split, first `extra` cores take one more.
struct PlaneRange {
    uint32_t first;
    uint32_t count;
};

__aicore__ inline PlaneRange SplitPlanes(uint32_t base, uint32_t extra, uint32_t core)
{
    PlaneRange r;
    if (core < extra) {
        r.count = base + 1;
        r.first = core * (base + 1);
    } else {
        r.count = base;
        r.first = extra * (base + 1) + (core - extra) * base;
    }
    return r;
}

// y[n, c] = relu(feat[n, c] * scale[c] + shift[c]) for c < channels; feat may carry more
// channels than are read (dense-block concat buffer), so source planes are addressed with srcChannels.
template <typename T>
class ChannelAffineRelu {
public:
    __aicore__ inline ChannelAffineRelu() {}

    __aicore__ inline void Init(GM_ADDR feat, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const ChannelAffineReluTilingData& td)
    {
        srcC = td.srcChannels;
        dstC = td.channels;
        hw = td.spatial;
        tile = td.tileLen;
        range = SplitPlanes(td.basePlanes, td.extraPlanes, GetBlockIdx());

        uint64_t batch = td.totalPlanes / dstC;
        fGm.SetGlobalBuffer((__gm__ T*)feat, batch * srcC * hw);
        yGm.SetGlobalBuffer((__gm__ T*)y, batch * dstC * hw);
        scGm.SetGlobalBuffer((__gm__ float*)scale, dstC);
        shGm.SetGlobalBuffer((__gm__ float*)shift, dstC);

        pipe.InitBuffer(inQ, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tile * sizeof(T));
        if constexpr (!std::is_same<T, float>::value) {
            pipe.InitBuffer(wideBuf, tile * sizeof(float));   // fp32 staging for half input
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = range.first; p < range.first + range.count; ++p) {
            uint32_t n = p / dstC;
            uint32_t c = p % dstC;
            float a = scGm.GetValue(c);
            float b = shGm.GetValue(c);
            uint64_t src = ((uint64_t)n * srcC + c) * hw;
            uint64_t dst = ((uint64_t)n * dstC + c) * hw;
            for (uint32_t off = 0; off < hw; off += tile) {
                uint32_t len = off + tile <= hw ? tile : hw - off;
                CopyIn(src + off, len);
                Compute(a, b, len);
                CopyOut(dst + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<T> x = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(x, fGm[off], cp, pad);
        inQ.EnQue(x);
    }

    __aicore__ inline void Compute(float a, float b, uint32_t len)
    {
        LocalTensor<T> x = inQ.DeQue<T>();
        LocalTensor<T> y = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            Muls(y, x, a, len);
            Adds(y, y, b, len);
            Relu(y, y, len);
        } else {
            LocalTensor<float> w = wideBuf.Get<float>();
            Cast(w, x, RoundMode::CAST_NONE, len);
            Muls(w, w, a, len);
            Adds(w, w, b, len);
            Relu(w, w, len);
            Cast(y, w, RoundMode::CAST_ROUND, len);
        }
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<T> y = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], y, cp);
        outQ.FreeTensor(y);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> wideBuf;
    GlobalTensor<T> fGm, yGm;
    GlobalTensor<float> scGm, shGm;
    PlaneRange range;
    uint32_t srcC = 0, dstC = 0, hw = 0, tile = 0;
};

extern "C" __global__ __aicore__ void channel_affine_relu_custom(GM_ADDR feat, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ChannelAffineRelu<DTYPE_FEAT> op;
    op.Init(feat, scale, shift, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// relu(feat[:, :channels] * scale + shift), reading straight from the wider concat buffer
at::Tensor channel_affine_relu_impl_npu(const at::Tensor& feat, const at::Tensor& scale,
                                        const at::Tensor& shift, int64_t channels)
{
    at::Tensor f = feat.contiguous();
    at::Tensor s = scale.to(at::kFloat).contiguous();
    at::Tensor b = shift.to(at::kFloat).contiguous();
    at::Tensor y = at::empty({f.size(0), channels, f.size(2), f.size(3)}, f.options());
    EXEC_NPU_CMD(aclnnChannelAffineReluCustom, f, s, b, channels, y);
    return y;
}

// params per layer: bn_weight, bn_bias, running_mean, running_var, conv_weight
at::Tensor dense_block_forward_npu(const at::Tensor& x, const std::vector<at::Tensor>& params,
                                   int64_t growth_rate, bool training, double eps)
{
    TORCH_CHECK(params.size() % 5 == 0, "expected 5 tensors per layer");
    int64_t layers = static_cast<int64_t>(params.size() / 5);
    int64_t c0 = x.size(1);
    int64_t ctot = c0 + layers * growth_rate;

    // one preallocated buffer replaces the repeated torch.cat of the reference
    at::Tensor buf = at::empty({x.size(0), ctot, x.size(2), x.size(3)}, x.options());
    buf.narrow(1, 0, c0).copy_(x);

    for (int64_t i = 0; i < layers; ++i) {
        const at::Tensor& gamma = params[i * 5];
        const at::Tensor& beta = params[i * 5 + 1];
        const at::Tensor& weight = params[i * 5 + 4];
        int64_t cin = c0 + i * growth_rate;

        at::Tensor mean, var;
        if (training) {
            at::Tensor view = buf.narrow(1, 0, cin).to(at::kFloat);
            auto vm = at::var_mean(view, {0, 2, 3}, /*unbiased=*/false);
            var = std::get<0>(vm);
            mean = std::get<1>(vm);
        } else {
            mean = params[i * 5 + 2].to(at::kFloat);
            var = params[i * 5 + 3].to(at::kFloat);
        }
        at::Tensor scale = gamma.to(at::kFloat) * at::rsqrt(var + eps);
        at::Tensor shift = beta.to(at::kFloat) - mean * scale;

        at::Tensor act = channel_affine_relu_impl_npu(buf, scale, shift, cin);
        at::Tensor fresh = at::conv2d(act, weight, {}, {1, 1}, {1, 1});
        buf.narrow(1, cin, growth_rate).copy_(fresh);
    }
    return buf;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_affine_relu_custom", &channel_affine_relu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_affine_relu_custom", &channel_affine_relu_impl_npu, "per-channel affine + relu");
    m.def("dense_block_forward", &dense_block_forward_npu, "DenseNet dense block",
          pybind11::arg("x"), pybind11::arg("params"), pybind11::arg("growth_rate"),
          pybind11::arg("training") = true, pybind11::arg("eps") = 1e-5);
}
"""
