/*
 * Conv3dHswishGnGap
 *
 *   h        = hardswish(conv3d(x, weight) + bias)          [N, C, OD, OH, OW]
 *   y[n, c]  = mean_s GroupNorm(h)[n, c, s]
 *
 * Because the spatial mean is linear, the normalised map never has to exist:
 *   y[n, c] = gamma[c] * (mean_s h[n, c] - mu[n, g]) * rstd[n, g] + beta[c]
 * where mu / rstd are the statistics of group g = c / (C / groups).  So per
 * sample we only need sum(h) and sum(h^2) of every channel.
 *
 * Conv: for each output row (od, oh) and each of the Cin*KD*KH*KW taps, the
 * input segment x[n, ci, od+kd, oh+kh, kw : kw+OW] is one DMA; it is then
 * broadcast into every channel's accumulator row with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

class Conv3dHswishGnGapKernel {
public:
    __aicore__ inline Conv3dHswishGnGapKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const Conv3dHswishGnGapTilingData& td)
    {
        cfg = td;
        const uint32_t blk = GetBlockIdx();
        nBegin = blk * td.batchPerCore + (blk < td.batchRem ? blk : td.batchRem);
        nCount = td.batchPerCore + (blk < td.batchRem ? 1 : 0);
        taps = td.cin * td.kD * td.kH * td.kW;
        spatial = td.outD * td.outH * td.outW;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        bGm.SetGlobalBuffer((__gm__ float*)b);
        gGm.SetGlobalBuffer((__gm__ float*)gamma);
        betaGm.SetGlobalBuffer((__gm__ float*)beta);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        const uint32_t blockRows = td.coBlock * td.rowStride;
        pipe.InitBuffer(segQue, 2, td.rowStride * sizeof(float));
        pipe.InitBuffer(accBuf, blockRows * sizeof(float));
        pipe.InitBuffer(s1Buf, blockRows * sizeof(float));
        pipe.InitBuffer(s2Buf, blockRows * sizeof(float));
        pipe.InitBuffer(tmpBuf, td.rowStride * sizeof(float));
        pipe.InitBuffer(wBuf, ((td.coBlock * taps + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(statBuf, 2 * td.coutAlign * sizeof(float));   // [sum | sumsq] per channel
        pipe.InitBuffer(outBuf, td.coutAlign * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < nCount; ++i) {
            const uint32_t n = nBegin + i;
            for (uint32_t c0 = 0; c0 < cfg.cout; c0 += cfg.coBlock) {
                const uint32_t cb = (cfg.cout - c0) < cfg.coBlock ? (cfg.cout - c0) : cfg.coBlock;
                ChannelSums(n, c0, cb);
            }
            Epilogue(n);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Barrier()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    // hardswish(v) = v * clamp(v + 3, 0, 6) / 6, in place on `row`
    __aicore__ inline void HardSwish(LocalTensor<float>& row, LocalTensor<float>& tmp, uint32_t len)
    {
        Adds(tmp, row, 3.0f, len);
        Maxs(tmp, tmp, 0.0f, len);
        Mins(tmp, tmp, 6.0f, len);
        Muls(tmp, tmp, 1.0f / 6.0f, len);
        Mul(row, row, tmp, len);
    }

    __aicore__ inline void ChannelSums(uint32_t n, uint32_t c0, uint32_t cb)
    {
        const uint32_t ow = cfg.outW;
        const uint32_t ld = cfg.rowStride;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> s1 = s1Buf.Get<float>();
        LocalTensor<float> s2 = s2Buf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();

        // filters of channels [c0, c0 + cb) are contiguous in GM
        DataCopyPad(wl, wGm[static_cast<uint64_t>(c0) * taps],
                    DataCopyExtParams{1, cb * taps * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0});
        Barrier<HardEvent::MTE2_S>();

        Duplicate(s1, 0.0f, cb * ld);
        Duplicate(s2, 0.0f, cb * ld);

        const uint64_t planeHW = static_cast<uint64_t>(cfg.inH) * cfg.inW;
        const uint64_t volume = planeHW * cfg.inD;
        for (uint32_t d = 0; d < cfg.outD; ++d) {
            for (uint32_t r = 0; r < cfg.outH; ++r) {
                for (uint32_t c = 0; c < cb; ++c) {
                    Duplicate(acc[c * ld], bGm.GetValue(c0 + c), ow);
                }
                uint32_t t = 0;
                for (uint32_t ci = 0; ci < cfg.cin; ++ci) {
                    const uint64_t chBase = (static_cast<uint64_t>(n) * cfg.cin + ci) * volume;
                    for (uint32_t kd = 0; kd < cfg.kD; ++kd) {
                        for (uint32_t kh = 0; kh < cfg.kH; ++kh) {
                            const uint64_t rowBase = chBase + (d + kd) * planeHW + static_cast<uint64_t>(r + kh) * cfg.inW;
                            for (uint32_t kw = 0; kw < cfg.kW; ++kw, ++t) {
                                LocalTensor<float> seg = segQue.AllocTensor<float>();
                                DataCopyPad(seg, xGm[rowBase + kw],
                                            DataCopyExtParams{1, ow * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                                            DataCopyPadExtParams<float>{false, 0, 0, 0});
                                segQue.EnQue(seg);
                                seg = segQue.DeQue<float>();
                                for (uint32_t c = 0; c < cb; ++c) {
                                    Axpy(acc[c * ld], seg, wl.GetValue(c * taps + t), ow);
                                }
                                segQue.FreeTensor(seg);
                            }
                        }
                    }
                }
                for (uint32_t c = 0; c < cb; ++c) {
                    LocalTensor<float> row = acc[c * ld];
                    HardSwish(row, tmp, ow);
                    Add(s1[c * ld], s1[c * ld], row, ow);
                    Mul(tmp, row, row, ow);
                    Add(s2[c * ld], s2[c * ld], tmp, ow);
                }
            }
        }

        // collapse lanes -> one (sum, sumsq) pair per channel
        LocalTensor<float> red = redBuf.Get<float>();
        for (uint32_t c = 0; c < cb; ++c) {
            ReduceSum(red, s1[c * ld], tmp, ow);
            Barrier<HardEvent::V_S>();
            stat.SetValue(c0 + c, red.GetValue(0));
            Barrier<HardEvent::S_V>();
            ReduceSum(red, s2[c * ld], tmp, ow);
            Barrier<HardEvent::V_S>();
            stat.SetValue(cfg.coutAlign + c0 + c, red.GetValue(0));
            Barrier<HardEvent::S_V>();
        }
    }

    // group statistics and the closed-form mean of the normalised map
    __aicore__ inline void Epilogue(uint32_t n)
    {
        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> res = outBuf.Get<float>();
        const uint32_t perGroup = cfg.cout / cfg.groups;
        const float invCh = 1.0f / static_cast<float>(spatial);
        const float invGrp = invCh / static_cast<float>(perGroup);
        for (uint32_t g = 0; g < cfg.groups; ++g) {
            float s = 0.0f;
            float q = 0.0f;
            for (uint32_t c = g * perGroup; c < (g + 1) * perGroup; ++c) {
                s += stat.GetValue(c);
                q += stat.GetValue(cfg.coutAlign + c);
            }
            const float mu = s * invGrp;
            float var = q * invGrp - mu * mu;
            var = var > 0.0f ? var : 0.0f;
            // one-lane vector rsqrt
            LocalTensor<float> red = redBuf.Get<float>();
            red.SetValue(0, var + cfg.eps);
            Barrier<HardEvent::S_V>();
            Sqrt(red, red, 1);
            Barrier<HardEvent::V_S>();
            const float rstd = 1.0f / red.GetValue(0);
            for (uint32_t c = g * perGroup; c < (g + 1) * perGroup; ++c) {
                const float chMean = stat.GetValue(c) * invCh;
                res.SetValue(c, gGm.GetValue(c) * (chMean - mu) * rstd + betaGm.GetValue(c));
            }
        }
        Barrier<HardEvent::S_MTE3>();
        DataCopyPad(yGm[static_cast<uint64_t>(n) * cfg.cout], res,
                    DataCopyExtParams{1, cfg.cout * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
        Barrier<HardEvent::MTE3_S>();
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> segQue;
    TBuf<TPosition::VECCALC> accBuf, s1Buf, s2Buf, tmpBuf, wBuf, statBuf, outBuf, redBuf;
    GlobalTensor<float> xGm, wGm, bGm, gGm, betaGm, yGm;
    Conv3dHswishGnGapTilingData cfg;
    uint32_t nBegin = 0, nCount = 0, taps = 0, spatial = 0;
};

extern "C" __global__ __aicore__ void conv3d_hswish_gn_gap(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma,
                                                           GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Conv3dHswishGnGapKernel op;
    op.Init(x, weight, bias, gamma, beta, y, td);
    op.Process();
}
