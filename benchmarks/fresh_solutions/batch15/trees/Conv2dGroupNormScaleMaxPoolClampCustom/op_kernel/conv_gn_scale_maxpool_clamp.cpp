// ConvGnScaleMaxPoolClamp
// y = clamp(maxpool(groupnorm(conv2d(x)) * scale), lo, hi)
//
// A core owns whole (batch, group) pairs, so the group statistics never cross cores.
//  pass 1: direct convolution of every channel in the group, one output row at a time.
//          The K*K shifted copies of each input row are DMA'd straight from GM (GM reads
//          need no alignment), so every Axpy works on aligned UB rows. Rows are staged
//          in workspace while running sums of x and x^2 are kept.
//  pass 2: per channel the norm, gamma/beta and scale collapse into y = a*x + b; pool
//          rows are combined with Max, pool columns with a Gather table + Max, then clamp.
#include "kernel_operator.h"

using namespace AscendC;

class ConvGnScaleMaxPoolClampKernel {
public:
    __aicore__ inline ConvGnScaleMaxPoolClampKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR scale, GM_ADDR y, GM_ADDR usrWs, const ConvGnScaleMaxPoolClampTiling& td)
    {
        tp = td;
        taps = td.k * td.k;
        rowsPerOut = td.cin * taps;
        wPerGroup = td.chPerGroup * rowsPerOut;

        uint32_t s = GetBlockIdx() * td.unitsPerCore;
        first = s;
        last = s + td.unitsPerCore > td.totalUnits ? td.totalUnits : s + td.unitsPerCore;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)weight);
        biasGm.SetGlobalBuffer((__gm__ float*)bias);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma);
        betaGm.SetGlobalBuffer((__gm__ float*)beta);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        stageGm.SetGlobalBuffer((__gm__ float*)usrWs);

        pipe.InitBuffer(rowsQ, 2, rowsPerOut * td.owAlign * sizeof(float));
        pipe.InitBuffer(convQ, 2, td.owAlign * sizeof(float));
        pipe.InitBuffer(poolInQ, 2, td.pool * td.owAlign * sizeof(float));
        pipe.InitBuffer(outQ, 2, td.pwAlign * sizeof(float));
        pipe.InitBuffer(wBuf, ((wPerGroup + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(sqBuf, td.owAlign * sizeof(float));
        pipe.InitBuffer(redBuf, td.owAlign * sizeof(float));
        pipe.InitBuffer(colMax, td.owAlign * sizeof(float));
        pipe.InitBuffer(gBuf, td.pwAlign * sizeof(float));
        pipe.InitBuffer(tabBuf, td.pool * td.pwAlign * sizeof(uint32_t));
        pipe.InitBuffer(tinyBuf, 64 * sizeof(float));

        LocalTensor<uint32_t> tab = tabBuf.Get<uint32_t>();
        for (uint32_t p = 0; p < td.pool; ++p) {
            for (uint32_t j = 0; j < td.pw; ++j) {
                tab.SetValue(p * td.pwAlign + j, (j * td.pool + p) * sizeof(float));
            }
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = first; u < last; ++u) {
            uint32_t n = u / tp.groups;
            uint32_t g = u % tp.groups;
            float mean, rstd;
            ConvAndStats(n, g, mean, rstd);
            PipeBarrier<PIPE_ALL>();   // staged rows must be in GM before pass 2 reads them
            NormPoolClamp(n, g, mean, rstd);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Wait()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    __aicore__ inline void ConvAndStats(uint32_t n, uint32_t g, float& mean, float& rstd)
    {
        const uint32_t c0 = g * tp.chPerGroup;
        const int32_t len = static_cast<int32_t>(tp.ow);
        LocalTensor<float> wl = wBuf.Get<float>();
        DataCopyPadExtParams<float> zp{false, 0, 0, 0.0f};
        DataCopyExtParams wp{1, static_cast<uint32_t>(wPerGroup * sizeof(float)), 0, 0, 0};
        DataCopyPad(wl, wGm[static_cast<uint64_t>(c0) * rowsPerOut], wp, zp);
        Wait<HardEvent::MTE2_S>();

        float sum = 0.0f, sumSq = 0.0f;
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> tiny = tinyBuf.Get<float>();

        for (uint32_t r = 0; r < tp.oh; ++r) {
            // rows[(ci*K + kw)*K + kh] = x[n, ci, r+kh, kw : kw+OW]
            LocalTensor<float> rows = rowsQ.AllocTensor<float>();
            for (uint32_t ci = 0; ci < tp.cin; ++ci) {
                uint64_t base = ((static_cast<uint64_t>(n) * tp.cin + ci) * tp.h + r) * tp.w;
                for (uint32_t kw = 0; kw < tp.k; ++kw) {
                    DataCopyExtParams cp{static_cast<uint16_t>(tp.k), static_cast<uint32_t>(tp.ow * sizeof(float)),
                                         static_cast<uint32_t>((tp.w - tp.ow) * sizeof(float)), 0, 0};
                    DataCopyPad(rows[((ci * tp.k + kw) * tp.k) * tp.owAlign], xGm[base + kw], cp, zp);
                }
            }
            rowsQ.EnQue(rows);
            rows = rowsQ.DeQue<float>();

            for (uint32_t cl = 0; cl < tp.chPerGroup; ++cl) {
                LocalTensor<float> acc = convQ.AllocTensor<float>();
                Duplicate(acc, biasGm.GetValue(c0 + cl), len);
                const uint32_t wOff = cl * rowsPerOut;
                for (uint32_t ci = 0; ci < tp.cin; ++ci) {
                    for (uint32_t kw = 0; kw < tp.k; ++kw) {
                        for (uint32_t kh = 0; kh < tp.k; ++kh) {
                            float wv = wl.GetValue(wOff + (ci * tp.k + kh) * tp.k + kw);
                            Axpy(acc, rows[((ci * tp.k + kw) * tp.k + kh) * tp.owAlign], wv, len);
                        }
                    }
                }
                Mul(sq, acc, acc, len);
                ReduceSum<float>(tiny, acc, red, len);
                ReduceSum<float>(tiny[8], sq, red, len);
                Wait<HardEvent::V_S>();
                sum += tiny.GetValue(0);
                sumSq += tiny.GetValue(8);

                convQ.EnQue(acc);
                acc = convQ.DeQue<float>();
                uint64_t dst = ((static_cast<uint64_t>(n) * tp.cout + c0 + cl) * tp.oh + r) * tp.ow;
                DataCopyExtParams op{1, static_cast<uint32_t>(tp.ow * sizeof(float)), 0, 0, 0};
                DataCopyPad(stageGm[dst], acc, op);
                convQ.FreeTensor(acc);
            }
            rowsQ.FreeTensor(rows);
        }

        float cnt = static_cast<float>(tp.chPerGroup) * tp.oh * tp.ow;
        mean = sum / cnt;
        float var = sumSq / cnt - mean * mean;
        if (var < 0.0f) var = 0.0f;
        Duplicate(tiny[16], var + tp.eps, 8);
        Sqrt(tiny[16], tiny[16], 8);
        Duplicate(tiny[24], 1.0f, 8);
        Div(tiny[16], tiny[24], tiny[16], 8);
        Wait<HardEvent::V_S>();
        rstd = tiny.GetValue(16);
    }

    __aicore__ inline void NormPoolClamp(uint32_t n, uint32_t g, float mean, float rstd)
    {
        const int32_t len = static_cast<int32_t>(tp.ow);
        const int32_t plen = static_cast<int32_t>(tp.pw);
        LocalTensor<float> cm = colMax.Get<float>();
        LocalTensor<float> gt = gBuf.Get<float>();
        LocalTensor<uint32_t> tab = tabBuf.Get<uint32_t>();
        DataCopyPadExtParams<float> zp{false, 0, 0, 0.0f};

        for (uint32_t cl = 0; cl < tp.chPerGroup; ++cl) {
            uint32_t c = g * tp.chPerGroup + cl;
            float gs = gammaGm.GetValue(c) * rstd * scaleGm.GetValue(c);
            float bs = (betaGm.GetValue(c) - mean * gammaGm.GetValue(c) * rstd) * scaleGm.GetValue(c);
            uint64_t plane = (static_cast<uint64_t>(n) * tp.cout + c) * tp.oh * tp.ow;

            for (uint32_t pr = 0; pr < tp.ph; ++pr) {
                LocalTensor<float> blk = poolInQ.AllocTensor<float>();
                DataCopyExtParams cp{static_cast<uint16_t>(tp.pool), static_cast<uint32_t>(tp.ow * sizeof(float)), 0, 0, 0};
                DataCopyPad(blk, stageGm[plane + static_cast<uint64_t>(pr) * tp.pool * tp.ow], cp, zp);
                poolInQ.EnQue(blk);
                blk = poolInQ.DeQue<float>();

                // affine first (scale may be negative), then max down the window rows
                Muls(cm, blk, gs, len);
                Adds(cm, cm, bs, len);
                for (uint32_t q = 1; q < tp.pool; ++q) {
                    LocalTensor<float> rq = blk[q * tp.owAlign];
                    Muls(rq, rq, gs, len);
                    Adds(rq, rq, bs, len);
                    Max(cm, cm, rq, len);
                }
                poolInQ.FreeTensor(blk);

                LocalTensor<float> out = outQ.AllocTensor<float>();
                Gather(out, cm, tab, 0U, tp.pw);
                for (uint32_t p = 1; p < tp.pool; ++p) {
                    Gather(gt, cm, tab[p * tp.pwAlign], 0U, tp.pw);
                    Max(out, out, gt, plen);
                }
                Maxs(out, out, tp.lo, plen);
                Mins(out, out, tp.hi, plen);
                outQ.EnQue(out);

                out = outQ.DeQue<float>();
                uint64_t dst = ((static_cast<uint64_t>(n) * tp.cout + c) * tp.ph + pr) * tp.pw;
                DataCopyExtParams op{1, static_cast<uint32_t>(tp.pw * sizeof(float)), 0, 0, 0};
                DataCopyPad(yGm[dst], out, op);
                outQ.FreeTensor(out);
            }
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowsQ, poolInQ;
    TQue<QuePosition::VECOUT, 2> convQ, outQ;
    TBuf<TPosition::VECCALC> wBuf, sqBuf, redBuf, colMax, gBuf, tabBuf, tinyBuf;
    GlobalTensor<float> xGm, wGm, biasGm, gammaGm, betaGm, scaleGm, yGm, stageGm;

    ConvGnScaleMaxPoolClampTiling tp;
    uint32_t taps, rowsPerOut, wPerGroup, first, last;
};

extern "C" __global__ __aicore__ void conv_gn_scale_maxpool_clamp(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                  GM_ADDR gamma, GM_ADDR beta, GM_ADDR scale,
                                                                  GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    ConvGnScaleMaxPoolClampKernel op;
    op.Init(x, weight, bias, gamma, beta, scale, y, usr, td);
    op.Process();
}
