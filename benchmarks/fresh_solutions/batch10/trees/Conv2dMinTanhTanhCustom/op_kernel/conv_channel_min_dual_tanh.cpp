// ConvChannelMinDualTanh
//   c[o, h, w] = bias[o] + sum_{i, p, q} weight[o, i, p, q] * x[i, h + p, w + q]   (valid, stride 1)
//   y[0, h, w] = tanh(tanh(min_o c[o, h, w]))
//
// Direct convolution on the vector unit. A work item is one output row segment
// (batch, oh, column tile). For every input channel the kh*kw shifted input
// segments are copied into UB as separate aligned rows, so each filter tap
// becomes one Axpy over the segment, for every output channel. The channel
// minimum and the two tanh's are applied before a single store, so the
// cout-wide convolution result never leaves UB.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t NBUF = 2;

class ConvChannelMinDualTanhKernel {
public:
    __aicore__ inline ConvChannelMinDualTanhKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const ConvChannelMinDualTanhTiling &t)
    {
        n_ = t.n; cin_ = t.cin; ih_ = t.ih; iw_ = t.iw;
        cout_ = t.cout; kh_ = t.kh; kw_ = t.kw;
        oh_ = t.oh; ow_ = t.ow;
        tileW_ = t.tileW;
        tilesPerRow_ = t.tilesPerRow;
        kk_ = kh_ * kw_;
        kkPad_ = (kk_ + 7) / 8 * 8;

        uint32_t idx = GetBlockIdx();
        itemCnt_ = t.itemsPerCore + (idx < t.itemsRem ? 1 : 0);
        itemBeg_ = idx * t.itemsPerCore + (idx < t.itemsRem ? idx : t.itemsRem);

        xGm_.SetGlobalBuffer((__gm__ float *)x, (uint64_t)n_ * cin_ * ih_ * iw_);
        wGm_.SetGlobalBuffer((__gm__ float *)w, (uint64_t)cout_ * cin_ * kk_);
        bGm_.SetGlobalBuffer((__gm__ float *)b, cout_);
        yGm_.SetGlobalBuffer((__gm__ float *)y, (uint64_t)n_ * oh_ * ow_);

        pipe_.InitBuffer(tapQ_, NBUF, kk_ * tileW_ * sizeof(float));
        pipe_.InitBuffer(wQ_, NBUF, cout_ * kkPad_ * sizeof(float));
        pipe_.InitBuffer(outQ_, NBUF, tileW_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, cout_ * tileW_ * sizeof(float));
        pipe_.InitBuffer(biasBuf_, ((cout_ + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        // bias is tiny, keep it in UB for the whole kernel
        LocalTensor<float> bias = biasBuf_.Get<float>();
        DataCopyPad(bias, bGm_, DataCopyExtParams{1, cout_ * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0});
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);

        for (uint32_t it = 0; it < itemCnt_; ++it) {
            uint32_t item = itemBeg_ + it;
            uint32_t tile = item % tilesPerRow_;
            uint32_t row = item / tilesPerRow_;  // = batch * oh + r
            uint32_t bi = row / oh_;
            uint32_t r = row % oh_;
            uint32_t c0 = tile * tileW_;
            uint32_t cw = (ow_ - c0) < tileW_ ? (ow_ - c0) : tileW_;
            DoSegment(bi, r, c0, cw, bias);
        }
    }

private:
    __aicore__ inline void LoadChannel(uint32_t bi, uint32_t ic, uint32_t r, uint32_t c0, uint32_t cw)
    {
        LocalTensor<float> taps = tapQ_.AllocTensor<float>();
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0};
        DataCopyExtParams seg{1, cw * (uint32_t)sizeof(float), 0, 0, 0};
        uint64_t plane = ((uint64_t)bi * cin_ + ic) * ih_ * iw_;
        for (uint32_t p = 0; p < kh_; ++p) {
            uint64_t rowOff = plane + (uint64_t)(r + p) * iw_ + c0;
            for (uint32_t q = 0; q < kw_; ++q) {
                // shifted copy -> every tap starts 32B aligned in UB
                DataCopyPad(taps[(p * kw_ + q) * tileW_], xGm_[rowOff + q], seg, noPad);
            }
        }
        tapQ_.EnQue(taps);

        // weight[:, ic, :, :] -> cout rows of kk values (each row padded to kkPad)
        LocalTensor<float> wt = wQ_.AllocTensor<float>();
        DataCopyExtParams wp{static_cast<uint16_t>(cout_), kk_ * (uint32_t)sizeof(float),
                             (cin_ - 1) * kk_ * (uint32_t)sizeof(float), 0, 0};
        DataCopyPad(wt, wGm_[(uint64_t)ic * kk_], wp, noPad);
        wQ_.EnQue(wt);
    }

    __aicore__ inline void DoSegment(uint32_t bi, uint32_t r, uint32_t c0, uint32_t cw, LocalTensor<float> &bias)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        for (uint32_t o = 0; o < cout_; ++o) {
            Duplicate(acc[o * tileW_], bias.GetValue(o), tileW_);
        }

        LoadChannel(bi, 0, r, c0, cw);
        for (uint32_t ic = 0; ic < cin_; ++ic) {
            if (ic + 1 < cin_) {
                LoadChannel(bi, ic + 1, r, c0, cw);  // overlap next channel's copy with this one's math
            }
            LocalTensor<float> taps = tapQ_.DeQue<float>();
            LocalTensor<float> wt = wQ_.DeQue<float>();
            event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(ev);
            WaitFlag<HardEvent::MTE2_S>(ev);
            for (uint32_t o = 0; o < cout_; ++o) {
                LocalTensor<float> dst = acc[o * tileW_];
                for (uint32_t k = 0; k < kk_; ++k) {
                    Axpy(dst, taps[k * tileW_], wt.GetValue(o * kkPad_ + k), cw);
                }
            }
            tapQ_.FreeTensor(taps);
            wQ_.FreeTensor(wt);
        }

        // min over output channels, then tanh twice
        LocalTensor<float> res = outQ_.AllocTensor<float>();
        DataCopy(res, acc, tileW_);
        for (uint32_t o = 1; o < cout_; ++o) {
            Min(res, res, acc[o * tileW_], cw);
        }
        TanhInPlace(res, cw);
        TanhInPlace(res, cw);
        outQ_.EnQue(res);

        res = outQ_.DeQue<float>();
        uint64_t dstOff = ((uint64_t)bi * oh_ + r) * ow_ + c0;
        DataCopyPad(yGm_[dstOff], res, DataCopyExtParams{1, cw * (uint32_t)sizeof(float), 0, 0, 0});
        outQ_.FreeTensor(res);
    }

    // tanh(v) = 1 - 2 / (exp(2v) + 1); saturates cleanly to +-1 for large |v|
    __aicore__ inline void TanhInPlace(LocalTensor<float> &v, uint32_t cnt)
    {
        Muls(v, v, 2.0f, cnt);
        Exp(v, v, cnt);
        Adds(v, v, 1.0f, cnt);
        Reciprocal(v, v, cnt);
        Muls(v, v, -2.0f, cnt);
        Adds(v, v, 1.0f, cnt);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, NBUF> tapQ_, wQ_;
    TQue<QuePosition::VECOUT, NBUF> outQ_;
    TBuf<TPosition::VECCALC> accBuf_, biasBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_;

    uint32_t n_ = 0, cin_ = 0, ih_ = 0, iw_ = 0, cout_ = 0, kh_ = 0, kw_ = 0, oh_ = 0, ow_ = 0;
    uint32_t kk_ = 0, kkPad_ = 0, tileW_ = 0, tilesPerRow_ = 0;
    uint32_t itemBeg_ = 0, itemCnt_ = 0;
};

extern "C" __global__ __aicore__ void conv_channel_min_dual_tanh(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    ConvChannelMinDualTanhKernel op;
    op.Init(x, weight, bias, y, t);
    op.Process();
}
