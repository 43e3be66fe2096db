/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * GELU (tanh approximation) on a fixed-shape half tensor. The input is widened
 * to float for the polynomial and the exponential, then narrowed back.
 */
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;                          // ping-pong between copy-in and compute
constexpr uint32_t TOTAL_LENGTH = 16 * 4096;               // elements of the fixed-shape sample
constexpr uint32_t USE_CORE_NUM = 16;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr uint32_t TILE_LENGTH = 1024;                     // 2 KiB of half, 32-byte aligned
constexpr uint32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

// gelu(x) ~= 0.5 * x * (1 + tanh(k0 * (x + k1 * x^3)))
//          =  x / (1 + exp(-2 * k0 * (x + k1 * x^3)))
constexpr float GELU_K0 = 0.7978845608f; // sqrt(2 / pi)
constexpr float GELU_K1 = 0.044715f;
} // namespace

class KernelGelu {
public:
    __aicore__ inline KernelGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        const uint32_t offset = BLOCK_LENGTH * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ half *)x + offset, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y + offset, BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(xFloatBuf, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(innerBuf, TILE_LENGTH * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < TILE_NUM; ++i) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        AscendC::LocalTensor<float> xf = xFloatBuf.Get<float>();
        AscendC::LocalTensor<float> inner = innerBuf.Get<float>();

        AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, TILE_LENGTH);
        inQueueX.FreeTensor(xLocal);

        AscendC::Mul(inner, xf, xf, TILE_LENGTH);                   // x^2
        AscendC::Mul(inner, inner, xf, TILE_LENGTH);                // x^3
        AscendC::Muls(inner, inner, GELU_K1, TILE_LENGTH);          // k1 * x^3
        AscendC::Add(inner, inner, xf, TILE_LENGTH);                // x + k1 * x^3
        AscendC::Muls(inner, inner, -2.0f * GELU_K0, TILE_LENGTH);
        AscendC::Exp(inner, inner, TILE_LENGTH);
        AscendC::Adds(inner, inner, 1.0f, TILE_LENGTH);
        AscendC::Div(inner, xf, inner, TILE_LENGTH);

        AscendC::Cast(yLocal, inner, AscendC::RoundMode::CAST_RINT, TILE_LENGTH);
        outQueueY.EnQue<half>(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        AscendC::DataCopy(yGm[progress * TILE_LENGTH], yLocal, TILE_LENGTH);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xFloatBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> innerBuf;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
};

extern "C" __global__ __aicore__ void gelu_custom(GM_ADDR x, GM_ADDR y)
{
    KernelGelu op;
    op.Init(x, y);
    op.Process();
}
