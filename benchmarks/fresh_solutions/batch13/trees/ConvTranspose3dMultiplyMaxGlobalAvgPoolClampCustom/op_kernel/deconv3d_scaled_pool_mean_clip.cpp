/**
 * Deconv3dScaledPoolMeanClip
 *
 * For every (sample n, output channel co):
 *   v(od,oh,ow)   = scale * (conv_transpose3d(x, weight)[n, co, od, oh, ow] + bias[co])
 *   m(pd,ph,pw)   = max of v over the non-overlapping poolK^3 window
 *   y[n, co]      = clamp(mean over all pooled cells of m, clip_min, clip_max)
 *
 * The pooled volume collapses to a single number, so nothing intermediate is written to GM:
 * each core walks its (n, co) pairs and evaluates the transposed convolution voxel by voxel
 * (gather form) with that channel's filter resident in UB.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t RESULT_CAP = 1024;   // results kept in UB before a store
constexpr float NEG_BIG = -3.4e38f;
}

class Deconv3dScaledPoolMeanClipKernel {
public:
    __aicore__ inline Deconv3dScaledPoolMeanClipKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                const Deconv3dScaledPoolMeanClipTilingData &t)
    {
        cin = t.cin; cout = t.cout;
        inD = t.inD; inH = t.inH; inW = t.inW;
        k = t.ksize; s = t.stride; p = t.pad; pk = t.poolK;
        pd = t.poolD; ph = t.poolH; pw = t.poolW;
        scale = t.scale; lo = t.lower; hi = t.upper;
        fStride = t.filterStride;
        taps = k * k * k;

        uint32_t blk = GetBlockIdx();
        pairNum = t.pairsPerCore + (blk < t.pairsExtra ? 1 : 0);
        pairBeg = blk * t.pairsPerCore + (blk < t.pairsExtra ? blk : t.pairsExtra);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)weight);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(filterQ, 1, cin * fStride * sizeof(float));
        pipe.InitBuffer(resultBuf, RESULT_CAP * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> res = resultBuf.Get<float>();
        uint32_t held = 0;
        uint32_t outBase = pairBeg;
        for (uint32_t i = 0; i < pairNum; ++i) {
            uint32_t pair = pairBeg + i;          // == n * cout + co == output offset
            uint32_t n = pair / cout;
            uint32_t co = pair % cout;

            LocalTensor<float> f = LoadFilter(co);
            float r = PairValue(n, co, f);
            filterQ.FreeTensor(f);

            res.SetValue(held++, r);
            if (held == RESULT_CAP) {
                Store(outBase, held);
                outBase += held;
                held = 0;
            }
        }
        if (held != 0) {
            Store(outBase, held);
        }
    }

private:
    // weight layout (Cin, Cout, k, k, k): one burst of k^3 floats per input channel
    __aicore__ inline LocalTensor<float> LoadFilter(uint32_t co)
    {
        LocalTensor<float> f = filterQ.AllocTensor<float>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(cin);
        cp.blockLen = taps * sizeof(float);
        cp.srcStride = (cout - 1) * taps * sizeof(float);
        cp.dstStride = 0;    // UB rows land on 32B boundaries => fStride floats apart
        cp.rsv = 0;
        DataCopyPadExtParams<float> none{false, 0, 0, 0.0f};
        DataCopyPad(f, wGm[(uint64_t)co * taps], cp, none);
        filterQ.EnQue(f);
        f = filterQ.DeQue<float>();
        // values are consumed by scalar code
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
        return f;
    }

    // input index along one axis reached by output position o through tap kk, or -1
    __aicore__ inline int32_t SrcIndex(uint32_t o, uint32_t kk, uint32_t inLen) const
    {
        int32_t t = static_cast<int32_t>(o + p) - static_cast<int32_t>(kk);
        if (t < 0 || t % static_cast<int32_t>(s) != 0) {
            return -1;
        }
        int32_t i = t / static_cast<int32_t>(s);
        return i < static_cast<int32_t>(inLen) ? i : -1;
    }

    __aicore__ inline float Voxel(uint32_t n, float b, const LocalTensor<float> &f,
                                  uint32_t od, uint32_t oh, uint32_t ow)
    {
        float acc = b;
        const uint64_t chanVol = (uint64_t)inD * inH * inW;
        const uint64_t xN = (uint64_t)n * cin * chanVol;
        for (uint32_t a = 0; a < k; ++a) {
            int32_t id = SrcIndex(od, a, inD);
            if (id < 0) continue;
            for (uint32_t bb = 0; bb < k; ++bb) {
                int32_t ih = SrcIndex(oh, bb, inH);
                if (ih < 0) continue;
                for (uint32_t c = 0; c < k; ++c) {
                    int32_t iw = SrcIndex(ow, c, inW);
                    if (iw < 0) continue;
                    uint64_t xo = xN + ((uint64_t)id * inH + ih) * inW + iw;
                    uint32_t tap = (a * k + bb) * k + c;
                    for (uint32_t ci = 0; ci < cin; ++ci) {
                        acc += xGm.GetValue(xo + ci * chanVol) * f.GetValue(ci * fStride + tap);
                    }
                }
            }
        }
        return acc * scale;
    }

    __aicore__ inline float PairValue(uint32_t n, uint32_t co, const LocalTensor<float> &f)
    {
        const float b = bGm.GetValue(co);
        float total = 0.0f;
        for (uint32_t zd = 0; zd < pd; ++zd) {
            for (uint32_t zh = 0; zh < ph; ++zh) {
                for (uint32_t zw = 0; zw < pw; ++zw) {
                    float best = NEG_BIG;
                    for (uint32_t dd = 0; dd < pk; ++dd) {
                        for (uint32_t dh = 0; dh < pk; ++dh) {
                            for (uint32_t dw = 0; dw < pk; ++dw) {
                                float v = Voxel(n, b, f, zd * pk + dd, zh * pk + dh, zw * pk + dw);
                                best = v > best ? v : best;
                            }
                        }
                    }
                    total += best;
                }
            }
        }
        float mean = total / static_cast<float>(pd * ph * pw);
        mean = mean < lo ? lo : mean;
        mean = mean > hi ? hi : mean;
        return mean;
    }

    __aicore__ inline void Store(uint32_t base, uint32_t cnt)
    {
        LocalTensor<float> res = resultBuf.Get<float>();
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e);
        WaitFlag<HardEvent::S_MTE3>(e);
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[base], res, cp);
        // buffer is overwritten by scalar stores afterwards
        event_t back = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(back);
        WaitFlag<HardEvent::MTE3_S>(back);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> filterQ;
    TBuf<TPosition::VECCALC> resultBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;

    uint32_t cin, cout, inD, inH, inW, k, s, p, pk, pd, ph, pw, taps, fStride;
    uint32_t pairBeg, pairNum;
    float scale, lo, hi;
};

extern "C" __global__ __aicore__ void deconv3d_scaled_pool_mean_clip(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                     GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    Deconv3dScaledPoolMeanClipKernel op;
    op.Init(x, weight, bias, y, t);
    op.Process();
}
