// suffix_running_total.cpp
//
// For every row of a [rows, cols] float32 matrix:
//     y[r, j] = sum_{k >= j} x[r, k]          (running total taken from the right)
//
// Rows are dealt out to cores in contiguous bands; a band is processed
// `groupRows` rows at a time and each row group is walked tile by tile from
// the right end towards column 0. Inside one tile the library CumSum gives
// the ordinary left-to-right inclusive prefix p; the suffix inside the tile
// is then  s = x - p + tileTotal,  and the contribution of every tile further
// right is a per-row scalar `carry`. Working tile-by-tile keeps the
// cancellation in (tileTotal - p) limited to one tile's worth of magnitude.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t QUEUE_DEPTH = 2;
constexpr uint32_t MAX_GROUP_ROWS = 16;

struct SuffixRunningTotalTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;   // base band height
    uint32_t rowsExtra;     // first rowsExtra cores take one more row
    uint32_t groupRows;     // rows handled by one CumSum call (<= MAX_GROUP_ROWS)
    uint32_t tileCols;      // columns per tile, cols % tileCols == 0, multiple of 8
    uint32_t tmpBytes;      // scratch needed by CumSum for [groupRows, tileCols]
};

constexpr CumSumConfig kRowScan = {true, false, false};   // last axis, keep source, no last-row output

class SuffixRunningTotal {
public:
    __aicore__ inline SuffixRunningTotal() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SuffixRunningTotalTiling &t)
    {
        tiling = t;
        uint32_t idx = GetBlockIdx();
        bandRows = t.rowsPerCore + (idx < t.rowsExtra ? 1 : 0);
        bandStart = idx * t.rowsPerCore + (idx < t.rowsExtra ? idx : t.rowsExtra);

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.rows * t.cols);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)t.rows * t.cols);

        uint32_t tileElems = t.groupRows * t.tileCols;
        pipe.InitBuffer(inQueue, QUEUE_DEPTH, tileElems * sizeof(float));
        pipe.InitBuffer(outQueue, QUEUE_DEPTH, tileElems * sizeof(float));
        pipe.InitBuffer(scanBuf, tileElems * sizeof(float));
        pipe.InitBuffer(lastRowBuf, t.tileCols * sizeof(float));
        pipe.InitBuffer(tmpBuf, t.tmpBytes);
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = tiling.cols / tiling.tileCols;
        for (uint32_t r0 = 0; r0 < bandRows; r0 += tiling.groupRows) {
            uint32_t nRows = bandRows - r0 < tiling.groupRows ? bandRows - r0 : tiling.groupRows;
            uint32_t firstRow = bandStart + r0;
            for (uint32_t r = 0; r < nRows; ++r) {
                carry[r] = 0.0f;
            }
            // right-most tile first
            for (int32_t tIdx = (int32_t)tiles - 1; tIdx >= 0; --tIdx) {
                uint32_t col0 = (uint32_t)tIdx * tiling.tileCols;
                CopyIn(firstRow, nRows, col0);
                Compute(nRows);
                CopyOut(firstRow, nRows, col0);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t firstRow, uint32_t nRows, uint32_t col0)
    {
        LocalTensor<float> xt = inQueue.AllocTensor<float>();
        DataCopyParams p;
        p.blockCount = (uint16_t)nRows;
        p.blockLen = (uint16_t)(tiling.tileCols * sizeof(float) / 32);
        p.srcStride = (uint16_t)((tiling.cols - tiling.tileCols) * sizeof(float) / 32);
        p.dstStride = 0;
        DataCopy(xt, xGm[(uint64_t)firstRow * tiling.cols + col0], p);
        inQueue.EnQue(xt);
    }

    __aicore__ inline void Compute(uint32_t nRows)
    {
        LocalTensor<float> xt = inQueue.DeQue<float>();
        LocalTensor<float> yt = outQueue.AllocTensor<float>();
        LocalTensor<float> prefix = scanBuf.Get<float>();
        LocalTensor<float> lastRow = lastRowBuf.Get<float>();
        LocalTensor<uint8_t> scratch = tmpBuf.Get<uint8_t>();
        const uint32_t T = tiling.tileCols;
        const uint32_t n = nRows * T;

        CumSumInfo info{nRows, T};
        CumSum<float, kRowScan>(prefix, lastRow, xt, scratch, info);
        Sub(yt, xt, prefix, n);                      // x - p  (exclusive suffix minus tile total)

        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        for (uint32_t r = 0; r < nRows; ++r) {
            float tileTotal = prefix.GetValue(r * T + T - 1);
            float base = carry[r] + tileTotal;
            carry[r] = base;
            Adds(yt[r * T], yt[r * T], base, T);
        }

        outQueue.EnQue(yt);
        inQueue.FreeTensor(xt);
    }

    __aicore__ inline void CopyOut(uint32_t firstRow, uint32_t nRows, uint32_t col0)
    {
        LocalTensor<float> yt = outQueue.DeQue<float>();
        DataCopyParams p;
        p.blockCount = (uint16_t)nRows;
        p.blockLen = (uint16_t)(tiling.tileCols * sizeof(float) / 32);
        p.srcStride = 0;
        p.dstStride = (uint16_t)((tiling.cols - tiling.tileCols) * sizeof(float) / 32);
        DataCopy(yGm[(uint64_t)firstRow * tiling.cols + col0], yt, p);
        outQueue.FreeTensor(yt);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, QUEUE_DEPTH> inQueue;
    TQue<QuePosition::VECOUT, QUEUE_DEPTH> outQueue;
    TBuf<TPosition::VECCALC> scanBuf, lastRowBuf, tmpBuf;
    GlobalTensor<float> xGm, yGm;
    SuffixRunningTotalTiling tiling;
    float carry[MAX_GROUP_ROWS];
    uint32_t bandStart = 0;
    uint32_t bandRows = 0;
};

extern "C" __global__ __aicore__ void suffix_running_total(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    SuffixRunningTotalTiling t;
    const __gm__ uint32_t *w = reinterpret_cast<const __gm__ uint32_t *>(tiling);
    t.rows = w[0];
    t.cols = w[1];
    t.rowsPerCore = w[2];
    t.rowsExtra = w[3];
    t.groupRows = w[4];
    t.tileCols = w[5];
    t.tmpBytes = w[6];

    SuffixRunningTotal kernel;
    kernel.Init(x, y, t);
    kernel.Process();
}
