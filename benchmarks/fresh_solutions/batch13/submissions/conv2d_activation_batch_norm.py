project_json_src='''
[
    {
        "op": "MishBatchStatNormCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "gamma",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float"]
            },
            {
                "name": "beta",
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
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MishBatchStatNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, chBase);
  TILING_DATA_FIELD_DEF(uint32_t, chExtra);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MishBatchStatNormCustom, MishBatchStatNormTilingData)
}
"""

host_operator_src="""
#include "mish_batch_stat_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t TILE_CAP = 4096;   // fp32 elements; 4 scratch tiles + 4 I/O slots = 128 KiB of UB

uint32_t TileFor(uint32_t plane)
{
    uint32_t t = plane < TILE_CAP ? plane : TILE_CAP;
    return (t + 15) / 16 * 16;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MishBatchStatNormTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    uint32_t n = s.GetDim(0);
    uint32_t c = s.GetDim(1);
    uint32_t plane = 1;
    for (size_t i = 2; i < s.GetDimNum(); ++i) {
        plane *= static_cast<uint32_t>(s.GetDim(i));
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores > c ? c : cores;
    cores = cores == 0 ? 1 : cores;

    td.set_batch(n);
    td.set_channels(c);
    td.set_planeSize(plane);
    td.set_tileLen(TileFor(plane));
    td.set_chBase(c / cores);
    td.set_chExtra(c % cores);
    td.set_eps(*context->GetAttrs()->GetAttrPointer<float>(0));

    context->SetBlockDim(cores);
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class MishBatchStatNormCustom : public OpDef {
public:
    explicit MishBatchStatNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MishBatchStatNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float EXP_CLIP = 20.0f;   // tanh(softplus(v)) == 1 in fp32 beyond this, and keeps exp finite

template <HardEvent EV>
__aicore__ inline void HwSync()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
    SetFlag<EV>(e);
    WaitFlag<EV>(e);
}

// v * tanh(softplus(v)); with u = (1 + e^v)^2, tanh(log(1 + e^v)) = (u - 1) / (u + 1)
struct MishMath {
    __aicore__ static inline void Apply(const LocalTensor<float>& dst, const LocalTensor<float>& v,
                                        const LocalTensor<float>& t0, const LocalTensor<float>& t1, uint32_t n)
    {
        Mins(t0, v, EXP_CLIP, n);
        Exp(t0, t0, n);
        Adds(t0, t0, 1.0f, n);
        Mul(t0, t0, t0, n);
        Adds(t1, t0, 1.0f, n);
        Adds(t0, t0, -1.0f, n);
        Div(t0, t0, t1, n);
        Mul(dst, t0, v, n);
    }
};

// Training-mode BatchNorm over mish(x): each core owns whole channels, so batch statistics
// need no cross-core reduction. Pass 1 writes mish(x) to y and accumulates moments,
// pass 2 rescales y in place.
template <typename T>
class MishBatchStatNorm {
public:
    __aicore__ inline MishBatchStatNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const MishBatchStatNormTilingData& td)
    {
        td_ = td;
        uint32_t idx = GetBlockIdx();
        chCount_ = td.chBase + (idx < td.chExtra ? 1 : 0);
        chBegin_ = idx * td.chBase + (idx < td.chExtra ? idx : td.chExtra);
        xGm_.SetGlobalBuffer((__gm__ T*)x);
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        gammaGm_.SetGlobalBuffer((__gm__ float*)gamma, td.channels);
        betaGm_.SetGlobalBuffer((__gm__ float*)beta, td.channels);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, td.tileLen * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, td.tileLen * sizeof(T));
        pipe_.InitBuffer(valBuf_, td.tileLen * sizeof(float));
        pipe_.InitBuffer(tmp0_, td.tileLen * sizeof(float));
        pipe_.InitBuffer(tmp1_, td.tileLen * sizeof(float));
        pipe_.InitBuffer(workBuf_, td.tileLen * sizeof(float));
        pipe_.InitBuffer(sumBuf_, 32 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        float inv = 1.0f / (static_cast<float>(td_.batch) * static_cast<float>(td_.planeSize));
        for (uint32_t k = 0; k < chCount_; ++k) {
            uint32_t c = chBegin_ + k;
            float s1 = 0.0f, s2 = 0.0f;
            ActivatePass(c, s1, s2);
            float mean = s1 * inv;
            float var = s2 * inv - mean * mean;
            var = var > 0.0f ? var : 0.0f;
            float rstd = InvSqrt(var + td_.eps);
            float a = gammaGm_.GetValue(c) * rstd;
            float b = betaGm_.GetValue(c) - mean * a;
            HwSync<HardEvent::MTE3_MTE2>();   // pass 2 re-reads what pass 1 just stored
            NormalizePass(c, a, b);
            HwSync<HardEvent::MTE3_MTE2>();
        }
    }

private:
    __aicore__ inline uint32_t Tiles() const { return (td_.planeSize + td_.tileLen - 1) / td_.tileLen; }
    __aicore__ inline uint32_t TileN(uint32_t t) const
    {
        uint32_t rem = td_.planeSize - t * td_.tileLen;
        return rem < td_.tileLen ? rem : td_.tileLen;
    }
    __aicore__ inline uint64_t Offset(uint32_t n, uint32_t c, uint32_t t) const
    {
        return ((uint64_t)n * td_.channels + c) * td_.planeSize + (uint64_t)t * td_.tileLen;
    }

    __aicore__ inline float InvSqrt(float v)
    {
        LocalTensor<float> s = sumBuf_.Get<float>();
        HwSync<HardEvent::S_V>();
        Duplicate(s, v, 8);
        Sqrt(s, s, 8);
        Duplicate(s[8], 1.0f, 8);
        Div(s, s[8], s, 8);
        HwSync<HardEvent::V_S>();
        return s.GetValue(0);
    }

    __aicore__ inline void Load(const GlobalTensor<T>& src, uint64_t off, uint32_t n)
    {
        LocalTensor<T> buf = inQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(buf, src[off], cp, pad);
        inQ_.EnQue(buf);
    }

    __aicore__ inline void Widen(const LocalTensor<float>& dst, uint32_t n)
    {
        LocalTensor<T> src = inQ_.DeQue<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(dst, src, (n + 7) / 8 * 8);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, n);
        }
        inQ_.FreeTensor(src);
    }

    __aicore__ inline void Store(const LocalTensor<float>& v, uint64_t off, uint32_t n)
    {
        LocalTensor<T> o = outQ_.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(o, v, (n + 7) / 8 * 8);
        } else {
            Cast(o, v, RoundMode::CAST_ROUND, n);
        }
        outQ_.EnQue(o);
        LocalTensor<T> ov = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[off], ov, cp);
        outQ_.FreeTensor(ov);
    }

    __aicore__ inline void ActivatePass(uint32_t c, float& s1, float& s2)
    {
        LocalTensor<float> v = valBuf_.Get<float>();
        LocalTensor<float> t0 = tmp0_.Get<float>();
        LocalTensor<float> t1 = tmp1_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> sums = sumBuf_.Get<float>();
        for (uint32_t n = 0; n < td_.batch; ++n) {
            for (uint32_t t = 0; t < Tiles(); ++t) {
                uint32_t cnt = TileN(t);
                uint64_t off = Offset(n, c, t);
                Load(xGm_, off, cnt);
                Widen(v, cnt);
                MishMath::Apply(v, v, t0, t1, cnt);
                Store(v, off, cnt);
                Mul(t0, v, v, cnt);
                ReduceSum(sums, v, work, cnt);
                ReduceSum(sums[8], t0, work, cnt);
                HwSync<HardEvent::V_S>();
                s1 += sums.GetValue(0);
                s2 += sums.GetValue(8);
                HwSync<HardEvent::S_V>();
            }
        }
    }

    __aicore__ inline void NormalizePass(uint32_t c, float a, float b)
    {
        LocalTensor<float> v = valBuf_.Get<float>();
        for (uint32_t n = 0; n < td_.batch; ++n) {
            for (uint32_t t = 0; t < Tiles(); ++t) {
                uint32_t cnt = TileN(t);
                uint64_t off = Offset(n, c, t);
                Load(yGm_, off, cnt);
                Widen(v, cnt);
                Muls(v, v, a, cnt);
                Adds(v, v, b, cnt);
                Store(v, off, cnt);
            }
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<QuePosition::VECCALC> valBuf_, tmp0_, tmp1_, workBuf_, sumBuf_;
    GlobalTensor<T> xGm_, yGm_;
    GlobalTensor<float> gammaGm_, betaGm_;
    MishBatchStatNormTilingData td_;
    uint32_t chCount_ = 0, chBegin_ = 0;
};

extern "C" __global__ __aicore__ void mish_batch_stat_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    MishBatchStatNorm<DTYPE_X> op;
    op.Init(x, gamma, beta, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Conv2d on the stock operator; mish + BatchNorm2d (batch statistics) fused in the custom kernel.
at::Tensor mish_batch_stat_norm_impl_npu(const at::Tensor& x, const at::Tensor& conv_weight,
                                         const at::Tensor& conv_bias, const at::Tensor& bn_weight,
                                         const at::Tensor& bn_bias, double eps)
{
    at::Tensor conv = at::conv2d(x, conv_weight, conv_bias).contiguous();
    at::Tensor gamma = bn_weight.to(at::kFloat).contiguous();
    at::Tensor beta = bn_bias.to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(conv);
    float e = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnMishBatchStatNormCustom, conv, gamma, beta, e, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mish_batch_stat_norm_custom", &mish_batch_stat_norm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mish_batch_stat_norm_custom", &mish_batch_stat_norm_impl_npu,
          "conv2d -> x * tanh(softplus(x)) -> batch norm (training statistics)",
          pybind11::arg("x"), pybind11::arg("conv_weight"), pybind11::arg("conv_bias"),
          pybind11::arg("bn_weight"), pybind11::arg("bn_bias"), pybind11::arg("eps") = 1e-5);
}
"""
