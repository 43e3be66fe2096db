// Exclusive prefix sum along one axis:
//   y[..., 0, ...] = 0
//   y[..., k, ...] = x[..., 0, ...] + ... + x[..., k-1, ...]
// Accumulation is done in fp32 for both fp32 and fp16 inputs.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUF_DEPTH = 2;

__aicore__ inline void SplitUnits(uint32_t perCore, uint32_t tail, uint32_t &start, uint32_t &count)
{
    uint32_t idx = GetBlockIdx();
    if (idx < tail) {
        count = perCore + 1;
        start = idx * count;
    } else {
        count = perCore;
        start = tail * (perCore + 1) + (idx - tail) * perCore;
    }
}
}

// ---------------------------------------------------------------------------
// Scan axis is the last one: each row is walked with a scalar carry.
// ---------------------------------------------------------------------------
template <typename T>
class RowScanKernel {
public:
    __aicore__ inline RowScanKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ShiftedPrefixSumTilingData &td)
    {
        rowLen_ = td.scanLen;
        chunk_ = td.chunkLen;
        SplitUnits(td.unitsPerCore, td.unitsTail, rowStart_, rowCount_);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        pipe_.InitBuffer(inQ_, BUF_DEPTH, chunk_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUF_DEPTH, chunk_ * sizeof(T));
        if constexpr (sizeof(T) != sizeof(float)) {
            pipe_.InitBuffer(accBuf_, chunk_ * sizeof(float) * 2);
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount_; ++r) {
            uint64_t rowBase = static_cast<uint64_t>(rowStart_ + r) * rowLen_;
            float carry = 0.0f;
            for (uint32_t off = 0; off < rowLen_; off += chunk_) {
                uint32_t n = (rowLen_ - off) < chunk_ ? (rowLen_ - off) : chunk_;
                LoadChunk(rowBase + off, n);
                carry = ScanChunk(n, carry);
                StoreChunk(rowBase + off, n);
            }
        }
    }

private:
    __aicore__ inline void LoadChunk(uint64_t gmOff, uint32_t n)
    {
        LocalTensor<T> xl = inQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm_[gmOff], cp, pad);
        inQ_.EnQue(xl);
    }

    __aicore__ inline float ScanChunk(uint32_t n, float carry)
    {
        LocalTensor<T> xl = inQ_.DeQue<T>();
        LocalTensor<T> yl = outQ_.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            // scalar pass directly over the fp32 tile
            for (uint32_t i = 0; i < n; ++i) {
                float v = xl.GetValue(i);
                yl.SetValue(i, carry);
                carry += v;
            }
        } else {
            LocalTensor<float> fin = accBuf_.Get<float>();
            LocalTensor<float> fout = fin[chunk_];
            Cast(fin, xl, RoundMode::CAST_NONE, n);
            event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            for (uint32_t i = 0; i < n; ++i) {
                float v = fin.GetValue(i);
                fout.SetValue(i, carry);
                carry += v;
            }
            event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(evSV);
            WaitFlag<HardEvent::S_V>(evSV);
            Cast(yl, fout, RoundMode::CAST_ROUND, n);
        }
        // scalar writes must land before MTE3 picks the tile up
        event_t evSM = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(evSM);
        WaitFlag<HardEvent::S_MTE3>(evSM);
        outQ_.EnQue(yl);
        inQ_.FreeTensor(xl);
        return carry;
    }

    __aicore__ inline void StoreChunk(uint64_t gmOff, uint32_t n)
    {
        LocalTensor<T> yl = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[gmOff], yl, cp);
        outQ_.FreeTensor(yl);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_DEPTH> inQ_;
    TQue<QuePosition::VECOUT, BUF_DEPTH> outQ_;
    TBuf<TPosition::VECCALC> accBuf_;
    GlobalTensor<T> xGm_, yGm_;
    uint32_t rowLen_ = 0, chunk_ = 0, rowStart_ = 0, rowCount_ = 0;
};

// ---------------------------------------------------------------------------
// Scan axis has a contiguous tail (inner > 1): keep a vector carry of one
// inner tile and walk the scan axis, emitting the carry before adding.
// ---------------------------------------------------------------------------
template <typename T>
class SlabScanKernel {
public:
    __aicore__ inline SlabScanKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ShiftedPrefixSumTilingData &td)
    {
        scanLen_ = td.scanLen;
        inner_ = td.innerSize;
        chunk_ = td.chunkLen;
        tiles_ = td.innerTiles;
        SplitUnits(td.unitsPerCore, td.unitsTail, unitStart_, unitCount_);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        pipe_.InitBuffer(inQ_, BUF_DEPTH, chunk_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUF_DEPTH, chunk_ * sizeof(T));
        pipe_.InitBuffer(carryBuf_, chunk_ * sizeof(float));
        if constexpr (sizeof(T) != sizeof(float)) {
            pipe_.InitBuffer(castBuf_, chunk_ * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unitCount_; ++u) {
            uint32_t unit = unitStart_ + u;
            uint32_t o = unit / tiles_;
            uint32_t t = unit % tiles_;
            uint32_t innerOff = t * chunk_;
            uint32_t n = (inner_ - innerOff) < chunk_ ? (inner_ - innerOff) : chunk_;
            uint64_t base = static_cast<uint64_t>(o) * scanLen_ * inner_ + innerOff;

            LocalTensor<float> carry = carryBuf_.Get<float>();
            Duplicate(carry, 0.0f, n);
            for (uint32_t k = 0; k < scanLen_; ++k) {
                uint64_t off = base + static_cast<uint64_t>(k) * inner_;
                bool needInput = (k + 1) < scanLen_;  // last slice never feeds the output
                if (needInput) {
                    CopyIn(off, n);
                }
                Step(carry, n, needInput);
                CopyOut(off, n);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> xl = inQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm_[off], cp, pad);
        inQ_.EnQue(xl);
    }

    __aicore__ inline void Step(LocalTensor<float> &carry, uint32_t n, bool addInput)
    {
        LocalTensor<T> yl = outQ_.AllocTensor<T>();
        // emit the running sum of the previous slices
        if constexpr (sizeof(T) == sizeof(float)) {
            Adds(yl, carry, 0.0f, n);
        } else {
            Cast(yl, carry, RoundMode::CAST_ROUND, n);
        }
        outQ_.EnQue(yl);

        if (addInput) {
            LocalTensor<T> xl = inQ_.DeQue<T>();
            if constexpr (sizeof(T) == sizeof(float)) {
                Add(carry, carry, xl, n);
            } else {
                LocalTensor<float> tmp = castBuf_.Get<float>();
                Cast(tmp, xl, RoundMode::CAST_NONE, n);
                Add(carry, carry, tmp, n);
            }
            inQ_.FreeTensor(xl);
        }
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> yl = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[off], yl, cp);
        outQ_.FreeTensor(yl);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_DEPTH> inQ_;
    TQue<QuePosition::VECOUT, BUF_DEPTH> outQ_;
    TBuf<TPosition::VECCALC> carryBuf_, castBuf_;
    GlobalTensor<T> xGm_, yGm_;
    uint32_t scanLen_ = 0, inner_ = 0, chunk_ = 0, tiles_ = 1;
    uint32_t unitStart_ = 0, unitCount_ = 0;
};

extern "C" __global__ __aicore__ void shifted_prefix_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        RowScanKernel<DTYPE_X> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        SlabScanKernel<DTYPE_X> op;
        op.Init(x, y, td);
        op.Process();
    }
}
