project_json_src='''
[
    {
        "op": "ChannelScaleShiftClipCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "scale", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "shift", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "lower", "param_type": "optional", "type": "float", "default_value": "0.0"},
            {"name": "upper", "param_type": "optional", "type": "float", "default_value": "6.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelScaleShiftClipTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);     // H * W
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, planesRemainder);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);         // elements per UB tile, 32B aligned
  TILING_DATA_FIELD_DEF(float, lower);
  TILING_DATA_FIELD_DEF(float, upper);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelScaleShiftClipCustom, ChannelScaleShiftClipTilingData)
}
"""

host_operator_src="""
#include "channel_scale_shift_clip_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_CHUNK = 8192;

struct PlaneSplit {
    uint32_t perCore;
    uint32_t rem;
    uint32_t cores;
};

PlaneSplit SplitPlanes(uint32_t planes, uint32_t coreNum)
{
    PlaneSplit s;
    s.cores = planes < coreNum ? planes : coreNum;
    if (s.cores == 0) {
        s.cores = 1;
    }
    s.perCore = planes / s.cores;
    s.rem = planes % s.cores;
    return s;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ChannelScaleShiftClipTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t plane = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        plane *= static_cast<uint32_t>(shape.GetDim(i));
    }
    PlaneSplit split = SplitPlanes(n * c, platform.GetCoreNumAiv());

    // chunk covers a whole plane when small; rounded up to 16 elements (32B for fp16)
    uint32_t chunk = plane < MAX_CHUNK ? plane : MAX_CHUNK;
    chunk = (chunk + 15) / 16 * 16;

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float lower = *attrs->GetAttrPointer<float>(0);
    float upper = *attrs->GetAttrPointer<float>(1);

    tiling.set_planes(n * c);
    tiling.set_channels(c);
    tiling.set_planeSize(plane);
    tiling.set_planesPerCore(split.perCore);
    tiling.set_planesRemainder(split.rem);
    tiling.set_chunk(chunk);
    tiling.set_lower(lower);
    tiling.set_upper(upper);

    context->SetBlockDim(split.cores);
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
class ChannelScaleShiftClipCustom : public OpDef {
public:
    explicit ChannelScaleShiftClipCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
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
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("lower").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("upper").AttrType(OPTIONAL).Float(6.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ChannelScaleShiftClipCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = clip(x * s + b, lo, hi) on one tile, in the tensor's own precision
template <typename T>
__aicore__ inline void AffineClip(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  float s, float b, float lo, float hi, uint32_t n)
{
    Muls(dst, src, static_cast<T>(s), n);
    Adds(dst, dst, static_cast<T>(b), n);
    Maxs(dst, dst, static_cast<T>(lo), n);
    Mins(dst, dst, static_cast<T>(hi), n);
}

template <typename T>
class ChannelScaleShiftClip {
public:
    __aicore__ inline ChannelScaleShiftClip() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const ChannelScaleShiftClipTilingData& t)
    {
        channels = t.channels;
        planeSize = t.planeSize;
        chunk = t.chunk;
        lo = t.lower;
        hi = t.upper;

        uint32_t idx = GetBlockIdx();
        planeCount = t.planesPerCore + (idx < t.planesRemainder ? 1 : 0);
        firstPlane = idx * t.planesPerCore + (idx < t.planesRemainder ? idx : t.planesRemainder);

        uint64_t total = static_cast<uint64_t>(t.planes) * planeSize;
        xGm.SetGlobalBuffer((__gm__ T*)x, total);
        yGm.SetGlobalBuffer((__gm__ T*)y, total);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, channels);
        shiftGm.SetGlobalBuffer((__gm__ float*)shift, channels);

        pipe.InitBuffer(inQ, BUFFER_NUM, chunk * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, chunk * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < planeCount; ++p) {
            uint32_t plane = firstPlane + p;
            uint32_t ch = plane % channels;
            float s = scaleGm.GetValue(ch);
            float b = shiftGm.GetValue(ch);
            uint64_t base = static_cast<uint64_t>(plane) * planeSize;
            for (uint32_t off = 0; off < planeSize; off += chunk) {
                uint32_t len = (planeSize - off) < chunk ? (planeSize - off) : chunk;
                Load(base + off, len);
                Apply(s, b, len);
                Store(base + off, len);
            }
        }
    }

private:
    __aicore__ inline void Load(uint64_t pos, uint32_t len)
    {
        LocalTensor<T> buf = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(buf, xGm[pos], cp, pad);
        inQ.EnQue(buf);
    }

    __aicore__ inline void Apply(float s, float b, uint32_t len)
    {
        LocalTensor<T> src = inQ.DeQue<T>();
        LocalTensor<T> dst = outQ.AllocTensor<T>();
        constexpr uint32_t perBlock = 32 / sizeof(T);
        uint32_t n = (len + perBlock - 1) / perBlock * perBlock;
        AffineClip<T>(dst, src, s, b, lo, hi, n);
        outQ.EnQue(dst);
        inQ.FreeTensor(src);
    }

    __aicore__ inline void Store(uint64_t pos, uint32_t len)
    {
        LocalTensor<T> dst = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[pos], dst, cp);
        outQ.FreeTensor(dst);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> scaleGm, shiftGm;
    uint32_t channels = 0, planeSize = 0, chunk = 0, planeCount = 0, firstPlane = 0;
    float lo = 0.0f, hi = 6.0f;
};

extern "C" __global__ __aicore__ void channel_scale_shift_clip_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift,
                                                                      GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ChannelScaleShiftClip<DTYPE_X> op;
    op.Init(x, scale, shift, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <limits>
#include <vector>

// Per-channel affine + clip kernel; BN (and ReLU / ReLU6 / identity) collapse into it.
at::Tensor channel_scale_shift_clip_impl_npu(const at::Tensor& x, const at::Tensor& scale,
                                             const at::Tensor& shift, double lower, double upper)
{
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty_like(xc);
    at::Tensor s = scale.to(at::kFloat).contiguous();
    at::Tensor b = shift.to(at::kFloat).contiguous();
    EXEC_NPU_CMD(aclnnChannelScaleShiftClipCustom, xc, s, b, lower, upper, result);
    return result;
}

namespace {
constexpr double kEps = 1e-5;
constexpr double kInf = std::numeric_limits<float>::max();

// Fold BN into scale/shift.  In training mode the batch statistics are used (biased var),
// matching nn.BatchNorm2d's forward in train().
std::pair<at::Tensor, at::Tensor> FoldBn(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                                         const at::Tensor& runMean, const at::Tensor& runVar, bool training)
{
    at::Tensor mean, var;
    if (training) {
        auto vm = at::var_mean(x.to(at::kFloat), {0, 2, 3}, /*unbiased=*/false, /*keepdim=*/false);
        var = std::get<0>(vm);
        mean = std::get<1>(vm);
    } else {
        mean = runMean.to(at::kFloat);
        var = runVar.to(at::kFloat);
    }
    at::Tensor scale = gamma.to(at::kFloat) * at::rsqrt(var + kEps);
    at::Tensor shift = beta.to(at::kFloat) - mean * scale;
    return {scale, shift};
}

struct ParamCursor {
    const std::vector<at::Tensor>& p;
    size_t i = 0;
    explicit ParamCursor(const std::vector<at::Tensor>& v) : p(v) {}
    const at::Tensor& next() { return p.at(i++); }
};

at::Tensor ConvBnAct(const at::Tensor& x, ParamCursor& cur, int64_t stride, int64_t pad, int64_t groups,
                     double lo, double hi, bool training)
{
    const at::Tensor& w = cur.next();
    const at::Tensor& g = cur.next();
    const at::Tensor& b = cur.next();
    const at::Tensor& rm = cur.next();
    const at::Tensor& rv = cur.next();
    at::Tensor y = at::conv2d(x, w, {}, {stride, stride}, {pad, pad}, {1, 1}, groups);
    auto sb = FoldBn(y, g, b, rm, rv, training);
    return channel_scale_shift_clip_impl_npu(y, sb.first, sb.second, lo, hi);
}

struct MbSpec { int64_t cin, cout, k, stride, expand; };
const MbSpec kBlocks[] = {
    {32, 16, 3, 1, 1}, {16, 24, 3, 2, 6}, {24, 24, 3, 1, 6}, {24, 40, 5, 2, 6}, {40, 40, 5, 1, 6},
    {40, 80, 3, 2, 6}, {80, 80, 3, 1, 6}, {80, 112, 5, 1, 6}, {112, 112, 5, 1, 6},
    {112, 192, 5, 2, 6}, {192, 192, 5, 1, 6}, {192, 192, 5, 1, 6}, {192, 320, 3, 1, 6},
};
}

// params: conv1.w, bn1{w,b,rm,rv}; per block [expand.w, bn{4}]? dw.w, bn{4}, proj.w, bn{4};
//         conv2.w, bn2{4}, fc.w, fc.b
at::Tensor efficient_scaled_cnn_forward_npu(const at::Tensor& x, const std::vector<at::Tensor>& params,
                                            bool training)
{
    ParamCursor cur(params);
    at::Tensor h = ConvBnAct(x, cur, 2, 1, 1, 0.0, kInf, training);
    for (const MbSpec& s : kBlocks) {
        at::Tensor identity = h;
        int64_t hidden = s.cin * s.expand;
        if (s.expand != 1) {
            h = ConvBnAct(h, cur, 1, 0, 1, 0.0, 6.0, training);
        }
        h = ConvBnAct(h, cur, s.stride, (s.k - 1) / 2, hidden, 0.0, 6.0, training);
        h = ConvBnAct(h, cur, 1, 0, 1, -kInf, kInf, training);
        if (s.stride == 1 && s.cin == s.cout) {
            h = h + identity;
        }
    }
    h = ConvBnAct(h, cur, 1, 0, 1, 0.0, kInf, training);
    h = at::mean(h, {2, 3});
    const at::Tensor& fcW = cur.next();
    const at::Tensor& fcB = cur.next();
    return at::addmm(fcB, h, fcW.t());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_scale_shift_clip_custom", &channel_scale_shift_clip_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_scale_shift_clip_custom", &channel_scale_shift_clip_impl_npu,
          "clip(x * scale[c] + shift[c], lower, upper)");
    m.def("efficient_scaled_cnn_forward", &efficient_scaled_cnn_forward_npu,
          "EfficientNet-B0 forward with fused BN/activation kernels");
}
"""
