// Depthwise k x k convolution fused with the following 1x1 pointwise convolution.
// NCHW float32. The depthwise result never leaves UB.
//
// Work unit: (n, output row oh, tileW output columns).
//   depthwise: for each kernel row kh with a valid source row, stage that input row
//              segment of every channel with one DMA (start rounded down to a multiple
//              of 8, outside samples zero), then per (channel, kw) Gather the strided /
//              dilated / shifted samples and Axpy them into dw[c][0..tw).
//   pointwise: acc[o] = sum_c wp[o, c] * dw[c]  (Axpy with the weight as scalar),
//              written back with a single strided DMA over the output channels.

#include "kernel_operator.h"
#include "dw_pw_conv2d_tiling.h"

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
} // namespace

class DwPwConv2dKernel {
public:
    __aicore__ inline DwPwConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wDw, GM_ADDR wPw, GM_ADDR y, const DwPwConv2dTiling &t)
    {
        t_ = t;
        planeIn_ = t.inH * t.inW;
        planeOut_ = t.outH * t.outW;
        taps_ = t.ksize * t.ksize;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x),
                             static_cast<uint64_t>(t.batch) * t.channels * planeIn_);
        wDwGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(wDw), t.channels * taps_);
        wPwGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(wPw), t.outChannels * t.channels);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y),
                             static_cast<uint64_t>(t.batch) * t.outChannels * planeOut_);

        pipe_.InitBuffer(wDwBuf_, Align8(t.channels * taps_) * sizeof(float));
        pipe_.InitBuffer(wPwBuf_, Align8(t.outChannels * t.channels) * sizeof(float));
        pipe_.InitBuffer(tabBuf_, t.ksize * t.tileW * sizeof(uint32_t));
        pipe_.InitBuffer(pickBuf_, 2 * t.tileW * sizeof(float));
        pipe_.InitBuffer(dwBuf_, t.channels * t.tileW * sizeof(float));
        pipe_.InitBuffer(segQue_, 2, t.channels * t.segPitch * sizeof(float));
        pipe_.InitBuffer(accQue_, 1, t.outChannels * t.tileW * sizeof(float));

        int32_t negPad = -static_cast<int32_t>(t.pad);
        lead_ = static_cast<uint32_t>(((negPad % 8) + 8) % 8);

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
        LoadWeights();
        BuildTapTables();
        const uint32_t unitsPerImage = t_.outH * t_.tilesPerRow;
        for (uint32_t u = firstUnit_; u < lastUnit_; ++u) {
            uint32_t n = u / unitsPerImage;
            uint32_t rem = u % unitsPerImage;
            uint32_t oh = rem / t_.tilesPerRow;
            uint32_t ow0 = (rem % t_.tilesPerRow) * t_.tileW;
            uint32_t tw = t_.outW - ow0;
            if (tw > t_.tileW) {
                tw = t_.tileW;
            }
            Depthwise(n, oh, ow0, tw);
            PointwiseAndStore(n, oh, ow0, tw);
        }
    }

private:
    __aicore__ inline void LoadWeights()
    {
        LocalTensor<float> wd = wDwBuf_.Get<float>();
        LocalTensor<float> wp = wPwBuf_.Get<float>();
        DataCopyExtParams pd{1, static_cast<uint32_t>(t_.channels * taps_ * sizeof(float)), 0, 0, 0};
        DataCopyExtParams pp{1, static_cast<uint32_t>(t_.outChannels * t_.channels * sizeof(float)), 0, 0, 0};
        DataCopyPad(wd, wDwGm_, pd, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        DataCopyPad(wp, wPwGm_, pp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        WaitPipe<HardEvent::MTE2_S>();
    }

    // tab[kw][i] = byte offset of input column (ow0+i)*stride - pad + kw*dil inside the segment
    __aicore__ inline void BuildTapTables()
    {
        LocalTensor<uint32_t> tab = tabBuf_.Get<uint32_t>();
        for (uint32_t kw = 0; kw < t_.ksize; ++kw) {
            for (uint32_t i = 0; i < t_.tileW; ++i) {
                uint32_t pos = lead_ + i * t_.stride + kw * t_.dilation;
                tab.SetValue(kw * t_.tileW + i, pos * static_cast<uint32_t>(sizeof(float)));
            }
        }
        WaitPipe<HardEvent::S_V>();
    }

    __aicore__ inline void StageRow(uint32_t n, uint32_t ih, int32_t segStart, int32_t needEnd)
    {
        LocalTensor<float> seg = segQue_.AllocTensor<float>();
        int32_t inW = static_cast<int32_t>(t_.inW);
        int32_t copyLo = segStart < 0 ? 0 : segStart;
        int32_t copyHi = needEnd < inW ? needEnd : inW;
        if (segStart < 0 || needEnd > inW) {
            Duplicate(seg, 0.0f, t_.channels * t_.segPitch);
            WaitPipe<HardEvent::V_MTE2>();
        }
        if (copyHi > copyLo) {
            uint32_t cnt = static_cast<uint32_t>(copyHi - copyLo);
            DataCopyExtParams cp;
            cp.blockCount = static_cast<uint16_t>(t_.channels);
            cp.blockLen = cnt * sizeof(float);
            cp.srcStride = (planeIn_ - cnt) * sizeof(float);
            cp.dstStride = (t_.segPitch - Align8(cnt)) / 8;
            cp.rsv = 0;
            uint8_t tailPad = static_cast<uint8_t>(Align8(cnt) - cnt);
            uint64_t src = static_cast<uint64_t>(n) * t_.channels * planeIn_ +
                           static_cast<uint64_t>(ih) * t_.inW + static_cast<uint32_t>(copyLo);
            DataCopyPad(seg[static_cast<uint32_t>(copyLo - segStart)], xGm_[src], cp,
                        DataCopyPadExtParams<float>{true, 0, tailPad, 0.0f});
        }
        segQue_.EnQue(seg);
    }

    __aicore__ inline void Depthwise(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t tw)
    {
        const uint32_t tileW = t_.tileW;
        LocalTensor<float> dw = dwBuf_.Get<float>();
        LocalTensor<float> wd = wDwBuf_.Get<float>();
        LocalTensor<uint32_t> tab = tabBuf_.Get<uint32_t>();
        LocalTensor<float> pick = pickBuf_.Get<float>();
        Duplicate(dw, 0.0f, t_.channels * tileW);

        int32_t colLo = static_cast<int32_t>(ow0 * t_.stride) - static_cast<int32_t>(t_.pad);
        int32_t segStart = FloorTo8(colLo);
        int32_t needEnd = colLo + static_cast<int32_t>((tw - 1) * t_.stride + (t_.ksize - 1) * t_.dilation + 1);

        uint32_t flip = 0;
        for (uint32_t kh = 0; kh < t_.ksize; ++kh) {
            int32_t ih = static_cast<int32_t>(oh * t_.stride + kh * t_.dilation) - static_cast<int32_t>(t_.pad);
            if (ih < 0 || ih >= static_cast<int32_t>(t_.inH)) {
                continue;   // zero padding rows contribute nothing
            }
            StageRow(n, static_cast<uint32_t>(ih), segStart, needEnd);
            LocalTensor<float> seg = segQue_.DeQue<float>();
            for (uint32_t c = 0; c < t_.channels; ++c) {
                LocalTensor<float> row = seg[c * t_.segPitch];
                LocalTensor<float> dst = dw[c * tileW];
                for (uint32_t kw = 0; kw < t_.ksize; ++kw) {
                    LocalTensor<float> pv = pick[flip * tileW];
                    flip ^= 1;
                    Gather(pv, row, tab[kw * tileW], 0, tw);
                    Axpy(dst, pv, wd.GetValue(c * taps_ + kh * t_.ksize + kw), tw);
                }
            }
            segQue_.FreeTensor(seg);
        }
    }

    __aicore__ inline void PointwiseAndStore(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t tw)
    {
        const uint32_t tileW = t_.tileW;
        LocalTensor<float> dw = dwBuf_.Get<float>();
        LocalTensor<float> wp = wPwBuf_.Get<float>();
        LocalTensor<float> acc = accQue_.AllocTensor<float>();
        for (uint32_t o = 0; o < t_.outChannels; ++o) {
            LocalTensor<float> dst = acc[o * tileW];
            const uint32_t wRow = o * t_.channels;
            Muls(dst, dw, wp.GetValue(wRow), tw);
            for (uint32_t c = 1; c < t_.channels; ++c) {
                Axpy(dst, dw[c * tileW], wp.GetValue(wRow + c), tw);
            }
        }
        accQue_.EnQue(acc);
        acc = accQue_.DeQue<float>();
        DataCopyExtParams op;
        op.blockCount = static_cast<uint16_t>(t_.outChannels);
        op.blockLen = tw * sizeof(float);
        op.srcStride = (tileW - Align8(tw)) / 8;
        op.dstStride = (planeOut_ - tw) * sizeof(float);
        op.rsv = 0;
        uint64_t dst = static_cast<uint64_t>(n) * t_.outChannels * planeOut_ +
                       static_cast<uint64_t>(oh) * t_.outW + ow0;
        DataCopyPad(yGm_[dst], acc, op);
        accQue_.FreeTensor(acc);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> wDwBuf_;
    TBuf<TPosition::VECCALC> wPwBuf_;
    TBuf<TPosition::VECCALC> tabBuf_;
    TBuf<TPosition::VECCALC> pickBuf_;
    TBuf<TPosition::VECCALC> dwBuf_;
    TQue<QuePosition::VECIN, 2> segQue_;
    TQue<QuePosition::VECOUT, 1> accQue_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> wDwGm_;
    GlobalTensor<float> wPwGm_;
    GlobalTensor<float> yGm_;
    DwPwConv2dTiling t_;
    uint32_t planeIn_ = 0;
    uint32_t planeOut_ = 0;
    uint32_t taps_ = 0;
    uint32_t lead_ = 0;
    uint32_t firstUnit_ = 0;
    uint32_t lastUnit_ = 0;
};

extern "C" __global__ __aicore__ void dw_pw_conv2d(GM_ADDR x, GM_ADDR depthwiseWeight, GM_ADDR pointwiseWeight,
                                                   GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(DwPwConv2dTiling);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    DwPwConv2dKernel op;
    op.Init(x, depthwiseWeight, pointwiseWeight, y, tilingData);
    op.Process();
}
