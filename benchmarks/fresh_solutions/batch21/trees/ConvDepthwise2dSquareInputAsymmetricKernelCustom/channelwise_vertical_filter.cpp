/*
 * channelwise_vertical_filter.cpp
 *
 * Per-channel (depthwise) 2-D filtering with a K x 1 kernel: every channel has its own
 * K taps that run down the rows, nothing is mixed across channels or columns.
 *
 *   out[n, c, oh, w] = sum_k  wgt[c, k] * x[n, c, oh + k * dil, w]      (stride 1, no padding)
 *
 * Because the kernel is one column wide, a block of consecutive output rows is simply
 * a weighted sum of K shifted copies of the matching input row block.  With the rows
 * stored back to back in UB (pitch W) each tap is one long vector op over the whole
 * block: Muls for the first tap, Axpy for the rest.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct ChannelwiseVerticalFilterTiling {
    uint32_t batch;
    uint32_t channels;
    uint32_t height;
    uint32_t width;        // multiple of 8 (checked on the host)
    uint32_t taps;         // K
    uint32_t dilation;
    uint32_t outHeight;
    uint32_t rowBlock;     // output rows per task
};

class ChannelwiseVerticalFilter {
public:
    __aicore__ inline ChannelwiseVerticalFilter() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const ChannelwiseVerticalFilterTiling &tiling)
    {
        tl = tiling;
        span = (tl.taps - 1) * tl.dilation;
        const uint64_t planes = (uint64_t)tl.batch * tl.channels;
        xGm.SetGlobalBuffer((__gm__ float *)x, planes * tl.height * tl.width);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)tl.channels * tl.taps);
        yGm.SetGlobalBuffer((__gm__ float *)y, planes * tl.outHeight * tl.width);

        pipe.InitBuffer(inQueue, 2, (tl.rowBlock + span) * tl.width * sizeof(float));
        pipe.InitBuffer(outQueue, 2, tl.rowBlock * tl.width * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t blocksPerPlane = (tl.outHeight + tl.rowBlock - 1) / tl.rowBlock;
        const uint32_t tasks = tl.batch * tl.channels * blocksPerPlane;
        for (uint32_t task = GetBlockIdx(); task < tasks; task += GetBlockNum()) {
            const uint32_t plane = task / blocksPerPlane;
            const uint32_t r0 = (task % blocksPerPlane) * tl.rowBlock;
            uint32_t rows = tl.outHeight - r0;
            if (rows > tl.rowBlock) rows = tl.rowBlock;
            LoadRows(plane, r0, rows);
            Filter(plane % tl.channels, rows);
            StoreRows(plane, r0, rows);
        }
    }

private:
    __aicore__ inline void LoadRows(uint32_t plane, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        const uint32_t inRows = rows + span;  // always inside the plane since r0 + rows <= outHeight
        DataCopy(in, xGm[((uint64_t)plane * tl.height + r0) * tl.width], inRows * tl.width);
        inQueue.EnQue(in);
    }

    __aicore__ inline void Filter(uint32_t c, uint32_t rows)
    {
        LocalTensor<float> in = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        const uint32_t n = rows * tl.width;

        // tap 0 initialises, the others accumulate
        float w0 = wGm.GetValue(c * tl.taps);
        Muls(out, in, w0, n);
        for (uint32_t k = 1; k < tl.taps; ++k) {
            float wk = wGm.GetValue(c * tl.taps + k);
            PipeBarrier<PIPE_V>();
            Axpy(out, in[k * tl.dilation * tl.width], wk, n);
        }

        outQueue.EnQue(out);
        inQueue.FreeTensor(in);
    }

    __aicore__ inline void StoreRows(uint32_t plane, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> out = outQueue.DeQue<float>();
        DataCopy(yGm[((uint64_t)plane * tl.outHeight + r0) * tl.width], out, rows * tl.width);
        outQueue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, wGm, yGm;
    ChannelwiseVerticalFilterTiling tl;
    uint32_t span = 0;
};

extern "C" __global__ __aicore__ void channelwise_vertical_filter(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR tiling)
{
    ChannelwiseVerticalFilterTiling tl;
    const __gm__ uint32_t *src = reinterpret_cast<const __gm__ uint32_t *>(tiling);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(tl) / 4; ++i) {
        dst[i] = src[i];
    }
    ChannelwiseVerticalFilter op;
    op.Init(x, w, y, tl);
    op.Process();
}
