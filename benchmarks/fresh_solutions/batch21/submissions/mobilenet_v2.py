project_json_src='''
[
    {
        "op": "AffineClampPerChannelCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "alpha", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
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
BEGIN_TILING_DATA_DEF(AffineClampTiling)
  TILING_DATA_FIELD_DEF(uint32_t, chans);
  TILING_DATA_FIELD_DEF(uint32_t, planeLen);      // H * W
  TILING_DATA_FIELD_DEF(uint32_t, planePitch);    // planeLen rounded to 32B in UB
  TILING_DATA_FIELD_DEF(uint32_t, planesPerTile); // planes batched into one DMA when planes are small
  TILING_DATA_FIELD_DEF(uint32_t, segLen);        // split length when a plane exceeds the tile
  TILING_DATA_FIELD_DEF(uint32_t, basePlanes);
  TILING_DATA_FIELD_DEF(uint32_t, bigCores);      // cores that take basePlanes + 1
  TILING_DATA_FIELD_DEF(float, lower);
  TILING_DATA_FIELD_DEF(float, upper);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AffineClampPerChannelCustom, AffineClampTiling)
}
"""

host_operator_src="""
#include "affine_clamp_per_channel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 8192;   // fp32 staging elements per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    AffineClampTiling td;
    const gert::Shape& s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1);
    uint32_t hw = 1;
    for (size_t i = 2; i < s.GetDimNum(); ++i) hw *= s.GetDim(i);
    ge::DataType dt = ctx->GetInputDesc(0)->GetDataType();

    // 16-element pitch keeps every plane 32B aligned for fp16 and fp32 alike
    uint32_t pitch = (hw + 15) / 16 * 16;
    uint32_t perTile = 1, seg = pitch;
    if (pitch <= TILE_ELEMS) {
        perTile = TILE_ELEMS / pitch;
    } else {
        seg = TILE_ELEMS;
    }

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t planes = n * c;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > planes) cores = planes;
    if (cores == 0) cores = 1;

    auto attrs = ctx->GetAttrs();
    const float* lo = attrs->GetFloat(0);
    const float* hi = attrs->GetFloat(1);

    td.set_chans(c);
    td.set_planeLen(hw);
    td.set_planePitch(pitch);
    td.set_planesPerTile(perTile);
    td.set_segLen(seg);
    td.set_basePlanes(planes / cores);
    td.set_bigCores(planes % cores);
    td.set_lower(lo ? *lo : 0.0f);
    td.set_upper(hi ? *hi : 6.0f);

    ctx->SetBlockDim(cores);
    ctx->SetTilingKey(dt == ge::DT_FLOAT16 ? 16 : 32);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class AffineClampPerChannelCustom : public OpDef {
public:
    explicit AffineClampPerChannelCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("alpha").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("lower").AttrType(OPTIONAL).Float(0.0);
        this->Attr("upper").AttrType(OPTIONAL).Float(6.0);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AffineClampPerChannelCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// clamp(x * a + b, lo, hi) in place on fp32
__aicore__ inline void AffineClamp(const LocalTensor<float>& v, float a, float b, float lo, float hi, uint32_t n)
{
    Muls(v, v, a, n);
    Adds(v, v, b, n);
    Maxs(v, v, lo, n);
    Mins(v, v, hi, n);
}

template <typename T>
class AffineClampKernel {
public:
    __aicore__ inline AffineClampKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR alpha, GM_ADDR beta, GM_ADDR y, const AffineClampTiling& tl)
    {
        td = tl;
        uint32_t core = GetBlockIdx();
        first = core * tl.basePlanes + (core < tl.bigCores ? core : tl.bigCores);
        count = tl.basePlanes + (core < tl.bigCores ? 1 : 0);
        tileElems = tl.planesPerTile * (tl.planesPerTile > 1 ? tl.planePitch : tl.segLen);

        xg.SetGlobalBuffer((__gm__ T*)x);
        yg.SetGlobalBuffer((__gm__ T*)y);
        ag.SetGlobalBuffer((__gm__ float*)alpha);
        bg.SetGlobalBuffer((__gm__ float*)beta);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(f32, tileElems * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (td.planesPerTile > 1) {
            // several whole planes per DMA, each landing at a 32B-aligned pitch
            for (uint32_t p = 0; p < count; p += td.planesPerTile) {
                uint32_t k = (count - p) < td.planesPerTile ? (count - p) : td.planesPerTile;
                Move(first + p, 0, k, td.planeLen);
            }
        } else {
            for (uint32_t p = 0; p < count; ++p) {
                for (uint32_t off = 0; off < td.planeLen; off += td.segLen) {
                    uint32_t len = (td.planeLen - off) < td.segLen ? (td.planeLen - off) : td.segLen;
                    Move(first + p, off, 1, len);
                }
            }
        }
    }

private:
    __aicore__ inline void Move(uint32_t plane, uint32_t off, uint32_t k, uint32_t len)
    {
        uint64_t gm = static_cast<uint64_t>(plane) * td.planeLen + off;
        uint32_t rowBytes = len * sizeof(T);
        uint32_t gapBlocks = (td.planePitch * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32;
        if (k == 1) gapBlocks = 0;

        LocalTensor<T> in = inQ.AllocTensor<T>();
        DataCopyExtParams rd{static_cast<uint16_t>(k), rowBytes, 0, gapBlocks, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(in, xg[gm], rd, pad);
        inQ.EnQue(in);

        in = inQ.DeQue<T>();
        LocalTensor<T> out = outQ.AllocTensor<T>();
        LocalTensor<float> w = f32.Get<float>();
        uint32_t step = (k == 1) ? 0 : td.planePitch;
        uint32_t n = (len + 15) / 16 * 16;
        for (uint32_t i = 0; i < k; ++i) {
            uint32_t ch = (plane + i) % td.chans;
            float a = ag.GetValue(ch);
            float b = bg.GetValue(ch);
            LocalTensor<float> seg = w[i * step];
            if constexpr (std::is_same<T, float>::value) {
                AffineClampCopy(seg, in[i * step], n);
            } else {
                Cast(seg, in[i * step], RoundMode::CAST_NONE, n);
            }
            AffineClamp(seg, a, b, td.lower, td.upper, n);
            if constexpr (std::is_same<T, float>::value) {
                DataCopy(out[i * step], seg, n);
            } else {
                Cast(out[i * step], seg, RoundMode::CAST_ROUND, n);
            }
        }
        outQ.EnQue(out);
        inQ.FreeTensor(in);

        out = outQ.DeQue<T>();
        DataCopyExtParams wr{static_cast<uint16_t>(k), rowBytes, gapBlocks, 0, 0};
        DataCopyPad(yg[gm], out, wr);
        outQ.FreeTensor(out);
    }

    __aicore__ inline void AffineClampCopy(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
    {
        DataCopy(dst, src, n);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> f32;
    GlobalTensor<T> xg, yg;
    GlobalTensor<float> ag, bg;
    AffineClampTiling td;
    uint32_t first, count, tileElems;
};

extern "C" __global__ __aicore__ void affine_clamp_per_channel_custom(GM_ADDR x, GM_ADDR alpha, GM_ADDR beta,
                                                                      GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(32)) {
        AffineClampKernel<float> op;
        op.Init(x, alpha, beta, y, td);
        op.Process();
    } else if (TILING_KEY_IS(16)) {
        AffineClampKernel<half> op;
        op.Init(x, alpha, beta, y, td);
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
#include <tuple>
#include <limits>

at::Tensor affine_clamp_impl_npu(const at::Tensor& x, const at::Tensor& alpha, const at::Tensor& beta,
                                 double lower, double upper)
{
    at::Tensor xc = x.contiguous();
    at::Tensor a = alpha.to(at::kFloat).contiguous();
    at::Tensor b = beta.to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnAffineClampPerChannelCustom, xc, a, b, lower, upper, y);
    return y;
}

namespace {
struct Params {
    const std::vector<at::Tensor>& v;
    size_t pos = 0;
    bool training;
    const at::Tensor& take() { return v.at(pos++); }
};

// BatchNorm (+ optional ReLU6) through the custom per-channel affine/clamp kernel
at::Tensor norm_act(const at::Tensor& x, Params& P, bool relu6)
{
    const at::Tensor& w = P.take();
    const at::Tensor& b = P.take();
    const at::Tensor& rm = P.take();
    const at::Tensor& rv = P.take();
    at::Tensor mean = rm, var = rv;
    if (P.training) {
        auto vm = at::var_mean(x, {0, 2, 3}, 0, false);
        var = std::get<0>(vm);
        mean = std::get<1>(vm);
    }
    at::Tensor a = w * at::rsqrt(var + 1e-5);
    at::Tensor s = b - mean * a;
    const double big = std::numeric_limits<float>::max();
    return affine_clamp_impl_npu(x, a, s, relu6 ? 0.0 : -big, relu6 ? 6.0 : big);
}

int64_t make_divisible(double v, int64_t d)
{
    int64_t nv = std::max<int64_t>(d, static_cast<int64_t>(v + d / 2.0) / d * d);
    if (nv < 0.9 * v) nv += d;
    return nv;
}
}

at::Tensor mobilenet_v2_forward(const at::Tensor& x, const std::vector<at::Tensor>& params, bool training)
{
    Params P{params, 0, training};
    const int64_t setting[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                                   {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    int64_t inC = 32;
    at::Tensor h = at::conv2d(x, P.take(), {}, 2, 1);
    h = norm_act(h, P, true);
    for (auto& st : setting) {
        int64_t outC = make_divisible(st[1], 8);
        for (int64_t i = 0; i < st[2]; ++i) {
            int64_t stride = i == 0 ? st[3] : 1;
            int64_t hidden = inC * st[0];
            at::Tensor t = h;
            if (st[0] != 1) {
                t = at::conv2d(t, P.take());
                t = norm_act(t, P, true);
            }
            t = at::conv2d(t, P.take(), {}, stride, 1, 1, hidden);
            t = norm_act(t, P, true);
            t = at::conv2d(t, P.take());
            t = norm_act(t, P, false);
            // the reference block returns only the sequential path (no residual add)
            h = t;
            inC = outC;
        }
    }
    h = at::conv2d(h, P.take());
    h = norm_act(h, P, true);
    h = at::adaptive_avg_pool2d(h, {1, 1}).flatten(1);
    const at::Tensor& fw = P.take();
    const at::Tensor& fb = P.take();
    return at::linear(h, fw, fb);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("affine_clamp_per_channel_custom", &affine_clamp_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("affine_clamp_per_channel_custom", &affine_clamp_impl_npu, "clamp(x * alpha[c] + beta[c], lo, hi)");
    m.def("mobilenet_v2_forward", &mobilenet_v2_forward, "MobileNetV2 forward");
}
"""
