// total[n] = sum_{c,ph,pw} sigmoid( avgpool_p( conv2d(x, filter) + bias )[n, c, ph, pw] )
#include "kernel_operator.h"
using namespace AscendC;

class ConvPoolSigmoidTotalKernel {
public:
    __aicore__ inline ConvPoolSigmoidTotalKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR f, GM_ADDR b, GM_ADDR total, GM_ADDR usrWs,
                                const ConvPoolSigmoidTotalTilingData &td)
    {
        t = td;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        fGm.SetGlobalBuffer((__gm__ float *)f);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        outGm.SetGlobalBuffer((__gm__ float *)total);
        partGm.SetGlobalBuffer((__gm__ float *)usrWs);

        bandConvRows = t.bandPooledRows * t.pool;
        taps = t.cin * t.kh * t.kw;
        pipe.InitBuffer(slabQue, 2, (bandConvRows + t.kh - 1) * t.convWPad * sizeof(float));
        pipe.InitBuffer(accB, bandConvRows * t.convWPad * sizeof(float));
        pipe.InitBuffer(filtB, ((taps + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(poolB, t.bandPooledRows * t.pooledWPad * sizeof(float));
        pipe.InitBuffer(runB, t.pooledWPad * sizeof(float));
        pipe.InitBuffer(redB, 64 * sizeof(float));
        pipe.InitBuffer(resB, ((t.unitsPerCore + 7) / 8 * 8 + 8) * sizeof(float));
    }

    __aicore__ inline void ComputePartials()
    {
        const uint32_t units = t.n * t.cout;
        const uint32_t u0 = GetBlockIdx() * t.unitsPerCore;
        uint32_t u1 = u0 + t.unitsPerCore;
        if (u1 > units) u1 = units;
        if (u0 >= u1) return;

        LocalTensor<float> res = resB.Get<float>();
        for (uint32_t u = u0; u < u1; ++u) {
            const uint32_t nIdx = u / t.cout;
            const uint32_t co = u % t.cout;
            res.SetValue(u - u0, OneChannel(nIdx, co));
        }
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e);
        WaitFlag<HardEvent::S_MTE3>(e);
        DataCopyExtParams cp{1, (u1 - u0) * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(partGm[u0], res, cp);
    }

    __aicore__ inline void ReduceChannels()
    {
        const uint32_t n0 = GetBlockIdx() * t.batchPerCore;
        uint32_t n1 = n0 + t.batchPerCore;
        if (n1 > t.n) n1 = t.n;
        if (n0 >= n1) return;
        pipe.Reset();
        TBuf<TPosition::VECCALC> inB, work, outB;
        const uint32_t cPad = (t.cout + 7) / 8 * 8;
        pipe.InitBuffer(inB, cPad * sizeof(float));
        pipe.InitBuffer(work, cPad * sizeof(float));
        pipe.InitBuffer(outB, ((n1 - n0 + 7) / 8 * 8) * sizeof(float));
        LocalTensor<float> in = inB.Get<float>();
        LocalTensor<float> wk = work.Get<float>();
        LocalTensor<float> o = outB.Get<float>();
        for (uint32_t n = n0; n < n1; ++n) {
            DataCopyExtParams cp{1, t.cout * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            DataCopyPad(in, partGm[(uint64_t)n * t.cout], cp, pad);
            PipeBarrier<PIPE_ALL>();
            ReduceSum(in, in, wk, t.cout);
            PipeBarrier<PIPE_ALL>();
            o.SetValue(n - n0, in.GetValue(0));
        }
        PipeBarrier<PIPE_ALL>();
        DataCopyExtParams cp{1, (n1 - n0) * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(outGm[n0], o, cp);
    }

private:
    // returns sum over one (n, cout) plane of sigmoid(avgpool(conv))
    __aicore__ inline float OneChannel(uint32_t nIdx, uint32_t co)
    {
        LocalTensor<float> filt = filtB.Get<float>();
        DataCopyExtParams fcp{1, taps * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> fpad{false, 0, 0, 0};
        DataCopyPad(filt, fGm[(uint64_t)co * taps], fcp, fpad);
        const float bias = bGm.GetValue(co);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);

        LocalTensor<float> run = runB.Get<float>();
        Duplicate(run, 0.0f, t.pooledWPad);
        const float inv = 1.0f / static_cast<float>(t.pool * t.pool);

        for (uint32_t ph0 = 0; ph0 < t.pooledH; ph0 += t.bandPooledRows) {
            const uint32_t g = (t.pooledH - ph0) < t.bandPooledRows ? (t.pooledH - ph0) : t.bandPooledRows;
            const uint32_t convRows = g * t.pool;
            ConvBand(nIdx, ph0 * t.pool, convRows, filt, bias);
            PoolBand(g, inv);
            // sigmoid on the pooled band, fold into the running per-column total
            LocalTensor<float> pooled = poolB.Get<float>();
            Sigmoid(pooled, pooled, g * t.pooledWPad);
            for (uint32_t r = 0; r < g; ++r) {
                Add(run, run, pooled[r * t.pooledWPad], t.pooledW);
            }
        }
        LocalTensor<float> red = redB.Get<float>();
        LocalTensor<float> pooled = poolB.Get<float>();
        ReduceSum(red, run, pooled, t.pooledW);
        event_t v2s = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(v2s);
        WaitFlag<HardEvent::V_S>(v2s);
        return red.GetValue(0);
    }

    __aicore__ inline void ConvBand(uint32_t nIdx, uint32_t oh0, uint32_t convRows, LocalTensor<float> &filt, float bias)
    {
        LocalTensor<float> acc = accB.Get<float>();
        const uint32_t span = convRows * t.convWPad;
        Duplicate(acc, bias, span);
        const uint32_t slabRows = convRows + t.kh - 1;
        const uint64_t plane = (uint64_t)t.h * t.w;
        for (uint32_t ci = 0; ci < t.cin; ++ci) {
            const uint64_t base = ((uint64_t)nIdx * t.cin + ci) * plane + (uint64_t)oh0 * t.w;
            for (uint32_t j = 0; j < t.kw; ++j) {
                LocalTensor<float> slab = slabQue.AllocTensor<float>();
                DataCopyExtParams cp{(uint16_t)slabRows, t.convW * (uint32_t)sizeof(float),
                                     (t.w - t.convW) * (uint32_t)sizeof(float),
                                     (t.convWPad - t.convW) * (uint32_t)sizeof(float) / 32, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0};
                DataCopyPad(slab, xGm[base + j], cp, pad);
                slabQue.EnQue(slab);
                slab = slabQue.DeQue<float>();
                for (uint32_t i = 0; i < t.kh; ++i) {
                    const float wv = filt.GetValue((ci * t.kh + i) * t.kw + j);
                    Axpy(acc, slab[i * t.convWPad], wv, span);
                }
                slabQue.FreeTensor(slab);
            }
        }
    }

    // vertical window sum on the vector unit, horizontal window sum on the scalar unit
    __aicore__ inline void PoolBand(uint32_t g, float inv)
    {
        LocalTensor<float> acc = accB.Get<float>();
        LocalTensor<float> pooled = poolB.Get<float>();
        for (uint32_t r = 0; r < g; ++r) {
            LocalTensor<float> head = acc[r * t.pool * t.convWPad];
            for (uint32_t k = 1; k < t.pool; ++k) {
                Add(head, head, acc[(r * t.pool + k) * t.convWPad], t.convW);
            }
        }
        event_t v2s = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(v2s);
        WaitFlag<HardEvent::V_S>(v2s);
        for (uint32_t r = 0; r < g; ++r) {
            const uint32_t src = r * t.pool * t.convWPad;
            for (uint32_t pw = 0; pw < t.pooledW; ++pw) {
                float s = 0.0f;
                for (uint32_t k = 0; k < t.pool; ++k) {
                    s += acc.GetValue(src + pw * t.pool + k);
                }
                pooled.SetValue(r * t.pooledWPad + pw, s * inv);
            }
            for (uint32_t pw = t.pooledW; pw < t.pooledWPad; ++pw) {
                pooled.SetValue(r * t.pooledWPad + pw, 0.0f);
            }
        }
        event_t s2v = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(s2v);
        WaitFlag<HardEvent::S_V>(s2v);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> slabQue;
    TBuf<TPosition::VECCALC> accB, filtB, poolB, runB, redB, resB;
    GlobalTensor<float> xGm, fGm, bGm, outGm, partGm;
    ConvPoolSigmoidTotalTilingData t;
    uint32_t bandConvRows = 0, taps = 0;
};

extern "C" __global__ __aicore__ void conv_pool_sigmoid_total(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR total,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    ConvPoolSigmoidTotalKernel op;
    op.Init(x, filter, bias, total, usr, td);
    op.ComputePartials();
    SyncAll();          // partial sums of all channels must be visible
    op.ReduceChannels();
}
