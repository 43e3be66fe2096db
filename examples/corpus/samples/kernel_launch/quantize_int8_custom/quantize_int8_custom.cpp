/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Per-tensor int8 quantization: y = clamp(round(x / scale + zero_point), -128, 127).
 * x is half; the affine part runs in float, then float -> half -> int8.
 */
#include "kernel_operator.h"
#include "quantize_int8_tiling.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr float INT8_MIN_F = -128.0f;
constexpr float INT8_MAX_F = 127.0f;
} // namespace

class KernelQuantizeInt8 {
public:
    __aicore__ inline KernelQuantizeInt8() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
    {
        // Read the few scalars straight from the GM tiling block.
        const __gm__ QuantizeInt8Tiling *tp = reinterpret_cast<const __gm__ QuantizeInt8Tiling *>(tiling);
        const uint32_t totalLength = tp->totalLength;
        const uint32_t perCore = tp->blockLength;
        tileLength = tp->tileLength;
        invScale = tp->invScale;
        zeroPoint = tp->zeroPoint;

        const uint32_t start = perCore * AscendC::GetBlockIdx();
        blockLength = start < totalLength ? totalLength - start : 0;
        blockLength = blockLength < perCore ? blockLength : perCore;

        xGm.SetGlobalBuffer((__gm__ half *)x + start, blockLength);
        yGm.SetGlobalBuffer((__gm__ int8_t *)y + start, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(int8_t));
        pipe.InitBuffer(floatBuf, tileLength * sizeof(float));
        pipe.InitBuffer(halfBuf, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tileNum = (blockLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < tileNum; ++i) {
            const uint32_t count = (i + 1 == tileNum) ? blockLength - i * tileLength : tileLength;
            // Vector work runs on the 32-byte aligned count; only the copies are byte-exact.
            const uint32_t alignedCount = (count + 31) / 32 * 32;
            CopyIn(i, count);
            Compute(alignedCount);
            CopyOut(i, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t count)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(half)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<half> padParams{true, 0, 0, static_cast<half>(0)};
        AscendC::DataCopyPad(xLocal, xGm[progress * tileLength], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<int8_t> yLocal = outQueueY.AllocTensor<int8_t>();
        AscendC::LocalTensor<float> xf = floatBuf.Get<float>();
        AscendC::LocalTensor<half> xh = halfBuf.Get<half>();

        AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, count);
        inQueueX.FreeTensor(xLocal);
        AscendC::Muls(xf, xf, invScale, count);
        AscendC::Adds(xf, xf, zeroPoint, count);
        AscendC::Maxs(xf, xf, INT8_MIN_F, count);
        AscendC::Mins(xf, xf, INT8_MAX_F, count);
        // Round-to-odd on the narrowing step keeps the final rounding to int8 correct.
        AscendC::Cast(xh, xf, AscendC::RoundMode::CAST_ODD, count);
        AscendC::Cast(yLocal, xh, AscendC::RoundMode::CAST_RINT, count);
        outQueueY.EnQue<int8_t>(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress, uint32_t count)
    {
        AscendC::LocalTensor<int8_t> yLocal = outQueueY.DeQue<int8_t>();
        AscendC::DataCopyExtParams copyParams{1, count, 0, 0, 0};
        AscendC::DataCopyPad(yGm[progress * tileLength], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> floatBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> halfBuf;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<int8_t> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    float invScale = 1.0f;
    float zeroPoint = 0.0f;
};

extern "C" __global__ __aicore__ void quantize_int8_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KernelQuantizeInt8 op;
    op.Init(x, y, tiling);
    op.Process();
}
