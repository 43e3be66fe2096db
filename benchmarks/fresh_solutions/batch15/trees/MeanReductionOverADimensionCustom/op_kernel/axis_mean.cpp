// AxisMean kernel: arithmetic mean over one axis.
// The input is handled as [outer, reduce, inner]. Two code paths, picked by tiling key:
//   key 1 (inner == 1): each core owns whole rows, sums a contiguous run of `reduce`
//                       elements chunk by chunk, finishes with ReduceSum.
//   key 2 (inner > 1) : each core owns (outer, column-tile) units and accumulates
//                       `reduce` strided rows of the tile element-wise.
// Accumulation is always fp32, fp16 inputs are widened with Cast.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class AxisMeanKernel {
public:
    __aicore__ inline AxisMeanKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisMeanTilingData& td)
    {
        outer = td.outer;
        reduce = td.reduce;
        inner = td.inner;
        tileLen = td.tileLen;
        rowsPerLoad = td.rowsPerLoad;
        tilesPerOuter = td.tilesPerOuter;
        invReduce = td.invReduce;

        unitBegin = GetBlockIdx() * td.unitsPerCore;
        unitEnd = unitBegin + td.unitsPerCore;
        if (unitEnd > td.totalUnits) unitEnd = td.totalUnits;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
    }

    // ---------------- inner > 1 ----------------
    __aicore__ inline void RunColumns()
    {
        pipe.InitBuffer(inQ, 2, rowsPerLoad * tileLen * sizeof(T));
        pipe.InitBuffer(outQ, 1, tileLen * sizeof(T));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(castBuf, tileLen * sizeof(float));

        for (uint64_t u = unitBegin; u < unitEnd; ++u) {
            uint64_t o = u / tilesPerOuter;
            uint64_t col0 = (u % tilesPerOuter) * tileLen;
            uint32_t len = static_cast<uint32_t>((inner - col0) < tileLen ? (inner - col0) : tileLen);
            uint32_t rowStride = AlignElems(len);

            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, tileLen);

            uint64_t base = o * reduce * inner + col0;
            for (uint64_t r0 = 0; r0 < reduce; r0 += rowsPerLoad) {
                uint32_t rows = static_cast<uint32_t>((reduce - r0) < rowsPerLoad ? (reduce - r0) : rowsPerLoad);
                // bring `rows` strided slices of the column tile in with one DMA
                LocalTensor<T> blk = inQ.AllocTensor<T>();
                DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                     static_cast<uint32_t>((inner - len) * sizeof(T)), 0, 0};
                DataCopyPadExtParams<T> pp{false, 0, 0, static_cast<T>(0)};
                DataCopyPad(blk, xGm[base + r0 * inner], cp, pp);
                inQ.EnQue(blk);

                blk = inQ.DeQue<T>();
                for (uint32_t r = 0; r < rows; ++r) {
                    AccumulateRow(acc, blk[r * rowStride], len);
                }
                inQ.FreeTensor(blk);
            }

            LocalTensor<T> out = outQ.AllocTensor<T>();
            Muls(acc, acc, invReduce, static_cast<int32_t>(len));
            StoreFromFloat(out, acc, len);
            outQ.EnQue(out);
            out = outQ.DeQue<T>();
            DataCopyExtParams op{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[o * inner + col0], out, op);
            outQ.FreeTensor(out);
        }
    }

    // ---------------- inner == 1 ----------------
    __aicore__ inline void RunRows()
    {
        constexpr uint32_t OUT_BATCH = 256;
        pipe.InitBuffer(inQ, 2, tileLen * sizeof(T));
        pipe.InitBuffer(outQ, 1, OUT_BATCH * sizeof(T));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(castBuf, tileLen * sizeof(float));
        pipe.InitBuffer(resBuf, OUT_BATCH * sizeof(float));

        LocalTensor<float> res = resBuf.Get<float>();
        uint32_t pending = 0;
        uint64_t firstPending = unitBegin;

        for (uint64_t row = unitBegin; row < unitEnd; ++row) {
            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, tileLen);
            for (uint64_t c0 = 0; c0 < reduce; c0 += tileLen) {
                uint32_t len = static_cast<uint32_t>((reduce - c0) < tileLen ? (reduce - c0) : tileLen);
                LocalTensor<T> blk = inQ.AllocTensor<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                DataCopyPadExtParams<T> pp{false, 0, 0, static_cast<T>(0)};
                DataCopyPad(blk, xGm[row * reduce + c0], cp, pp);
                inQ.EnQue(blk);
                blk = inQ.DeQue<T>();
                AccumulateRow(acc, blk, len);
                inQ.FreeTensor(blk);
            }
            // untouched tail of acc is still zero, so the whole tile can be summed
            LocalTensor<float> work = castBuf.Get<float>();
            ReduceSum<float>(acc, acc, work, static_cast<int32_t>(tileLen));
            event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            res.SetValue(pending, acc.GetValue(0) * invReduce);
            ++pending;

            if (pending == OUT_BATCH || row + 1 == unitEnd) {
                event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
                SetFlag<HardEvent::S_V>(sv);
                WaitFlag<HardEvent::S_V>(sv);
                LocalTensor<T> out = outQ.AllocTensor<T>();
                StoreFromFloat(out, res, pending);
                outQ.EnQue(out);
                out = outQ.DeQue<T>();
                DataCopyExtParams op{1, static_cast<uint32_t>(pending * sizeof(T)), 0, 0, 0};
                DataCopyPad(yGm[firstPending], out, op);
                outQ.FreeTensor(out);
                firstPending += pending;
                pending = 0;
            }
        }
    }

private:
    __aicore__ inline uint32_t AlignElems(uint32_t n) const
    {
        constexpr uint32_t per = 32 / sizeof(T);
        return (n + per - 1) / per * per;
    }

    __aicore__ inline void AccumulateRow(LocalTensor<float>& acc, const LocalTensor<T>& src, uint32_t len)
    {
        if constexpr (std::is_same<T, float>::value) {
            Add(acc, acc, src, static_cast<int32_t>(len));
        } else {
            LocalTensor<float> wide = castBuf.Get<float>();
            Cast(wide, src, RoundMode::CAST_NONE, len);
            Add(acc, acc, wide, static_cast<int32_t>(len));
        }
    }

    __aicore__ inline void StoreFromFloat(LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t len)
    {
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(dst, src, AlignElems(len));
        } else {
            Cast(dst, src, RoundMode::CAST_ROUND, len);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> accBuf, castBuf, resBuf;
    GlobalTensor<T> xGm, yGm;

    uint64_t outer, reduce, inner, tilesPerOuter;
    uint64_t unitBegin, unitEnd;
    uint32_t tileLen, rowsPerLoad;
    float invReduce;
};

extern "C" __global__ __aicore__ void axis_mean(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AxisMeanKernel<DTYPE_X> op;
    op.Init(x, y, td);
    if (TILING_KEY_IS(1)) {
        op.RunRows();
    } else if (TILING_KEY_IS(2)) {
        op.RunColumns();
    }
}
