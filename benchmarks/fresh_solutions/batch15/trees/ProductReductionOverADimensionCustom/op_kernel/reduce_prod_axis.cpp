/*
 * ReduceProdAxis: y[o, i] = prod_r x[o, r, i]
 *
 * Products are accumulated in float32 regardless of the I/O dtype.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t OUT_BATCH = 256;   // key 2: results buffered before a store
}

template <typename T>
class ReduceProdAxisOp {
public:
    __aicore__ inline ReduceProdAxisOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceProdAxisTilingData &td)
    {
        outer_ = td.outer;
        len_ = td.reduceLen;
        inner_ = td.inner;
        colTile_ = td.colTile;
        rowsPerLoad_ = td.rowsPerLoad;
        chunk_ = td.chunkLen;

        uint32_t id = GetBlockIdx();
        unitCnt_ = td.unitsPerCore + (id < td.extraUnits ? 1 : 0);
        unitBeg_ = id * td.unitsPerCore + (id < td.extraUnits ? id : td.extraUnits);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
    }

    // ---- key 1: reduce over a strided axis, columns are contiguous ----
    __aicore__ inline void RunColumns()
    {
        const uint32_t rowStride = AlignElems(colTile_);
        pipe_.InitBuffer(inQ_, 2, rowsPerLoad_ * rowStride * sizeof(T));
        pipe_.InitBuffer(outQ_, 1, rowStride * sizeof(T));
        pipe_.InitBuffer(accBuf_, colTile_ * sizeof(float));
        pipe_.InitBuffer(castBuf_, colTile_ * sizeof(float));

        const uint32_t colTiles = (inner_ + colTile_ - 1) / colTile_;
        for (uint32_t u = 0; u < unitCnt_; ++u) {
            uint32_t unit = unitBeg_ + u;
            uint32_t o = unit / colTiles;
            uint32_t c0 = (unit % colTiles) * colTile_;
            uint32_t w = (inner_ - c0 < colTile_) ? inner_ - c0 : colTile_;
            uint32_t wStride = AlignElems(w);

            LocalTensor<float> acc = accBuf_.Get<float>();
            Duplicate(acc, 1.0f, w);

            for (uint32_t r0 = 0; r0 < len_; r0 += rowsPerLoad_) {
                uint32_t nr = (len_ - r0 < rowsPerLoad_) ? len_ - r0 : rowsPerLoad_;
                LocalTensor<T> blk = inQ_.AllocTensor<T>();
                DataCopyExtParams cp;
                cp.blockCount = static_cast<uint16_t>(nr);
                cp.blockLen = w * sizeof(T);
                cp.srcStride = (inner_ - w) * sizeof(T);
                cp.dstStride = 0;
                cp.rsv = 0;
                DataCopyPadExtParams<T> pad{false, 0, 0, 0};
                uint64_t src = (static_cast<uint64_t>(o) * len_ + r0) * inner_ + c0;
                DataCopyPad(blk, xGm_[src], cp, pad);
                inQ_.EnQue(blk);
                blk = inQ_.DeQue<T>();

                for (uint32_t i = 0; i < nr; ++i) {
                    if constexpr (IsSameType<T, float>::value) {
                        Mul(acc, acc, blk[i * wStride], w);
                    } else {
                        LocalTensor<float> tmp = castBuf_.Get<float>();
                        Cast(tmp, blk[i * wStride], RoundMode::CAST_NONE, w);
                        PipeBarrier<PIPE_V>();
                        Mul(acc, acc, tmp, w);
                    }
                    PipeBarrier<PIPE_V>();
                }
                inQ_.FreeTensor(blk);
            }

            LocalTensor<T> res = outQ_.AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                Adds(res, acc, 0.0f, w);
            } else {
                Cast(res, acc, RoundMode::CAST_ROUND, w);
            }
            outQ_.EnQue(res);
            res = outQ_.DeQue<T>();
            DataCopyExtParams oc{1, static_cast<uint32_t>(w * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm_[static_cast<uint64_t>(o) * inner_ + c0], res, oc);
            outQ_.FreeTensor(res);
        }
    }

    // ---- key 2: reduce over the last (contiguous) axis ----
    __aicore__ inline void RunRows()
    {
        pipe_.InitBuffer(inQ_, 2, chunk_ * sizeof(T));
        pipe_.InitBuffer(outQ_, 1, OUT_BATCH * sizeof(T));
        pipe_.InitBuffer(accBuf_, chunk_ * sizeof(float));
        pipe_.InitBuffer(castBuf_, chunk_ * sizeof(float));
        pipe_.InitBuffer(resBuf_, OUT_BATCH * sizeof(float));

        LocalTensor<float> results = resBuf_.Get<float>();
        uint32_t pending = 0;
        uint32_t flushedFrom = unitBeg_;

        for (uint32_t u = 0; u < unitCnt_; ++u) {
            uint64_t rowOff = static_cast<uint64_t>(unitBeg_ + u) * len_;
            LocalTensor<float> acc = accBuf_.Get<float>();
            LocalTensor<float> cur = castBuf_.Get<float>();
            Duplicate(acc, 1.0f, chunk_);

            for (uint32_t c0 = 0; c0 < len_; c0 += chunk_) {
                uint32_t cnt = (len_ - c0 < chunk_) ? len_ - c0 : chunk_;
                LocalTensor<T> seg = inQ_.AllocTensor<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
                DataCopyPadExtParams<T> pad{false, 0, 0, 0};
                DataCopyPad(seg, xGm_[rowOff + c0], cp, pad);
                inQ_.EnQue(seg);
                seg = inQ_.DeQue<T>();

                // lanes past cnt stay at the multiplicative identity
                if (cnt < chunk_) {
                    Duplicate(cur, 1.0f, chunk_);
                    PipeBarrier<PIPE_V>();
                }
                if constexpr (IsSameType<T, float>::value) {
                    Muls(cur, seg, 1.0f, cnt);
                } else {
                    Cast(cur, seg, RoundMode::CAST_NONE, cnt);
                }
                PipeBarrier<PIPE_V>();
                Mul(acc, acc, cur, chunk_);
                PipeBarrier<PIPE_V>();
                inQ_.FreeTensor(seg);
            }

            // pairwise fold down to 64 lanes, then finish on the scalar unit
            uint32_t n = chunk_;
            while (n > 64) {
                n >>= 1;
                Mul(acc, acc, acc[n], n);
                PipeBarrier<PIPE_V>();
            }
            event_t evVS = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            float prod = 1.0f;
            for (uint32_t i = 0; i < n; ++i) {
                prod *= acc.GetValue(i);
            }
            results.SetValue(pending++, prod);

            if (pending == OUT_BATCH || u + 1 == unitCnt_) {
                Flush(results, pending, flushedFrom);
                flushedFrom += pending;
                pending = 0;
            }
        }
    }

private:
    __aicore__ inline uint32_t AlignElems(uint32_t n)
    {
        constexpr uint32_t per = 32 / sizeof(T);
        return (n + per - 1) / per * per;
    }

    __aicore__ inline void Flush(LocalTensor<float> &results, uint32_t cnt, uint32_t dst)
    {
        event_t evSV = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        LocalTensor<T> out = outQ_.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            Adds(out, results, 0.0f, cnt);
        } else {
            Cast(out, results, RoundMode::CAST_ROUND, cnt);
        }
        outQ_.EnQue(out);
        out = outQ_.DeQue<T>();
        DataCopyExtParams oc{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[dst], out, oc);
        outQ_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<TPosition::VECCALC> accBuf_, castBuf_, resBuf_;
    GlobalTensor<T> xGm_, yGm_;

    uint32_t outer_ = 0, len_ = 0, inner_ = 0;
    uint32_t colTile_ = 0, rowsPerLoad_ = 1, chunk_ = 0;
    uint32_t unitBeg_ = 0, unitCnt_ = 0;
};

extern "C" __global__ __aicore__ void reduce_prod_axis(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ReduceProdAxisOp<DTYPE_X> op;
    op.Init(x, y, td);
    if (TILING_KEY_IS(1)) {
        op.RunColumns();
    } else if (TILING_KEY_IS(2)) {
        op.RunRows();
    }
}
