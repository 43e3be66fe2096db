// Transposed conv (stride s, padding p, output padding folded into outH/outW)
// -> min over output channels -> sum over output rows -> exact GELU -> + scalar shift.
//
// Only a [N, 1, 1, outW] result leaves the core, so the full deconvolution output is
// never materialised. Work unit = (image n, band of bandW output columns); a band is
// independent of every other band through all four steps.
//
// Inside a unit:
//   for each chunk of output channels (weights of the chunk resident in UB):
//     for each output row oh:
//       acc[o][:] = convBias[o]
//       for each kh whose source row ih = (oh + p - kh)/s is integral and inside the image:
//         stage x[n, :, ih, segment] for all input channels (one DMA, zero outside)
//         for each (c, kw): Gather lane i <- x[n, c, ih, (ow0+i+p-kw)/s] or a zero slot
//                           when (ow0+i+p-kw) is not a multiple of s / out of range,
//                           then acc[o] += w[c, o, kh, kw] * lanes
//       rowMin[oh] = min(rowMin[oh], min_o acc[o])
//   colSum = sum_oh rowMin[oh];  y = 0.5*v*(1+erf(v/sqrt2)) + shift

#include "kernel_operator.h"
#include "deconv_chanmin_colsum_gelu_tiling.h"

using namespace AscendC;

namespace {
template <HardEvent EVT>
__aicore__ inline void WaitPipe()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
    SetFlag<EVT>(id);
    WaitFlag<EVT>(id);
}

__aicore__ inline uint32_t Align8(uint32_t v)
{
    return (v + 7) / 8 * 8;
}

__aicore__ inline int32_t FloorTo8(int32_t v)
{
    return v >= 0 ? (v / 8) * 8 : -(((-v) + 7) / 8) * 8;
}

__aicore__ inline int32_t FloorDiv(int32_t a, int32_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

constexpr float INV_SQRT2 = 0.70710678118654752f;
} // namespace

class DeconvChanMinColSumGeluKernel {
public:
    __aicore__ inline DeconvChanMinColSumGeluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR convBias, GM_ADDR shift, GM_ADDR y,
                                const DeconvChanMinColSumGeluTiling &t)
    {
        t_ = t;
        kk_ = t.ksize * t.ksize;
        planeIn_ = t.inH * t.inW;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x),
                             static_cast<uint64_t>(t.batch) * t.inChannels * planeIn_);
        wGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(w),
                             static_cast<uint64_t>(t.inChannels) * t.outChannels * kk_);
        biasGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(convBias), t.outChannels);
        shiftGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(shift), 1);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), static_cast<uint64_t>(t.batch) * t.outW);

        wPitch_ = Align8(t.chanChunk * kk_);
        pipe_.InitBuffer(wBuf_, t.inChannels * wPitch_ * sizeof(float));
        pipe_.InitBuffer(tabBuf_, t.ksize * t.bandW * sizeof(uint32_t));
        pipe_.InitBuffer(laneBuf_, 2 * t.bandW * sizeof(float));
        pipe_.InitBuffer(accBuf_, t.chanChunk * t.bandW * sizeof(float));
        pipe_.InitBuffer(rowMinBuf_, t.outH * t.bandW * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, 2 * t.bandW * sizeof(float));
        pipe_.InitBuffer(erfTmpBuf_, t.erfTmpBytes);
        pipe_.InitBuffer(segQue_, 2, t.inChannels * t.segPitch * sizeof(float));
        pipe_.InitBuffer(outQue_, 1, t.bandW * sizeof(float));

        firstUnit_ = GetBlockIdx() * t.unitsPerCore;
        lastUnit_ = firstUnit_ + t.unitsPerCore;
        if (lastUnit_ > t.totalUnits) {
            lastUnit_ = t.totalUnits;
        }
    }

    __aicore__ inline void Process()
    {
        if (firstUnit_ >= lastUnit_) {
            return;
        }
        shiftValue_ = shiftGm_.GetValue(0);
        for (uint32_t u = firstUnit_; u < lastUnit_; ++u) {
            uint32_t n = u / t_.bandsPerRow;
            uint32_t ow0 = (u % t_.bandsPerRow) * t_.bandW;
            uint32_t bw = t_.outW - ow0;
            if (bw > t_.bandW) {
                bw = t_.bandW;
            }
            RunBand(n, ow0, bw);
        }
    }

private:
    // Input columns touched by this band and the per-kw gather tables.
    __aicore__ inline void PrepareBand(uint32_t ow0, uint32_t bw)
    {
        const int32_t s = static_cast<int32_t>(t_.stride);
        const int32_t p = static_cast<int32_t>(t_.pad);
        const int32_t k = static_cast<int32_t>(t_.ksize);
        int32_t lo = FloorDiv(static_cast<int32_t>(ow0) + p - (k - 1), s);
        int32_t hi = FloorDiv(static_cast<int32_t>(ow0 + bw) - 1 + p, s);
        segStart_ = FloorTo8(lo);
        segEnd_ = hi + 1;

        // previous band's gathers must be done before the tables are rewritten
        WaitPipe<HardEvent::V_S>();
        LocalTensor<uint32_t> tab = tabBuf_.Get<uint32_t>();
        const uint32_t zeroSlot = (t_.segPitch - 1) * sizeof(float);
        const int32_t inW = static_cast<int32_t>(t_.inW);
        for (int32_t kw = 0; kw < k; ++kw) {
            for (uint32_t i = 0; i < t_.bandW; ++i) {
                uint32_t off = zeroSlot;
                int32_t num = static_cast<int32_t>(ow0 + i) + p - kw;
                if (i < bw && num >= 0 && (num % s) == 0 && (num / s) < inW) {
                    off = static_cast<uint32_t>(num / s - segStart_) * sizeof(float);
                }
                tab.SetValue(kw * t_.bandW + i, off);
            }
        }
        WaitPipe<HardEvent::S_V>();
    }

    __aicore__ inline void LoadWeightChunk(uint32_t o0, uint32_t occ)
    {
        LocalTensor<float> wl = wBuf_.Get<float>();
        WaitPipe<HardEvent::S_MTE2>();   // scalar reads of the previous chunk are finished
        WaitPipe<HardEvent::V_MTE2>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(t_.inChannels);
        cp.blockLen = occ * kk_ * sizeof(float);
        cp.srcStride = (t_.outChannels - occ) * kk_ * sizeof(float);
        cp.dstStride = (wPitch_ - Align8(occ * kk_)) / 8;
        cp.rsv = 0;
        DataCopyPad(wl, wGm_[o0 * kk_], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        WaitPipe<HardEvent::MTE2_S>();
    }

    __aicore__ inline void StageRow(uint32_t n, uint32_t ih)
    {
        LocalTensor<float> seg = segQue_.AllocTensor<float>();
        Duplicate(seg, 0.0f, t_.inChannels * t_.segPitch);   // also clears the zero slot
        WaitPipe<HardEvent::V_MTE2>();
        int32_t inW = static_cast<int32_t>(t_.inW);
        int32_t copyLo = segStart_ < 0 ? 0 : segStart_;
        int32_t copyHi = segEnd_ < inW ? segEnd_ : inW;
        if (copyHi > copyLo) {
            uint32_t cnt = static_cast<uint32_t>(copyHi - copyLo);
            DataCopyExtParams cp;
            cp.blockCount = static_cast<uint16_t>(t_.inChannels);
            cp.blockLen = cnt * sizeof(float);
            cp.srcStride = (planeIn_ - cnt) * sizeof(float);
            cp.dstStride = (t_.segPitch - Align8(cnt)) / 8;
            cp.rsv = 0;
            uint8_t tailPad = static_cast<uint8_t>(Align8(cnt) - cnt);
            uint64_t src = static_cast<uint64_t>(n) * t_.inChannels * planeIn_ +
                           static_cast<uint64_t>(ih) * t_.inW + static_cast<uint32_t>(copyLo);
            DataCopyPad(seg[static_cast<uint32_t>(copyLo - segStart_)], xGm_[src], cp,
                        DataCopyPadExtParams<float>{true, 0, tailPad, 0.0f});
        }
        segQue_.EnQue(seg);
    }

    __aicore__ inline void RunBand(uint32_t n, uint32_t ow0, uint32_t bw)
    {
        const uint32_t bandW = t_.bandW;
        const int32_t s = static_cast<int32_t>(t_.stride);
        PrepareBand(ow0, bw);

        LocalTensor<float> wl = wBuf_.Get<float>();
        LocalTensor<uint32_t> tab = tabBuf_.Get<uint32_t>();
        LocalTensor<float> lanes = laneBuf_.Get<float>();
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> rowMin = rowMinBuf_.Get<float>();

        uint32_t flip = 0;
        for (uint32_t o0 = 0; o0 < t_.outChannels; o0 += t_.chanChunk) {
            uint32_t occ = t_.outChannels - o0;
            if (occ > t_.chanChunk) {
                occ = t_.chanChunk;
            }
            LoadWeightChunk(o0, occ);
            for (uint32_t oh = 0; oh < t_.outH; ++oh) {
                for (uint32_t o = 0; o < occ; ++o) {
                    Duplicate(acc[o * bandW], biasGm_.GetValue(o0 + o), bw);
                }
                for (uint32_t kh = 0; kh < t_.ksize; ++kh) {
                    int32_t num = static_cast<int32_t>(oh + t_.pad) - static_cast<int32_t>(kh);
                    if (num < 0 || (num % s) != 0 || num / s >= static_cast<int32_t>(t_.inH)) {
                        continue;
                    }
                    StageRow(n, static_cast<uint32_t>(num / s));
                    LocalTensor<float> seg = segQue_.DeQue<float>();
                    for (uint32_t c = 0; c < t_.inChannels; ++c) {
                        LocalTensor<float> row = seg[c * t_.segPitch];
                        const uint32_t wRow = c * wPitch_ + kh * t_.ksize;
                        for (uint32_t kw = 0; kw < t_.ksize; ++kw) {
                            LocalTensor<float> lv = lanes[flip * bandW];
                            flip ^= 1;
                            Gather(lv, row, tab[kw * bandW], 0, bw);
                            for (uint32_t o = 0; o < occ; ++o) {
                                Axpy(acc[o * bandW], lv, wl.GetValue(wRow + o * kk_ + kw), bw);
                            }
                        }
                    }
                    segQue_.FreeTensor(seg);
                }
                // channel minimum for this output row
                LocalTensor<float> mrow = rowMin[oh * bandW];
                uint32_t startO = 0;
                if (o0 == 0) {
                    Adds(mrow, acc, 0.0f, bw);
                    startO = 1;
                }
                for (uint32_t o = startO; o < occ; ++o) {
                    Min(mrow, mrow, acc[o * bandW], bw);
                }
            }
        }
        FinishBand(n, ow0, bw);
    }

    __aicore__ inline void FinishBand(uint32_t n, uint32_t ow0, uint32_t bw)
    {
        const uint32_t bandW = t_.bandW;
        LocalTensor<float> rowMin = rowMinBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        LocalTensor<float> colSum = tmp;
        LocalTensor<float> erfv = tmp[bandW];
        LocalTensor<uint8_t> erfScratch = erfTmpBuf_.Get<uint8_t>();

        Adds(colSum, rowMin, 0.0f, bw);
        for (uint32_t oh = 1; oh < t_.outH; ++oh) {
            Add(colSum, colSum, rowMin[oh * bandW], bw);
        }

        LocalTensor<float> yl = outQue_.AllocTensor<float>();
        Muls(yl, colSum, INV_SQRT2, bw);
        Erf(erfv, yl, erfScratch, bw);
        Adds(erfv, erfv, 1.0f, bw);
        Mul(yl, colSum, erfv, bw);
        Muls(yl, yl, 0.5f, bw);
        Adds(yl, yl, shiftValue_, bw);
        outQue_.EnQue(yl);

        yl = outQue_.DeQue<float>();
        DataCopyExtParams op{1, static_cast<uint32_t>(bw * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[static_cast<uint64_t>(n) * t_.outW + ow0], yl, op);
        outQue_.FreeTensor(yl);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> wBuf_;
    TBuf<TPosition::VECCALC> tabBuf_;
    TBuf<TPosition::VECCALC> laneBuf_;
    TBuf<TPosition::VECCALC> accBuf_;
    TBuf<TPosition::VECCALC> rowMinBuf_;
    TBuf<TPosition::VECCALC> tmpBuf_;
    TBuf<TPosition::VECCALC> erfTmpBuf_;
    TQue<QuePosition::VECIN, 2> segQue_;
    TQue<QuePosition::VECOUT, 1> outQue_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> wGm_;
    GlobalTensor<float> biasGm_;
    GlobalTensor<float> shiftGm_;
    GlobalTensor<float> yGm_;
    DeconvChanMinColSumGeluTiling t_;
    uint32_t kk_ = 0;
    uint32_t planeIn_ = 0;
    uint32_t wPitch_ = 0;
    int32_t segStart_ = 0;
    int32_t segEnd_ = 0;
    float shiftValue_ = 0.0f;
    uint32_t firstUnit_ = 0;
    uint32_t lastUnit_ = 0;
};

extern "C" __global__ __aicore__ void deconv_chanmin_colsum_gelu(GM_ADDR x, GM_ADDR weight, GM_ADDR convBias,
                                                                GM_ADDR shift, GM_ADDR y, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(DeconvChanMinColSumGeluTiling);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    DeconvChanMinColSumGeluKernel op;
    op.Init(x, weight, convBias, shift, y, tilingData);
    op.Process();
}
