project_json_src='''
[
    {
        "op": "ChannelScaleLeakyErfGeluCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "feat",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "scale",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "out",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {
                "name": "negative_slope",
                "param_type": "optional",
                "type": "float",
                "default_value": "0.01"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelScaleLeakyErfGeluTiling)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);      // H*W of one (n, c) plane
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerPlane);
  TILING_DATA_FIELD_DEF(uint64_t, unitsPerCore);   // unit = one tile of one plane
  TILING_DATA_FIELD_DEF(uint64_t, extraUnits);
  TILING_DATA_FIELD_DEF(float, slope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelScaleLeakyErfGeluCustom, ChannelScaleLeakyErfGeluTiling)
}
"""

host_operator_src="""
#include "channel_scale_leaky_erf_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
class PlaneTiler {
public:
    PlaneTiler(uint64_t ubBytes, uint32_t elemSize) : ub_(ubBytes), elem_(elemSize) {}

    // in/out queues (double buffered, element type) + 5 fp32 scratch rows
    uint32_t Tile(uint32_t plane) const
    {
        uint64_t perElem = 4ULL * elem_ + 5ULL * sizeof(float);
        uint64_t t = (ub_ - 8 * 1024) / perElem;
        t = t / 64 * 64;
        if (t > 6144) t = 6144;
        uint64_t cap = (static_cast<uint64_t>(plane) + 63) / 64 * 64;
        return static_cast<uint32_t>(t < cap ? t : cap);
    }

private:
    uint64_t ub_;
    uint32_t elem_;
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ChannelScaleLeakyErfGeluTiling tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::Shape& shp = context->GetInputShape(0)->GetStorageShape();
    if (shp.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint64_t planes = static_cast<uint64_t>(shp.GetDim(0)) * shp.GetDim(1);
    uint32_t plane = static_cast<uint32_t>(shp.GetDim(2) * shp.GetDim(3));
    uint32_t elemSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;

    PlaneTiler tiler(ubSize, elemSize);
    uint32_t tile = tiler.Tile(plane);
    uint32_t tilesPerPlane = (plane + tile - 1) / tile;
    uint64_t units = planes * tilesPerPlane;
    uint32_t used = coreNum == 0 ? 1 : coreNum;
    if (units < used) used = static_cast<uint32_t>(units == 0 ? 1 : units);

    const float* slope = context->GetAttrs()->GetFloat(0);

    tiling.set_channels(static_cast<uint32_t>(shp.GetDim(1)));
    tiling.set_planeSize(plane);
    tiling.set_tileLen(tile);
    tiling.set_tilesPerPlane(tilesPerPlane);
    tiling.set_unitsPerCore(units / used);
    tiling.set_extraUnits(units % used);
    tiling.set_slope(slope == nullptr ? 0.01f : *slope);

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
class ChannelScaleLeakyErfGeluCustom : public OpDef {
public:
    explicit ChannelScaleLeakyErfGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("feat")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ChannelScaleLeakyErfGeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Exact (erf based) GELU on fp32 rows.
// erf from Abramowitz-Stegun 7.1.26 (|err| < 1.5e-7):
//   gelu(x) = 0.5 * (x + |x| - |x| * P(t) * exp(-x^2/2)),  t = 1 / (1 + p|x|/sqrt(2))
struct ErfGelu {
    AscendC::LocalTensor<float> ax;   // |x|
    AscendC::LocalTensor<float> t;
    AscendC::LocalTensor<float> poly;
    AscendC::LocalTensor<float> ex;

    __aicore__ inline void Run(const AscendC::LocalTensor<float>& x, uint32_t n)
    {
        constexpr float kP = 0.3275911f;
        constexpr float kInvSqrt2 = 0.70710678118f;
        constexpr float a1 = 0.254829592f, a2 = -0.284496736f, a3 = 1.421413741f;
        constexpr float a4 = -1.453152027f, a5 = 1.061405429f;

        AscendC::Abs(ax, x, n);
        AscendC::Muls(t, ax, kP * kInvSqrt2, n);
        AscendC::Adds(t, t, 1.0f, n);
        AscendC::Duplicate(poly, 1.0f, n);
        AscendC::Div(t, poly, t, n);

        // Horner: ((((a5 t + a4) t + a3) t + a2) t + a1) t
        AscendC::Muls(poly, t, a5, n);
        AscendC::Adds(poly, poly, a4, n);
        AscendC::Mul(poly, poly, t, n);
        AscendC::Adds(poly, poly, a3, n);
        AscendC::Mul(poly, poly, t, n);
        AscendC::Adds(poly, poly, a2, n);
        AscendC::Mul(poly, poly, t, n);
        AscendC::Adds(poly, poly, a1, n);
        AscendC::Mul(poly, poly, t, n);

        AscendC::Mul(ex, x, x, n);
        AscendC::Muls(ex, ex, -0.5f, n);
        AscendC::Exp(ex, ex, n);
        AscendC::Mul(poly, poly, ex, n);
        AscendC::Mul(poly, poly, ax, n);    // |x| * P * e

        AscendC::Add(ex, x, ax, n);
        AscendC::Sub(ex, ex, poly, n);
        AscendC::Muls(x, ex, 0.5f, n);
    }
};

template <typename T>
class ChannelScaleLeakyErfGelu {
public:
    __aicore__ inline ChannelScaleLeakyErfGelu() {}

    __aicore__ inline void Init(GM_ADDR feat, GM_ADDR scale, GM_ADDR out, const ChannelScaleLeakyErfGeluTiling& td)
    {
        channels_ = td.channels;
        plane_ = td.planeSize;
        tile_ = td.tileLen;
        tilesPerPlane_ = td.tilesPerPlane;
        slope_ = td.slope;
        uint64_t idx = AscendC::GetBlockIdx();
        count_ = td.unitsPerCore + (idx < td.extraUnits ? 1 : 0);
        first_ = idx * td.unitsPerCore + (idx < td.extraUnits ? idx : td.extraUnits);

        featGm_.SetGlobalBuffer((__gm__ T*)feat);
        outGm_.SetGlobalBuffer((__gm__ T*)out);
        scaleGm_.SetGlobalBuffer((__gm__ T*)scale, channels_);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(work_, 5 * tile_ * sizeof(float));
        AscendC::LocalTensor<float> w = work_.Get<float>();
        xf_ = w;
        gelu_.ax = w[tile_];
        gelu_.t = w[2 * tile_];
        gelu_.poly = w[3 * tile_];
        gelu_.ex = w[4 * tile_];
    }

    __aicore__ inline void Process()
    {
        for (uint64_t k = 0; k < count_; ++k) {
            uint64_t unit = first_ + k;
            uint64_t planeIdx = unit / tilesPerPlane_;
            uint32_t pos = static_cast<uint32_t>(unit % tilesPerPlane_) * tile_;
            uint32_t n = plane_ - pos < tile_ ? plane_ - pos : tile_;
            uint64_t off = planeIdx * plane_ + pos;
            float s = static_cast<float>(scaleGm_.GetValue(static_cast<uint32_t>(planeIdx % channels_)));
            Load(off, n);
            Compute(n, s);
            Store(off, n);
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t n)
    {
        AscendC::LocalTensor<T> v = inQ_.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(v, featGm_[off], cp, pad);
        inQ_.EnQue(v);
    }

    __aicore__ inline void Compute(uint32_t n, float s)
    {
        AscendC::LocalTensor<T> v = inQ_.DeQue<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Muls(xf_, v, s, n);
        } else {
            AscendC::Cast(xf_, v, AscendC::RoundMode::CAST_NONE, n);
            AscendC::Muls(xf_, xf_, s, n);
        }
        inQ_.FreeTensor(v);

        AscendC::LeakyRelu(xf_, xf_, slope_, static_cast<int32_t>(n));
        gelu_.Run(xf_, n);

        AscendC::LocalTensor<T> r = outQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(r, xf_, (n + 7) / 8 * 8);
        } else {
            AscendC::Cast(r, xf_, AscendC::RoundMode::CAST_ROUND, n);
        }
        outQ_.EnQue(r);
    }

    __aicore__ inline void Store(uint64_t off, uint32_t n)
    {
        AscendC::LocalTensor<T> r = outQ_.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(outGm_[off], r, cp);
        outQ_.FreeTensor(r);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> work_;
    AscendC::GlobalTensor<T> featGm_, outGm_, scaleGm_;
    AscendC::LocalTensor<float> xf_;
    ErfGelu gelu_;
    uint32_t channels_, plane_, tile_, tilesPerPlane_;
    uint64_t first_, count_;
    float slope_;
};

extern "C" __global__ __aicore__ void channel_scale_leaky_erf_gelu_custom(GM_ADDR feat, GM_ADDR scale, GM_ADDR out,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ChannelScaleLeakyErfGelu<DTYPE_FEAT> op;
    op.Init(feat, scale, out, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv2d via the stock kernel, then one fused pass: per-channel scale, leaky relu, exact gelu.
at::Tensor channel_scale_leaky_erf_gelu_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                 const at::Tensor& bias, const at::Tensor& multiplier,
                                                 double negative_slope)
{
    at::Tensor feat = at::conv2d(x, weight, bias).contiguous();
    at::Tensor scale = multiplier.reshape({-1}).to(feat.scalar_type()).contiguous();
    TORCH_CHECK(scale.numel() == feat.size(1), "multiplier must hold one value per output channel");
    at::Tensor out = at::empty_like(feat);
    float slope = static_cast<float>(negative_slope);
    EXEC_NPU_CMD(aclnnChannelScaleLeakyErfGeluCustom, feat, scale, slope, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_scale_leaky_erf_gelu_custom", &channel_scale_leaky_erf_gelu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_scale_leaky_erf_gelu_custom", &channel_scale_leaky_erf_gelu_impl_npu,
          "conv2d -> * multiplier[c] -> leaky_relu -> gelu(erf)",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("bias"), pybind11::arg("multiplier"),
          pybind11::arg("negative_slope") = 0.01);
}
"""
