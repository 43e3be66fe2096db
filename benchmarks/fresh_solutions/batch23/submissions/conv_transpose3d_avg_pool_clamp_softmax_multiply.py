project_json_src = '''
[
    {
        "op": "BoundedVolumeSoftmaxScaleCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "scale", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "lower", "param_type": "required", "type": "float"},
            {"name": "upper", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BoundedVolumeSoftmaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, volumes);       // batch * channels rows
  TILING_DATA_FIELD_DEF(uint32_t, voxels);        // D * H * W per row
  TILING_DATA_FIELD_DEF(uint32_t, volPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, volRemain);
  TILING_DATA_FIELD_DEF(uint32_t, blockLen);
  TILING_DATA_FIELD_DEF(uint32_t, needMaxPass);   // 0: upper bound is a safe softmax shift
  TILING_DATA_FIELD_DEF(float, lower);
  TILING_DATA_FIELD_DEF(float, upper);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BoundedVolumeSoftmaxScaleCustom, BoundedVolumeSoftmaxTilingData)
}
"""

host_operator_src = """
#include "bounded_volume_softmax_scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// exp(lower - upper) must stay well inside fp32 range for the shortcut shift
constexpr float kSafeSpan = 60.0f;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() < 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t b = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint32_t vox = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        vox *= xs.GetDim(i);
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    float lo = *attrs->GetAttrPointer<float>(0);
    float hi = *attrs->GetAttrPointer<float>(1);

    // 2 in + 2 out queue slots, fp32 work, fp32 reduce scratch
    uint64_t blk = (ub - 4096) / (6 * sizeof(float));
    blk = blk / 64 * 64;
    uint32_t voxAligned = (vox + 63) / 64 * 64;
    uint32_t blockLen = static_cast<uint32_t>(blk < voxAligned ? blk : voxAligned);

    uint32_t rows = b * c;
    uint32_t used = rows < cores ? rows : cores;
    used = used == 0 ? 1 : used;

    BoundedVolumeSoftmaxTilingData td;
    td.set_channels(c);
    td.set_volumes(rows);
    td.set_voxels(vox);
    td.set_volPerCore(rows / used);
    td.set_volRemain(rows % used);
    td.set_blockLen(blockLen);
    td.set_needMaxPass((hi - lo) > kSafeSpan ? 1 : 0);
    td.set_lower(lo);
    td.set_upper(hi);

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class BoundedVolumeSoftmaxScaleCustom : public OpDef {
public:
    explicit BoundedVolumeSoftmaxScaleCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("lower").Float();
        this->Attr("upper").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BoundedVolumeSoftmaxScaleCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_BIG = -3.0e38f;

namespace vol {
__aicore__ inline void Lift(const LocalTensor<float> &d, const LocalTensor<half> &s, uint32_t n)
{
    Cast(d, s, RoundMode::CAST_NONE, n);
}
__aicore__ inline void Lift(const LocalTensor<float> &d, const LocalTensor<float> &s, uint32_t n)
{
    Adds(d, s, 0.0f, n);
}
__aicore__ inline void Drop(const LocalTensor<half> &d, const LocalTensor<float> &s, uint32_t n)
{
    Cast(d, s, RoundMode::CAST_ROUND, n);
}
__aicore__ inline void Drop(const LocalTensor<float> &d, const LocalTensor<float> &s, uint32_t n)
{
    Adds(d, s, 0.0f, n);
}
}  // namespace vol

template <typename T>
class BoundedVolumeSoftmax {
public:
    __aicore__ inline BoundedVolumeSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR y, const BoundedVolumeSoftmaxTilingData &td)
    {
        td_ = td;
        uint32_t id = GetBlockIdx();
        volBegin_ = id * td.volPerCore + (id < td.volRemain ? id : td.volRemain);
        volEnd_ = volBegin_ + td.volPerCore + (id < td.volRemain ? 1 : 0);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        scaleGm_.SetGlobalBuffer((__gm__ float *)scale, td.channels);

        pipe_.InitBuffer(qIn_, BUFFER_NUM, td.blockLen * sizeof(T));
        pipe_.InitBuffer(qOut_, BUFFER_NUM, td.blockLen * sizeof(T));
        pipe_.InitBuffer(fp32Buf_, td.blockLen * sizeof(float));
        pipe_.InitBuffer(reduceBuf_, td.blockLen * sizeof(float));
        pipe_.InitBuffer(scalarBuf_, 16 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t v = volBegin_; v < volEnd_; ++v) {
            uint64_t base = static_cast<uint64_t>(v) * td_.voxels;
            float gain = scaleGm_.GetValue(v % td_.channels);
            // values are clamped to [lower, upper], so upper is a valid softmax shift
            float shift = td_.needMaxPass ? MaxPass(base) : td_.upper;
            float denom = SumPass(base, shift);
            WritePass(base, shift, gain / denom);
        }
    }

private:
    __aicore__ inline uint32_t Span(uint32_t off) const
    {
        uint32_t left = td_.voxels - off;
        return left < td_.blockLen ? left : td_.blockLen;
    }

    __aicore__ inline void Pull(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = qIn_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(t, xGm_[off], cp, pad);
        qIn_.EnQue(t);
    }

    // dequeue -> fp32 -> clamp
    __aicore__ inline LocalTensor<float> Clamped(uint32_t len)
    {
        LocalTensor<T> t = qIn_.DeQue<T>();
        LocalTensor<float> f = fp32Buf_.Get<float>();
        vol::Lift(f, t, len);
        qIn_.FreeTensor(t);
        Maxs(f, f, td_.lower, len);
        Mins(f, f, td_.upper, len);
        return f;
    }

    __aicore__ inline float Scalar0(const LocalTensor<float> &t)
    {
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return t.GetValue(0);
    }

    __aicore__ inline float MaxPass(uint64_t base)
    {
        LocalTensor<float> red = reduceBuf_.Get<float>();
        LocalTensor<float> sc = scalarBuf_.Get<float>();
        float best = NEG_BIG;
        for (uint32_t off = 0; off < td_.voxels; off += td_.blockLen) {
            uint32_t len = Span(off);
            Pull(base + off, len);
            LocalTensor<float> f = Clamped(len);
            ReduceMax(sc, f, red, len, false);
            float m = Scalar0(sc);
            best = m > best ? m : best;
        }
        return best;
    }

    __aicore__ inline float SumPass(uint64_t base, float shift)
    {
        LocalTensor<float> red = reduceBuf_.Get<float>();
        LocalTensor<float> sc = scalarBuf_.Get<float>();
        float acc = 0.0f;
        for (uint32_t off = 0; off < td_.voxels; off += td_.blockLen) {
            uint32_t len = Span(off);
            Pull(base + off, len);
            LocalTensor<float> f = Clamped(len);
            Adds(f, f, -shift, len);
            Exp(f, f, len);
            ReduceSum(sc, f, red, len);
            acc += Scalar0(sc);
        }
        return acc;
    }

    __aicore__ inline void WritePass(uint64_t base, float shift, float factor)
    {
        for (uint32_t off = 0; off < td_.voxels; off += td_.blockLen) {
            uint32_t len = Span(off);
            Pull(base + off, len);
            LocalTensor<float> f = Clamped(len);
            Adds(f, f, -shift, len);
            Exp(f, f, len);
            Muls(f, f, factor, len);   // 1/sum and per-channel scale in one multiply
            LocalTensor<T> o = qOut_.AllocTensor<T>();
            vol::Drop(o, f, len);
            qOut_.EnQue(o);

            LocalTensor<T> r = qOut_.DeQue<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm_[base + off], r, cp);
            qOut_.FreeTensor(r);
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> qIn_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qOut_;
    TBuf<TPosition::VECCALC> fp32Buf_, reduceBuf_, scalarBuf_;
    GlobalTensor<T> xGm_, yGm_;
    GlobalTensor<float> scaleGm_;
    BoundedVolumeSoftmaxTilingData td_;
    uint32_t volBegin_ = 0;
    uint32_t volEnd_ = 0;
};

extern "C" __global__ __aicore__ void bounded_volume_softmax_scale_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR y,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        BoundedVolumeSoftmax<half> k;
        k.Init(x, scale, y, td);
        k.Process();
    } else if (TILING_KEY_IS(0)) {
        BoundedVolumeSoftmax<float> k;
        k.Init(x, scale, y, td);
        k.Process();
    }
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// softmax(clamp(x, lower, upper)) over all spatial positions of each (b, c), times scale[c]
at::Tensor bounded_volume_softmax_scale_impl_npu(const at::Tensor &x, const at::Tensor &scale,
                                                 double lower, double upper)
{
    at::Tensor xc = x.contiguous();
    at::Tensor s = scale.reshape({-1}).to(at::kFloat).contiguous();
    TORCH_CHECK(s.numel() == x.size(1), "scale must hold one value per channel");
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnBoundedVolumeSoftmaxScaleCustom, xc, s, lower, upper, y);
    return y;
}

// avg_pool3d -> conv_transpose3d (aten) -> fused clamp/softmax/scale kernel
at::Tensor pool_deconv_softmax_forward(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &bias,
                                       const at::Tensor &scale, int64_t poolK, int64_t stride, int64_t padding,
                                       int64_t outputPadding, double lower, double upper)
{
    at::Tensor pooled = at::avg_pool3d(x, {poolK, poolK, poolK});
    at::Tensor deconv = at::conv_transpose3d(pooled, weight, bias, {stride, stride, stride},
                                             {padding, padding, padding},
                                             {outputPadding, outputPadding, outputPadding});
    return bounded_volume_softmax_scale_impl_npu(deconv, scale, lower, upper);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bounded_volume_softmax_scale_custom", &bounded_volume_softmax_scale_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bounded_volume_softmax_scale_custom", &bounded_volume_softmax_scale_impl_npu,
          "spatial softmax of clamped input times per-channel scale");
    m.def("pool_deconv_softmax_forward", &pool_deconv_softmax_forward,
          "avg_pool3d + conv_transpose3d + clamp + softmax + scale");
}
"""
