/*
 * ArgMaxAlongAxis: index of the first maximum along one axis, written as int64.
 * Input is viewed as (outer, R, inner).
 *
 * Key 1 (inner > 1): a core owns (outer, column-tile) units. It walks r = 0..R-1 over a
 *   contiguous strip of `inner` columns keeping a running maximum and its row index
 *   (index kept in float, exact below 2^24). "x <= best" keeps the old entry, so ties keep the
 *   first occurrence.
 * Key 2 (inner == 1): a core owns rows; each row is reduced in chunks with ReduceMax(calIndex).
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class ArgMaxColumns {
public:
    __aicore__ inline ArgMaxColumns() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ArgMaxAlongAxisTiling &td)
    {
        td_ = td;
        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ int64_t *)y);
        uint64_t units = td.outer * td.colTiles;
        beg_ = td.unitsPerCore * GetBlockIdx();
        end_ = beg_ + td.unitsPerCore < units ? beg_ + td.unitsPerCore : units;
        uint32_t w = td.colTile;
        pipe_.InitBuffer(inQ_, 2, w * sizeof(T));
        pipe_.InitBuffer(bestBuf_, w * sizeof(T));
        pipe_.InitBuffer(idxBuf_, w * sizeof(float));
        pipe_.InitBuffer(maskBuf_, w / 8);
        pipe_.InitBuffer(i32Buf_, w * sizeof(int32_t));
        pipe_.InitBuffer(outQ_, 1, w * sizeof(int64_t));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t u = beg_; u < end_; ++u) {
            uint64_t o = u / td_.colTiles;
            uint32_t c0 = static_cast<uint32_t>(u % td_.colTiles) * td_.colTile;
            uint32_t cols = (td_.inner - c0) < td_.colTile ? (td_.inner - c0) : td_.colTile;
            Strip(o, c0, cols);
        }
    }

private:
    __aicore__ inline void Strip(uint64_t o, uint32_t c0, uint32_t cols)
    {
        uint32_t w = td_.colTile;           // vector ops run on the full (aligned) width
        LocalTensor<T> best = bestBuf_.Get<T>();
        LocalTensor<float> idx = idxBuf_.Get<float>();
        LocalTensor<uint8_t> keep = maskBuf_.Get<uint8_t>();
        uint64_t base = o * td_.reduce * td_.inner + c0;
        DataCopyExtParams cp(1, cols * sizeof(T), 0, 0, 0);
        DataCopyPadExtParams<T> pad(false, 0, 0, 0);

        Duplicate(idx, 0.0f, w);
        for (uint32_t r = 0; r < td_.reduce; ++r) {
            LocalTensor<T> cur = inQ_.AllocTensor<T>();
            DataCopyPad(cur, xGm_[base + static_cast<uint64_t>(r) * td_.inner], cp, pad);
            inQ_.EnQue(cur);
            cur = inQ_.DeQue<T>();
            if (r == 0) {
                DataCopy(best, cur, w);
            } else {
                Compare(keep, cur, best, CMPMODE::LE, w);
                Select(best, keep, best, cur, SELMODE::VSEL_TENSOR_TENSOR_MODE, w);
                Select(idx, keep, idx, static_cast<float>(r), SELMODE::VSEL_TENSOR_SCALAR_MODE, w);
            }
            inQ_.FreeTensor(cur);
        }

        LocalTensor<int32_t> i32 = i32Buf_.Get<int32_t>();
        LocalTensor<int64_t> out = outQ_.AllocTensor<int64_t>();
        Cast(i32, idx, RoundMode::CAST_ROUND, w);
        Cast(out, i32, RoundMode::CAST_NONE, w);
        outQ_.EnQue(out);
        out = outQ_.DeQue<int64_t>();
        DataCopyPad(yGm_[o * td_.inner + c0], out, DataCopyExtParams(1, cols * sizeof(int64_t), 0, 0, 0));
        outQ_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<TPosition::VECCALC> bestBuf_, idxBuf_, maskBuf_, i32Buf_;
    GlobalTensor<T> xGm_;
    GlobalTensor<int64_t> yGm_;
    ArgMaxAlongAxisTiling td_;
    uint64_t beg_ = 0, end_ = 0;
};

template <typename T>
class ArgMaxRows {
    static constexpr uint32_t FLUSH = 64;   // indices buffered before a store
public:
    __aicore__ inline ArgMaxRows() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ArgMaxAlongAxisTiling &td)
    {
        td_ = td;
        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ int64_t *)y);
        beg_ = td.unitsPerCore * GetBlockIdx();
        end_ = beg_ + td.unitsPerCore < td.outer ? beg_ + td.unitsPerCore : td.outer;
        pipe_.InitBuffer(inQ_, 2, td.redTile * sizeof(T));
        pipe_.InitBuffer(work_, td.redTile * sizeof(T));
        pipe_.InitBuffer(res_, 32);
        pipe_.InitBuffer(outBuf_, FLUSH * sizeof(int64_t));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<int64_t> outs = outBuf_.Get<int64_t>();
        uint32_t pending = 0;
        uint64_t flushFrom = beg_;
        for (uint64_t row = beg_; row < end_; ++row) {
            outs.SetValue(pending++, RowArgMax(row));
            if (pending == FLUSH || row + 1 == end_) {
                Sync<HardEvent::S_MTE3>();
                DataCopyPad(yGm_[flushFrom], outs, DataCopyExtParams(1, pending * sizeof(int64_t), 0, 0, 0));
                Sync<HardEvent::MTE3_S>();
                flushFrom += pending;
                pending = 0;
            }
        }
    }

private:
    __aicore__ inline int64_t RowArgMax(uint64_t row)
    {
        LocalTensor<T> work = work_.Get<T>();
        LocalTensor<T> res = res_.Get<T>();
        float bestVal = 0.0f;
        int64_t bestIdx = 0;
        for (uint32_t off = 0; off < td_.reduce; off += td_.redTile) {
            uint32_t n = (td_.reduce - off) < td_.redTile ? (td_.reduce - off) : td_.redTile;
            LocalTensor<T> cur = inQ_.AllocTensor<T>();
            DataCopyPad(cur, xGm_[row * td_.reduce + off], DataCopyExtParams(1, n * sizeof(T), 0, 0, 0),
                        DataCopyPadExtParams<T>(false, 0, 0, 0));
            inQ_.EnQue(cur);
            cur = inQ_.DeQue<T>();
            ReduceMax<T>(res, cur, work, n, true);
            inQ_.FreeTensor(cur);
            Sync<HardEvent::V_S>();
            float v = static_cast<float>(res.GetValue(0));
            uint32_t local;
            if constexpr (IsSameType<T, float>::value) {
                local = res.template ReinterpretCast<uint32_t>().GetValue(1);
            } else {
                local = res.template ReinterpretCast<uint16_t>().GetValue(1);
            }
            if (off == 0 || v > bestVal) {     // strict: earlier chunk wins ties
                bestVal = v;
                bestIdx = static_cast<int64_t>(off) + local;
            }
        }
        return bestIdx;
    }

    template <HardEvent EV>
    __aicore__ inline void Sync()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
        SetFlag<EV>(e);
        WaitFlag<EV>(e);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TBuf<TPosition::VECCALC> work_, res_, outBuf_;
    GlobalTensor<T> xGm_;
    GlobalTensor<int64_t> yGm_;
    ArgMaxAlongAxisTiling td_;
    uint64_t beg_ = 0, end_ = 0;
};

extern "C" __global__ __aicore__ void arg_max_along_axis(GM_ADDR x, GM_ADDR indices, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        ArgMaxColumns<DTYPE_X> op;
        op.Init(x, indices, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        ArgMaxRows<DTYPE_X> op;
        op.Init(x, indices, td);
        op.Process();
    }
}
