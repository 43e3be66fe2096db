// DeconvGeluGroupNormalize
//   z = conv_transpose2d(x, W, b, stride)      (no padding, no output padding)
//   g = gelu(z)                                (erf form)
//   y = group_norm(g, num_groups) * gamma + beta
//
// Work unit = (sample n, group). The transposed conv is rewritten as an ordinary
// correlation: the input sample is dilated by `stride` and zero padded by K-1 into a per-core
// scratch image, and the kernel is read flipped with in/out channels swapped.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
// erf(z) ~ 1 - (a1 t + a2 t^2 + ... + a5 t^5) exp(-z^2),  t = 1/(1 + p z),  z >= 0
constexpr float ERF_P = 0.3275911f;
constexpr float ERF_A1 = 0.254829592f;
constexpr float ERF_A2 = -0.284496736f;
constexpr float ERF_A3 = 1.421413741f;
constexpr float ERF_A4 = -1.453152027f;
constexpr float ERF_A5 = 1.061405429f;
constexpr float INV_SQRT2 = 0.70710678118f;
}

class DeconvGeluGroupNormalizeKernel {
public:
    __aicore__ inline DeconvGeluGroupNormalizeKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                GM_ADDR usr, const DeconvGeluGroupNormalizeTilingData &td)
    {
        td_ = td;
        xG.SetGlobalBuffer((__gm__ float *)x);
        wG.SetGlobalBuffer((__gm__ float *)w);
        bG.SetGlobalBuffer((__gm__ float *)b);
        gammaG.SetGlobalBuffer((__gm__ float *)gamma);
        betaG.SetGlobalBuffer((__gm__ float *)beta);
        yG.SetGlobalBuffer((__gm__ float *)y);
        scr.SetGlobalBuffer((__gm__ float *)usr + GetBlockIdx() * td.scratchPerCore, td.scratchPerCore);

        uint32_t rowA = td.owAlign > td.padWAlign ? td.owAlign : td.padWAlign;
        pipe.InitBuffer(rowIn, 2, rowA * sizeof(float));
        pipe.InitBuffer(acc, rowA * sizeof(float));
        pipe.InitBuffer(t0, rowA * sizeof(float));
        pipe.InitBuffer(t1, rowA * sizeof(float));
        pipe.InitBuffer(t2, rowA * sizeof(float));
        pipe.InitBuffer(res, 64);
        pipe.InitBuffer(zeroRow, td.padWAlign * sizeof(float));
    }

    __aicore__ inline void Run()
    {
        uint32_t units = td_.n * td_.groups;
        uint32_t u0 = GetBlockIdx() * td_.unitsPerCore;
        uint32_t u1 = u0 + td_.unitsPerCore < units ? u0 + td_.unitsPerCore : units;
        int32_t builtFor = -1;
        for (uint32_t u = u0; u < u1; ++u) {
            uint32_t n = u / td_.groups;
            uint32_t g = u % td_.groups;
            if (static_cast<int32_t>(n) != builtFor) {
                BuildScratch(n);
                builtFor = static_cast<int32_t>(n);
            }
            DoGroup(n, g);
        }
    }

private:
    // dilated + zero padded copy of x[n] into this core's scratch image
    __aicore__ inline void BuildScratch(uint32_t n)
    {
        uint32_t k1 = td_.k - 1;
        LocalTensor<float> z = zeroRow.Get<float>();
        Duplicate(z, 0.0f, td_.padWAlign);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t c = 0; c < td_.cin; ++c) {
            for (uint32_t r = 0; r < td_.padH; ++r) {
                DataCopy(scr[(static_cast<uint64_t>(c) * td_.padH + r) * td_.padWAlign], z, td_.padWAlign);
            }
        }
        PipeBarrier<PIPE_ALL>();

        DataCopyPadExtParams<float> np{false, 0, 0, 0};
        for (uint32_t c = 0; c < td_.cin; ++c) {
            for (uint32_t r = 0; r < td_.h; ++r) {
                uint64_t src = ((static_cast<uint64_t>(n) * td_.cin + c) * td_.h + r) * td_.w;
                uint64_t dstRow = (static_cast<uint64_t>(c) * td_.padH + k1 + r * td_.stride) * td_.padWAlign;
                LocalTensor<float> in = rowIn.AllocTensor<float>();
                DataCopyPad(in, xG[src], DataCopyExtParams{1, td_.w * (uint32_t)sizeof(float), 0, 0, 0}, np);
                rowIn.EnQue(in);
                in = rowIn.DeQue<float>();
                if (td_.stride == 1) {
                    DataCopyPad(scr[dstRow + k1], in, DataCopyExtParams{1, td_.w * (uint32_t)sizeof(float), 0, 0, 0});
                } else {
                    // spread the row: element i lands at k1 + i*stride
                    LocalTensor<float> d = t0.Get<float>();
                    Duplicate(d, 0.0f, td_.padWAlign);
                    PipeBarrier<PIPE_ALL>();
                    for (uint32_t i = 0; i < td_.w; ++i) {
                        d.SetValue(k1 + i * td_.stride, in.GetValue(i));
                    }
                    PipeBarrier<PIPE_ALL>();
                    DataCopy(scr[dstRow], d, td_.padWAlign);
                }
                PipeBarrier<PIPE_ALL>();
                rowIn.FreeTensor(in);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    // gelu in place on `v` (len elements), t0/t1/t2 as temporaries
    __aicore__ inline void Gelu(LocalTensor<float> &v, uint32_t len)
    {
        LocalTensor<float> a = t0.Get<float>();   // |x|
        LocalTensor<float> t = t1.Get<float>();
        LocalTensor<float> q = t2.Get<float>();
        Abs(a, v, len);
        // t = 1 / (1 + p * |x|/sqrt2)
        Muls(t, a, ERF_P * INV_SQRT2, len);
        Adds(t, t, 1.0f, len);
        Duplicate(q, 1.0f, len);
        Div(t, q, t, len);
        // Horner for the polynomial
        Muls(q, t, ERF_A5, len);
        Adds(q, q, ERF_A4, len);
        Mul(q, q, t, len);
        Adds(q, q, ERF_A3, len);
        Mul(q, q, t, len);
        Adds(q, q, ERF_A2, len);
        Mul(q, q, t, len);
        Adds(q, q, ERF_A1, len);
        Mul(q, q, t, len);
        // t = exp(-x^2/2)
        Mul(t, a, a, len);
        Muls(t, t, -0.5f, len);
        Exp(t, t, len);
        Mul(q, q, t, len);
        // erf(|x|/sqrt2) = 1 - q ; gelu = 0.5 * (x + |x| * erf)
        Muls(q, q, -1.0f, len);
        Adds(q, q, 1.0f, len);
        Mul(q, q, a, len);
        Add(v, v, q, len);
        Muls(v, v, 0.5f, len);
    }

    __aicore__ inline void DoGroup(uint32_t n, uint32_t g)
    {
        uint32_t cpg = td_.cout / td_.groups;
        uint32_t K = td_.k;
        uint32_t ow = td_.ow;
        uint64_t plane = static_cast<uint64_t>(td_.oh) * ow;
        LocalTensor<float> a = acc.Get<float>();
        LocalTensor<float> r = res.Get<float>();
        DataCopyPadExtParams<float> np{false, 0, 0, 0};
        DataCopyExtParams rowCp{1, ow * (uint32_t)sizeof(float), 0, 0, 0};
        float s1 = 0.0f, s2 = 0.0f;

        for (uint32_t cc = 0; cc < cpg; ++cc) {
            uint32_t oc = g * cpg + cc;
            float bias = bG.GetValue(oc);
            uint64_t yBase = (static_cast<uint64_t>(n) * td_.cout + oc) * plane;
            for (uint32_t orow = 0; orow < td_.oh; ++orow) {
                Duplicate(a, bias, ow);
                for (uint32_t ic = 0; ic < td_.cin; ++ic) {
                    for (uint32_t ky = 0; ky < K; ++ky) {
                        uint64_t srow = (static_cast<uint64_t>(ic) * td_.padH + orow + ky) * td_.padWAlign;
                        for (uint32_t kx = 0; kx < K; ++kx) {
                            // flipped kernel: W[ic, oc, K-1-ky, K-1-kx]
                            float wv = wG.GetValue(((static_cast<uint64_t>(ic) * td_.cout + oc) * K + (K - 1 - ky)) * K +
                                                   (K - 1 - kx));
                            LocalTensor<float> in = rowIn.AllocTensor<float>();
                            DataCopyPad(in, scr[srow + kx], rowCp, np);
                            rowIn.EnQue(in);
                            in = rowIn.DeQue<float>();
                            Axpy(a, in, wv, ow);
                            rowIn.FreeTensor(in);
                        }
                    }
                }
                Gelu(a, ow);

                LocalTensor<float> sq = t1.Get<float>();
                LocalTensor<float> wk = t2.Get<float>();
                ReduceSum<float>(r, a, wk, ow);
                Mul(sq, a, a, ow);
                ReduceSum<float>(r[8], sq, wk, ow);
                PipeBarrier<PIPE_ALL>();
                s1 += r.GetValue(0);
                s2 += r.GetValue(8);
                DataCopyPad(yG[yBase + static_cast<uint64_t>(orow) * ow], a, rowCp);
                PipeBarrier<PIPE_ALL>();
            }
        }

        float cnt = static_cast<float>(plane * cpg);
        float mean = s1 / cnt;
        float var = s2 / cnt - mean * mean;
        var = var > 0.0f ? var : 0.0f;
        r.SetValue(0, var + td_.eps);
        PipeBarrier<PIPE_ALL>();
        Rsqrt(r, r, 1);
        PipeBarrier<PIPE_ALL>();
        float rstd = r.GetValue(0);

        // second pass: per channel affine of the normalized value
        for (uint32_t cc = 0; cc < cpg; ++cc) {
            uint32_t oc = g * cpg + cc;
            float sc = gammaG.GetValue(oc) * rstd;
            float sh = betaG.GetValue(oc) - mean * sc;
            uint64_t yBase = (static_cast<uint64_t>(n) * td_.cout + oc) * plane;
            for (uint32_t orow = 0; orow < td_.oh; ++orow) {
                LocalTensor<float> in = rowIn.AllocTensor<float>();
                DataCopyPad(in, yG[yBase + static_cast<uint64_t>(orow) * ow], rowCp, np);
                rowIn.EnQue(in);
                in = rowIn.DeQue<float>();
                Muls(a, in, sc, ow);
                Adds(a, a, sh, ow);
                rowIn.FreeTensor(in);
                event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
                SetFlag<HardEvent::V_MTE3>(e);
                WaitFlag<HardEvent::V_MTE3>(e);
                DataCopyPad(yG[yBase + static_cast<uint64_t>(orow) * ow], a, rowCp);
                event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_V));
                SetFlag<HardEvent::MTE3_V>(e2);
                WaitFlag<HardEvent::MTE3_V>(e2);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowIn;
    TBuf<TPosition::VECCALC> acc, t0, t1, t2, res, zeroRow;
    GlobalTensor<float> xG, wG, bG, gammaG, betaG, yG, scr;
    DeconvGeluGroupNormalizeTilingData td_;
};

extern "C" __global__ __aicore__ void deconv_gelu_group_normalize(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                  GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DeconvGeluGroupNormalizeKernel k;
    k.Init(x, weight, bias, gamma, beta, y, GetUserWorkspace(workspace), td);
    k.Run();
}
