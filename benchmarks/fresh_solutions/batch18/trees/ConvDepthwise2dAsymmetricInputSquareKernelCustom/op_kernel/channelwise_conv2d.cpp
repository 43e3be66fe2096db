/*
 * ChannelwiseConv2d: per-channel (depthwise) 2-D convolution, NCHW.
 *
 * Work split: the N*OC output planes are distributed over the vector cores.
 * For one output row the kernel accumulates K*K shifted input rows with Axpy:
 *   acc[j] += w[kh][kw] * x[ih][j + kw - pad]          (stride-1 "dense" row)
 * Each shifted row is fetched from GM with its own DMA so the UB operand is
 * always 32B aligned; zero padding at the row edges comes from DataCopyPad.
 * For stride > 1 the dense row is subsampled with Gather.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t IN_DEPTH = 2;
constexpr int32_t OUT_DEPTH = 2;
constexpr uint32_t EDGE_ELEMS = 16; // slack for DMA edge padding

template <typename T>
class ChannelwiseConv2dKernel {
public:
    __aicore__ inline ChannelwiseConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR y, const ChannelwiseConv2dTilingData &td)
    {
        c_ = td.inChannels;
        mult_ = td.multiplier;
        h_ = td.inH;
        w_ = td.inW;
        oh_ = td.outH;
        ow_ = td.outW;
        k_ = td.ksize;
        s_ = td.stride;
        p_ = td.pad;
        tileCols_ = td.outColsPerTile;
        denseCap_ = (tileCols_ - 1) * s_ + 1;

        uint32_t blk = GetBlockIdx();
        if (blk < td.bigCores) {
            planeBegin_ = blk * td.planesPerCore;
            planeCount_ = td.planesPerCore;
        } else {
            uint32_t small = td.planesPerCore - 1;
            planeBegin_ = td.bigCores * td.planesPerCore + (blk - td.bigCores) * small;
            planeCount_ = small;
        }

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        fGm_.SetGlobalBuffer((__gm__ T *)filter);
        yGm_.SetGlobalBuffer((__gm__ T *)y);

        uint32_t denseAligned = AlignUp(denseCap_ + EDGE_ELEMS, 16);
        pipe_.InitBuffer(rowQ_, IN_DEPTH, denseAligned * sizeof(T));
        pipe_.InitBuffer(outQ_, OUT_DEPTH, AlignUp(tileCols_, 16) * sizeof(T));
        pipe_.InitBuffer(accBuf_, denseAligned * sizeof(float));
        pipe_.InitBuffer(rowF32Buf_, denseAligned * sizeof(float));
        pipe_.InitBuffer(tapBuf_, AlignUp(k_ * k_, 16) * sizeof(T));
        if (s_ > 1) {
            pipe_.InitBuffer(pickBuf_, AlignUp(tileCols_, 16) * sizeof(float));
            pipe_.InitBuffer(offBuf_, AlignUp(tileCols_, 16) * sizeof(uint32_t));
            LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
            for (uint32_t j = 0; j < tileCols_; ++j) {
                off.SetValue(j, j * s_ * sizeof(float)); // byte offsets into the dense row
            }
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < planeCount_; ++i) {
            uint32_t plane = planeBegin_ + i;
            uint32_t oc = plane % (c_ * mult_);
            uint32_t n = plane / (c_ * mult_);
            uint32_t ic = oc / mult_;
            LoadTaps(oc);
            uint64_t xBase = ((uint64_t)n * c_ + ic) * h_ * w_;
            uint64_t yBase = (uint64_t)plane * oh_ * ow_;
            for (uint32_t r = 0; r < oh_; ++r) {
                for (uint32_t o0 = 0; o0 < ow_; o0 += tileCols_) {
                    uint32_t oLen = (ow_ - o0) < tileCols_ ? (ow_ - o0) : tileCols_;
                    ComputeSegment(xBase, r, o0, oLen);
                    StoreSegment(yBase + (uint64_t)r * ow_ + o0, oLen);
                }
            }
        }
    }

private:
    __aicore__ inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

    __aicore__ inline void LoadTaps(uint32_t oc)
    {
        LocalTensor<T> taps = tapBuf_.Get<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(k_ * k_ * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pd{false, 0, 0, 0};
        DataCopyPad(taps, fGm_[(uint64_t)oc * k_ * k_], cp, pd);
        // taps are read by the scalar unit below
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void ComputeSegment(uint64_t xBase, uint32_t r, uint32_t o0, uint32_t oLen)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<T> taps = tapBuf_.Get<T>();
        uint32_t denseLen = (oLen - 1) * s_ + 1;
        Duplicate(acc, 0.0f, denseLen);

        for (uint32_t kh = 0; kh < k_; ++kh) {
            int32_t ih = static_cast<int32_t>(r * s_ + kh) - static_cast<int32_t>(p_);
            if (ih < 0 || ih >= static_cast<int32_t>(h_)) {
                continue; // whole row lies in the zero padding
            }
            for (uint32_t kw = 0; kw < k_; ++kw) {
                int32_t col0 = static_cast<int32_t>(o0 * s_ + kw) - static_cast<int32_t>(p_);
                int32_t colEnd = col0 + static_cast<int32_t>(denseLen);
                int32_t lo = col0 < 0 ? 0 : col0;
                int32_t hi = colEnd > static_cast<int32_t>(w_) ? static_cast<int32_t>(w_) : colEnd;
                if (hi <= lo) {
                    continue;
                }
                uint8_t leftPad = static_cast<uint8_t>(lo - col0);
                uint8_t rightPad = static_cast<uint8_t>(colEnd - hi);

                LocalTensor<T> row = rowQ_.AllocTensor<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>((hi - lo) * sizeof(T)), 0, 0, 0};
                DataCopyPadExtParams<T> pd{leftPad != 0 || rightPad != 0, leftPad, rightPad, static_cast<T>(0)};
                DataCopyPad(row, xGm_[xBase + (uint64_t)ih * w_ + lo], cp, pd);
                rowQ_.EnQue(row);

                LocalTensor<T> rowIn = rowQ_.DeQue<T>();
                float wv = static_cast<float>(taps.GetValue(kh * k_ + kw));
                if constexpr (sizeof(T) == sizeof(float)) {
                    Axpy(acc, rowIn, wv, denseLen);
                } else {
                    LocalTensor<float> rowF = rowF32Buf_.Get<float>();
                    Cast(rowF, rowIn, RoundMode::CAST_NONE, denseLen);
                    Axpy(acc, rowF, wv, denseLen);
                }
                rowQ_.FreeTensor(rowIn);
            }
        }

        LocalTensor<T> out = outQ_.AllocTensor<T>();
        LocalTensor<float> picked = acc;
        if (s_ > 1) {
            picked = pickBuf_.Get<float>();
            Gather(picked, acc, offBuf_.Get<uint32_t>(), 0u, oLen);
        }
        if constexpr (sizeof(T) == sizeof(float)) {
            Adds(out, picked, 0.0f, oLen);
        } else {
            Cast(out, picked, RoundMode::CAST_ROUND, oLen);
        }
        outQ_.EnQue(out);
    }

    __aicore__ inline void StoreSegment(uint64_t yOff, uint32_t oLen)
    {
        LocalTensor<T> out = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(oLen * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[yOff], out, cp);
        outQ_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, IN_DEPTH> rowQ_;
    TQue<QuePosition::VECOUT, OUT_DEPTH> outQ_;
    TBuf<TPosition::VECCALC> accBuf_, rowF32Buf_, tapBuf_, pickBuf_, offBuf_;
    GlobalTensor<T> xGm_, fGm_, yGm_;
    uint32_t c_, mult_, h_, w_, oh_, ow_, k_, s_, p_;
    uint32_t tileCols_, denseCap_;
    uint32_t planeBegin_ = 0, planeCount_ = 0;
};

extern "C" __global__ __aicore__ void channelwise_conv2d(GM_ADDR x, GM_ADDR filter, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ChannelwiseConv2dKernel<float> op;
        op.Init(x, filter, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ChannelwiseConv2dKernel<half> op;
        op.Init(x, filter, y, td);
        op.Process();
    }
}
