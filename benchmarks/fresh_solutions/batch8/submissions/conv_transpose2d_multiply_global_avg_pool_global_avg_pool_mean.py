project_json_src='''
[
    {
        "op": "DeconvScaledSpatialMeanCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "w_packed",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bias",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "attr": [
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "output_padding", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "scale", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DeconvScaledSpatialMeanTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, wAlign);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(int32_t, stride);
  TILING_DATA_FIELD_DEF(int32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerChunk);
  TILING_DATA_FIELD_DEF(uint32_t, coutAlign);
  TILING_DATA_FIELD_DEF(float, meanScale);    // scale / (outH * outW)
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DeconvScaledSpatialMeanCustom, DeconvScaledSpatialMeanTiling)
}
"""

host_operator_src="""
#include "deconv_scaled_spatial_mean_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t CHUNK_FLOATS = 8192;
constexpr uint32_t MAX_TAPS = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    DeconvScaledSpatialMeanTiling td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();   // (N, Cin, H, W)
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();   // (Cin, K*K, Cout)
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t op = *attrs->GetAttrPointer<int64_t>(2);
    float scale = *attrs->GetAttrPointer<float>(3);

    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t taps = ws.GetDim(1), co = ws.GetDim(2);
    uint32_t k = 1;
    while (k * k < taps) ++k;
    if (k * k != taps || taps > MAX_TAPS) {
        return ge::GRAPH_FAILED;
    }
    int64_t oh = (static_cast<int64_t>(h) - 1) * s - 2 * p + k + op;
    int64_t ow = (static_cast<int64_t>(w) - 1) * s - 2 * p + k + op;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t wAlign = (w + 7) / 8 * 8;
    uint32_t rows = CHUNK_FLOATS / wAlign;
    if (rows == 0) return ge::GRAPH_FAILED;
    if (rows > h) rows = h;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t blocks = n < cores ? n : cores;
    if (blocks == 0) blocks = 1;

    td.set_batch(n);
    td.set_cin(ci);
    td.set_cout(co);
    td.set_h(h);
    td.set_w(w);
    td.set_wAlign(wAlign);
    td.set_k(k);
    td.set_stride(static_cast<int32_t>(s));
    td.set_pad(static_cast<int32_t>(p));
    td.set_outH(static_cast<uint32_t>(oh));
    td.set_outW(static_cast<uint32_t>(ow));
    td.set_rowsPerChunk(rows);
    td.set_coutAlign((co + 7) / 8 * 8);
    td.set_meanScale(scale / static_cast<float>(oh * ow));
    td.set_scale(scale);

    context->SetBlockDim(blocks);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(2));
    ys->SetDim(2, 1);
    ys->SetDim(3, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class DeconvScaledSpatialMeanCustom : public OpDef {
public:
    explicit DeconvScaledSpatialMeanCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("w_packed")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DeconvScaledSpatialMeanCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t KMAX = 8;

template <HardEvent E>
__aicore__ inline void WaitOn()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(e);
    WaitFlag<E>(e);
}

// The spatial mean of a transposed convolution never needs the full-resolution output.
// Every input pixel (ih, iw) is scattered by tap (kh, kw) to oh = ih*s - p + kh,
// ow = iw*s - p + kw, and is kept only if that lands inside the output. So
//   sum_{oh,ow} y[n, co] = sum_{ci, kh, kw} w[ci, co, kh, kw] * R[n, ci, kh, kw]
// where R is the sum of x[n, ci] over the rectangle of input pixels that tap (kh, kw)
// keeps in range. Adding the bias and scaling by scale / (OH * OW) gives the result.
// (A second mean over a 1x1 map is the identity.)
//
// Each core owns whole batch samples. Per input channel the plane is streamed row by
// row into K column-sum vectors (one per kh, only rows valid for that kh are added),
// then each vector is reduced over the columns valid for every kw.
class DeconvScaledSpatialMeanKernel {
public:
    __aicore__ inline DeconvScaledSpatialMeanKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const DeconvScaledSpatialMeanTiling& t)
    {
        N = t.batch; CI = t.cin; CO = t.cout; H = t.h; W = t.w; WA = t.wAlign; K = t.k;
        S = t.stride; P = t.pad; OH = t.outH; OW = t.outW;
        chunkRows = t.rowsPerChunk; COA = t.coutAlign;
        meanScale = t.meanScale; scale = t.scale;

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(N) * CI * H * W);
        wGm.SetGlobalBuffer((__gm__ float*)w, static_cast<uint64_t>(CI) * K * K * CO);
        bGm.SetGlobalBuffer((__gm__ float*)b, CO);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(N) * CO);

        pipe.InitBuffer(chunkQ, 2, chunkRows * WA * sizeof(float));
        pipe.InitBuffer(wQ, 2, K * K * COA * sizeof(float));
        pipe.InitBuffer(colBuf, K * WA * sizeof(float));
        pipe.InitBuffer(redBuf, KMAX * 8 * sizeof(float));
        pipe.InitBuffer(workBuf, 512 * sizeof(float));
        pipe.InitBuffer(tapBuf, ((CI * K * K + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(resBuf, COA * sizeof(float));
        pipe.InitBuffer(biasBuf, COA * sizeof(float));

        // Valid input row / column range for each tap (same rule for both axes).
        for (uint32_t kk = 0; kk < K; ++kk) {
            RangeFor(kk, H, OH, rowLo[kk], rowHi[kk]);
            RangeFor(kk, W, OW, colLo[kk], colHi[kk]);
        }
    }

    __aicore__ inline void Process()
    {
        // Bias is shared by all samples; fetch it once.
        LocalTensor<float> bias = biasBuf.Get<float>();
        DataCopyExtParams bcp{1, CO * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(bias, bGm, bcp, noPad);
        WaitOn<HardEvent::MTE2_V>();

        for (uint32_t n = GetBlockIdx(); n < N; n += GetBlockNum()) {
            for (uint32_t c = 0; c < CI; ++c) {
                ChannelTapSums(n, c);
            }
            Contract(n);
        }
    }

private:
    // in-range inputs i for tap kk: 0 <= i*S - P + kk <= outLen - 1, 0 <= i <= inLen - 1
    __aicore__ inline void RangeFor(uint32_t kk, uint32_t inLen, uint32_t outLen, int32_t& lo, int32_t& hi)
    {
        int32_t num = P - static_cast<int32_t>(kk);
        lo = num <= 0 ? 0 : (num + S - 1) / S;
        int32_t top = static_cast<int32_t>(outLen) - 1 + P - static_cast<int32_t>(kk);
        hi = top < 0 ? -1 : top / S;
        if (hi > static_cast<int32_t>(inLen) - 1) hi = static_cast<int32_t>(inLen) - 1;
    }

    __aicore__ inline void ChannelTapSums(uint32_t n, uint32_t c)
    {
        LocalTensor<float> cols = colBuf.Get<float>();
        // Scalar reads of the previous channel's columns must be finished.
        WaitOn<HardEvent::S_V>();
        Duplicate(cols, 0.0f, K * WA);

        uint64_t plane = (static_cast<uint64_t>(n) * CI + c) * H * W;
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        for (uint32_t r0 = 0; r0 < H; r0 += chunkRows) {
            uint32_t nr = (H - r0) < chunkRows ? (H - r0) : chunkRows;
            LocalTensor<float> blk = chunkQ.AllocTensor<float>();
            DataCopyExtParams cp{static_cast<uint16_t>(nr), W * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(blk, xGm[plane + static_cast<uint64_t>(r0) * W], cp, noPad);
            chunkQ.EnQue(blk);

            LocalTensor<float> rows = chunkQ.DeQue<float>();
            for (uint32_t r = 0; r < nr; ++r) {
                int32_t ih = static_cast<int32_t>(r0 + r);
                for (uint32_t kh = 0; kh < K; ++kh) {
                    if (ih >= rowLo[kh] && ih <= rowHi[kh]) {
                        Add(cols[kh * WA], cols[kh * WA], rows[r * WA], W);
                    }
                }
            }
            chunkQ.FreeTensor(rows);
        }

        // Full column sum per kh, then remove the columns a given kw drops.
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        for (uint32_t kh = 0; kh < K; ++kh) {
            ReduceSum(red[kh * 8], cols[kh * WA], work, W);
        }
        WaitOn<HardEvent::V_S>();

        LocalTensor<float> taps = tapBuf.Get<float>();
        for (uint32_t kh = 0; kh < K; ++kh) {
            float full = red.GetValue(kh * 8);
            for (uint32_t kw = 0; kw < K; ++kw) {
                float v = 0.0f;
                if (colHi[kw] >= colLo[kw]) {
                    v = full;
                    for (int32_t iw = 0; iw < colLo[kw]; ++iw) {
                        v -= cols.GetValue(kh * WA + iw);
                    }
                    for (int32_t iw = colHi[kw] + 1; iw < static_cast<int32_t>(W); ++iw) {
                        v -= cols.GetValue(kh * WA + iw);
                    }
                }
                taps.SetValue((c * K + kh) * K + kw, v);
            }
        }
    }

    // res[co] = meanScale * sum_{ci, tap} R[ci, tap] * w[ci, tap, co] + scale * bias[co]
    __aicore__ inline void Contract(uint32_t n)
    {
        LocalTensor<float> res = resBuf.Get<float>();
        LocalTensor<float> taps = tapBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        WaitOn<HardEvent::S_V>();
        Duplicate(res, 0.0f, COA);

        uint32_t kk = K * K;
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        for (uint32_t c = 0; c < CI; ++c) {
            LocalTensor<float> wt = wQ.AllocTensor<float>();
            // kk rows of CO floats, padded to COA in UB
            DataCopyExtParams cp{static_cast<uint16_t>(kk), CO * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(wt, wGm[static_cast<uint64_t>(c) * kk * CO], cp, noPad);
            wQ.EnQue(wt);
            LocalTensor<float> wl = wQ.DeQue<float>();
            for (uint32_t t = 0; t < kk; ++t) {
                float r = taps.GetValue(c * kk + t);
                if (r != 0.0f) {
                    Axpy(res, wl[t * COA], r, CO);
                }
            }
            wQ.FreeTensor(wl);
        }
        Muls(res, res, meanScale, CO);
        Axpy(res, bias, scale, CO);

        WaitOn<HardEvent::V_MTE3>();
        DataCopyExtParams ocp{1, CO * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(n) * CO], res, ocp);
        WaitOn<HardEvent::MTE3_V>();
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> chunkQ, wQ;
    TBuf<TPosition::VECCALC> colBuf, redBuf, workBuf, tapBuf, resBuf, biasBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    uint32_t N, CI, CO, H, W, WA, K, OH, OW, chunkRows, COA;
    int32_t S, P;
    float meanScale, scale;
    int32_t rowLo[KMAX], rowHi[KMAX], colLo[KMAX], colHi[KMAX];
};

extern "C" __global__ __aicore__ void deconv_scaled_spatial_mean_custom(GM_ADDR x, GM_ADDR w_packed, GM_ADDR bias,
                                                                        GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DeconvScaledSpatialMeanKernel k;
    k.Init(x, w_packed, bias, y, td);
    k.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// mean_{h,w}( scale * conv_transpose2d(x, weight, bias) ), kept as (N, Cout, 1, 1).
// weight: (Cin, Cout, K, K) as stored by ConvTranspose2d (groups = 1, dilation = 1).
at::Tensor deconv_scaled_spatial_mean_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                               const at::Tensor& bias, int64_t stride, int64_t padding,
                                               int64_t output_padding, double scale)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and (Cin, Cout, K, K) weight");
    TORCH_CHECK(weight.size(2) == weight.size(3), "square kernel expected");
    TORCH_CHECK(weight.size(2) <= 8, "kernel size above 8 is not supported");
    int64_t cin = weight.size(0), cout = weight.size(1), k = weight.size(2);
    // (Cin, Cout, K, K) -> (Cin, K*K, Cout)
    at::Tensor wp = weight.permute({0, 2, 3, 1}).reshape({cin, k * k, cout}).contiguous();
    at::Tensor xc = x.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor y = at::empty({x.size(0), cout, 1, 1}, x.options());
    EXEC_NPU_CMD(aclnnDeconvScaledSpatialMeanCustom, xc, wp, bc, stride, padding, output_padding, scale, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("deconv_scaled_spatial_mean_custom", &deconv_scaled_spatial_mean_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("deconv_scaled_spatial_mean_custom", &deconv_scaled_spatial_mean_impl_npu,
          "scaled spatial mean of a transposed 2-D convolution");
}
"""
