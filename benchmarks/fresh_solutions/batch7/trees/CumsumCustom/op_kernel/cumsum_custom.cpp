#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr CumSumConfig LAST_AXIS_CFG = {true, false, false};
constexpr CumSumConfig FIRST_AXIS_CFG = {false, false, true};

// ---------------------------------------------------------------------------------------
// Scan along the innermost (contiguous) axis. One task = one row of length L.
// The row is processed in chunks of R x W elements; inside a chunk CumSum runs along W
// for each of the R sub-rows, then sub-row i gets (carry + totals of sub-rows < i) added.
// ---------------------------------------------------------------------------------------
class CumsumLastAxis {
public:
    __aicore__ inline CumsumLastAxis() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CumsumCustomTilingData &t)
    {
        L = t.scanLen;
        R = t.tileRows;
        W = t.tileCols;
        chunk = R * W;
        rowBeg = GetBlockIdx() * t.tasksPerCore;
        rowEnd = rowBeg + t.tasksPerCore;
        if (rowEnd > t.totalTasks) rowEnd = t.totalTasks;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(inQ, BUFFER_NUM, chunk * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, chunk * sizeof(float));
        pipe.InitBuffer(tmpBuf, t.tmpBufSize);
        pipe.InitBuffer(lastRowBuf, W * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = rowBeg; row < rowEnd; ++row) {
            float carry = 0.0f;
            uint64_t rowOff = (uint64_t)row * L;
            for (uint32_t c0 = 0; c0 < L; c0 += chunk) {
                uint32_t len = (c0 + chunk <= L) ? chunk : (L - c0);
                CopyIn(rowOff + c0, len);
                carry = Compute(len, carry);
                CopyOut(rowOff + c0, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        if (len < chunk) {
            // zero the padding so the partial sub-row sums stay exact
            Duplicate(xl, 0.0f, chunk);
            PipeBarrier<PIPE_ALL>();
        }
        DataCopyExtParams p{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], p, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline float Compute(uint32_t len, float carry)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        LocalTensor<float> lastRow = lastRowBuf.Get<float>();

        uint32_t rows = (len + W - 1) / W;
        CumSumInfo info{rows, W};
        CumSum<float, LAST_AXIS_CFG>(yl, lastRow, xl, tmp, info);

        // sub-row totals are the last column; read them on the scalar unit
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);

        float offset = carry;
        for (uint32_t i = 0; i < rows; ++i) {
            float total = yl.GetValue(i * W + W - 1);
            if (offset != 0.0f) {
                Adds(yl[i * W], yl[i * W], offset, W);
            }
            offset += total;
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
        return offset;
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopyExtParams p{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[off], yl, p);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> tmpBuf, lastRowBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t L, R, W, chunk, rowBeg, rowEnd;
};

// ---------------------------------------------------------------------------------------
// Scan along a non-innermost axis: x is (outer, L, inner). One task = (o, column tile).
// Tiles of R rows are scanned with CumSum along the first axis; the last row of each tile
// is carried into the first row of the next tile.
// ---------------------------------------------------------------------------------------
class CumsumOuterAxis {
public:
    __aicore__ inline CumsumOuterAxis() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CumsumCustomTilingData &t)
    {
        L = t.scanLen; inner = t.inner; R = t.tileRows; W = t.tileCols; colTiles = t.colTiles;
        taskBeg = GetBlockIdx() * t.tasksPerCore;
        taskEnd = taskBeg + t.tasksPerCore;
        if (taskEnd > t.totalTasks) taskEnd = t.totalTasks;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(inQ, BUFFER_NUM, R * W * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, R * W * sizeof(float));
        pipe.InitBuffer(tmpBuf, t.tmpBufSize);
        pipe.InitBuffer(carryBuf, W * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> carry = carryBuf.Get<float>();
        for (uint32_t task = taskBeg; task < taskEnd; ++task) {
            uint32_t o = task / colTiles;
            uint32_t col0 = (task % colTiles) * W;
            uint32_t width = (col0 + W <= inner) ? W : (inner - col0);
            uint64_t base = (uint64_t)o * L * inner + col0;
            for (uint32_t r0 = 0; r0 < L; r0 += R) {
                uint32_t rows = (r0 + R <= L) ? R : (L - r0);
                uint64_t off = base + (uint64_t)r0 * inner;
                CopyIn(off, rows, width);
                Compute(rows, r0 != 0, carry);
                CopyOut(off, rows, width);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t rows, uint32_t width)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        uint32_t gap = (W - (width + 7) / 8 * 8) * sizeof(float) / 32;
        DataCopyExtParams p{static_cast<uint16_t>(rows), width * (uint32_t)sizeof(float),
                            (inner - width) * (uint32_t)sizeof(float), gap, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], p, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t rows, bool hasCarry, LocalTensor<float> &carry)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        if (hasCarry) {
            Add(xl, xl, carry, W);   // fold the running prefix into the first row
            PipeBarrier<PIPE_V>();
        }
        CumSumInfo info{rows, W};
        CumSum<float, FIRST_AXIS_CFG>(yl, carry, xl, tmp, info);
        PipeBarrier<PIPE_V>();
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t rows, uint32_t width)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        uint32_t gap = (W - (width + 7) / 8 * 8) * sizeof(float) / 32;
        DataCopyExtParams p{static_cast<uint16_t>(rows), width * (uint32_t)sizeof(float), gap,
                            (inner - width) * (uint32_t)sizeof(float), 0};
        DataCopyPad(yGm[off], yl, p);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> tmpBuf, carryBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t L, inner, R, W, colTiles, taskBeg, taskEnd;
};

extern "C" __global__ __aicore__ void cumsum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        CumsumLastAxis op;
        op.Init(x, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        CumsumOuterAxis op;
        op.Init(x, y, tilingData);
        op.Process();
    }
}
