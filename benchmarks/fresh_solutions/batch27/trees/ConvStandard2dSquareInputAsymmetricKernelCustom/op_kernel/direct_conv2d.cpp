/**
 * @file direct_conv2d.cpp
 * @brief Kernel of DirectConv2d: NCHW fp32 convolution (stride, zero padding, dilation, groups,
 *        optional bias) computed on the AI Vector units.
 *
 * Output-stationary scheme.  A work unit is one output row segment [ow0, ow0+len) of one
 * image, for a block of output channels of one group:
 *
 *   acc[o][j] = bias[o]
 *   for every input channel ic of the group, every kernel row kh with a valid input row ih:
 *       stage x[n, ic, ih, colStart .. colStart+span) in UB (zeros outside the image)
 *       for every kernel column kw:
 *           tap[j] = staged[j*strideW + kw*dilationW]            (one Gather)
 *           acc[o][:] += w[o, ic, kh, kw] * tap[:]   for all o    (Axpy)
 *
 * The accumulator block is written back with one strided DataCopyPad.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t ROW_DEPTH = 2;
constexpr uint32_t BLK_FLOATS = 8;
}

class DirectConv2dKernel {
public:
    __aicore__ inline DirectConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, const DirectConv2dTilingData& td)
    {
        n_ = td.batch; c_ = td.inC; h_ = td.inH; w_ = td.inW;
        oc_ = td.outC; oh_ = td.outH; ow_ = td.outW;
        kh_ = td.kH; kw_ = td.kW;
        sh_ = td.strideH; sw_ = td.strideW; ph_ = td.padH; pw_ = td.padW;
        dh_ = td.dilationH; dw_ = td.dilationW;
        groups_ = td.groups; cg_ = td.inCPerGroup; ocg_ = td.outCPerGroup;
        ocBlock_ = td.ocBlock; blocksPerGroup_ = td.blocksPerGroup;
        owTile_ = td.owTile; rowCap_ = td.rowCap;
        hasBias_ = td.hasBias != 0;
        wPerOc_ = cg_ * kh_ * kw_;

        const uint32_t core = GetBlockIdx();
        unitBegin_ = core * td.unitsPerCore + (core < td.unitsRemainder ? core : td.unitsRemainder);
        unitCount_ = td.unitsPerCore + (core < td.unitsRemainder ? 1 : 0);

        xGm_.SetGlobalBuffer((__gm__ float*)x);
        wGm_.SetGlobalBuffer((__gm__ float*)weight);
        if (hasBias_) {
            bGm_.SetGlobalBuffer((__gm__ float*)bias);
        }
        yGm_.SetGlobalBuffer((__gm__ float*)y);

        pipe_.InitBuffer(wBuf_, Align(ocBlock_ * wPerOc_) * sizeof(float));
        pipe_.InitBuffer(biasBuf_, Align(ocBlock_) * sizeof(float));
        pipe_.InitBuffer(accBuf_, ocBlock_ * owTile_ * sizeof(float));
        pipe_.InitBuffer(tapBuf_, owTile_ * sizeof(float));
        pipe_.InitBuffer(offBuf_, owTile_ * sizeof(uint32_t));
        pipe_.InitBuffer(rowQue_, ROW_DEPTH, rowCap_ * sizeof(float));

        // byte offset of output column j inside the staged row (dilation/shift go into the base)
        offsets_ = offBuf_.Get<uint32_t>();
        for (uint32_t j = 0; j < owTile_; ++j) {
            offsets_.SetValue(j, j * sw_ * static_cast<uint32_t>(sizeof(float)));
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    __aicore__ inline void Process()
    {
        int64_t residentBlock = -1;
        const uint32_t chanBlocks = groups_ * blocksPerGroup_;
        for (uint32_t k = 0; k < unitCount_; ++k) {
            uint32_t u = unitBegin_ + k;
            const uint32_t oh = u % oh_;
            u /= oh_;
            const uint32_t cb = u % chanBlocks;   // group * blocksPerGroup + block
            u /= chanBlocks;
            const uint32_t n = u % n_;
            const uint32_t t = u / n_;
            if (static_cast<int64_t>(cb) != residentBlock) {
                LoadFilterBlock(cb);
                residentBlock = cb;
            }
            ComputeRow(n, cb, oh, t);
        }
    }

private:
    __aicore__ inline uint32_t Align(uint32_t v) const { return (v + BLK_FLOATS - 1) / BLK_FLOATS * BLK_FLOATS; }

    __aicore__ inline void LoadFilterBlock(uint32_t cb)
    {
        const uint32_t g = cb / blocksPerGroup_;
        const uint32_t b = cb % blocksPerGroup_;
        const uint32_t first = b * ocBlock_;
        ocCnt_ = (ocg_ - first < ocBlock_) ? (ocg_ - first) : ocBlock_;
        ocBase_ = g * ocg_ + first;
        icBase_ = g * cg_;

        // the previous block's filter may still be referenced by queued vector work only through
        // immediates, so the overwrite just has to wait for pending scalar reads (in order).
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        LocalTensor<float> wLocal = wBuf_.Get<float>();
        DataCopyExtParams wp{1, ocCnt_ * wPerOc_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(wLocal, wGm_[static_cast<uint64_t>(ocBase_) * wPerOc_], wp, noPad);
        if (hasBias_) {
            LocalTensor<float> bLocal = biasBuf_.Get<float>();
            DataCopyExtParams bp{1, ocCnt_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(bLocal, bGm_[ocBase_], bp, noPad);
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t cb, uint32_t oh, uint32_t t)
    {
        const uint32_t ow0 = t * owTile_;
        const uint32_t len = (ow_ - ow0 < owTile_) ? (ow_ - ow0) : owTile_;
        const int64_t colStart = static_cast<int64_t>(ow0) * sw_ - pw_;
        const int64_t span = static_cast<int64_t>(len - 1) * sw_ + static_cast<int64_t>(kw_ - 1) * dw_ + 1;
        const int64_t lo = colStart > 0 ? colStart : 0;
        const int64_t hi = (colStart + span < static_cast<int64_t>(w_)) ? (colStart + span) : static_cast<int64_t>(w_);
        const bool partial = (lo > colStart) || (hi < colStart + span);
        const uint32_t lead = static_cast<uint32_t>(lo - colStart);
        const uint32_t shift = (BLK_FLOATS - lead % BLK_FLOATS) % BLK_FLOATS;

        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> tap = tapBuf_.Get<float>();
        LocalTensor<float> wLocal = wBuf_.Get<float>();
        LocalTensor<float> bLocal = biasBuf_.Get<float>();

        // the accumulator is still being drained by the previous unit's copy-out
        if (pendingOut_) {
            event_t mv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_V));
            SetFlag<HardEvent::MTE3_V>(mv);
            WaitFlag<HardEvent::MTE3_V>(mv);
            pendingOut_ = false;
        }
        for (uint32_t o = 0; o < ocCnt_; ++o) {
            Duplicate(acc[o * owTile_], hasBias_ ? bLocal.GetValue(o) : 0.0f, len);
        }

        if (hi > lo) {
            for (uint32_t icg = 0; icg < cg_; ++icg) {
                const uint64_t plane = (static_cast<uint64_t>(n) * c_ + icBase_ + icg) * h_;
                for (uint32_t r = 0; r < kh_; ++r) {
                    const int64_t ih = static_cast<int64_t>(oh) * sh_ - ph_ + static_cast<int64_t>(r) * dh_;
                    if (ih < 0 || ih >= static_cast<int64_t>(h_)) {
                        continue;
                    }
                    StageRow((plane + ih) * w_ + lo, static_cast<uint32_t>(hi - lo), lead + shift, partial);
                    LocalTensor<float> row = rowQue_.DeQue<float>();
                    const uint32_t wBase = (icg * kh_ + r) * kw_;
                    for (uint32_t q = 0; q < kw_; ++q) {
                        Gather(tap, row, offsets_, (shift + q * dw_) * static_cast<uint32_t>(sizeof(float)), len);
                        for (uint32_t o = 0; o < ocCnt_; ++o) {
                            Axpy(acc[o * owTile_], tap, wLocal.GetValue(o * wPerOc_ + wBase + q), len);
                        }
                    }
                    rowQue_.FreeTensor(row);
                }
            }
        }

        event_t vm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vm);
        WaitFlag<HardEvent::V_MTE3>(vm);
        const uint32_t bytes = len * sizeof(float);
        DataCopyExtParams out{static_cast<uint16_t>(ocCnt_), bytes,
                              (owTile_ - Align(len)) * static_cast<uint32_t>(sizeof(float)) / 32,
                              static_cast<uint32_t>((static_cast<uint64_t>(oh_) * ow_ - len) * sizeof(float)), 0};
        const uint64_t dst = ((static_cast<uint64_t>(n) * oc_ + ocBase_) * oh_ + oh) * ow_ + ow0;
        DataCopyPad(yGm_[dst], acc, out);
        pendingOut_ = true;
    }

    __aicore__ inline void StageRow(uint64_t src, uint32_t count, uint32_t dstPos, bool zeroFill)
    {
        LocalTensor<float> row = rowQue_.AllocTensor<float>();
        if (zeroFill) {
            Duplicate(row, 0.0f, rowCap_);
            event_t vm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
            SetFlag<HardEvent::V_MTE2>(vm);
            WaitFlag<HardEvent::V_MTE2>(vm);
        }
        DataCopyExtParams cp{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(row[dstPos], xGm_[src], cp, noPad);
        rowQue_.EnQue(row);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> wBuf_;
    TBuf<TPosition::VECCALC> biasBuf_;
    TBuf<TPosition::VECCALC> accBuf_;
    TBuf<TPosition::VECCALC> tapBuf_;
    TBuf<TPosition::VECCALC> offBuf_;
    TQue<QuePosition::VECIN, ROW_DEPTH> rowQue_;
    LocalTensor<uint32_t> offsets_;

    GlobalTensor<float> xGm_;
    GlobalTensor<float> wGm_;
    GlobalTensor<float> bGm_;
    GlobalTensor<float> yGm_;

    uint32_t n_, c_, h_, w_, oc_, oh_, ow_, kh_, kw_;
    uint32_t sh_, sw_, ph_, pw_, dh_, dw_;
    uint32_t groups_, cg_, ocg_, ocBlock_, blocksPerGroup_, owTile_, rowCap_, wPerOc_;
    uint32_t ocCnt_ = 0;
    uint32_t ocBase_ = 0;
    uint32_t icBase_ = 0;
    uint32_t unitBegin_ = 0;
    uint32_t unitCount_ = 0;
    bool hasBias_ = false;
    bool pendingOut_ = false;
};

extern "C" __global__ __aicore__ void direct_conv2d(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    DirectConv2dKernel op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
