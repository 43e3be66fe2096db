project_json_src='''
[
    {
        "op": "ConvTranspose3dSumLayerNormAvgPoolGeluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "sum_weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dSumLayerNormAvgPoolGeluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, din);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);   // N * Cout * PD * PH pooled rows
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailUnits);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dSumLayerNormAvgPoolGeluCustom, ConvTranspose3dSumLayerNormAvgPoolGeluCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_sum_layer_norm_avg_pool_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

// specialised for k=3, stride=2, pad=1, output_padding=1, pool=2, LayerNorm over last dim (= 2*W)
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dSumLayerNormAvgPoolGeluCustomTilingData tiling;
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetOriginShape();
    const gert::Shape &gs = context->GetInputShape(4)->GetOriginShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1);
    if (ws.GetDim(2) != 3 || ws.GetDim(3) != 3 || ws.GetDim(4) != 3) {
        return ge::GRAPH_FAILED;
    }
    // norm is over the output width (2*W), W row must be 32B aligned
    if (gs.GetShapeSize() != 2 * w || (w % 8) != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t total = n * cout * d * h;    // pooled output rows
    if (coreNum > total) coreNum = total;
    if (coreNum == 0) coreNum = 1;

    tiling.set_batch(n);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_din(d);
    tiling.set_hin(h);
    tiling.set_win(w);
    tiling.set_totalUnits(total);
    tiling.set_unitsPerCore(total / coreNum);
    tiling.set_tailUnits(total % coreNum);
    tiling.set_eps(1e-5f);

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    // convT doubles D/H/W, pool halves them again
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, xs->GetDim(2));
    ys->SetDim(3, xs->GetDim(3));
    ys->SetDim(4, xs->GetDim(4));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dSumLayerNormAvgPoolGeluCustom : public OpDef {
public:
    explicit ConvTranspose3dSumLayerNormAvgPoolGeluCustom(const char* name) : OpDef(name)
    {
        const char* ins[] = {"x", "weight", "bias", "sum_weight", "gamma", "beta"};
        for (auto in : ins) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose3dSumLayerNormAvgPoolGeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t KV = 27;      // 3x3x3 taps
constexpr uint32_t W_STRIDE = 32; // per-ci weight row after DataCopyPad (108B -> 128B)

class KernelConvT3dLnPoolGelu {
public:
    __aicore__ inline KernelConvT3dLnPoolGelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR sw, GM_ADDR g, GM_ADDR be, GM_ADDR y,
                                const ConvTranspose3dSumLayerNormAvgPoolGeluCustomTilingData &t)
    {
        N = t.batch; Cin = t.cin; Cout = t.cout; D = t.din; H = t.hin; W = t.win;
        L = 2 * W;
        eps = t.eps;
        uint32_t idx = GetBlockIdx();
        if (idx < t.tailUnits) {
            cnt = t.unitsPerCore + 1;
            start = idx * cnt;
        } else {
            cnt = t.unitsPerCore;
            start = idx * t.unitsPerCore + t.tailUnits;
        }

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        swGm.SetGlobalBuffer((__gm__ float *)sw);
        gGm.SetGlobalBuffer((__gm__ float *)g);
        beGm.SetGlobalBuffer((__gm__ float *)be);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        blk = Cin * 4 * W;   // [ci][a][b][W]
        pipe.InitBuffer(xQue, 1, 2 * blk * sizeof(float));   // plain + shifted-by-one copy
        pipe.InitBuffer(yQue, 2, W * sizeof(float));
        pipe.InitBuffer(wBuf, Cin * W_STRIDE * sizeof(float));
        pipe.InitBuffer(affBuf, 2 * L * sizeof(float));      // gamma | beta, deinterleaved even/odd
        pipe.InitBuffer(rowBuf, L * sizeof(float));
        pipe.InitBuffer(accBuf, L * sizeof(float));
        pipe.InitBuffer(tmpBuf, 5 * L * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (cnt == 0) return;
        sumW = swGm.GetValue(0);
        LoadAffine();
        int32_t curCo = -1;
        for (uint32_t u = start; u < start + cnt; ++u) {
            // unit = ((n*Cout + co)*D + pd)*H + ph
            uint32_t ph = u % H;
            uint32_t r = u / H;
            uint32_t pd = r % D;
            r /= D;
            uint32_t co = r % Cout;
            uint32_t n = r / Cout;
            if ((int32_t)co != curCo) {
                LoadWeights(co);
                curCo = co;
            }
            CopyIn(n, pd, ph);
            Compute(co, pd, ph);
            CopyOut(u);
        }
    }

private:
    __aicore__ inline void SyncMte2S()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }
    __aicore__ inline void SyncVS()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }

    __aicore__ inline void LoadAffine()
    {
        // gamma/beta indexed by ow; we keep rows as [even | odd] so split them the same way
        LocalTensor<float> aff = affBuf.Get<float>();
        LocalTensor<float> raw = tmpBuf.Get<float>();
        DataCopy(raw, gGm, L);
        DataCopy(raw[L], beGm, L);
        SyncMte2S();
        for (uint32_t j = 0; j < W; ++j) {
            aff.SetValue(j, raw.GetValue(2 * j));
            aff.SetValue(W + j, raw.GetValue(2 * j + 1));
            aff.SetValue(L + j, raw.GetValue(L + 2 * j));
            aff.SetValue(L + W + j, raw.GetValue(L + 2 * j + 1));
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void LoadWeights(uint32_t co)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        // weight layout [Cin][Cout][3][3][3]; grab the 27 taps of this co for every ci
        DataCopyExtParams p{(uint16_t)Cin, KV * sizeof(float), (uint32_t)((Cout - 1) * KV * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(W_STRIDE - KV), 0.0f};
        DataCopyPad(wl, wGm[(uint64_t)co * KV], p, pad);
        SyncMte2S();
        convBias = bGm.GetValue(co) + sumW;
    }

    __aicore__ inline void CopyIn(uint32_t n, uint32_t pd, uint32_t ph)
    {
        LocalTensor<float> xl = xQue.AllocTensor<float>();
        uint32_t nh = (ph + 1 < H) ? 2 : 1;
        DataCopyExtParams sp{(uint16_t)nh, (W - 1) * (uint32_t)sizeof(float), sizeof(float), 0, 0};
        DataCopyPadExtParams<float> zp{true, 0, 1, 0.0f};
        for (uint32_t ci = 0; ci < Cin; ++ci) {
            for (uint32_t a = 0; a < 2; ++a) {
                uint32_t id = pd + a;
                if (id >= D) continue;
                uint64_t off = ((((uint64_t)n * Cin + ci) * D + id) * H + ph) * W;
                uint32_t dst = (ci * 2 + a) * 2 * W;
                DataCopy(xl[dst], xGm[off], nh * W);
                // xs[j] = x[j+1], last one zero
                DataCopyPad(xl[blk + dst], xGm[off + 1], sp, zp);
            }
        }
        xQue.EnQue(xl);
    }

    // one conv-transpose output row (od, oh) -> rowBuf as [even ow | odd ow]
    __aicore__ inline void ConvRow(const LocalTensor<float> &xl, const LocalTensor<float> &wl,
                                   uint32_t dd, uint32_t hh, uint32_t pd, uint32_t ph)
    {
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> ev = row;
        LocalTensor<float> od = row[W];
        Duplicate(row, convBias, L);

        // (k, a) taps along D / H
        uint32_t kdList[2], aList[2], nd = 0;
        uint32_t khList[2], bList[2], nh = 0;
        if (dd == 0) { kdList[nd] = 1; aList[nd++] = 0; }
        else {
            kdList[nd] = 2; aList[nd++] = 0;
            if (pd + 1 < D) { kdList[nd] = 0; aList[nd++] = 1; }
        }
        if (hh == 0) { khList[nh] = 1; bList[nh++] = 0; }
        else {
            khList[nh] = 2; bList[nh++] = 0;
            if (ph + 1 < H) { khList[nh] = 0; bList[nh++] = 1; }
        }

        for (uint32_t ci = 0; ci < Cin; ++ci) {
            for (uint32_t i = 0; i < nd; ++i) {
                for (uint32_t j = 0; j < nh; ++j) {
                    uint32_t xo = ((ci * 2 + aList[i]) * 2 + bList[j]) * W;
                    uint32_t wo = ci * W_STRIDE + kdList[i] * 9 + khList[j] * 3;
                    float w0 = wl.GetValue(wo);
                    float w1 = wl.GetValue(wo + 1);
                    float w2 = wl.GetValue(wo + 2);
                    Axpy(ev, xl[xo], w1, W);          // ow = 2j   <- kw=1, iw=j
                    Axpy(od, xl[xo], w2, W);          // ow = 2j+1 <- kw=2, iw=j
                    Axpy(od, xl[blk + xo], w0, W);    //           <- kw=0, iw=j+1
                }
            }
        }
    }

    __aicore__ inline void LayerNormAcc()
    {
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> aff = affBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> wk = red[16];
        float invL = 1.0f / (float)L;

        ReduceSum(red, row, wk, L);
        SyncVS();
        float mean = red.GetValue(0) * invL;
        Adds(row, row, -mean, L);
        Mul(tmp, row, row, L);
        ReduceSum(red, tmp, wk, L);
        SyncVS();
        float var = red.GetValue(0) * invL;
        Duplicate(tmp, var + eps, L);
        Sqrt(tmp, tmp, L);
        Div(row, row, tmp, L);
        Mul(row, row, aff, L);
        Add(row, row, aff[L], L);
        Add(acc, acc, row, L);
    }

    __aicore__ inline void Compute(uint32_t co, uint32_t pd, uint32_t ph)
    {
        LocalTensor<float> xl = xQue.DeQue<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, L);
        for (uint32_t dd = 0; dd < 2; ++dd) {
            for (uint32_t hh = 0; hh < 2; ++hh) {
                ConvRow(xl, wl, dd, hh, pd, ph);
                LayerNormAcc();
            }
        }
        xQue.FreeTensor(xl);

        // 2x2x2 mean: D/H already summed in acc, W pair = even + odd
        LocalTensor<float> yl = yQue.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> t = tmp;
        LocalTensor<float> u = tmp[L];
        LocalTensor<float> q = tmp[2 * L];
        LocalTensor<float> s = tmp[3 * L];
        LocalTensor<float> one = tmp[4 * L];
        LocalTensor<float> v = acc;   // reuse
        Add(v, acc, acc[W], W);
        Muls(v, v, 0.125f, W);

        // gelu(x) = 0.5x + 0.5|x| erf(|x|/sqrt2), erf via A&S 7.1.26
        Abs(t, v, W);
        Muls(t, t, 0.70710678f, W);
        Muls(u, t, 0.3275911f, W);
        Adds(u, u, 1.0f, W);
        Duplicate(one, 1.0f, W);
        Div(u, one, u, W);
        Muls(q, u, 1.061405429f, W);
        Adds(q, q, -1.453152027f, W);
        Mul(q, q, u, W);
        Adds(q, q, 1.421413741f, W);
        Mul(q, q, u, W);
        Adds(q, q, -0.284496736f, W);
        Mul(q, q, u, W);
        Adds(q, q, 0.254829592f, W);
        Mul(q, q, u, W);
        Mul(s, t, t, W);
        Muls(s, s, -1.0f, W);
        Exp(s, s, W);
        Mul(q, q, s, W);
        Muls(q, q, -1.0f, W);
        Adds(q, q, 1.0f, W);       // erf(|z|)
        Abs(s, v, W);
        Mul(q, q, s, W);
        Add(q, q, v, W);
        Muls(yl, q, 0.5f, W);
        yQue.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint32_t u)
    {
        LocalTensor<float> yl = yQue.DeQue<float>();
        DataCopy(yGm[(uint64_t)u * W], yl, W);
        yQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> xQue;
    TQue<QuePosition::VECOUT, 2> yQue;
    TBuf<TPosition::VECCALC> wBuf, affBuf, rowBuf, accBuf, tmpBuf, redBuf;
    GlobalTensor<float> xGm, wGm, bGm, swGm, gGm, beGm, yGm;
    uint32_t N, Cin, Cout, D, H, W, L, blk;
    uint32_t start, cnt;
    float eps, sumW, convBias;
};

extern "C" __global__ __aicore__ void conv_transpose3d_sum_layer_norm_avg_pool_gelu_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR sum_weight, GM_ADDR gamma, GM_ADDR beta,
    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelConvT3dLnPoolGelu op;
    op.Init(x, weight, bias, sum_weight, gamma, beta, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_sum_layer_norm_avg_pool_gelu_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
    const at::Tensor& sum_weight, const at::Tensor& gamma, const at::Tensor& beta)
{
    // convT(k3,s2,p1,op1) doubles every spatial dim, avgpool(2) halves it back
    at::Tensor y = at::empty({x.size(0), weight.size(1), x.size(2), x.size(3), x.size(4)}, x.options());
    at::Tensor sw = sum_weight.reshape({1});
    EXEC_NPU_CMD(aclnnConvTranspose3dSumLayerNormAvgPoolGeluCustom, x, weight, bias, sw, gamma, beta, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_sum_layer_norm_avg_pool_gelu_custom",
           &conv_transpose3d_sum_layer_norm_avg_pool_gelu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_sum_layer_norm_avg_pool_gelu_custom",
          &conv_transpose3d_sum_layer_norm_avg_pool_gelu_custom_impl_npu,
          "conv_transpose3d + sum + layer_norm + avg_pool + gelu");
}
"""
