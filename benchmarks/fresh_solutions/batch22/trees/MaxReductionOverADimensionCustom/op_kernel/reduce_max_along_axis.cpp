/**
 * ReduceMaxAlongAxis kernel.
 *
 * y = max(x, axis=dim) with x viewed as [outer, axisLen, inner].
 *  - key 0: inner > 1. A work unit is (outer index, inner tile). Rows along the axis are
 *           streamed in and folded into an accumulator with element-wise Max.
 *  - key 1: inner == 1. A work unit is one contiguous row of axisLen elements, reduced
 *           with ReduceMax chunk by chunk; results are staged and written in batches.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t OUT_STAGE = 256;  // outputs staged before one flush (key 1)
}

template <typename T>
class ReduceMaxRowwise {
public:
    __aicore__ inline ReduceMaxRowwise() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceMaxAlongAxisTilingData &td)
    {
        outer_ = td.outerSize;
        axisLen_ = td.axisLen;
        inner_ = td.innerSize;
        tile_ = td.innerTile;
        tileNum_ = td.innerTileNum;

        uint64_t blk = GetBlockIdx();
        uint64_t per = td.unitsPerCore;
        if (blk < td.bigCoreNum) {
            unitBegin_ = blk * per;
            unitCount_ = per;
        } else {
            unitBegin_ = td.bigCoreNum * per + (blk - td.bigCoreNum) * (per - 1);
            unitCount_ = per - 1;
        }

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        pipe_.InitBuffer(inQ_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(accBuf_, tile_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t u = 0; u < unitCount_; ++u) {
            uint64_t unit = unitBegin_ + u;
            uint64_t o = unit / tileNum_;
            uint64_t t = unit % tileNum_;
            uint64_t col = t * tile_;
            uint32_t len = static_cast<uint32_t>((inner_ - col) < tile_ ? (inner_ - col) : tile_);
            ReduceUnit(o * axisLen_ * inner_ + col, o * inner_ + col, len);
        }
    }

private:
    __aicore__ inline void ReduceUnit(uint64_t srcBase, uint64_t dstOff, uint32_t len)
    {
        LocalTensor<T> acc = accBuf_.Get<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        uint32_t alignedLen = (len * sizeof(T) + 31) / 32 * 32 / sizeof(T);

        for (uint64_t r = 0; r < axisLen_; ++r) {
            LocalTensor<T> in = inQ_.AllocTensor<T>();
            DataCopyPad(in, xGm_[srcBase + r * inner_], cp, pad);
            inQ_.EnQue(in);
            in = inQ_.DeQue<T>();
            if (r == 0) {
                DataCopy(acc, in, alignedLen);
            } else {
                Max(acc, acc, in, len);
            }
            inQ_.FreeTensor(in);
        }

        LocalTensor<T> out = outQ_.AllocTensor<T>();
        DataCopy(out, acc, alignedLen);
        outQ_.EnQue(out);
        out = outQ_.DeQue<T>();
        DataCopyPad(yGm_[dstOff], out, cp);
        outQ_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<TPosition::VECCALC> accBuf_;
    GlobalTensor<T> xGm_, yGm_;
    uint64_t outer_ = 0, axisLen_ = 0, inner_ = 0;
    uint32_t tile_ = 0, tileNum_ = 0;
    uint64_t unitBegin_ = 0, unitCount_ = 0;
};

template <typename T>
class ReduceMaxLastAxis {
public:
    __aicore__ inline ReduceMaxLastAxis() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceMaxAlongAxisTilingData &td)
    {
        axisLen_ = td.axisLen;
        chunk_ = td.axisTile;
        uint64_t blk = GetBlockIdx();
        uint64_t per = td.unitsPerCore;
        if (blk < td.bigCoreNum) {
            rowBegin_ = blk * per;
            rowCount_ = per;
        } else {
            rowBegin_ = td.bigCoreNum * per + (blk - td.bigCoreNum) * (per - 1);
            rowCount_ = per - 1;
        }
        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        pipe_.InitBuffer(inQ_, BUFFER_NUM, chunk_ * sizeof(T));
        pipe_.InitBuffer(workBuf_, chunk_ * sizeof(T));
        pipe_.InitBuffer(resBuf_, 32);
        pipe_.InitBuffer(stageBuf_, OUT_STAGE * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<T> stage = stageBuf_.Get<T>();
        uint32_t staged = 0;
        uint64_t flushBase = rowBegin_;
        for (uint64_t r = 0; r < rowCount_; ++r) {
            T best = RowMax(rowBegin_ + r);
            stage.SetValue(staged++, best);
            if (staged == OUT_STAGE || r + 1 == rowCount_) {
                Flush(stage, flushBase, staged);
                flushBase += staged;
                staged = 0;
            }
        }
    }

private:
    __aicore__ inline T RowMax(uint64_t row)
    {
        LocalTensor<T> work = workBuf_.Get<T>();
        LocalTensor<T> res = resBuf_.Get<T>();
        T best = static_cast<T>(0);
        uint64_t base = row * axisLen_;
        for (uint64_t c = 0; c < axisLen_; c += chunk_) {
            uint32_t len = static_cast<uint32_t>((axisLen_ - c) < chunk_ ? (axisLen_ - c) : chunk_);
            LocalTensor<T> in = inQ_.AllocTensor<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            DataCopyPad(in, xGm_[base + c], cp, pad);
            inQ_.EnQue(in);
            in = inQ_.DeQue<T>();
            ReduceMax<T>(res, in, work, static_cast<int32_t>(len), false);
            inQ_.FreeTensor(in);

            event_t evVS = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            T v = res.GetValue(0);
            if (c == 0 || v > best) {
                best = v;
            }
        }
        return best;
    }

    __aicore__ inline void Flush(LocalTensor<T> &stage, uint64_t dst, uint32_t n)
    {
        event_t evSM = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(evSM);
        WaitFlag<HardEvent::S_MTE3>(evSM);
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[dst], stage, cp);
        // stage buffer is rewritten by scalar unit next: wait until MTE3 is done reading it
        event_t evMS = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(evMS);
        WaitFlag<HardEvent::MTE3_S>(evMS);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TBuf<TPosition::VECCALC> workBuf_, resBuf_, stageBuf_;
    GlobalTensor<T> xGm_, yGm_;
    uint64_t axisLen_ = 0;
    uint32_t chunk_ = 0;
    uint64_t rowBegin_ = 0, rowCount_ = 0;
};

extern "C" __global__ __aicore__ void reduce_max_along_axis(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ReduceMaxRowwise<DTYPE_X> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ReduceMaxLastAxis<DTYPE_X> op;
        op.Init(x, y, td);
        op.Process();
    }
}
