// window_mean_shrink.cpp
//
// Non-overlapping box mean over k x k windows of an (N, C, H, W) float tensor:
//   y[nc, oh, ow] = 1/(k*k) * sum_{i,j<k} x[nc, oh*s + i, ow*s + j]        (s >= k, no padding)
//
// The window columns are regrouped while copying from GM: DataCopyPad moves one window row
// (k floats) per burst and pads it with zeros up to a 32B multiple ("slot"), so in UB every
// window occupies its own slot. Vertical sums are plain vector Adds over the k input rows,
// the horizontal sum is one WholeReduceSum with one repeat per output column.
#include "kernel_operator.h"

using namespace AscendC;

struct WindowMeanShrinkTiling {
    uint32_t planes;      // N * C
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t kernel;
    uint32_t stride;
    uint32_t slot;        // kernel rounded up to 8 floats
    uint32_t rowsPerCore; // output rows (plane, oh) handled per core
    uint32_t rowsTotal;
};

class WindowMeanShrink {
public:
    __aicore__ inline WindowMeanShrink() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, WindowMeanShrinkTiling *tiling)
    {
        tp = tiling;
        inGm.SetGlobalBuffer((__gm__ float *)x);
        outGm.SetGlobalBuffer((__gm__ float *)y);
        begin = GetBlockIdx() * tp->rowsPerCore;
        end = begin + tp->rowsPerCore;
        if (end > tp->rowsTotal) {
            end = tp->rowsTotal;
        }
        slotted = tp->outW * tp->slot;
        outLen = (tp->outW + 7) / 8 * 8;
        pipe.InitBuffer(rowQueue, 2, slotted * sizeof(float));
        pipe.InitBuffer(outQueue, 2, outLen * sizeof(float));
        pipe.InitBuffer(sumBuf, slotted * sizeof(float));
        invArea = 1.0f / (float)(tp->kernel * tp->kernel);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = begin; r < end; ++r) {
            VerticalSum(r);
            Finish(r);
        }
    }

private:
    __aicore__ inline void FetchRow(uint64_t gmRowStart)
    {
        LocalTensor<float> buf = rowQueue.AllocTensor<float>();
        DataCopyExtParams cp;
        cp.blockCount = (uint16_t)tp->outW;                          // one burst per window
        cp.blockLen = tp->kernel * sizeof(float);
        cp.srcStride = (tp->stride - tp->kernel) * sizeof(float);    // gap between windows in GM
        cp.dstStride = 0;
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(tp->slot - tp->kernel), 0.0f};
        DataCopyPad(buf, inGm[gmRowStart], cp, pad);
        rowQueue.EnQue(buf);
    }

    __aicore__ inline void VerticalSum(uint32_t r)
    {
        uint32_t plane = r / tp->outH;
        uint32_t oh = r % tp->outH;
        uint64_t base = ((uint64_t)plane * tp->inH + (uint64_t)oh * tp->stride) * tp->inW;
        LocalTensor<float> acc = sumBuf.Get<float>();

        FetchRow(base);
        for (uint32_t i = 0; i < tp->kernel; ++i) {
            LocalTensor<float> cur = rowQueue.DeQue<float>();
            if (i + 1 < tp->kernel) {
                FetchRow(base + (uint64_t)(i + 1) * tp->inW);  // overlap next load with this add
            }
            if (i == 0) {
                DataCopy(acc, cur, slotted);
            } else {
                Add(acc, acc, cur, slotted);
            }
            rowQueue.FreeTensor(cur);
        }
    }

    __aicore__ inline void Finish(uint32_t r)
    {
        LocalTensor<float> acc = sumBuf.Get<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        // one repeat per window: sum the first `slot` lanes (pad lanes are zero)
        WholeReduceSum<float>(out, acc, (int32_t)tp->slot, (int32_t)tp->outW, 1, 1, (int32_t)(tp->slot / 8));
        Muls(out, out, invArea, tp->outW);
        outQueue.EnQue(out);

        out = outQueue.DeQue<float>();
        DataCopyExtParams cp{1, tp->outW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(outGm[(uint64_t)r * tp->outW], out, cp);
        outQueue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQueue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    TBuf<TPosition::VECCALC> sumBuf;
    GlobalTensor<float> inGm, outGm;
    WindowMeanShrinkTiling *tp = nullptr;
    uint32_t begin = 0, end = 0;
    uint32_t slotted = 0, outLen = 0;
    float invArea = 1.0f;
};

extern "C" __global__ __aicore__ void window_mean_shrink(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    WindowMeanShrinkTiling td;
    auto words = reinterpret_cast<__gm__ uint32_t *>(tiling);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&td);
    for (uint32_t i = 0; i < sizeof(WindowMeanShrinkTiling) / sizeof(uint32_t); ++i) {
        dst[i] = words[i];
    }
    WindowMeanShrink op;
    op.Init(x, y, &td);
    op.Process();
}
