#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// x viewed as (outer, R, inner); y[o, i] = min_r x[o, r, i]
// Path 1 (inner > 1): columns are independent, so a task is (o, column tile). Blocks of
// rows are folded with element-wise Min (tree halving inside the block, then into acc).
class MinReduceStrided {
public:
    __aicore__ inline MinReduceStrided() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MinReductionOverADimensionCustomTilingData &t)
    {
        outer = t.outer; R = t.reduceLen; inner = t.inner;
        tileW = t.innerTile; rowTile = t.rowTile; innerTiles = t.innerTiles;
        taskBeg = GetBlockIdx() * t.tasksPerCore;
        taskEnd = taskBeg + t.tasksPerCore;
        if (taskEnd > t.totalTasks) taskEnd = t.totalTasks;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(inQue, BUFFER_NUM, rowTile * tileW * sizeof(float));
        pipe.InitBuffer(outQue, 1, tileW * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = taskBeg; task < taskEnd; ++task) {
            uint32_t o = task / innerTiles;
            uint32_t col0 = (task % innerTiles) * tileW;
            uint32_t width = (col0 + tileW <= inner) ? tileW : (inner - col0);
            uint64_t base = (uint64_t)o * R * inner + col0;

            LocalTensor<float> acc = outQue.AllocTensor<float>();
            bool first = true;
            for (uint32_t r0 = 0; r0 < R; r0 += rowTile) {
                uint32_t rows = (r0 + rowTile <= R) ? rowTile : (R - r0);
                CopyIn(base + (uint64_t)r0 * inner, rows, width);
                Fold(acc, rows, first);
                first = false;
            }
            outQue.EnQue(acc);
            CopyOut((uint64_t)o * inner + col0, width);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t rows, uint32_t width)
    {
        LocalTensor<float> buf = inQue.AllocTensor<float>();
        DataCopyExtParams p{static_cast<uint16_t>(rows), width * (uint32_t)sizeof(float),
                            (inner - width) * (uint32_t)sizeof(float),
                            (tileW - (width + 7) / 8 * 8) * (uint32_t)sizeof(float) / 32, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(buf, xGm[off], p, pad);
        inQue.EnQue(buf);
    }

    __aicore__ inline void Fold(LocalTensor<float> &acc, uint32_t rows, bool first)
    {
        LocalTensor<float> buf = inQue.DeQue<float>();
        // halve the row block until a single row is left; rows sit back-to-back with stride tileW
        uint32_t live = rows;
        while (live > 1) {
            uint32_t half = live / 2;
            Min(buf, buf, buf[(live - half) * tileW], half * tileW);
            PipeBarrier<PIPE_V>();
            live -= half;
        }
        if (first) {
            DataCopy(acc, buf, tileW);
        } else {
            Min(acc, acc, buf, tileW);
        }
        PipeBarrier<PIPE_V>();
        inQue.FreeTensor(buf);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t width)
    {
        LocalTensor<float> acc = outQue.DeQue<float>();
        DataCopyExtParams p{1, width * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[off], acc, p);
        outQue.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    GlobalTensor<float> xGm, yGm;
    uint32_t outer, R, inner, tileW, rowTile, innerTiles, taskBeg, taskEnd;
};

// Path 2 (inner == 1): each output is the min of a contiguous row. Chunks of the row are
// folded element-wise, then one ReduceMin collapses the accumulator to a scalar.
class MinReduceLastAxis {
public:
    __aicore__ inline MinReduceLastAxis() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MinReductionOverADimensionCustomTilingData &t)
    {
        R = t.reduceLen; chunk = t.innerTile;
        taskBeg = GetBlockIdx() * t.tasksPerCore;
        taskEnd = taskBeg + t.tasksPerCore;
        if (taskEnd > t.totalTasks) taskEnd = t.totalTasks;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(inQue, BUFFER_NUM, chunk * sizeof(float));
        pipe.InitBuffer(accBuf, chunk * sizeof(float));
        pipe.InitBuffer(workBuf, t.workSize * sizeof(float));
        pipe.InitBuffer(resBuf, 8 * sizeof(float));
        pipe.InitBuffer(outBuf, 256 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> res = resBuf.Get<float>();
        LocalTensor<float> outs = outBuf.Get<float>();
        uint32_t pending = 0;
        uint32_t pendingStart = taskBeg;

        for (uint32_t row = taskBeg; row < taskEnd; ++row) {
            uint32_t accLen = 0;
            for (uint32_t c0 = 0; c0 < R; c0 += chunk) {
                uint32_t len = (c0 + chunk <= R) ? chunk : (R - c0);
                LocalTensor<float> buf = inQue.AllocTensor<float>();
                DataCopyExtParams p{1, len * (uint32_t)sizeof(float), 0, 0, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0};
                DataCopyPad(buf, xGm[(uint64_t)row * R + c0], p, pad);
                inQue.EnQue(buf);
                buf = inQue.DeQue<float>();
                if (accLen == 0) {
                    DataCopy(acc, buf, (len + 7) / 8 * 8);
                    accLen = len;
                } else {
                    Min(acc, acc, buf, len);   // len <= accLen, tail chunk folds into the head
                }
                PipeBarrier<PIPE_V>();
                inQue.FreeTensor(buf);
            }
            ReduceMin<float>(res, acc, work, accLen, false);
            event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            outs.SetValue(pending++, res.GetValue(0));

            if (pending == 256 || row + 1 == taskEnd) {
                event_t sm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
                SetFlag<HardEvent::S_MTE3>(sm);
                WaitFlag<HardEvent::S_MTE3>(sm);
                DataCopyExtParams op{1, pending * (uint32_t)sizeof(float), 0, 0, 0};
                DataCopyPad(yGm[pendingStart], outs, op);
                event_t ms = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
                SetFlag<HardEvent::MTE3_S>(ms);
                WaitFlag<HardEvent::MTE3_S>(ms);
                pendingStart += pending;
                pending = 0;
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TBuf<TPosition::VECCALC> accBuf, workBuf, resBuf, outBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t R, chunk, taskBeg, taskEnd;
};

extern "C" __global__ __aicore__ void min_reduction_over_a_dimension_custom(GM_ADDR x, GM_ADDR y,
                                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        MinReduceStrided op;
        op.Init(x, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        MinReduceLastAxis op;
        op.Init(x, y, tilingData);
        op.Process();
    }
}
