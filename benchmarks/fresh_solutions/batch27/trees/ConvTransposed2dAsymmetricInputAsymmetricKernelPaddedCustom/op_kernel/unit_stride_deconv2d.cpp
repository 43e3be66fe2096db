// Stride-1 transposed convolution, NCHW float32, rectangular kernel, asymmetric padding.
//
// Work unit: one output row segment (n, oh, ow0 .. ow0+tileW) for all output channels.
// For every kernel row kh whose source row ih = oh + padH - kh exists:
//   * one DMA stages the input segment of that row for all input channels
//     (segment start is rounded down to a multiple of 8 so the UB copy stays aligned,
//      out-of-image samples are zero),
//   * for every (c, kw) Gather shifts the segment so that lane i holds x[.., ow0 + i + padW - kw],
//   * every output channel accumulates that vector scaled by w[c, o, kh, kw] (Axpy).
// Because ow0 is always a multiple of 8, the shift of each kw inside the staged
// segment is the same for every unit, so the gather offset tables are built once.

#include "kernel_operator.h"
#include "unit_stride_deconv2d_tiling.h"

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

class UnitStrideDeconv2dKernel {
public:
    __aicore__ inline UnitStrideDeconv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const UnitStrideDeconv2dTiling &t)
    {
        t_ = t;
        planeIn_ = t.inH * t.inW;
        planeOut_ = t.outH * t.outW;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x),
                             static_cast<uint64_t>(t.batch) * t.inChannels * planeIn_);
        wGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(w),
                             static_cast<uint64_t>(t.inChannels) * t.outChannels * t.kH * t.kW);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y),
                             static_cast<uint64_t>(t.batch) * t.outChannels * planeOut_);

        weightCount_ = t.inChannels * t.outChannels * t.kH * t.kW;
        pipe_.InitBuffer(weightBuf_, Align8(weightCount_) * sizeof(float));
        pipe_.InitBuffer(shiftTabBuf_, t.kW * t.tileW * sizeof(uint32_t));
        pipe_.InitBuffer(shiftedBuf_, 2 * t.tileW * sizeof(float));
        pipe_.InitBuffer(segQue_, 2, t.inChannels * t.segPitch * sizeof(float));
        pipe_.InitBuffer(accQue_, 1, t.outChannels * t.tileW * sizeof(float));

        // position of the first needed sample inside a segment whose start is floor8-aligned
        int32_t lead = static_cast<int32_t>(t.padW) - static_cast<int32_t>(t.kW) + 1;
        lead_ = static_cast<uint32_t>(((lead % 8) + 8) % 8);

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
        BuildShiftTables();
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
            ComputeUnit(n, oh, ow0, tw);
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

    // tab[kw][i] = byte offset of x[.., ow0 + i + padW - kw] inside the staged segment
    __aicore__ inline void BuildShiftTables()
    {
        LocalTensor<uint32_t> tab = shiftTabBuf_.Get<uint32_t>();
        for (uint32_t kw = 0; kw < t_.kW; ++kw) {
            uint32_t base = lead_ + (t_.kW - 1 - kw);
            for (uint32_t i = 0; i < t_.tileW; ++i) {
                tab.SetValue(kw * t_.tileW + i, (base + i) * static_cast<uint32_t>(sizeof(float)));
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
        bool touchesBorder = (segStart < 0) || (needEnd > inW);
        if (touchesBorder) {
            Duplicate(seg, 0.0f, t_.inChannels * t_.segPitch);
            WaitPipe<HardEvent::V_MTE2>();
        }
        if (copyHi > copyLo) {
            uint32_t cnt = static_cast<uint32_t>(copyHi - copyLo);
            uint32_t dstOff = static_cast<uint32_t>(copyLo - segStart);   // 0 or a multiple of 8
            DataCopyExtParams cp;
            cp.blockCount = static_cast<uint16_t>(t_.inChannels);
            cp.blockLen = cnt * sizeof(float);
            cp.srcStride = (planeIn_ - cnt) * sizeof(float);
            cp.dstStride = (t_.segPitch - Align8(cnt)) / 8;
            cp.rsv = 0;
            uint8_t tailPad = static_cast<uint8_t>(Align8(cnt) - cnt);
            uint64_t src = static_cast<uint64_t>(n) * t_.inChannels * planeIn_ +
                           static_cast<uint64_t>(ih) * t_.inW + static_cast<uint32_t>(copyLo);
            DataCopyPad(seg[dstOff], xGm_[src], cp, DataCopyPadExtParams<float>{true, 0, tailPad, 0.0f});
        }
        segQue_.EnQue(seg);
    }

    __aicore__ inline void ComputeUnit(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t tw)
    {
        const uint32_t tileW = t_.tileW;
        const uint32_t kHW = t_.kH * t_.kW;
        LocalTensor<float> acc = accQue_.AllocTensor<float>();
        Duplicate(acc, 0.0f, t_.outChannels * tileW);

        LocalTensor<float> wLocal = weightBuf_.Get<float>();
        LocalTensor<uint32_t> tab = shiftTabBuf_.Get<uint32_t>();
        LocalTensor<float> shifted = shiftedBuf_.Get<float>();

        int32_t iwLo = static_cast<int32_t>(ow0) + static_cast<int32_t>(t_.padW) - static_cast<int32_t>(t_.kW) + 1;
        int32_t segStart = FloorTo8(iwLo);
        int32_t needEnd = static_cast<int32_t>(ow0 + tw) + static_cast<int32_t>(t_.padW);   // exclusive

        uint32_t flip = 0;
        for (uint32_t kh = 0; kh < t_.kH; ++kh) {
            int32_t ih = static_cast<int32_t>(oh) + static_cast<int32_t>(t_.padH) - static_cast<int32_t>(kh);
            if (ih < 0 || ih >= static_cast<int32_t>(t_.inH)) {
                continue;
            }
            StageRow(n, static_cast<uint32_t>(ih), segStart, needEnd);
            LocalTensor<float> seg = segQue_.DeQue<float>();
            for (uint32_t c = 0; c < t_.inChannels; ++c) {
                LocalTensor<float> row = seg[c * t_.segPitch];
                for (uint32_t kw = 0; kw < t_.kW; ++kw) {
                    LocalTensor<float> sv = shifted[flip * tileW];
                    flip ^= 1;
                    Gather(sv, row, tab[kw * tileW], 0, tw);
                    // w[c, o, kh, kw] with o running: stride kH*kW
                    uint32_t wIdx = c * t_.outChannels * kHW + kh * t_.kW + kw;
                    for (uint32_t o = 0; o < t_.outChannels; ++o) {
                        Axpy(acc[o * tileW], sv, wLocal.GetValue(wIdx), tw);
                        wIdx += kHW;
                    }
                }
            }
            segQue_.FreeTensor(seg);
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
    TBuf<TPosition::VECCALC> weightBuf_;
    TBuf<TPosition::VECCALC> shiftTabBuf_;
    TBuf<TPosition::VECCALC> shiftedBuf_;
    TQue<QuePosition::VECIN, 2> segQue_;
    TQue<QuePosition::VECOUT, 1> accQue_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> wGm_;
    GlobalTensor<float> yGm_;
    UnitStrideDeconv2dTiling t_;
    uint32_t planeIn_ = 0;
    uint32_t planeOut_ = 0;
    uint32_t weightCount_ = 0;
    uint32_t lead_ = 0;
    uint32_t firstUnit_ = 0;
    uint32_t lastUnit_ = 0;
};

extern "C" __global__ __aicore__ void unit_stride_deconv2d(GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(UnitStrideDeconv2dTiling);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    UnitStrideDeconv2dKernel op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
