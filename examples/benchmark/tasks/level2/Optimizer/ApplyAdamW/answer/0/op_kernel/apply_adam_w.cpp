/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

/*!
 * \file apply_adam_w.cpp
 * \brief One AdamW step, updating var, m and v in place.
 *
 *   var = var * (1 - lr * wd)
 *   m   = beta1 * m + (1 - beta1) * g
 *   v   = beta2 * v + (1 - beta2) * g^2
 *   var = var - lr / bc1 * m / (sqrt(v / bc2) + eps)
 * schMode 1 ("maximize") ascends instead of descending: g is negated first.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MODE_MINIMIZE = 0;
constexpr uint32_t MODE_MAXIMIZE = 1;
}  // namespace

template <uint32_t MODE>
class KernelApplyAdamW {
public:
    __aicore__ inline KernelApplyAdamW() {}

    __aicore__ inline void Init(GM_ADDR var, GM_ADDR m, GM_ADDR v, GM_ADDR grad, GM_ADDR varOut, GM_ADDR mOut,
                                GM_ADDR vOut, const ApplyAdamWTilingData* tiling)
    {
        t_ = tiling;
        const uint32_t coreIdx = GetBlockIdx();
        const uint64_t offset = static_cast<uint64_t>(coreIdx) * t_->perCoreLength;
        length_ = (coreIdx == t_->usedCoreNum - 1) ? t_->lastCoreLength : t_->perCoreLength;

        varGm_.SetGlobalBuffer((__gm__ float*)var + offset, length_);
        mGm_.SetGlobalBuffer((__gm__ float*)m + offset, length_);
        vGm_.SetGlobalBuffer((__gm__ float*)v + offset, length_);
        gradGm_.SetGlobalBuffer((__gm__ float*)grad + offset, length_);
        // the outputs normally alias the inputs (ref semantics); they are addressed separately
        varOutGm_.SetGlobalBuffer((__gm__ float*)varOut + offset, length_);
        mOutGm_.SetGlobalBuffer((__gm__ float*)mOut + offset, length_);
        vOutGm_.SetGlobalBuffer((__gm__ float*)vOut + offset, length_);

        const uint32_t bytes = t_->tileLength * sizeof(float);
        pipe_.InitBuffer(varQueue_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(mQueue_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(vQueue_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(gradQueue_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(varOutQueue_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(mOutQueue_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(vOutQueue_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(denomBuf_, bytes);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < length_; off += t_->tileLength) {
            const uint32_t n = (length_ - off < t_->tileLength) ? (length_ - off) : t_->tileLength;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        const DataCopyExtParams params{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        const DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        LocalTensor<float> varL = varQueue_.AllocTensor<float>();
        LocalTensor<float> mL = mQueue_.AllocTensor<float>();
        LocalTensor<float> vL = vQueue_.AllocTensor<float>();
        LocalTensor<float> gL = gradQueue_.AllocTensor<float>();
        DataCopyPad(varL, varGm_[off], params, pad);
        DataCopyPad(mL, mGm_[off], params, pad);
        DataCopyPad(vL, vGm_[off], params, pad);
        DataCopyPad(gL, gradGm_[off], params, pad);
        varQueue_.EnQue(varL);
        mQueue_.EnQue(mL);
        vQueue_.EnQue(vL);
        gradQueue_.EnQue(gL);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> varL = varQueue_.DeQue<float>();
        LocalTensor<float> mL = mQueue_.DeQue<float>();
        LocalTensor<float> vL = vQueue_.DeQue<float>();
        LocalTensor<float> gL = gradQueue_.DeQue<float>();
        LocalTensor<float> varOut = varOutQueue_.AllocTensor<float>();
        LocalTensor<float> mOut = mOutQueue_.AllocTensor<float>();
        LocalTensor<float> vOut = vOutQueue_.AllocTensor<float>();
        LocalTensor<float> denom = denomBuf_.Get<float>();

        if constexpr (MODE == MODE_MAXIMIZE) {
            Muls(gL, gL, -1.0f, n);
        }
        Muls(varOut, varL, t_->decayFactor, n);

        Muls(mOut, mL, t_->beta1, n);
        Axpy(mOut, gL, t_->oneMinusBeta1, n);            // m += (1 - beta1) * g

        Mul(gL, gL, gL, n);                              // g is dead after this: reuse it for g^2
        Muls(vOut, vL, t_->beta2, n);
        Axpy(vOut, gL, t_->oneMinusBeta2, n);            // v += (1 - beta2) * g^2

        Muls(denom, vOut, t_->invBiasCorr2, n);
        Sqrt(denom, denom, n);
        Adds(denom, denom, t_->eps, n);
        Div(denom, mOut, denom, n);
        Axpy(varOut, denom, t_->negStepSize, n);         // var -= lr / bc1 * m / denom

        varOutQueue_.EnQue(varOut);
        mOutQueue_.EnQue(mOut);
        vOutQueue_.EnQue(vOut);
        varQueue_.FreeTensor(varL);
        mQueue_.FreeTensor(mL);
        vQueue_.FreeTensor(vL);
        gradQueue_.FreeTensor(gL);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)
    {
        const DataCopyExtParams params{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        LocalTensor<float> varOut = varOutQueue_.DeQue<float>();
        LocalTensor<float> mOut = mOutQueue_.DeQue<float>();
        LocalTensor<float> vOut = vOutQueue_.DeQue<float>();
        DataCopyPad(varOutGm_[off], varOut, params);
        DataCopyPad(mOutGm_[off], mOut, params);
        DataCopyPad(vOutGm_[off], vOut, params);
        varOutQueue_.FreeTensor(varOut);
        mOutQueue_.FreeTensor(mOut);
        vOutQueue_.FreeTensor(vOut);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> varQueue_;
    TQue<QuePosition::VECIN, BUFFER_NUM> mQueue_;
    TQue<QuePosition::VECIN, BUFFER_NUM> vQueue_;
    TQue<QuePosition::VECIN, BUFFER_NUM> gradQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> varOutQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> mOutQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> vOutQueue_;
    TBuf<TPosition::VECCALC> denomBuf_;
    GlobalTensor<float> varGm_;
    GlobalTensor<float> mGm_;
    GlobalTensor<float> vGm_;
    GlobalTensor<float> gradGm_;
    GlobalTensor<float> varOutGm_;
    GlobalTensor<float> mOutGm_;
    GlobalTensor<float> vOutGm_;
    const ApplyAdamWTilingData* t_ = nullptr;
    uint32_t length_ = 0;
};

template <uint32_t schMode>
__global__ __aicore__ void apply_adam_w(GM_ADDR var, GM_ADDR m, GM_ADDR v, GM_ADDR grad, GM_ADDR varOut,
                                        GM_ADDR mOut, GM_ADDR vOut, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() >= tilingData.usedCoreNum) {
        return;
    }
    KernelApplyAdamW<schMode> op;
    op.Init(var, m, v, grad, varOut, mOut, vOut, &tilingData);
    op.Process();
}
