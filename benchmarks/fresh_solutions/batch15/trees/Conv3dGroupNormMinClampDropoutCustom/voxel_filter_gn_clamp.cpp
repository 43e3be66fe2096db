// voxel_filter_gn_clamp.cpp
//
// 3-D valid convolution (+bias) -> group normalisation (affine) -> min with a constant
// -> clamp to [lo, hi] -> dropout (mask supplied as an input, scaled by 1/(1-p)).
//
// Parallelisation: one core per (sample, group).  A group owns `cpg` output channels,
// so the group statistics can be reduced inside one core and no cross-core
// synchronisation is needed.
//   pass 1: convolution, one output depth slice (Hout x Wout) at a time.  Each of the
//           Cin*K*K*K filter taps needs a strided (Hout x Wout) window of x, which is
//           brought in with one DataCopyPad (rows padded to 8 floats) and accumulated
//           into all cpg channel tiles with Axpy.  Raw conv output goes to y and the
//           running sum / sum of squares are kept on the scalar side.
//   pass 2: y is re-read in flat chunks and the normalise/min/clamp/dropout chain is
//           applied in place.
#include "kernel_operator.h"

using namespace AscendC;

struct VoxelFilterGnClampTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t din, hin, win;
    uint32_t k;            // cubic kernel edge
    uint32_t dout, hout, wout;
    uint32_t woutPad;      // wout rounded up to 8
    uint32_t groups;
    uint32_t cpg;          // channels per group
    uint32_t chunk;        // pass-2 element chunk
    float eps;
    float minValue;        // torch.min(x, minValue)
    float clampLo;
    float clampHi;
    float keepScale;       // 1 / (1 - p)
};

class VoxelFilterGnClamp {
public:
    __aicore__ inline VoxelFilterGnClamp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR mask, GM_ADDR y, const VoxelFilterGnClampTiling &t)
    {
        tp = t;
        xG.SetGlobalBuffer((__gm__ float *)x);
        wG.SetGlobalBuffer((__gm__ float *)w);
        bG.SetGlobalBuffer((__gm__ float *)b);
        gammaG.SetGlobalBuffer((__gm__ float *)gamma);
        betaG.SetGlobalBuffer((__gm__ float *)beta);
        maskG.SetGlobalBuffer((__gm__ float *)mask);
        yG.SetGlobalBuffer((__gm__ float *)y);

        tileLen = tp.hout * tp.woutPad;
        plane = tp.dout * tp.hout * tp.wout;

        pipe.InitBuffer(winQ, 2, tileLen * sizeof(float));
        pipe.InitBuffer(accQ, 1, tp.cpg * tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, tileLen * sizeof(float));
        pipe.InitBuffer(dataQ, 2, tp.chunk * sizeof(float));
        pipe.InitBuffer(maskQ, 2, tp.chunk * sizeof(float));
        pipe.InitBuffer(outQ, 2, tp.chunk * sizeof(float));

        n = GetBlockIdx() / tp.groups;
        g = GetBlockIdx() % tp.groups;
        c0 = g * tp.cpg;
    }

    __aicore__ inline void Process()
    {
        if (n >= tp.batch) return;
        float sum = 0.0f, sq = 0.0f;
        for (uint32_t od = 0; od < tp.dout; ++od) {
            ConvSlice(od, sum, sq);
        }
        float cnt = (float)(tp.cpg * plane);
        float mean = sum / cnt;
        float var = sq / cnt - mean * mean;
        if (var < 0.0f) var = 0.0f;
        float rstd = 1.0f / sqrt(var + tp.eps);

        // y has been written by MTE3 in pass 1 and is read by MTE2 in pass 2
        PipeBarrier<PIPE_ALL>();

        for (uint32_t c = 0; c < tp.cpg; ++c) {
            float ga = gammaG.GetValue(c0 + c);
            float be = betaG.GetValue(c0 + c);
            float scale = ga * rstd;
            float shift = be - mean * scale;
            uint64_t base = ((uint64_t)n * tp.cout + c0 + c) * plane;
            for (uint32_t off = 0; off < plane; off += tp.chunk) {
                uint32_t len = plane - off < tp.chunk ? plane - off : tp.chunk;
                Epilogue(base + off, len, scale, shift);
            }
        }
    }

private:
    __aicore__ inline void ConvSlice(uint32_t od, float &sum, float &sq)
    {
        LocalTensor<float> acc = accQ.AllocTensor<float>();
        float bias[8];
        for (uint32_t c = 0; c < tp.cpg; ++c) {
            bias[c] = bG.GetValue(c0 + c);
            Duplicate(acc[c * tileLen], bias[c], tileLen);
        }

        const uint32_t kk = tp.k;
        for (uint32_t ci = 0; ci < tp.cin; ++ci) {
            for (uint32_t a = 0; a < kk; ++a) {
                for (uint32_t bh = 0; bh < kk; ++bh) {
                    for (uint32_t bw = 0; bw < kk; ++bw) {
                        uint64_t src = ((((uint64_t)n * tp.cin + ci) * tp.din + od + a) * tp.hin + bh) * tp.win + bw;
                        FetchWindow(src);
                        LocalTensor<float> win = winQ.DeQue<float>();
                        uint32_t tap = ((ci * kk + a) * kk + bh) * kk + bw;
                        uint32_t vol = tp.cin * kk * kk * kk;
                        for (uint32_t c = 0; c < tp.cpg; ++c) {
                            float wv = wG.GetValue((uint64_t)(c0 + c) * vol + tap);
                            Axpy(acc[c * tileLen], win, wv, tileLen);
                        }
                        winQ.FreeTensor(win);
                    }
                }
            }
        }

        // statistics; the padded lanes hold exactly `bias` (window pad is zero)
        LocalTensor<float> sqT = sqBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        float padLanes = (float)(tp.hout * (tp.woutPad - tp.wout));
        for (uint32_t c = 0; c < tp.cpg; ++c) {
            LocalTensor<float> a = acc[c * tileLen];
            Mul(sqT, a, a, tileLen);
            ReduceSum(red, a, red, tileLen);
            event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e);
            WaitFlag<HardEvent::V_S>(e);
            float s1 = red.GetValue(0);
            ReduceSum(red, sqT, red, tileLen);
            e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e);
            WaitFlag<HardEvent::V_S>(e);
            float s2 = red.GetValue(0);
            sum += s1 - padLanes * bias[c];
            sq += s2 - padLanes * bias[c] * bias[c];
        }

        accQ.EnQue(acc);
        acc = accQ.DeQue<float>();
        for (uint32_t c = 0; c < tp.cpg; ++c) {
            uint64_t dst = (((uint64_t)n * tp.cout + c0 + c) * tp.dout + od) * tp.hout * tp.wout;
            DataCopyExtParams p;
            p.blockCount = (uint16_t)tp.hout;
            p.blockLen = tp.wout * sizeof(float);
            p.srcStride = 0;
            p.dstStride = 0;
            p.rsv = 0;
            DataCopyPad(yG[dst], acc[c * tileLen], p);
        }
        accQ.FreeTensor(acc);
    }

    // (hout x wout) window starting at GM element `src`, row pitch win -> rows of woutPad
    __aicore__ inline void FetchWindow(uint64_t src)
    {
        LocalTensor<float> win = winQ.AllocTensor<float>();
        DataCopyExtParams p;
        p.blockCount = (uint16_t)tp.hout;
        p.blockLen = tp.wout * sizeof(float);
        p.srcStride = (tp.win - tp.wout) * sizeof(float);
        p.dstStride = 0;
        p.rsv = 0;
        DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(tp.woutPad - tp.wout), 0.0f};
        DataCopyPad(win, xG[src], p, pad);
        winQ.EnQue(win);
    }

    __aicore__ inline void Epilogue(uint64_t off, uint32_t len, float scale, float shift)
    {
        uint32_t lenPad = (len + 7) / 8 * 8;
        LocalTensor<float> v = dataQ.AllocTensor<float>();
        LocalTensor<float> m = maskQ.AllocTensor<float>();
        DataCopyExtParams p{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(v, yG[off], p, pad);
        DataCopyPad(m, maskG[off], p, pad);
        dataQ.EnQue(v);
        maskQ.EnQue(m);

        v = dataQ.DeQue<float>();
        m = maskQ.DeQue<float>();
        LocalTensor<float> o = outQ.AllocTensor<float>();
        Muls(o, v, scale, lenPad);
        Adds(o, o, shift, lenPad);
        Mins(o, o, tp.minValue, lenPad);
        Maxs(o, o, tp.clampLo, lenPad);
        Mins(o, o, tp.clampHi, lenPad);
        Mul(o, o, m, lenPad);
        Muls(o, o, tp.keepScale, lenPad);
        dataQ.FreeTensor(v);
        maskQ.FreeTensor(m);
        outQ.EnQue(o);

        o = outQ.DeQue<float>();
        DataCopyPad(yG[off], o, p);
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> winQ, dataQ, maskQ;
    TQue<QuePosition::VECOUT, 1> accQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> sqBuf, redBuf;
    GlobalTensor<float> xG, wG, bG, gammaG, betaG, maskG, yG;
    VoxelFilterGnClampTiling tp;
    uint32_t tileLen = 0, plane = 0;
    uint32_t n = 0, g = 0, c0 = 0;
};

extern "C" __global__ __aicore__ void voxel_filter_gn_clamp(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR gamma,
                                                           GM_ADDR beta, GM_ADDR mask, GM_ADDR y, GM_ADDR tiling)
{
    VoxelFilterGnClampTiling t;
    __gm__ uint32_t *s = (__gm__ uint32_t *)tiling;
    uint32_t *d = (uint32_t *)&t;
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); i++) {
        d[i] = s[i];
    }
    VoxelFilterGnClamp op;
    op.Init(x, w, b, gamma, beta, mask, y, t);
    op.Process();
}
