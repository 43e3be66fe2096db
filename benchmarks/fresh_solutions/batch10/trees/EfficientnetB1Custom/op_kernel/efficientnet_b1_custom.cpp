#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y[n, c, :] = clamp(x[n, c, :] * scale[c] + shift[c], clipMin, clipMax)
// This is the BatchNorm (folded to an affine transform on the host) followed by
// ReLU / ReLU6 / identity, which is the elementwise hot path of EfficientNet-B1.
class KernelBnClip {
public:
    __aicore__ inline KernelBnClip() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const EfficientnetB1CustomTilingData& td)
    {
        channels = td.channels;
        rowLen = td.rowLen;
        tileLen = td.tileLen;
        clipMin = td.clipMin;
        clipMax = td.clipMax;

        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < td.bigCores) {
            rowCount = td.rowsPerCore + 1;
            rowStart = blockIdx * rowCount;
        } else {
            rowCount = td.rowsPerCore;
            rowStart = td.bigCores * (td.rowsPerCore + 1) + (blockIdx - td.bigCores) * td.rowsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, channels);
        shiftGm.SetGlobalBuffer((__gm__ float*)shift, channels);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t tilesPerRow = (rowLen + tileLen - 1) / tileLen;
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t row = rowStart + r;
            uint32_t ch = static_cast<uint32_t>(row % channels);
            float a = scaleGm.GetValue(ch);
            float b = shiftGm.GetValue(ch);
            uint64_t rowBase = row * rowLen;
            for (uint32_t t = 0; t < tilesPerRow; ++t) {
                uint32_t offset = t * tileLen;
                uint32_t len = (offset + tileLen <= rowLen) ? tileLen : (rowLen - offset);
                CopyIn(rowBase + offset, len);
                Compute(len, a, b);
                CopyOut(rowBase + offset, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOffset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[gmOffset], cp, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len, float a, float b)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        // round up so vector instructions work on whole 32B blocks; padding lanes are never stored
        uint32_t calLen = (len + 7) / 8 * 8;
        Muls(yLocal, xLocal, a, calLen);
        Adds(yLocal, yLocal, b, calLen);
        Maxs(yLocal, yLocal, clipMin, calLen);
        Mins(yLocal, yLocal, clipMax, calLen);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t gmOffset, uint32_t len)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[gmOffset], yLocal, cp);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm, yGm, scaleGm, shiftGm;
    uint32_t channels = 0;
    uint32_t rowLen = 0;
    uint32_t tileLen = 0;
    uint32_t rowStart = 0;
    uint32_t rowCount = 0;
    float clipMin = 0.0f;
    float clipMax = 6.0f;
};

extern "C" __global__ __aicore__ void efficientnet_b1_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBnClip op;
    op.Init(x, scale, shift, y, tilingData);
    op.Process();
}
