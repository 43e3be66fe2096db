// AxisMin: minimum of a tensor along one axis (values only).
// Tiling key 1: the reduced axis has a non-trivial inner extent -> running element-wise Min.
// Tiling key 2: the reduced axis is innermost -> ReduceMin over contiguous rows.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class AxisMinColumn {
public:
    __aicore__ inline AxisMinColumn() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisMinTilingData &td)
    {
        outer = td.outer; red = td.reduceLen; inner = td.inner;
        tile = td.colTile; tilesPerRow = td.colTilesPerRow;
        uint64_t start = GetBlockIdx() * td.unitsPerCore;
        uBegin = start < td.totalUnits ? start : td.totalUnits;
        uEnd = uBegin + td.unitsPerCore < td.totalUnits ? uBegin + td.unitsPerCore : td.totalUnits;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(inQ, 2, tile * sizeof(T));
        pipe.InitBuffer(outQ, 1, tile * sizeof(T));
        pipe.InitBuffer(accBuf, tile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t u = uBegin; u < uEnd; ++u) {
            uint64_t o = u / tilesPerRow;
            uint64_t c0 = (u % tilesPerRow) * tile;
            uint32_t len = static_cast<uint32_t>(inner - c0 < tile ? inner - c0 : tile);
            RunUnit(o, c0, len);
        }
    }

private:
    __aicore__ inline void RunUnit(uint64_t o, uint64_t c0, uint32_t len)
    {
        LocalTensor<T> acc = accBuf.Get<T>();
        uint64_t base = o * red * inner + c0;
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> noPad{false, 0, 0, 0};

        for (uint64_t r = 0; r < red; ++r) {
            LocalTensor<T> cur = inQ.AllocTensor<T>();
            DataCopyPad(cur, xGm[base + r * inner], cp, noPad);
            inQ.EnQue(cur);
            cur = inQ.DeQue<T>();
            if (r == 0) {
                DataCopy(acc, cur, (len * sizeof(T) + 31) / 32 * 32 / sizeof(T));   // UB -> UB, first row seeds the minimum
            } else {
                Min(acc, acc, cur, len);
            }
            inQ.FreeTensor(cur);
        }

        LocalTensor<T> res = outQ.AllocTensor<T>();
        DataCopy(res, acc, (len * sizeof(T) + 31) / 32 * 32 / sizeof(T));
        outQ.EnQue(res);
        res = outQ.DeQue<T>();
        DataCopyPad(yGm[o * inner + c0], res, cp);
        outQ.FreeTensor(res);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> accBuf;
    GlobalTensor<T> xGm, yGm;
    uint64_t outer, red, inner, uBegin, uEnd;
    uint32_t tile, tilesPerRow;
};

template <typename T>
class AxisMinLast {
public:
    __aicore__ inline AxisMinLast() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisMinTilingData &td)
    {
        red = td.reduceLen;
        chunk = td.rowChunk;
        uint64_t start = GetBlockIdx() * td.unitsPerCore;
        rBegin = start < td.totalUnits ? start : td.totalUnits;
        rEnd = rBegin + td.unitsPerCore < td.totalUnits ? rBegin + td.unitsPerCore : td.totalUnits;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(inQ, 2, chunk * sizeof(T));
        pipe.InitBuffer(workBuf, chunk * sizeof(T));
        pipe.InitBuffer(partBuf, 64);
        pipe.InitBuffer(outQ, 1, 64);
    }

    __aicore__ inline void Process()
    {
        if (rEnd <= rBegin) {
            return;
        }
        for (uint64_t row = rBegin; row < rEnd; ++row) {
            T best = RowMin(row);
            LocalTensor<T> o = outQ.AllocTensor<T>();
            o.SetValue(0, best);
            outQ.EnQue(o);
            o = outQ.DeQue<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[row], o, cp);
            outQ.FreeTensor(o);
        }
    }

private:
    __aicore__ inline T RowMin(uint64_t row)
    {
        LocalTensor<T> work = workBuf.Get<T>();
        LocalTensor<T> part = partBuf.Get<T>();
        T best = 0;
        bool first = true;
        for (uint64_t off = 0; off < red; off += chunk) {
            uint32_t len = static_cast<uint32_t>(red - off < chunk ? red - off : chunk);
            LocalTensor<T> cur = inQ.AllocTensor<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(cur, xGm[row * red + off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQ.EnQue(cur);
            cur = inQ.DeQue<T>();
            ReduceMin<T>(part, cur, work, len, false);
            inQ.FreeTensor(cur);
            T v = part.GetValue(0);
            if (first || static_cast<float>(v) < static_cast<float>(best)) {
                best = v;
                first = false;
            }
        }
        return best;
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> workBuf, partBuf;
    GlobalTensor<T> xGm, yGm;
    uint64_t red, rBegin, rEnd;
    uint32_t chunk;
};

extern "C" __global__ __aicore__ void axis_min(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        AxisMinColumn<DTYPE_X> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        AxisMinLast<DTYPE_X> op;
        op.Init(x, y, td);
        op.Process();
    }
}
