/**
 * ShiftedWindowTokenMix
 *
 * First half of a window-MLP block:
 *   y = x + Unwindow( TokenMix_head( Window( Pad_shift( LayerNorm(x) ) ) ) )
 *
 * One work item = one (possibly shifted) window. Tokens of the window that fall in the
 * zero border created by the shift are treated as zeros after normalisation and are never
 * written back. Channels are processed in groups of whole heads so the working set stays in UB.
 */
#include "kernel_operator.h"

using namespace AscendC;

class ShiftedWindowTokenMixKernel {
public:
    __aicore__ inline ShiftedWindowTokenMixKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR mixW, GM_ADDR mixB, GM_ADDR y,
                                const ShiftedWindowTokenMixTilingData &td)
    {
        B = td.batch; H = td.imgH; W = td.imgW; C = td.channels;
        nHeads = td.heads; hd = td.headDim; win = td.win; lead = td.padLead;
        winsH = td.winsH; winsW = td.winsW; hpp = td.headsPerPass; eps = td.eps;
        T = win * win;
        cg = hpp * hd;

        uint32_t begin = GetBlockIdx() * td.winsPerCore;
        winBegin = begin;
        winEnd = begin + td.winsPerCore;
        if (winEnd > td.totalWins) {
            winEnd = td.totalWins;
        }

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        wGm.SetGlobalBuffer((__gm__ float *)mixW);
        gGm.SetGlobalBuffer((__gm__ float *)gamma);
        bGm.SetGlobalBuffer((__gm__ float *)beta);
        biasGm.SetGlobalBuffer((__gm__ float *)mixB);

        uint32_t tAlign = (T + 7) / 8 * 8;
        pipe.InitBuffer(lineBuf, win * C * sizeof(float));
        pipe.InitBuffer(scratchBuf, (C > tAlign ? C : tAlign) * sizeof(float));
        pipe.InitBuffer(reduceWork, C * sizeof(float));
        pipe.InitBuffer(affineBuf, 2 * C * sizeof(float));
        pipe.InitBuffer(meanBuf, tAlign * sizeof(float));
        pipe.InitBuffer(rstdBuf, tAlign * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(normTile, T * cg * sizeof(float));
        pipe.InitBuffer(resTile, T * cg * sizeof(float));
        pipe.InitBuffer(outTile, T * cg * sizeof(float));
        pipe.InitBuffer(matBuf, hpp * T * T * sizeof(float));
        pipe.InitBuffer(biasBuf, ((nHeads * T + 7) / 8 * 8) * sizeof(float));

        // gamma, beta and the full mixing bias are loaded once per core
        LocalTensor<float> aff = affineBuf.Get<float>();
        DataCopyExtParams cpC{1, static_cast<uint32_t>(C * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(aff, gGm, cpC, noPad);
        DataCopyPad(aff[C], bGm, cpC, noPad);
        LocalTensor<float> bias = biasBuf.Get<float>();
        DataCopyExtParams cpB{1, static_cast<uint32_t>(nHeads * T * sizeof(float)), 0, 0, 0};
        DataCopyPad(bias, biasGm, cpB, noPad);
        Sync<HardEvent::MTE2_V>();
        Sync<HardEvent::MTE2_S>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t wi = winBegin; wi < winEnd; ++wi) {
            DoWindow(wi);
        }
    }

private:
    template <HardEvent EV>
    __aicore__ inline void Sync()
    {
        event_t id = static_cast<event_t>(pipe.FetchEventID(EV));
        SetFlag<EV>(id);
        WaitFlag<EV>(id);
    }

    __aicore__ inline float SumOf(const LocalTensor<float> &src, uint32_t n)
    {
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> wk = reduceWork.Get<float>();
        ReduceSum<float>(red, src, wk, static_cast<int32_t>(n));
        Sync<HardEvent::V_S>();
        return red.GetValue(0);
    }

    __aicore__ inline bool RowValid(uint32_t r) const
    {
        int32_t h = static_cast<int32_t>(wr * win + r) - static_cast<int32_t>(lead);
        return h >= 0 && h < static_cast<int32_t>(H);
    }

    __aicore__ inline uint64_t TokenOffset(uint32_t r) const
    {
        uint32_t h = wr * win + r - lead;
        return (static_cast<uint64_t>(b) * H * W + static_cast<uint64_t>(h) * W + w0) * C;
    }

    __aicore__ inline void DoWindow(uint32_t wi)
    {
        uint32_t perImg = winsH * winsW;
        b = wi / perImg;
        uint32_t rem = wi - b * perImg;
        wr = rem / winsW;
        wc = rem - wr * winsW;

        // the valid column range is the same for every row of the window
        int32_t lo = static_cast<int32_t>(wc * win) - static_cast<int32_t>(lead);
        int32_t hi = lo + static_cast<int32_t>(win);
        int32_t l0 = lo < 0 ? 0 : lo;
        int32_t h1 = hi > static_cast<int32_t>(W) ? static_cast<int32_t>(W) : hi;
        if (h1 <= l0) {
            return;
        }
        w0 = static_cast<uint32_t>(l0);
        cnt = static_cast<uint32_t>(h1 - l0);
        q0 = static_cast<uint32_t>(l0 - lo);

        Statistics();
        for (uint32_t h0 = 0; h0 < nHeads; h0 += hpp) {
            MixHeads(h0);
        }
    }

    // per-token mean and 1/std over all C channels
    __aicore__ inline void Statistics()
    {
        LocalTensor<float> line = lineBuf.Get<float>();
        LocalTensor<float> sq = scratchBuf.Get<float>();
        LocalTensor<float> mean = meanBuf.Get<float>();
        LocalTensor<float> rstd = rstdBuf.Get<float>();
        Duplicate(mean, 0.0f, T);
        Duplicate(rstd, 1.0f, T);
        Sync<HardEvent::V_S>();
        float invC = 1.0f / static_cast<float>(C);

        for (uint32_t r = 0; r < win; ++r) {
            if (!RowValid(r)) {
                continue;
            }
            Sync<HardEvent::V_MTE2>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * C * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
            DataCopyPad(line, xGm[TokenOffset(r)], cp, np);
            Sync<HardEvent::MTE2_V>();
            for (uint32_t t = 0; t < cnt; ++t) {
                LocalTensor<float> tok = line[t * C];
                float mu = SumOf(tok, C) * invC;
                Adds(sq, tok, -mu, C);
                Mul(sq, sq, sq, C);
                float var = SumOf(sq, C) * invC;
                uint32_t q = r * win + q0 + t;
                mean.SetValue(q, mu);
                rstd.SetValue(q, var);
            }
        }
        Sync<HardEvent::S_V>();
        // rstd = 1 / sqrt(var + eps); untouched (padded) slots are harmless
        Adds(rstd, rstd, eps, T);
        Sqrt(rstd, rstd, T);
        LocalTensor<float> ones = scratchBuf.Get<float>();
        Duplicate(ones, 1.0f, T);
        Div(rstd, ones, rstd, T);
        Sync<HardEvent::V_S>();
    }

    __aicore__ inline void MixHeads(uint32_t h0)
    {
        uint32_t c0 = h0 * hd;
        LocalTensor<float> nt = normTile.Get<float>();
        LocalTensor<float> rt = resTile.Get<float>();
        LocalTensor<float> ot = outTile.Get<float>();
        LocalTensor<float> mat = matBuf.Get<float>();
        LocalTensor<float> aff = affineBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> mean = meanBuf.Get<float>();
        LocalTensor<float> rstd = rstdBuf.Get<float>();

        Sync<HardEvent::V_MTE2>();
        Sync<HardEvent::MTE3_MTE2>();
        // mixing matrices of this head group (contiguous in GM)
        DataCopyExtParams cpM{1, static_cast<uint32_t>(hpp * T * T * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(mat, wGm[static_cast<uint64_t>(h0) * T * T], cpM, np);
        // channel slice [c0, c0+cg) of each valid token -> residual tile
        DataCopyExtParams cpS{static_cast<uint16_t>(cnt), static_cast<uint32_t>(cg * sizeof(float)),
                              static_cast<uint32_t>((C - cg) * sizeof(float)), 0, 0};
        for (uint32_t r = 0; r < win; ++r) {
            if (RowValid(r)) {
                DataCopyPad(rt[(r * win + q0) * cg], xGm[TokenOffset(r) + c0], cpS, np);
            }
        }
        Sync<HardEvent::MTE2_V>();
        Sync<HardEvent::MTE2_S>();

        // normalise: padded tokens stay zero
        Duplicate(nt, 0.0f, T * cg);
        PipeBarrier<PIPE_V>();
        for (uint32_t r = 0; r < win; ++r) {
            if (!RowValid(r)) {
                continue;
            }
            for (uint32_t t = 0; t < cnt; ++t) {
                uint32_t q = r * win + q0 + t;
                LocalTensor<float> dst = nt[q * cg];
                Adds(dst, rt[q * cg], -mean.GetValue(q), cg);
                PipeBarrier<PIPE_V>();
                Muls(dst, dst, rstd.GetValue(q), cg);
                PipeBarrier<PIPE_V>();
                Mul(dst, dst, aff[c0], cg);
                PipeBarrier<PIPE_V>();
                Add(dst, dst, aff[C + c0], cg);
            }
        }
        PipeBarrier<PIPE_V>();

        // token mixing: out[q, head] = bias[head, q] + sum_q' M[head, q, q'] * n[q', head]
        for (uint32_t r = 0; r < win; ++r) {
            if (!RowValid(r)) {
                continue;
            }
            for (uint32_t t = 0; t < cnt; ++t) {
                uint32_t q = r * win + q0 + t;
                for (uint32_t hh = 0; hh < hpp; ++hh) {
                    LocalTensor<float> acc = ot[q * cg + hh * hd];
                    Duplicate(acc, bias.GetValue((h0 + hh) * T + q), hd);
                    uint32_t mrow = hh * T * T + q * T;
                    for (uint32_t rs = 0; rs < win; ++rs) {
                        if (!RowValid(rs)) {
                            continue;
                        }
                        for (uint32_t ts = 0; ts < cnt; ++ts) {
                            uint32_t qs = rs * win + q0 + ts;
                            PipeBarrier<PIPE_V>();
                            Axpy(acc, nt[qs * cg + hh * hd], mat.GetValue(mrow + qs), hd);
                        }
                    }
                }
                PipeBarrier<PIPE_V>();
                Add(ot[q * cg], ot[q * cg], rt[q * cg], cg);   // residual
            }
        }

        Sync<HardEvent::V_MTE3>();
        DataCopyExtParams cpO{static_cast<uint16_t>(cnt), static_cast<uint32_t>(cg * sizeof(float)), 0,
                              static_cast<uint32_t>((C - cg) * sizeof(float)), 0};
        for (uint32_t r = 0; r < win; ++r) {
            if (RowValid(r)) {
                DataCopyPad(yGm[TokenOffset(r) + c0], ot[(r * win + q0) * cg], cpO);
            }
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> lineBuf, scratchBuf, reduceWork, affineBuf, meanBuf, rstdBuf, redBuf;
    TBuf<TPosition::VECCALC> normTile, resTile, outTile, matBuf, biasBuf;
    GlobalTensor<float> xGm, yGm, wGm, gGm, bGm, biasGm;

    uint32_t B, H, W, C, nHeads, hd, win, lead, winsH, winsW, hpp, T, cg;
    float eps;
    uint32_t winBegin, winEnd;
    uint32_t b, wr, wc, w0, cnt, q0;
};

extern "C" __global__ __aicore__ void shifted_window_token_mix(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                               GM_ADDR mix_weight, GM_ADDR mix_bias, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ShiftedWindowTokenMixKernel op;
    op.Init(x, gamma, beta, mix_weight, mix_bias, y, td);
    op.Process();
}
