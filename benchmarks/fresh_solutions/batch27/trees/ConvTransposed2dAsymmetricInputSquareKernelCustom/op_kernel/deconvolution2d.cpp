/**
 * @file deconvolution2d.cpp
 * @brief Kernel of Deconvolution2d (transposed conv, NCHW fp32) on the AI Vector units.
 *
 * Output-stationary evaluation.  For output row oh only kernel rows kh with
 * (oh + pH - kh*dH) divisible by sH and inside the input contribute, using input row
 * ih = (oh + pH - kh*dH) / sH.  Along the row, output column ow receives x[iw] through kernel
 * column kw iff ow + pW - kw*dW = iw*sW.  For every kw a byte-offset table maps each output
 * column of the tile either to its staged input element or to a zero slot, so one Gather
 * yields the complete (sparse for sW > 1) tap vector, which Axpy accumulates into all output
 * channels of the current block.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t BLK = 8;          // floats per 32-byte block
constexpr uint32_t ZERO_SLOT = 8;    // zeros stored after the staged row
}

class Deconvolution2dKernel {
public:
    __aicore__ inline Deconvolution2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                const Deconvolution2dTilingData& td)
    {
        n_ = td.batch; c_ = td.inC; h_ = td.inH; w_ = td.inW;
        oc_ = td.outC; oh_ = td.outH; ow_ = td.outW; kh_ = td.kH; kw_ = td.kW;
        sh_ = td.strideH; sw_ = td.strideW; ph_ = td.padH; pw_ = td.padW;
        dh_ = td.dilationH; dw_ = td.dilationW;
        groups_ = td.groups; cg_ = td.inCPerGroup; ocg_ = td.outCPerGroup;
        ocBlock_ = td.ocBlock; blocksPerGroup_ = td.blocksPerGroup; wIcStride_ = td.wIcStride;
        owTile_ = td.owTile; rowCap_ = td.rowCap; hasBias_ = td.hasBias != 0;
        khkw_ = kh_ * kw_;

        const uint32_t core = GetBlockIdx();
        unitBegin_ = core * td.unitsPerCore + (core < td.unitsRemainder ? core : td.unitsRemainder);
        unitCount_ = td.unitsPerCore + (core < td.unitsRemainder ? 1 : 0);

        xGm_.SetGlobalBuffer((__gm__ float*)x);
        wGm_.SetGlobalBuffer((__gm__ float*)weight);
        if (hasBias_) {
            bGm_.SetGlobalBuffer((__gm__ float*)bias);
        }
        yGm_.SetGlobalBuffer((__gm__ float*)y);

        pipe_.InitBuffer(wBuf_, cg_ * wIcStride_ * sizeof(float));
        pipe_.InitBuffer(biasBuf_, ((ocBlock_ + BLK - 1) / BLK * BLK) * sizeof(float));
        pipe_.InitBuffer(accBuf_, ocBlock_ * owTile_ * sizeof(float));
        // Gather requires the source to hold at least `count` elements
        const uint32_t rowElems = (rowCap_ + ZERO_SLOT > owTile_) ? (rowCap_ + ZERO_SLOT) : owTile_;
        pipe_.InitBuffer(rowBuf_, rowElems * sizeof(float));
        pipe_.InitBuffer(tapBuf_, owTile_ * sizeof(float));
        pipe_.InitBuffer(tableBuf_, kw_ * owTile_ * sizeof(uint32_t));

        // the zero slot behind the row data is never overwritten by row staging
        LocalTensor<float> row = rowBuf_.Get<float>();
        Duplicate(row[rowCap_], 0.0f, ZERO_SLOT);
    }

    __aicore__ inline void Process()
    {
        const uint32_t chanBlocks = groups_ * blocksPerGroup_;
        int64_t tableTile = -1;
        int64_t filterBlock = -1;
        for (uint32_t k = 0; k < unitCount_; ++k) {
            uint32_t u = unitBegin_ + k;
            const uint32_t oh = u % oh_;
            u /= oh_;
            const uint32_t cb = u % chanBlocks;
            u /= chanBlocks;
            const uint32_t n = u % n_;
            const uint32_t t = u / n_;
            if (static_cast<int64_t>(t) != tableTile) {
                BuildTables(t);
                tableTile = t;
            }
            if (static_cast<int64_t>(cb) != filterBlock) {
                LoadFilterBlock(cb);
                filterBlock = cb;
            }
            ComputeRow(n, oh);
        }
    }

private:
    template <HardEvent EVT>
    __aicore__ inline void Sync()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
        SetFlag<EVT>(e);
        WaitFlag<EVT>(e);
    }

    __aicore__ inline void BuildTables(uint32_t t)
    {
        ow0_ = t * owTile_;
        len_ = (ow_ - ow0_ < owTile_) ? (ow_ - ow0_) : owTile_;
        // input columns that can reach this tile: iw*sW in [ow0 + pW - (kW-1)dW, ow0 + len - 1 + pW]
        const int64_t lowNum = static_cast<int64_t>(ow0_) + pw_ - static_cast<int64_t>(kw_ - 1) * dw_;
        int64_t iwLo = lowNum <= 0 ? 0 : (lowNum + sw_ - 1) / sw_;
        int64_t iwHi = (static_cast<int64_t>(ow0_) + len_ - 1 + pw_) / sw_;
        if (iwHi > static_cast<int64_t>(w_) - 1) {
            iwHi = static_cast<int64_t>(w_) - 1;
        }
        iwLo_ = static_cast<uint32_t>(iwLo);
        spanLen_ = (iwHi >= iwLo) ? static_cast<uint32_t>(iwHi - iwLo + 1) : 0;

        Sync<HardEvent::V_S>();   // earlier Gathers may still use the tables
        LocalTensor<uint32_t> table = tableBuf_.Get<uint32_t>();
        const uint32_t zeroOff = rowCap_ * sizeof(float);
        for (uint32_t q = 0; q < kw_; ++q) {
            for (uint32_t j = 0; j < owTile_; ++j) {
                uint32_t off = zeroOff;
                if (j < len_) {
                    const int64_t num = static_cast<int64_t>(ow0_ + j) + pw_ - static_cast<int64_t>(q) * dw_;
                    if (num >= 0 && num % sw_ == 0) {
                        const int64_t iw = num / sw_;
                        if (iw >= iwLo && iw <= iwHi) {
                            off = static_cast<uint32_t>(iw - iwLo) * sizeof(float);
                        }
                    }
                }
                table.SetValue(q * owTile_ + j, off);
            }
        }
        Sync<HardEvent::S_V>();
    }

    __aicore__ inline void LoadFilterBlock(uint32_t cb)
    {
        const uint32_t g = cb / blocksPerGroup_;
        const uint32_t first = (cb % blocksPerGroup_) * ocBlock_;
        ocCnt_ = (ocg_ - first < ocBlock_) ? (ocg_ - first) : ocBlock_;
        ocBase_ = g * ocg_ + first;
        icBase_ = g * cg_;

        // weight[c, o', kh, kw]: for each input channel of the group the block's
        // ocCnt*kH*kW values are contiguous; consecutive channels are ocg*kH*kW apart.
        LocalTensor<float> wLocal = wBuf_.Get<float>();
        const uint32_t blockElems = ocCnt_ * khkw_;
        const uint32_t usedAligned = (blockElems + BLK - 1) / BLK * BLK;
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        constexpr uint32_t MAX_BURSTS = 4095;
        for (uint32_t ic0 = 0; ic0 < cg_; ic0 += MAX_BURSTS) {
            const uint32_t cnt = (cg_ - ic0 < MAX_BURSTS) ? (cg_ - ic0) : MAX_BURSTS;
            DataCopyExtParams cp{static_cast<uint16_t>(cnt), blockElems * static_cast<uint32_t>(sizeof(float)),
                                 (ocg_ - ocCnt_) * khkw_ * static_cast<uint32_t>(sizeof(float)),
                                 (wIcStride_ - usedAligned) / BLK, 0};
            const uint64_t src = (static_cast<uint64_t>(icBase_ + ic0) * ocg_ + first) * khkw_;
            DataCopyPad(wLocal[ic0 * wIcStride_], wGm_[src], cp, noPad);
        }
        if (hasBias_) {
            LocalTensor<float> bLocal = biasBuf_.Get<float>();
            DataCopyExtParams bp{1, ocCnt_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(bLocal, bGm_[ocBase_], bp, noPad);
        }
        Sync<HardEvent::MTE2_S>();
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> row = rowBuf_.Get<float>();
        LocalTensor<float> tap = tapBuf_.Get<float>();
        LocalTensor<float> wLocal = wBuf_.Get<float>();
        LocalTensor<float> bLocal = biasBuf_.Get<float>();
        LocalTensor<uint32_t> table = tableBuf_.Get<uint32_t>();

        if (outPending_) {
            Sync<HardEvent::MTE3_V>();
            outPending_ = false;
        }
        for (uint32_t o = 0; o < ocCnt_; ++o) {
            Duplicate(acc[o * owTile_], hasBias_ ? bLocal.GetValue(o) : 0.0f, len_);
        }

        if (spanLen_ > 0) {
            const uint32_t rowBytes = spanLen_ * sizeof(float);
            for (uint32_t r = 0; r < kh_; ++r) {
                const int64_t num = static_cast<int64_t>(oh) + ph_ - static_cast<int64_t>(r) * dh_;
                if (num < 0 || num % sh_ != 0) {
                    continue;
                }
                const int64_t ih = num / sh_;
                if (ih >= static_cast<int64_t>(h_)) {
                    continue;
                }
                for (uint32_t icg = 0; icg < cg_; ++icg) {
                    // reuse of the single staging buffer: wait for the previous Gathers
                    Sync<HardEvent::V_MTE2>();
                    const uint64_t src = ((static_cast<uint64_t>(n) * c_ + icBase_ + icg) * h_ + ih) * w_ + iwLo_;
                    DataCopyExtParams cp{1, rowBytes, 0, 0, 0};
                    DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
                    DataCopyPad(row, xGm_[src], cp, noPad);
                    Sync<HardEvent::MTE2_V>();

                    const uint32_t wBase = icg * wIcStride_ + r * kw_;
                    for (uint32_t q = 0; q < kw_; ++q) {
                        Gather(tap, row, table[q * owTile_], 0, len_);
                        for (uint32_t o = 0; o < ocCnt_; ++o) {
                            Axpy(acc[o * owTile_], tap, wLocal.GetValue(wBase + o * khkw_ + q), len_);
                        }
                    }
                }
            }
        }

        Sync<HardEvent::V_MTE3>();
        const uint32_t alignedLen = (len_ + BLK - 1) / BLK * BLK;
        DataCopyExtParams out{static_cast<uint16_t>(ocCnt_), len_ * static_cast<uint32_t>(sizeof(float)),
                              (owTile_ - alignedLen) / BLK,
                              static_cast<uint32_t>((static_cast<uint64_t>(oh_) * ow_ - len_) * sizeof(float)), 0};
        const uint64_t dst = ((static_cast<uint64_t>(n) * oc_ + ocBase_) * oh_ + oh) * ow_ + ow0_;
        DataCopyPad(yGm_[dst], acc, out);
        outPending_ = true;
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> wBuf_;
    TBuf<TPosition::VECCALC> biasBuf_;
    TBuf<TPosition::VECCALC> accBuf_;
    TBuf<TPosition::VECCALC> rowBuf_;
    TBuf<TPosition::VECCALC> tapBuf_;
    TBuf<TPosition::VECCALC> tableBuf_;

    GlobalTensor<float> xGm_;
    GlobalTensor<float> wGm_;
    GlobalTensor<float> bGm_;
    GlobalTensor<float> yGm_;

    uint32_t n_, c_, h_, w_, oc_, oh_, ow_, kh_, kw_, khkw_;
    uint32_t sh_, sw_, ph_, pw_, dh_, dw_;
    uint32_t groups_, cg_, ocg_, ocBlock_, blocksPerGroup_, wIcStride_, owTile_, rowCap_;
    uint32_t unitBegin_ = 0, unitCount_ = 0;
    uint32_t ow0_ = 0, len_ = 0, iwLo_ = 0, spanLen_ = 0;
    uint32_t ocCnt_ = 0, ocBase_ = 0, icBase_ = 0;
    bool hasBias_ = false;
    bool outPending_ = false;
};

extern "C" __global__ __aicore__ void deconvolution2d(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Deconvolution2dKernel op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
