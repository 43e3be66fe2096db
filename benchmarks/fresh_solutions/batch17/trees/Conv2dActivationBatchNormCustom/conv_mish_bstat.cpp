/**
 * conv_mish_bstat.cpp
 *
 * Two device kernels that together compute
 *     y = BatchNorm_train( mish( conv3x3_valid(x, W) + b ) )
 *
 *   conv_mish_bstat       : direct 3x3 convolution (stride 1, no padding) done on the
 *                           vector unit row by row, followed by the mish activation
 *                           x * tanh(softplus(x)).  Each (n, c_out) plane also emits its
 *                           partial sum / sum of squares into a small workspace.
 *   conv_mish_bstat_apply : folds the partial statistics per channel into mean / biased
 *                           variance and normalises every plane of that channel in place.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float MISH_CLAMP = 20.0f;  // exp() overflow guard, mish(x) == x above this

struct ConvMishBstatTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t outWAlign;   // outW rounded up to 8 floats (one 32B block)
    uint32_t planeTile;   // elements per tile in the normalisation pass
    float eps;
};

__aicore__ inline void LoadTiling(ConvMishBstatTiling *t, GM_ADDR tiling)
{
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(t);
    for (uint32_t i = 0; i < sizeof(ConvMishBstatTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
}

// Split `total` work items evenly across the cores, first `rem` cores take one more.
__aicore__ inline void SplitWork(uint32_t total, uint32_t &start, uint32_t &count)
{
    uint32_t cores = GetBlockNum();
    uint32_t idx = GetBlockIdx();
    uint32_t base = total / cores;
    uint32_t rem = total % cores;
    count = base + (idx < rem ? 1 : 0);
    start = idx * base + (idx < rem ? idx : rem);
}

class ConvMishStatsKernel {
public:
    __aicore__ inline ConvMishStatsKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR stats,
                                const ConvMishBstatTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        statGm.SetGlobalBuffer((__gm__ float *)stats);

        // three input rows (kh = 0..2) for one (ci, kw) shift
        pipe.InitBuffer(rowQ, BUFFER_NUM, 3 * tl.outWAlign * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tl.outWAlign * sizeof(float));
        pipe.InitBuffer(accBuf, tl.outWAlign * sizeof(float));
        pipe.InitBuffer(tmpBuf, 2 * tl.outWAlign * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(statBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t start, count;
        SplitWork(tl.batch * tl.cout, start, count);
        for (uint32_t p = start; p < start + count; ++p) {
            uint32_t n = p / tl.cout;
            uint32_t co = p % tl.cout;
            ComputePlane(n, co);
        }
    }

private:
    __aicore__ inline void ComputePlane(uint32_t n, uint32_t co)
    {
        float biasVal = bGm.GetValue(co);
        float runSum = 0.0f;
        float runSq = 0.0f;
        uint64_t wBase = (uint64_t)co * tl.cin * 9;

        for (uint32_t oh = 0; oh < tl.outH; ++oh) {
            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, biasVal, tl.outWAlign);

            for (uint32_t ci = 0; ci < tl.cin; ++ci) {
                uint64_t rowOff = (((uint64_t)n * tl.cin + ci) * tl.inH + oh) * tl.inW;
                for (uint32_t kw = 0; kw < 3; ++kw) {
                    CopyRows(rowOff + kw);
                    LocalTensor<float> rows = rowQ.DeQue<float>();
                    for (uint32_t kh = 0; kh < 3; ++kh) {
                        float wv = wGm.GetValue(wBase + ci * 9 + kh * 3 + kw);
                        Axpy(acc, rows[kh * tl.outWAlign], wv, tl.outW);
                    }
                    rowQ.FreeTensor(rows);
                }
            }
            MishAndStore(acc, n, co, oh, runSum, runSq);
        }
        WriteStats(n, co, runSum, runSq);
    }

    // rows oh..oh+2 of one input channel, starting at column kw, each padded to outWAlign
    __aicore__ inline void CopyRows(uint64_t gmOff)
    {
        LocalTensor<float> rows = rowQ.AllocTensor<float>();
        DataCopyExtParams cp{3, static_cast<uint32_t>(tl.outW * sizeof(float)),
                             static_cast<uint32_t>((tl.inW - tl.outW) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(rows, xGm[gmOff], cp, pad);
        rowQ.EnQue(rows);
    }

    __aicore__ inline void MishAndStore(LocalTensor<float> &acc, uint32_t n, uint32_t co, uint32_t oh,
                                        float &runSum, float &runSq)
    {
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> u = tmp;
        LocalTensor<float> den = tmp[tl.outWAlign];
        LocalTensor<float> out = outQ.AllocTensor<float>();
        uint32_t len = tl.outW;

        // tanh(softplus(x)) = ((1+e^x)^2 - 1) / ((1+e^x)^2 + 1)
        Mins(u, acc, MISH_CLAMP, len);
        Exp(u, u, len);
        Adds(u, u, 1.0f, len);
        Mul(u, u, u, len);
        Adds(den, u, 1.0f, len);
        Adds(u, u, -1.0f, len);
        Div(u, u, den, len);
        Mul(out, acc, u, len);

        // per-row statistics for the batch norm
        LocalTensor<float> red = redBuf.Get<float>();
        ReduceSum(red, out, den, len);
        Mul(u, out, out, len);
        ReduceSum(red[8], u, den, len);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        runSum += red.GetValue(0);
        runSq += red.GetValue(8);

        outQ.EnQue(out);
        out = outQ.DeQue<float>();
        uint64_t dstOff = (((uint64_t)n * tl.cout + co) * tl.outH + oh) * tl.outW;
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[dstOff], out, cp);
        outQ.FreeTensor(out);
    }

    __aicore__ inline void WriteStats(uint32_t n, uint32_t co, float s, float sq)
    {
        LocalTensor<float> st = statBuf.Get<float>();
        st.SetValue(0, s);
        st.SetValue(1, sq);
        event_t evSM = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(evSM);
        WaitFlag<HardEvent::S_MTE3>(evSM);
        // layout [cout][batch][2] so that the apply pass reads one contiguous run per channel
        uint64_t off = ((uint64_t)co * tl.batch + n) * 2;
        DataCopyExtParams cp{1, 2 * sizeof(float), 0, 0, 0};
        DataCopyPad(statGm[off], st, cp);
        event_t evMS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(evMS);
        WaitFlag<HardEvent::MTE3_S>(evMS);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> accBuf, tmpBuf, redBuf, statBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm, statGm;
    ConvMishBstatTiling tl;
};

class ChannelNormKernel {
public:
    __aicore__ inline ChannelNormKernel() {}

    __aicore__ inline void Init(GM_ADDR y, GM_ADDR stats, GM_ADDR gamma, GM_ADDR beta,
                                const ConvMishBstatTiling &t)
    {
        tl = t;
        yGm.SetGlobalBuffer((__gm__ float *)y);
        statGm.SetGlobalBuffer((__gm__ float *)stats);
        gGm.SetGlobalBuffer((__gm__ float *)gamma);
        bGm.SetGlobalBuffer((__gm__ float *)beta);
        pipe.InitBuffer(inQ, BUFFER_NUM, tl.planeTile * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tl.planeTile * sizeof(float));
        uint32_t statLen = (tl.batch * 2 + 7) / 8 * 8;
        pipe.InitBuffer(statBuf, statLen * sizeof(float));
        pipe.InitBuffer(scalarBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t start, count;
        SplitWork(tl.cout, start, count);
        for (uint32_t c = start; c < start + count; ++c) {
            float scale, shift;
            FoldStats(c, scale, shift);
            for (uint32_t n = 0; n < tl.batch; ++n) {
                NormPlane(n, c, scale, shift);
            }
        }
    }

private:
    __aicore__ inline void FoldStats(uint32_t c, float &scale, float &shift)
    {
        LocalTensor<float> st = statBuf.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(tl.batch * 2 * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(st, statGm[(uint64_t)c * tl.batch * 2], cp, pad);
        event_t evMS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evMS);
        WaitFlag<HardEvent::MTE2_S>(evMS);

        float s = 0.0f, sq = 0.0f;
        for (uint32_t n = 0; n < tl.batch; ++n) {
            s += st.GetValue(2 * n);
            sq += st.GetValue(2 * n + 1);
        }
        float cnt = static_cast<float>(tl.batch * tl.outH * tl.outW);
        float mean = s / cnt;
        float var = sq / cnt - mean * mean;
        if (var < 0.0f) {
            var = 0.0f;
        }

        // 1 / sqrt(var + eps) on the vector unit
        LocalTensor<float> sc = scalarBuf.Get<float>();
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        Duplicate(sc, var + tl.eps, 8);
        Sqrt(sc, sc, 8);
        Reciprocal(sc, sc, 8);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float rstd = sc.GetValue(0);

        scale = gGm.GetValue(c) * rstd;
        shift = bGm.GetValue(c) - mean * scale;
    }

    __aicore__ inline void NormPlane(uint32_t n, uint32_t c, float scale, float shift)
    {
        uint32_t plane = tl.outH * tl.outW;
        uint64_t base = ((uint64_t)n * tl.cout + c) * plane;
        for (uint32_t off = 0; off < plane; off += tl.planeTile) {
            uint32_t len = (plane - off) < tl.planeTile ? (plane - off) : tl.planeTile;
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};

            LocalTensor<float> src = inQ.AllocTensor<float>();
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(src, yGm[base + off], cp, pad);
            inQ.EnQue(src);

            src = inQ.DeQue<float>();
            LocalTensor<float> dst = outQ.AllocTensor<float>();
            Muls(dst, src, scale, len);
            Adds(dst, dst, shift, len);
            inQ.FreeTensor(src);
            outQ.EnQue(dst);

            dst = outQ.DeQue<float>();
            DataCopyPad(yGm[base + off], dst, cp);
            outQ.FreeTensor(dst);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> statBuf, scalarBuf;
    GlobalTensor<float> yGm, statGm, gGm, bGm;
    ConvMishBstatTiling tl;
};

extern "C" __global__ __aicore__ void conv_mish_bstat(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                                      GM_ADDR stats, GM_ADDR tiling)
{
    ConvMishBstatTiling t;
    LoadTiling(&t, tiling);
    ConvMishStatsKernel op;
    op.Init(x, w, bias, y, stats, t);
    op.Process();
}

extern "C" __global__ __aicore__ void conv_mish_bstat_apply(GM_ADDR y, GM_ADDR stats, GM_ADDR gamma,
                                                            GM_ADDR beta, GM_ADDR tiling)
{
    ConvMishBstatTiling t;
    LoadTiling(&t, tiling);
    ChannelNormKernel op;
    op.Init(y, stats, gamma, beta, t);
    op.Process();
}
