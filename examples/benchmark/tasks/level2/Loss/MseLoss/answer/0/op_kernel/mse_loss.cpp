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
 * \file mse_loss.cpp
 * \brief Mean squared error between predict and label.
 *
 * Tiling key 1: reduction = "none"  -> y has the input shape, y = (p - l)^2
 * Tiling key 2: reduction = "sum"   -> y is a scalar, y = sum (p - l)^2
 * Tiling key 3: reduction = "mean"  -> y is a scalar, y = sum (p - l)^2 / n
 * For the scalar forms each core reduces its slice and adds it to y with a GM atomic add;
 * core 0 clears y first and all cores meet at SyncAll before adding.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t REDUCTION_NONE = 1;
constexpr uint32_t REDUCTION_SUM = 2;
constexpr uint32_t REDUCTION_MEAN = 3;
}  // namespace

template <uint32_t REDUCTION>
class KernelMseLoss {
public:
    __aicore__ inline KernelMseLoss() {}

    __aicore__ inline void Init(GM_ADDR predict, GM_ADDR label, GM_ADDR y, const MseLossTilingData& tiling)
    {
        const uint32_t coreIdx = GetBlockIdx();
        const uint64_t offset = static_cast<uint64_t>(coreIdx) * tiling.perCoreLength;
        length_ = (coreIdx == tiling.usedCoreNum - 1) ? tiling.lastCoreLength : tiling.perCoreLength;
        tileLength_ = tiling.tileLength;
        invTotal_ = tiling.invTotal;

        predGm_.SetGlobalBuffer((__gm__ float*)predict + offset, length_);
        labelGm_.SetGlobalBuffer((__gm__ float*)label + offset, length_);
        if constexpr (REDUCTION == REDUCTION_NONE) {
            yGm_.SetGlobalBuffer((__gm__ float*)y + offset, length_);
        } else {
            yGm_.SetGlobalBuffer((__gm__ float*)y, 1);
        }

        pipe_.InitBuffer(predQueue_, BUFFER_NUM, tileLength_ * sizeof(float));
        pipe_.InitBuffer(labelQueue_, BUFFER_NUM, tileLength_ * sizeof(float));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileLength_ * sizeof(float));
        if constexpr (REDUCTION != REDUCTION_NONE) {
            pipe_.InitBuffer(accBuf_, tileLength_ * sizeof(float));
            pipe_.InitBuffer(workBuf_, tileLength_ * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if constexpr (REDUCTION != REDUCTION_NONE) {
            if (GetBlockIdx() == 0) {
                InitGlobalMemory(yGm_, 1, 0.0f);
            }
            Duplicate(accBuf_.Get<float>(), 0.0f, tileLength_);
        }
        for (uint32_t off = 0; off < length_; off += tileLength_) {
            const uint32_t n = (length_ - off < tileLength_) ? (length_ - off) : tileLength_;
            CopyIn(off, n);
            Compute(off, n);
        }
        if constexpr (REDUCTION != REDUCTION_NONE) {
            SyncAll();
            ReduceAndAccumulate();
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        LocalTensor<float> p = predQueue_.AllocTensor<float>();
        LocalTensor<float> l = labelQueue_.AllocTensor<float>();
        const DataCopyExtParams params{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(p, predGm_[off], params, {false, 0, 0, 0.0f});
        DataCopyPad(l, labelGm_[off], params, {false, 0, 0, 0.0f});
        predQueue_.EnQue(p);
        labelQueue_.EnQue(l);
    }

    __aicore__ inline void Compute(uint32_t off, uint32_t n)
    {
        LocalTensor<float> p = predQueue_.DeQue<float>();
        LocalTensor<float> l = labelQueue_.DeQue<float>();
        Sub(p, p, l, n);
        if constexpr (REDUCTION == REDUCTION_NONE) {
            LocalTensor<float> out = outQueue_.AllocTensor<float>();
            Mul(out, p, p, n);
            outQueue_.EnQue(out);
            out = outQueue_.DeQue<float>();
            DataCopyPad(yGm_[off], out, {1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
            outQueue_.FreeTensor(out);
        } else {
            // only the first n lanes are valid in a tail tile; the rest of acc keeps its value
            Mul(p, p, p, n);
            LocalTensor<float> acc = accBuf_.Get<float>();
            Add(acc, acc, p, n);
        }
        predQueue_.FreeTensor(p);
        labelQueue_.FreeTensor(l);
    }

    __aicore__ inline void ReduceAndAccumulate()
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> out = outQueue_.AllocTensor<float>();
        ReduceSum(out, acc, workBuf_.Get<float>(), static_cast<int32_t>(tileLength_));
        if constexpr (REDUCTION == REDUCTION_MEAN) {
            Muls(out, out, invTotal_, 1);
        }
        outQueue_.EnQue(out);
        out = outQueue_.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopyPad(yGm_, out, {1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
        SetAtomicNone();
        outQueue_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> predQueue_;
    TQue<QuePosition::VECIN, BUFFER_NUM> labelQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
    TBuf<TPosition::VECCALC> accBuf_;
    TBuf<TPosition::VECCALC> workBuf_;
    GlobalTensor<float> predGm_;
    GlobalTensor<float> labelGm_;
    GlobalTensor<float> yGm_;
    uint32_t length_ = 0;
    uint32_t tileLength_ = 0;
    float invTotal_ = 0.0f;
};

extern "C" __global__ __aicore__ void mse_loss(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace,
                                               GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        KernelMseLoss<REDUCTION_NONE> op;
        op.Init(predict, label, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelMseLoss<REDUCTION_SUM> op;
        op.Init(predict, label, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(3)) {
        KernelMseLoss<REDUCTION_MEAN> op;
        op.Init(predict, label, y, tilingData);
        op.Process();
    }
}
