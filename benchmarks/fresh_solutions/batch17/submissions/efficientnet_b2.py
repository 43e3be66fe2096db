project_json_src='''
[
    {
        "op": "ChannelAffineActCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "scale", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "shift", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "with_relu", "param_type": "optional", "type": "bool", "default_value": "true"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelAffineActTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeLen);      // H * W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, withRelu);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelAffineActCustom, ChannelAffineActTilingData)
}
"""

host_operator_src="""
#include "channel_affine_act_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0);
    uint32_t c = s.GetDim(1);
    uint32_t planeLen = 1;
    for (size_t i = 2; i < s.GetDimNum(); ++i) planeLen *= s.GetDim(i);
    const bool* relu = context->GetAttrs()->GetAttrPointer<bool>(0);

    uint32_t planes = n * c;
    uint32_t tile = planeLen < MAX_TILE ? planeLen : MAX_TILE;
    tile = (tile + 15) / 16 * 16;
    uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t per = (planes + cores - 1) / cores;

    ChannelAffineActTilingData td;
    td.set_planes(planes);
    td.set_channels(c);
    td.set_planeLen(planeLen);
    td.set_tileLen(tile);
    td.set_planesPerCore(per);
    td.set_withRelu(*relu ? 1 : 0);

    context->SetBlockDim((planes + per - 1) / per);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelAffineActCustom : public OpDef {
public:
    explicit ChannelAffineActCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
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
        this->Attr("with_relu").AttrType(OPTIONAL).Bool(true);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelAffineActCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = act(x * scale[c] + shift[c]) over NC(HW) data; one (n, c) plane at a time so the
// per-channel coefficients are scalars for the whole plane.
template <typename T>
class ChannelAffineAct {
public:
    __aicore__ inline ChannelAffineAct() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const ChannelAffineActTilingData& td)
    {
        td_ = td;
        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)td.planes * td.planeLen);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)td.planes * td.planeLen);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, td.channels);
        shiftGm.SetGlobalBuffer((__gm__ float*)shift, td.channels);
        pipe.InitBuffer(inQ, BUFFER_NUM, td.tileLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, td.tileLen * sizeof(T));
        pipe.InitBuffer(f32Buf, td.tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t p0 = AscendC::GetBlockIdx() * td_.planesPerCore;
        uint32_t p1 = p0 + td_.planesPerCore;
        if (p1 > td_.planes) p1 = td_.planes;
        for (uint32_t p = p0; p < p1; ++p) {
            uint32_t c = p % td_.channels;
            float a = scaleGm.GetValue(c);
            float b = shiftGm.GetValue(c);
            uint64_t base = (uint64_t)p * td_.planeLen;
            for (uint32_t off = 0; off < td_.planeLen; off += td_.tileLen) {
                uint32_t len = td_.planeLen - off < td_.tileLen ? td_.planeLen - off : td_.tileLen;
                Load(base + off, len);
                Apply(a, b, len);
                Store(base + off, len);
            }
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<T> t = inQ.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        AscendC::DataCopyPad(t, xGm[off], cp, pad);
        inQ.EnQue(t);
    }

    __aicore__ inline void Apply(float a, float b, uint32_t len)
    {
        AscendC::LocalTensor<T> xt = inQ.DeQue<T>();
        AscendC::LocalTensor<T> yt = outQ.AllocTensor<T>();
        uint32_t n = (len + 15) / 16 * 16;   // whole 32B blocks for both widths
        if constexpr (AscendC::IsSameType<T, float>::value) {
            AscendC::Muls(yt, xt, a, n);
            AscendC::Adds(yt, yt, b, n);
            if (td_.withRelu) AscendC::Relu(yt, yt, n);
        } else {
            AscendC::LocalTensor<float> f = f32Buf.Get<float>();
            AscendC::Cast(f, xt, AscendC::RoundMode::CAST_NONE, n);
            AscendC::Muls(f, f, a, n);
            AscendC::Adds(f, f, b, n);
            if (td_.withRelu) AscendC::Relu(f, f, n);
            AscendC::Cast(yt, f, AscendC::RoundMode::CAST_ROUND, n);
        }
        outQ.EnQue(yt);
        inQ.FreeTensor(xt);
    }

    __aicore__ inline void Store(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<T> yt = outQ.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yt, cp);
        outQ.FreeTensor(yt);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> f32Buf;
    AscendC::GlobalTensor<T> xGm, yGm;
    AscendC::GlobalTensor<float> scaleGm, shiftGm;
    ChannelAffineActTilingData td_;
};

extern "C" __global__ __aicore__ void channel_affine_act_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ChannelAffineAct<float> op;
        op.Init(x, scale, shift, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ChannelAffineAct<half> op;
        op.Init(x, scale, shift, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// Fused BatchNorm (folded to per-channel scale/shift) + optional ReLU on the NPU kernel.
static at::Tensor channel_affine_act(const at::Tensor& x, const at::Tensor& scale, const at::Tensor& shift,
                                     bool withRelu)
{
    at::Tensor xc = x.contiguous();
    at::Tensor a = scale.to(at::kFloat).contiguous();
    at::Tensor b = shift.to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnChannelAffineActCustom, xc, a, b, withRelu, y);
    return y;
}

// Cursor over the flat parameter list (model.state_dict() order, num_batches_tracked removed).
struct ParamCursor {
    const std::vector<at::Tensor>& p;
    size_t i = 0;
    explicit ParamCursor(const std::vector<at::Tensor>& v) : p(v) {}
    const at::Tensor& next() { TORCH_CHECK(i < p.size(), "parameter list too short"); return p[i++]; }
};

static at::Tensor bn_act(const at::Tensor& x, ParamCursor& pc, bool training, bool relu)
{
    const at::Tensor& gamma = pc.next();
    const at::Tensor& beta = pc.next();
    const at::Tensor& runMean = pc.next();
    const at::Tensor& runVar = pc.next();
    at::Tensor mean, var;
    if (training) {
        auto vm = at::var_mean(x, {0, 2, 3}, /*correction=*/0, /*keepdim=*/false);
        var = std::get<0>(vm);
        mean = std::get<1>(vm);
    } else {
        mean = runMean;
        var = runVar;
    }
    at::Tensor scale = gamma / at::sqrt(var + 1e-5);
    at::Tensor shift = beta - mean * scale;
    return channel_affine_act(x, scale, shift, relu);
}

static at::Tensor mbconv(at::Tensor x, ParamCursor& pc, int64_t stride, bool expand, bool training)
{
    if (expand) {
        x = at::conv2d(x, pc.next());
        x = bn_act(x, pc, training, true);
    }
    const at::Tensor& dw = pc.next();
    x = at::conv2d(x, dw, {}, {stride, stride}, {1, 1}, {1, 1}, dw.size(0));
    x = bn_act(x, pc, training, true);
    // squeeze-excitation stack exactly as the reference Sequential (it replaces the features)
    x = at::adaptive_avg_pool2d(x, {1, 1});
    x = at::relu(at::conv2d(x, pc.next()));
    x = at::sigmoid(at::conv2d(x, pc.next()));
    x = at::conv2d(x, pc.next());
    return bn_act(x, pc, training, false);
}

at::Tensor efficientnet_b2_forward_npu(const at::Tensor& input, const std::vector<at::Tensor>& params, bool training)
{
    ParamCursor pc(params);
    at::Tensor x = at::conv2d(input, pc.next(), {}, {2, 2}, {1, 1});
    x = bn_act(x, pc, training, true);

    const int64_t strides[5] = {1, 2, 2, 2, 1};
    const bool expands[5] = {false, true, true, true, true};
    for (int i = 0; i < 5; ++i) {
        x = mbconv(x, pc, strides[i], expands[i], training);
    }

    x = at::conv2d(x, pc.next());
    x = bn_act(x, pc, training, true);
    x = at::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
    const at::Tensor& fcW = pc.next();
    const at::Tensor& fcB = pc.next();
    return at::linear(x, fcW, fcB);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_affine_act_custom", &channel_affine_act);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_affine_act_custom", &channel_affine_act, "per-channel scale/shift + optional ReLU");
    m.def("efficientnet_b2_forward", &efficientnet_b2_forward_npu, "EfficientNet-B2 forward (BN+ReLU fused on NPU)",
          pybind11::arg("x"), pybind11::arg("params"), pybind11::arg("training") = true);
}
"""
