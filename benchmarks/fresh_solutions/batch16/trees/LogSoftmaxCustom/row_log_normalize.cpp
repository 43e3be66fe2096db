/*
 * row_log_normalize.cpp
 *
 * y[r, :] = x[r, :] - max(x[r, :]) - log(sum(exp(x[r, :] - max(x[r, :]))))
 *
 * Rows are long (hundreds of thousands of columns), so a row never fits in UB. The row is
 * streamed twice:
 *   pass 1: per-lane online max / sum-of-exp over tiles (pure vector work, no scalar exp)
 *   pass 2: y = x - (max + log(sum))
 * Rows are distributed over the vector cores.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_BIG = -3.0e38f;

struct RowLogNormalizeTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t tileLen;     // floats per tile, multiple of 64
    uint32_t tileNum;     // ceil(cols / tileLen)
    uint32_t lastLen;     // floats in the last tile (multiple of 8)
};

class RowLogNormalize {
public:
    __aicore__ inline RowLogNormalize() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RowLogNormalizeTiling &tiling)
    {
        cfg = tiling;
        rowStart = GetBlockIdx() * cfg.rowsPerCore;
        rowCount = 0;
        if (rowStart < cfg.rows) {
            rowCount = cfg.rows - rowStart < cfg.rowsPerCore ? cfg.rows - rowStart : cfg.rowsPerCore;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x + (uint64_t)rowStart * cfg.cols);
        yGm.SetGlobalBuffer((__gm__ float *)y + (uint64_t)rowStart * cfg.cols);

        uint32_t bytes = cfg.tileLen * sizeof(float);
        pipe.InitBuffer(inQ, BUFFER_NUM, bytes);
        pipe.InitBuffer(outQ, BUFFER_NUM, bytes);
        pipe.InitBuffer(laneMax, bytes);
        pipe.InitBuffer(laneSum, bytes);
        pipe.InitBuffer(scratch, bytes);
        pipe.InitBuffer(reduceWork, bytes);
        pipe.InitBuffer(scalarBuf, 64);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            float shift = RowStatistics(r);
            WriteRow(r, shift);
        }
    }

private:
    __aicore__ inline uint32_t TileLen(uint32_t t) const
    {
        return t + 1 == cfg.tileNum ? cfg.lastLen : cfg.tileLen;
    }

    __aicore__ inline void LoadTile(uint32_t r, uint32_t t)
    {
        LocalTensor<float> buf = inQ.AllocTensor<float>();
        DataCopy(buf, xGm[(uint64_t)r * cfg.cols + (uint64_t)t * cfg.tileLen], TileLen(t));
        inQ.EnQue(buf);
    }

    // returns max + log(sum(exp(x - max))) for row r
    __aicore__ inline float RowStatistics(uint32_t r)
    {
        LocalTensor<float> m = laneMax.Get<float>();
        LocalTensor<float> s = laneSum.Get<float>();
        LocalTensor<float> tmp = scratch.Get<float>();
        Duplicate(m, NEG_BIG, cfg.tileLen);
        Duplicate(s, 0.0f, cfg.tileLen);

        for (uint32_t t = 0; t < cfg.tileNum; ++t) {
            LoadTile(r, t);
            LocalTensor<float> xt = inQ.DeQue<float>();
            uint32_t len = TileLen(t);
            // tmp = max(m, x)  (new lane max)
            Max(tmp, m, xt, len);
            // s = s * exp(m - tmp) + exp(x - tmp)
            Sub(m, m, tmp, len);
            Exp(m, m, len);
            Mul(s, s, m, len);
            Sub(xt, xt, tmp, len);
            Exp(xt, xt, len);
            Add(s, s, xt, len);
            // m = tmp
            Adds(m, tmp, 0.0f, len);
            inQ.FreeTensor(xt);
        }

        // fold the lanes: M = max(m), S = sum(s * exp(m - M))
        LocalTensor<float> work = reduceWork.Get<float>();
        LocalTensor<float> sc = scalarBuf.Get<float>();
        ReduceMax(sc, m, work, cfg.tileLen, false);
        event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float rowMax = sc.GetValue(0);
        event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);

        Adds(m, m, -rowMax, cfg.tileLen);
        Exp(m, m, cfg.tileLen);
        Mul(s, s, m, cfg.tileLen);
        ReduceSum(sc, s, work, cfg.tileLen);
        Ln(sc, sc, 1);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float logSum = sc.GetValue(0);
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        return rowMax + logSum;
    }

    __aicore__ inline void WriteRow(uint32_t r, float shift)
    {
        for (uint32_t t = 0; t < cfg.tileNum; ++t) {
            LoadTile(r, t);
            LocalTensor<float> xt = inQ.DeQue<float>();
            LocalTensor<float> yt = outQ.AllocTensor<float>();
            uint32_t len = TileLen(t);
            Adds(yt, xt, -shift, len);
            outQ.EnQue(yt);
            inQ.FreeTensor(xt);

            yt = outQ.DeQue<float>();
            DataCopy(yGm[(uint64_t)r * cfg.cols + (uint64_t)t * cfg.tileLen], yt, len);
            outQ.FreeTensor(yt);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> laneMax, laneSum, scratch, reduceWork, scalarBuf;
    GlobalTensor<float> xGm, yGm;
    RowLogNormalizeTiling cfg;
    uint32_t rowStart = 0, rowCount = 0;
};

extern "C" __global__ __aicore__ void row_log_normalize(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    RowLogNormalizeTiling cfg;
    auto gmTiling = reinterpret_cast<__gm__ uint32_t *>(tiling);
    cfg.rows = gmTiling[0];
    cfg.cols = gmTiling[1];
    cfg.rowsPerCore = gmTiling[2];
    cfg.tileLen = gmTiling[3];
    cfg.tileNum = gmTiling[4];
    cfg.lastLen = gmTiling[5];

    RowLogNormalize op;
    op.Init(x, y, cfg);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void row_log_normalize_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling)
{
    row_log_normalize<<<blockDim, nullptr, stream>>>(x, y, tiling);
}
#endif
