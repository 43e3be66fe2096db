/**
 * window_mean_2d.cpp
 *
 * Non-overlapping / strided mean filter over the last two axes of an NCHW
 * float tensor (no padding).  Every output row (plane, oh) is produced from
 * kSize consecutive input rows:
 *   1. the kSize rows are copied into UB in one DataCopyPad burst,
 *   2. they are folded vertically into a single "column sum" row with Add,
 *   3. the horizontal window sums are taken from the column-sum row with
 *      scalar reads (windows are 11 wide, which is not a 32B multiple, so a
 *      repeat-stride reduction is not usable here) and scaled by 1/(k*k).
 */
#include "kernel_operator.h"

using namespace AscendC;

struct WindowMean2dTiling {
    uint32_t planes;      // N * C
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t kSize;
    uint32_t stride;
    uint32_t alignedInW;  // inW rounded up to 8 floats
    uint32_t alignedOutW; // outW rounded up to 8 floats
    uint32_t totalRows;   // planes * outH
    uint32_t rowsPerCore;
};

constexpr int32_t BUFFER_NUM = 2;

class WindowMean2d {
public:
    __aicore__ inline WindowMean2d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const WindowMean2dTiling &t)
    {
        tiling = t;
        uint32_t first = GetBlockIdx() * tiling.rowsPerCore;
        uint32_t last = first + tiling.rowsPerCore;
        if (last > tiling.totalRows) {
            last = tiling.totalRows;
        }
        rowBegin = first;
        rowEnd = (first < last) ? last : first;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tiling.planes * tiling.inH * tiling.inW);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)tiling.planes * tiling.outH * tiling.outW);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tiling.kSize * tiling.alignedInW * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tiling.alignedOutW * sizeof(float));
        pipe.InitBuffer(colBuf, tiling.alignedInW * sizeof(float));
        invArea = 1.0f / static_cast<float>(tiling.kSize * tiling.kSize);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            uint32_t plane = r / tiling.outH;
            uint32_t oh = r - plane * tiling.outH;
            LoadRows(plane, oh);
            Reduce();
            Store(r);
        }
    }

private:
    __aicore__ inline void LoadRows(uint32_t plane, uint32_t oh)
    {
        LocalTensor<float> rows = inQueue.AllocTensor<float>();
        uint64_t src = (uint64_t)plane * tiling.inH * tiling.inW + (uint64_t)oh * tiling.stride * tiling.inW;
        // kSize bursts of inW floats, each landing on its own aligned UB row
        DataCopyExtParams cp{static_cast<uint16_t>(tiling.kSize), tiling.inW * (uint32_t)sizeof(float), 0,
                             static_cast<uint32_t>((tiling.alignedInW - tiling.inW) * sizeof(float) / 32), 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(rows, xGm[src], cp, pad);
        inQueue.EnQue(rows);
    }

    __aicore__ inline void Reduce()
    {
        LocalTensor<float> rows = inQueue.DeQue<float>();
        LocalTensor<float> col = colBuf.Get<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();

        // vertical fold of the kSize rows
        Adds(col, rows, 0.0f, tiling.inW);
        for (uint32_t k = 1; k < tiling.kSize; ++k) {
            Add(col, col, rows[k * tiling.alignedInW], tiling.inW);
        }
        inQueue.FreeTensor(rows);

        // the scalar unit reads what the vector unit just wrote
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);

        for (uint32_t ow = 0; ow < tiling.outW; ++ow) {
            uint32_t base = ow * tiling.stride;
            float acc = 0.0f;
            for (uint32_t kw = 0; kw < tiling.kSize; ++kw) {
                acc += col.GetValue(base + kw);
            }
            out.SetValue(ow, acc * invArea);
        }

        // MTE3 must see the scalar stores
        event_t sToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToMte3);
        WaitFlag<HardEvent::S_MTE3>(sToMte3);
        outQueue.EnQue(out);
    }

    __aicore__ inline void Store(uint32_t r)
    {
        LocalTensor<float> out = outQueue.DeQue<float>();
        DataCopyExtParams cp{1, tiling.outW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)r * tiling.outW], out, cp);
        outQueue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> colBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    WindowMean2dTiling tiling;
    uint32_t rowBegin = 0;
    uint32_t rowEnd = 0;
    float invArea = 1.0f;
};

__aicore__ inline void LoadTiling(WindowMean2dTiling &t, GM_ADDR tilingGm)
{
    uint32_t *dst = reinterpret_cast<uint32_t *>(&t);
    __gm__ uint32_t *src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    for (uint32_t i = 0; i < sizeof(WindowMean2dTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
}

extern "C" __global__ __aicore__ void window_mean_2d(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    WindowMean2dTiling t;
    LoadTiling(t, tiling);
    WindowMean2d op;
    op.Init(x, y, t);
    op.Process();
}
