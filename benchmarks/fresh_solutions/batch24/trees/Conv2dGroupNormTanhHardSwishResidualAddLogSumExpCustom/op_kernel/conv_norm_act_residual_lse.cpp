/**
 * ConvNormActResidualLse kernel (fp32).
 *
 * Pass 1 (per sample): direct convolution row by row on the vector unit. For every output row
 *   the Cin*Kh*Kw shifted input rows are fetched from GM (DataCopyPad handles the unaligned
 *   start), then each output channel is built with Axpy. Rows go to the workspace and are also
 *   accumulated into per-channel sum / sum-of-squares rows for the group statistics.
 * Pass 2 (per sample): per spatial chunk, walk the channels, apply the folded group-norm affine,
 *   tanh, hardswish and the residual, and fold the value into an online log-sum-exp.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
constexpr float NEG_BIG = -3.0e38f;
}

class ConvNormActResidualLseKernel {
public:
    __aicore__ inline ConvNormActResidualLseKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR y, GM_ADDR workspace, const ConvNormActResidualLseTilingData &t)
    {
        cin_ = t.inChannels; hin_ = t.inHeight; win_ = t.inWidth;
        cout_ = t.outChannels; kh_ = t.kernelH; kw_ = t.kernelW;
        hout_ = t.outHeight; wout_ = t.outWidth; rs_ = t.rowStride;
        groups_ = t.numGroups; eps_ = t.eps; epiTile_ = t.epiTileLen;
        hw_ = hout_ * wout_;
        taps_ = cin_ * kh_ * kw_;

        uint32_t blk = GetBlockIdx();
        uint32_t cnt = t.samplesPerCore + (blk < t.tailSamples ? 1 : 0);
        uint32_t first = blk * t.samplesPerCore + (blk < t.tailSamples ? blk : t.tailSamples);
        firstSample_ = first;
        sampleCnt_ = cnt;

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)weight);
        bGm_.SetGlobalBuffer((__gm__ float *)bias);
        gammaGm_.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta);
        yGm_.SetGlobalBuffer((__gm__ float *)y);
        convGm_.SetGlobalBuffer((__gm__ float *)workspace);

        uint32_t wCount = AlignUp(cout_ * taps_);
        pipe_.InitBuffer(tapBuf_, taps_ * rs_ * sizeof(float));
        pipe_.InitBuffer(wBuf_, wCount * sizeof(float));
        pipe_.InitBuffer(sumBuf_, cout_ * rs_ * sizeof(float));
        pipe_.InitBuffer(sqBuf_, cout_ * rs_ * sizeof(float));
        pipe_.InitBuffer(affBuf_, 2 * AlignUp(cout_) * sizeof(float));
        pipe_.InitBuffer(rowQue_, DEPTH, rs_ * sizeof(float));
        pipe_.InitBuffer(scratch_, 2 * rs_ * sizeof(float));
        // pass 2 buffers (separate so the pass-1 layout does not need to be torn down)
        pipe_.InitBuffer(inQue_, DEPTH, epiTile_ * sizeof(float));
        pipe_.InitBuffer(outQue_, 1, epiTile_ * sizeof(float));
        pipe_.InitBuffer(lseBuf_, 4 * epiTile_ * sizeof(float));

        // weights stay resident in UB for the whole kernel
        LocalTensor<float> wl = wBuf_.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cout_ * taps_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(wl, wGm_, cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t s = 0; s < sampleCnt_; ++s) {
            uint32_t n = firstSample_ + s;
            ConvPass(n);
            PipeBarrier<PIPE_ALL>();   // workspace rows written by MTE3 are re-read by MTE2
            BuildAffine();
            EpiloguePass(n);
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    __aicore__ inline uint32_t AlignUp(uint32_t v) { return (v + 7) / 8 * 8; }

    __aicore__ inline void ConvPass(uint32_t n)
    {
        LocalTensor<float> sum = sumBuf_.Get<float>();
        LocalTensor<float> sq = sqBuf_.Get<float>();
        LocalTensor<float> wl = wBuf_.Get<float>();
        LocalTensor<float> taps = tapBuf_.Get<float>();
        LocalTensor<float> tmp = scratch_.Get<float>();
        Duplicate(sum, 0.0f, cout_ * rs_);
        Duplicate(sq, 0.0f, cout_ * rs_);

        DataCopyExtParams rowCp{1, static_cast<uint32_t>(wout_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        uint64_t xBase = static_cast<uint64_t>(n) * cin_ * hin_ * win_;

        for (uint32_t oh = 0; oh < hout_; ++oh) {
            // gather the shifted rows: taps[(ci*kh + i)*kw + j] = x[n, ci, oh+i, j : j+wout]
            PipeBarrier<PIPE_ALL>();
            for (uint32_t ci = 0; ci < cin_; ++ci) {
                for (uint32_t i = 0; i < kh_; ++i) {
                    uint64_t rowOff = xBase + (static_cast<uint64_t>(ci) * hin_ + oh + i) * win_;
                    for (uint32_t j = 0; j < kw_; ++j) {
                        uint32_t tap = (ci * kh_ + i) * kw_ + j;
                        DataCopyPad(taps[tap * rs_], xGm_[rowOff + j], rowCp, noPad);
                    }
                }
            }
            event_t evMte2V = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
            SetFlag<HardEvent::MTE2_V>(evMte2V);
            WaitFlag<HardEvent::MTE2_V>(evMte2V);

            for (uint32_t co = 0; co < cout_; ++co) {
                LocalTensor<float> acc = rowQue_.AllocTensor<float>();
                Duplicate(acc, bGm_.GetValue(co), wout_);
                uint32_t wBase = co * taps_;
                for (uint32_t tap = 0; tap < taps_; ++tap) {
                    Axpy(acc, taps[tap * rs_], wl.GetValue(wBase + tap), wout_);
                }
                // running statistics for group norm
                Add(sum[co * rs_], sum[co * rs_], acc, wout_);
                Mul(tmp, acc, acc, wout_);
                Add(sq[co * rs_], sq[co * rs_], tmp, wout_);
                rowQue_.EnQue(acc);

                LocalTensor<float> outRow = rowQue_.DeQue<float>();
                uint64_t dst = (static_cast<uint64_t>(n) * cout_ + co) * hw_ + oh * wout_;
                DataCopyPad(convGm_[dst], outRow, rowCp);
                rowQue_.FreeTensor(outRow);
            }
        }
    }

    // Fold group statistics + gamma/beta into one scale/shift per channel.
    __aicore__ inline void BuildAffine()
    {
        LocalTensor<float> sum = sumBuf_.Get<float>();
        LocalTensor<float> sq = sqBuf_.Get<float>();
        LocalTensor<float> aff = affBuf_.Get<float>();
        LocalTensor<float> red = scratch_.Get<float>();
        LocalTensor<float> work = red[rs_];
        uint32_t cpg = cout_ / groups_;
        float invCnt = 1.0f / static_cast<float>(cpg * hw_);
        uint32_t shiftOff = AlignUp(cout_);

        for (uint32_t g = 0; g < groups_; ++g) {
            float s1 = 0.0f;
            float s2 = 0.0f;
            for (uint32_t c = g * cpg; c < (g + 1) * cpg; ++c) {
                ReduceSum(red, sum[c * rs_], work, wout_);
                ReduceSum(red[8], sq[c * rs_], work, wout_);
                event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
                SetFlag<HardEvent::V_S>(evVS);
                WaitFlag<HardEvent::V_S>(evVS);
                s1 += red.GetValue(0);
                s2 += red.GetValue(8);
            }
            float mean = s1 * invCnt;
            float var = s2 * invCnt - mean * mean;
            if (var < 0.0f) {
                var = 0.0f;
            }
            // rstd via the vector unit (no scalar sqrt on AI core)
            red.SetValue(0, var + eps_);
            event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(evSV);
            WaitFlag<HardEvent::S_V>(evSV);
            Sqrt(red, red, 1);
            event_t evVS2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS2);
            WaitFlag<HardEvent::V_S>(evVS2);
            float rstd = 1.0f / red.GetValue(0);
            for (uint32_t c = g * cpg; c < (g + 1) * cpg; ++c) {
                float a = gammaGm_.GetValue(c) * rstd;
                aff.SetValue(c, a);
                aff.SetValue(shiftOff + c, betaGm_.GetValue(c) - mean * a);
            }
        }
        event_t evSV2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV2);
        WaitFlag<HardEvent::S_V>(evSV2);
    }

    __aicore__ inline void EpiloguePass(uint32_t n)
    {
        LocalTensor<float> aff = affBuf_.Get<float>();
        LocalTensor<float> lse = lseBuf_.Get<float>();
        LocalTensor<float> runMax = lse;
        LocalTensor<float> runSum = lse[epiTile_];
        LocalTensor<float> t0 = lse[2 * epiTile_];
        LocalTensor<float> t1 = lse[3 * epiTile_];
        uint32_t shiftOff = AlignUp(cout_);

        for (uint32_t base = 0; base < hw_; base += epiTile_) {
            uint32_t len = (hw_ - base) < epiTile_ ? (hw_ - base) : epiTile_;
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            Duplicate(runMax, NEG_BIG, len);
            Duplicate(runSum, 0.0f, len);

            for (uint32_t co = 0; co < cout_; ++co) {
                LocalTensor<float> v = inQue_.AllocTensor<float>();
                uint64_t src = (static_cast<uint64_t>(n) * cout_ + co) * hw_ + base;
                DataCopyPad(v, convGm_[src], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                inQue_.EnQue(v);
                v = inQue_.DeQue<float>();

                // normalised -> tanh
                Muls(t0, v, aff.GetValue(co), len);
                Adds(t0, t0, aff.GetValue(shiftOff + co), len);
                Tanh(t0, t0, len);
                // hardswish(t) = t * clamp(t + 3, 0, 6) / 6
                Adds(t1, t0, 3.0f, len);
                Maxs(t1, t1, 0.0f, len);
                Mins(t1, t1, 6.0f, len);
                Mul(t1, t1, t0, len);
                Muls(t1, t1, 1.0f / 6.0f, len);
                // residual
                Add(t1, t1, v, len);
                inQue_.FreeTensor(v);

                // online log-sum-exp: m' = max(m, r); s = s*exp(m-m') + exp(r-m')
                Max(t0, runMax, t1, len);
                Sub(runMax, runMax, t0, len);
                Exp(runMax, runMax, len);
                Mul(runSum, runSum, runMax, len);
                Sub(t1, t1, t0, len);
                Exp(t1, t1, len);
                Add(runSum, runSum, t1, len);
                DataCopy(runMax, t0, AlignUp(len));
            }

            LocalTensor<float> out = outQue_.AllocTensor<float>();
            Ln(out, runSum, len);
            Add(out, out, runMax, len);
            outQue_.EnQue(out);
            out = outQue_.DeQue<float>();
            DataCopyPad(yGm_[static_cast<uint64_t>(n) * hw_ + base], out, cp);
            outQue_.FreeTensor(out);
        }
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> tapBuf_, wBuf_, sumBuf_, sqBuf_, affBuf_, scratch_, lseBuf_;
    TQue<TPosition::VECOUT, DEPTH> rowQue_;
    TQue<TPosition::VECIN, DEPTH> inQue_;
    TQue<TPosition::VECOUT, 1> outQue_;
    GlobalTensor<float> xGm_, wGm_, bGm_, gammaGm_, betaGm_, yGm_, convGm_;
    uint32_t cin_, hin_, win_, cout_, kh_, kw_, hout_, wout_, rs_;
    uint32_t groups_, epiTile_, hw_, taps_;
    uint32_t firstSample_, sampleCnt_;
    float eps_;
};

extern "C" __global__ __aicore__ void conv_norm_act_residual_lse(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                 GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    ConvNormActResidualLseKernel op;
    op.Init(x, weight, bias, gamma, beta, y, usrWs, tilingData);
    op.Process();
}
