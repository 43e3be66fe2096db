// Dilated + strided 1-D convolution (NCL layout, float32, no padding, no bias).
//
// Work unit: (batch n, tile of tileLen consecutive output positions).
// For a unit, input channels are processed in chunks:
//   1. one strided DMA pulls the contiguous input window of every channel of the
//      chunk into UB (window = stride*(lt-1) + dilation*(taps-1) + 1 samples),
//   2. Gather de-strides the window once per tap: col[c][k][l] = win[c][l*stride + k*dilation],
//   3. every output channel accumulates col rows with Axpy (weight as scalar).
// The accumulator [outChannels][tileLen] is written back with a single strided DMA.
// All weights stay resident in UB for the whole kernel.

#include "kernel_operator.h"
#include "atrous_strided_conv1d_tiling.h"

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
} // namespace

class AtrousStridedConv1dKernel {
public:
    __aicore__ inline AtrousStridedConv1dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const AtrousStridedConv1dTiling &t)
    {
        t_ = t;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x),
                             static_cast<uint64_t>(t.batch) * t.inChannels * t.inLength);
        wGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(w),
                             static_cast<uint64_t>(t.outChannels) * t.inChannels * t.taps);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y),
                             static_cast<uint64_t>(t.batch) * t.outChannels * t.outLength);

        weightCount_ = t.outChannels * t.inChannels * t.taps;
        pipe_.InitBuffer(weightBuf_, Align8(weightCount_) * sizeof(float));
        pipe_.InitBuffer(offsetBuf_, Align8(t.tileLen) * sizeof(uint32_t));
        pipe_.InitBuffer(windowQue_, 2, t.chanChunk * t.rowPitch * sizeof(float));
        pipe_.InitBuffer(colBuf_, t.chanChunk * t.taps * t.tileLen * sizeof(float));
        pipe_.InitBuffer(accQue_, 1, t.outChannels * t.tileLen * sizeof(float));

        firstTile_ = GetBlockIdx() * t.tilesPerCore;
        lastTile_ = firstTile_ + t.tilesPerCore;
        if (lastTile_ > t.totalTiles) {
            lastTile_ = t.totalTiles;
        }
    }

    __aicore__ inline void Process()
    {
        if (firstTile_ >= lastTile_) {
            return;
        }
        LoadWeights();
        BuildStrideOffsets();
        for (uint32_t tile = firstTile_; tile < lastTile_; ++tile) {
            uint32_t n = tile / t_.tilesPerRow;
            uint32_t l0 = (tile % t_.tilesPerRow) * t_.tileLen;
            uint32_t lt = t_.outLength - l0;
            if (lt > t_.tileLen) {
                lt = t_.tileLen;
            }
            ComputeTile(n, l0, lt);
        }
    }

private:
    __aicore__ inline void LoadWeights()
    {
        LocalTensor<float> wLocal = weightBuf_.Get<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(weightCount_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(wLocal, wGm_, p, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        WaitPipe<HardEvent::MTE2_S>();
    }

    // byte offsets of the strided samples inside one staged window
    __aicore__ inline void BuildStrideOffsets()
    {
        LocalTensor<uint32_t> offs = offsetBuf_.Get<uint32_t>();
        for (uint32_t l = 0; l < t_.tileLen; ++l) {
            offs.SetValue(l, l * t_.stride * static_cast<uint32_t>(sizeof(float)));
        }
        WaitPipe<HardEvent::S_V>();
    }

    __aicore__ inline void ComputeTile(uint32_t n, uint32_t l0, uint32_t lt)
    {
        const uint32_t taps = t_.taps;
        const uint32_t tileLen = t_.tileLen;
        const uint32_t span = t_.stride * (lt - 1) + t_.dilation * (taps - 1) + 1;

        LocalTensor<float> acc = accQue_.AllocTensor<float>();
        Duplicate(acc, 0.0f, t_.outChannels * tileLen);

        LocalTensor<float> wLocal = weightBuf_.Get<float>();
        LocalTensor<float> col = colBuf_.Get<float>();
        LocalTensor<uint32_t> offs = offsetBuf_.Get<uint32_t>();

        for (uint32_t c0 = 0; c0 < t_.inChannels; c0 += t_.chanChunk) {
            uint32_t cc = t_.inChannels - c0;
            if (cc > t_.chanChunk) {
                cc = t_.chanChunk;
            }
            // 1. stage the input windows of cc channels
            LocalTensor<float> win = windowQue_.AllocTensor<float>();
            uint64_t src = (static_cast<uint64_t>(n) * t_.inChannels + c0) * t_.inLength +
                           static_cast<uint64_t>(l0) * t_.stride;
            DataCopyExtParams cp;
            cp.blockCount = static_cast<uint16_t>(cc);
            cp.blockLen = span * sizeof(float);
            cp.srcStride = (t_.inLength - span) * sizeof(float);
            cp.dstStride = (t_.rowPitch - Align8(span)) / 8;
            cp.rsv = 0;
            DataCopyPad(win, xGm_[src], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            windowQue_.EnQue(win);
            win = windowQue_.DeQue<float>();

            // 2. de-stride: one gather per (channel, tap)
            for (uint32_t c = 0; c < cc; ++c) {
                for (uint32_t k = 0; k < taps; ++k) {
                    Gather(col[(c * taps + k) * tileLen], win[c * t_.rowPitch], offs,
                           k * t_.dilation * static_cast<uint32_t>(sizeof(float)), lt);
                }
            }
            windowQue_.FreeTensor(win);

            // 3. rank-1 updates of every output channel
            for (uint32_t o = 0; o < t_.outChannels; ++o) {
                LocalTensor<float> accRow = acc[o * tileLen];
                uint32_t wBase = (o * t_.inChannels + c0) * taps;
                for (uint32_t ck = 0; ck < cc * taps; ++ck) {
                    float wv = wLocal.GetValue(wBase + ck);
                    Axpy(accRow, col[ck * tileLen], wv, lt);
                }
            }
        }

        accQue_.EnQue(acc);
        acc = accQue_.DeQue<float>();
        DataCopyExtParams op;
        op.blockCount = static_cast<uint16_t>(t_.outChannels);
        op.blockLen = lt * sizeof(float);
        op.srcStride = (tileLen - Align8(lt)) / 8;
        op.dstStride = (t_.outLength - lt) * sizeof(float);
        op.rsv = 0;
        uint64_t dst = static_cast<uint64_t>(n) * t_.outChannels * t_.outLength + l0;
        DataCopyPad(yGm_[dst], acc, op);
        accQue_.FreeTensor(acc);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> weightBuf_;
    TBuf<TPosition::VECCALC> offsetBuf_;
    TBuf<TPosition::VECCALC> colBuf_;
    TQue<QuePosition::VECIN, 2> windowQue_;
    TQue<QuePosition::VECOUT, 1> accQue_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> wGm_;
    GlobalTensor<float> yGm_;
    AtrousStridedConv1dTiling t_;
    uint32_t weightCount_ = 0;
    uint32_t firstTile_ = 0;
    uint32_t lastTile_ = 0;
};

extern "C" __global__ __aicore__ void atrous_strided_conv1d(GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace,
                                                            GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(AtrousStridedConv1dTiling);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    AtrousStridedConv1dKernel op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
