/**
 * TransposedConv1dDilated kernel (fp32)
 *
 *   y[n, oc, t] = bias[oc] + sum_{ic, k} x[n, ic, i] * w[ic, oc, k]
 *                 where  i * stride = t + padding - k * dilation,  0 <= i < L
 *
 * The scatter form of a transposed convolution is turned into a gather:
 * for a window of output positions [t0, t0+T) and a tap k, the source index
 * of every output position is known in closed form.  A per-window table of
 * byte offsets (plus a 0/1 validity mask) is built once, after which every
 * input channel row is rearranged with one vector Gather per tap and then
 * broadcast into all output channels with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DB = 2;
}

class TransposedConv1dDilatedKernel {
public:
    __aicore__ inline TransposedConv1dDilatedKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TransposedConv1dDilatedTilingData &td)
    {
        n_ = td.batch;
        ci_ = td.inChannels;
        co_ = td.outChannels;
        l_ = td.inLength;
        lout_ = td.outLength;
        k_ = td.kernelSize;
        s_ = td.stride;
        p_ = td.padding;
        d_ = td.dilation;
        hasBias_ = td.hasBias != 0;
        tile_ = td.outTile;
        span_ = td.spanMax;
        tilesPerBatch_ = td.tilesPerBatch;
        weightInUb_ = td.weightInUb != 0;

        uint32_t core = GetBlockIdx();
        myTiles_ = td.tilesPerCore + (core < td.tilesTail ? 1U : 0U);
        firstTile_ = core * td.tilesPerCore + (core < td.tilesTail ? core : td.tilesTail);

        xGm_.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(n_) * ci_ * l_);
        wGm_.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(ci_) * co_ * k_);
        if (hasBias_) {
            bGm_.SetGlobalBuffer((__gm__ float *)bias, co_);
        }
        yGm_.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(n_) * co_ * lout_);

        // Gather requires the source tensor to hold at least `count` elements.
        uint32_t rowCap = span_ > tile_ ? span_ : tile_;
        pipe_.InitBuffer(rowQ_, DB, rowCap * sizeof(float));
        pipe_.InitBuffer(outQ_, DB, tile_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, co_ * tile_ * sizeof(float));
        pipe_.InitBuffer(offBuf_, k_ * tile_ * sizeof(uint32_t));
        pipe_.InitBuffer(maskBuf_, k_ * tile_ * sizeof(float));
        pipe_.InitBuffer(gatBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(biasBuf_, Align8(co_) * sizeof(float));
        if (weightInUb_) {
            pipe_.InitBuffer(wBuf_, Align8(ci_ * co_ * k_) * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (myTiles_ == 0) {
            return;
        }
        LoadConstants();
        for (uint32_t i = 0; i < myTiles_; ++i) {
            uint32_t tileId = firstTile_ + i;
            uint32_t b = tileId / tilesPerBatch_;
            uint32_t t0 = (tileId % tilesPerBatch_) * tile_;
            uint32_t len = (lout_ - t0) < tile_ ? (lout_ - t0) : tile_;
            RunWindow(b, t0, len);
        }
    }

private:
    __aicore__ inline uint32_t Align8(uint32_t v) const { return (v + 7U) / 8U * 8U; }

    __aicore__ inline int32_t FloorDiv(int32_t a, int32_t b) const
    {
        int32_t q = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }

    __aicore__ inline void LoadConstants()
    {
        LocalTensor<float> bl = biasBuf_.Get<float>();
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        if (hasBias_) {
            DataCopyExtParams bp{1, static_cast<uint32_t>(co_ * sizeof(float)), 0, 0, 0};
            DataCopyPad(bl, bGm_, bp, noPad);
        }
        if (weightInUb_) {
            LocalTensor<float> wl = wBuf_.Get<float>();
            DataCopyExtParams wp{1, static_cast<uint32_t>(ci_ * co_ * k_ * sizeof(float)), 0, 0, 0};
            DataCopyPad(wl, wGm_, wp, noPad);
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline float WeightAt(uint32_t ic, uint32_t oc, uint32_t kk)
    {
        uint32_t idx = (ic * co_ + oc) * k_ + kk;
        return weightInUb_ ? wBuf_.Get<float>().GetValue(idx) : wGm_.GetValue(idx);
    }

    // Build the gather tables for window [t0, t0+len).  Returns the first
    // input index used (iLo) and the number of input elements (spanLen).
    __aicore__ inline void BuildTables(uint32_t t0, uint32_t len, int32_t &iLo, int32_t &spanLen)
    {
        int32_t lo = FloorDiv(static_cast<int32_t>(t0) + p_ - (static_cast<int32_t>(k_) - 1) * d_ + s_ - 1, s_);
        int32_t hi = FloorDiv(static_cast<int32_t>(t0 + len - 1) + p_, s_);
        if (lo < 0) {
            lo = 0;
        }
        if (hi > static_cast<int32_t>(l_) - 1) {
            hi = static_cast<int32_t>(l_) - 1;
        }
        iLo = lo;
        spanLen = hi - lo + 1;

        // Wait until the previous window's vector work has consumed the tables.
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);

        LocalTensor<uint32_t> offs = offBuf_.Get<uint32_t>();
        LocalTensor<float> mask = maskBuf_.Get<float>();
        for (uint32_t kk = 0; kk < k_; ++kk) {
            uint32_t base = kk * tile_;
            int32_t shift = p_ - static_cast<int32_t>(kk) * d_;
            for (uint32_t j = 0; j < tile_; ++j) {
                int32_t num = static_cast<int32_t>(t0 + j) + shift;
                bool ok = j < len && num >= 0 && (num % s_) == 0;
                int32_t src = ok ? num / s_ : 0;
                ok = ok && src < static_cast<int32_t>(l_) && spanLen > 0;
                int32_t rel = ok ? src - iLo : 0;
                offs.SetValue(base + j, static_cast<uint32_t>(rel) * sizeof(float));
                mask.SetValue(base + j, ok ? 1.0f : 0.0f);
            }
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    __aicore__ inline void RunWindow(uint32_t b, uint32_t t0, uint32_t len)
    {
        int32_t iLo = 0;
        int32_t spanLen = 0;
        BuildTables(t0, len, iLo, spanLen);

        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> bl = biasBuf_.Get<float>();
        for (uint32_t oc = 0; oc < co_; ++oc) {
            float bv = hasBias_ ? bl.GetValue(oc) : 0.0f;
            Duplicate(acc[oc * tile_], bv, tile_);
        }

        if (spanLen > 0) {
            LocalTensor<uint32_t> offs = offBuf_.Get<uint32_t>();
            LocalTensor<float> mask = maskBuf_.Get<float>();
            LocalTensor<float> g = gatBuf_.Get<float>();
            for (uint32_t ic = 0; ic < ci_; ++ic) {
                LoadInputRow(b, ic, iLo, static_cast<uint32_t>(spanLen));
                LocalTensor<float> row = rowQ_.DeQue<float>();
                for (uint32_t kk = 0; kk < k_; ++kk) {
                    Gather(g, row, offs[kk * tile_], 0U, tile_);
                    Mul(g, g, mask[kk * tile_], tile_);
                    for (uint32_t oc = 0; oc < co_; ++oc) {
                        Axpy(acc[oc * tile_], g, WeightAt(ic, oc, kk), tile_);
                    }
                }
                rowQ_.FreeTensor(row);
            }
        }

        for (uint32_t oc = 0; oc < co_; ++oc) {
            LocalTensor<float> o = outQ_.AllocTensor<float>();
            Adds(o, acc[oc * tile_], 0.0f, tile_);
            outQ_.EnQue(o);
            StoreRow(b, oc, t0, len);
        }
    }

    __aicore__ inline void LoadInputRow(uint32_t b, uint32_t ic, int32_t iLo, uint32_t spanLen)
    {
        LocalTensor<float> row = rowQ_.AllocTensor<float>();
        uint64_t off = (static_cast<uint64_t>(b) * ci_ + ic) * l_ + static_cast<uint32_t>(iLo);
        DataCopyExtParams cp{1, static_cast<uint32_t>(spanLen * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(row, xGm_[off], cp, noPad);
        rowQ_.EnQue(row);
    }

    __aicore__ inline void StoreRow(uint32_t b, uint32_t oc, uint32_t t0, uint32_t len)
    {
        LocalTensor<float> o = outQ_.DeQue<float>();
        uint64_t off = (static_cast<uint64_t>(b) * co_ + oc) * lout_ + t0;
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[off], o, cp);
        outQ_.FreeTensor(o);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, DB> rowQ_;
    TQue<QuePosition::VECOUT, DB> outQ_;
    TBuf<TPosition::VECCALC> accBuf_;
    TBuf<TPosition::VECCALC> offBuf_;
    TBuf<TPosition::VECCALC> maskBuf_;
    TBuf<TPosition::VECCALC> gatBuf_;
    TBuf<TPosition::VECCALC> biasBuf_;
    TBuf<TPosition::VECCALC> wBuf_;

    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_;

    uint32_t n_ = 0, ci_ = 0, co_ = 0, l_ = 0, lout_ = 0, k_ = 0;
    int32_t s_ = 1, p_ = 0, d_ = 1;
    uint32_t tile_ = 0, span_ = 0, tilesPerBatch_ = 0;
    uint32_t firstTile_ = 0, myTiles_ = 0;
    bool hasBias_ = false, weightInUb_ = false;
};

extern "C" __global__ __aicore__ void transposed_conv1d_dilated(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(td, tiling);
    TransposedConv1dDilatedKernel op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
