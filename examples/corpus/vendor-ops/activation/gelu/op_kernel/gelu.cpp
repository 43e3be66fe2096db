/**
 * Copyright (c) 2026 Ascend-CoT curate authors.
 *
 * This example file belongs to the curate example corpus and is offered under the
 * CANN Open Software License Agreement Version 2.0 (the "License"). Use, copy or modify
 * it only as the License allows. The LICENSE file at the root of this example repository
 * says where the official text of the License is published.
 * The file is provided as is, without warranty of any kind, express or implied, including
 * fitness for a particular purpose.
 */

/*!
 * \file gelu.cpp
 * \brief GELU with two approximations selected by the schedule mode.
 *
 * schMode 0 (tanh form):    y = x / (1 + exp(-2 * k0 * (x + k1 * x^3)))
 * schMode 1 (sigmoid form): y = x / (1 + exp(-1.702 * x))
 * Both forms rewrite 0.5 * (1 + tanh(z)) as a sigmoid so only Exp and Div are needed.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t GELU_TANH = 0;
constexpr uint32_t GELU_SIGMOID = 1;
constexpr float SQRT_2_OVER_PI = 0.7978845608f;
constexpr float CUBIC_COEFF = 0.044715f;
constexpr float SIGMOID_COEFF = -1.702f;
}  // namespace

template <typename T, uint32_t schMode>
class KernelGelu {
public:
    __aicore__ inline KernelGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t coreStride, uint32_t coreLength, uint32_t tileLength)
    {
        // every core starts coreStride elements after the previous one; the last core may hold less
        coreLength_ = coreLength;
        tileLength_ = tileLength;
        const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * coreStride;
        inGm_.SetGlobalBuffer((__gm__ T*)x + base, coreLength_);
        outGm_.SetGlobalBuffer((__gm__ T*)y + base, coreLength_);
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(tmpBuf_, tileLength_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint32_t offset = 0;
        while (offset < coreLength_) {
            const uint32_t len = (coreLength_ - offset > tileLength_) ? tileLength_ : (coreLength_ - offset);
            CopyIn(offset, len);
            Compute(len);
            CopyOut(offset, len);
            offset += len;
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t len)
    {
        LocalTensor<T> xLocal = inQueue_.AllocTensor<T>();
        DataCopyPad(xLocal, inGm_[offset], {1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0},
                    {false, 0, 0, 0});
        inQueue_.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<T> xLocal = inQueue_.DeQue<T>();
        LocalTensor<T> yLocal = outQueue_.AllocTensor<T>();
        LocalTensor<T> t = tmpBuf_.Get<T>();
        if constexpr (schMode == GELU_TANH) {
            Mul(t, xLocal, xLocal, len);                                  // x^2
            Muls(t, t, static_cast<T>(CUBIC_COEFF), len);                 // k1 * x^2
            Adds(t, t, static_cast<T>(1.0f), len);                        // 1 + k1 * x^2
            Mul(t, t, xLocal, len);                                       // x + k1 * x^3
            Muls(t, t, static_cast<T>(-2.0f * SQRT_2_OVER_PI), len);
        } else {
            Muls(t, xLocal, static_cast<T>(SIGMOID_COEFF), len);
        }
        Exp(t, t, len);
        Adds(t, t, static_cast<T>(1.0f), len);
        Div(yLocal, xLocal, t, len);
        outQueue_.EnQue(yLocal);
        inQueue_.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t len)
    {
        LocalTensor<T> yLocal = outQueue_.DeQue<T>();
        DataCopyPad(outGm_[offset], yLocal, {1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
        outQueue_.FreeTensor(yLocal);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
    TBuf<TPosition::VECCALC> tmpBuf_;
    GlobalTensor<T> inGm_;
    GlobalTensor<T> outGm_;
    uint32_t coreLength_ = 0;
    uint32_t tileLength_ = 0;
};

template <uint32_t schMode>
__global__ __aicore__ void gelu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    const bool isLastCore = GetBlockIdx() == tilingData.usedCoreNum - 1;
    const uint32_t myLength = isLastCore ? tilingData.lastCoreLength : tilingData.coreLength;
    KernelGelu<DTYPE_X, schMode> op;
    op.Init(x, y, tilingData.coreLength, myLength, tilingData.tileLength);
    op.Process();
}
