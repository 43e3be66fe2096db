#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DOUBLE_BUF = 2;
constexpr uint32_t OUT_STAGE = 1024;   // row sums buffered before a write-back (key 2)

// ---------------------------------------------------------------------------
// inner > 1: accumulate rows of a [reduceLen, cols] strided slice
// ---------------------------------------------------------------------------
class AxisSumColumns {
public:
    __aicore__ inline AxisSumColumns() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisSumKeepdimTilingData &td)
    {
        outer = td.outer;
        reduceLen = td.reduceLen;
        inner = td.inner;
        colTile = td.colTile;
        slices = td.slicesPerRow;
        rowsPerLoad = td.rowsPerLoad;
        taskNum = td.taskNum;

        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(outer) * reduceLen * inner);
        yGm.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(outer) * inner);

        pipe.InitBuffer(inQ, DOUBLE_BUF, rowsPerLoad * colTile * sizeof(float));
        pipe.InitBuffer(outQ, 1, colTile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = GetBlockIdx(); task < taskNum; task += GetBlockNum()) {
            uint32_t o = task / slices;
            uint32_t s = task % slices;
            uint32_t col0 = s * colTile;
            uint32_t cols = inner - col0 < colTile ? inner - col0 : colTile;
            ReduceSlice(o, col0, cols);
        }
    }

private:
    __aicore__ inline void ReduceSlice(uint32_t o, uint32_t col0, uint32_t cols)
    {
        const uint32_t colsAlign = (cols + 7) / 8 * 8;
        const uint64_t base = static_cast<uint64_t>(o) * reduceLen * inner + col0;

        LocalTensor<float> acc = outQ.AllocTensor<float>();
        Duplicate(acc, 0.0f, colsAlign);

        for (uint32_t r = 0; r < reduceLen; r += rowsPerLoad) {
            uint32_t nr = reduceLen - r < rowsPerLoad ? reduceLen - r : rowsPerLoad;

            // nr rows of `cols` floats, source rows are `inner` apart;
            // every row lands 32B aligned in UB (row pitch colsAlign)
            LocalTensor<float> blk = inQ.AllocTensor<float>();
            DataCopyExtParams cp{static_cast<uint16_t>(nr), static_cast<uint32_t>(cols * sizeof(float)),
                                 static_cast<uint32_t>((inner - cols) * sizeof(float)), 0, 0};
            DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(colsAlign - cols), 0.0f};
            DataCopyPad(blk, xGm[base + static_cast<uint64_t>(r) * inner], cp, pad);
            inQ.EnQue(blk);

            LocalTensor<float> ready = inQ.DeQue<float>();
            // pairwise folding inside the burst, then one add into acc
            uint32_t live = nr;
            while (live > 1) {
                uint32_t half = live / 2;
                Add(ready, ready, ready[half * colsAlign], half * colsAlign);
                if (live % 2 == 1) {
                    Add(ready, ready, ready[(live - 1) * colsAlign], colsAlign);
                }
                live = half;
            }
            Add(acc, acc, ready, colsAlign);
            inQ.FreeTensor(ready);
        }

        outQ.EnQue(acc);
        LocalTensor<float> res = outQ.DeQue<float>();
        DataCopyExtParams wp{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(o) * inner + col0], res, wp);
        outQ.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, DOUBLE_BUF> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    GlobalTensor<float> xGm, yGm;
    uint32_t outer = 0, reduceLen = 0, inner = 0;
    uint32_t colTile = 0, slices = 0, rowsPerLoad = 0, taskNum = 0;
};

// ---------------------------------------------------------------------------
// inner == 1: every output is the sum of one contiguous row
// ---------------------------------------------------------------------------
class AxisSumRows {
public:
    __aicore__ inline AxisSumRows() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisSumKeepdimTilingData &td)
    {
        rows = td.outer;
        rowLen = td.reduceLen;
        chunk = td.chunkLen;
        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(rows) * rowLen);
        yGm.SetGlobalBuffer((__gm__ float *)y, rows);

        pipe.InitBuffer(inQ, DOUBLE_BUF, chunk * sizeof(float));
        pipe.InitBuffer(workBuf, chunk * sizeof(float));
        pipe.InitBuffer(partBuf, 8 * sizeof(float));
        pipe.InitBuffer(stageBuf, OUT_STAGE * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        // contiguous band of rows per core, so the sums can be flushed in bursts
        uint32_t per = (rows + GetBlockNum() - 1) / GetBlockNum();
        uint32_t begin = GetBlockIdx() * per;
        uint32_t end = begin + per < rows ? begin + per : rows;
        if (begin >= end) {
            return;
        }
        LocalTensor<float> stage = stageBuf.Get<float>();
        uint32_t staged = 0;
        uint32_t flushFrom = begin;
        for (uint32_t row = begin; row < end; ++row) {
            stage.SetValue(staged++, SumRow(row));
            if (staged == OUT_STAGE || row + 1 == end) {
                Flush(stage, flushFrom, staged);
                flushFrom += staged;
                staged = 0;
            }
        }
    }

private:
    __aicore__ inline float SumRow(uint32_t row)
    {
        float total = 0.0f;
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> part = partBuf.Get<float>();
        uint64_t base = static_cast<uint64_t>(row) * rowLen;
        for (uint32_t off = 0; off < rowLen; off += chunk) {
            uint32_t n = rowLen - off < chunk ? rowLen - off : chunk;
            LocalTensor<float> seg = inQ.AllocTensor<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(seg, xGm[base + off], cp, pad);
            inQ.EnQue(seg);

            LocalTensor<float> ready = inQ.DeQue<float>();
            ReduceSum<float>(part, ready, work, static_cast<int32_t>(n));
            inQ.FreeTensor(ready);

            event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            total += part.GetValue(0);
        }
        return total;
    }

    __aicore__ inline void Flush(const LocalTensor<float> &stage, uint32_t firstRow, uint32_t count)
    {
        event_t sToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToMte3);
        WaitFlag<HardEvent::S_MTE3>(sToMte3);
        DataCopyExtParams wp{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[firstRow], stage, wp);
        // the stage buffer is rewritten by scalar stores right after
        event_t mte3ToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(mte3ToS);
        WaitFlag<HardEvent::MTE3_S>(mte3ToS);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, DOUBLE_BUF> inQ;
    TBuf<TPosition::VECCALC> workBuf, partBuf, stageBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows = 0, rowLen = 0, chunk = 0;
};

extern "C" __global__ __aicore__ void axis_sum_keepdim_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        AxisSumColumns op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        AxisSumRows op;
        op.Init(x, y, td);
        op.Process();
    }
}
