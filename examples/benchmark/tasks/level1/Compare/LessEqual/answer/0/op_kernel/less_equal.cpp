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
 * \file less_equal.cpp
 * \brief y = (x1 <= x2), bool output stored as one byte per element.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 1;
constexpr uint32_t SCH_MODE_FLOAT = 0;
constexpr uint32_t SCH_MODE_HALF = 1;
// Compare in count mode works on 256-byte repeats, so the tile is padded up to that size.
constexpr uint32_t CMP_REPEAT_BYTES = 256;
}  // namespace

template <typename T>
class KernelLessEqual {
public:
    __aicore__ inline KernelLessEqual() {}

    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const LessEqualTilingData& tiling)
    {
        const uint32_t coreIdx = GetBlockIdx();
        const uint64_t offset = static_cast<uint64_t>(coreIdx) * tiling.perCoreLength;
        coreLength_ = (coreIdx == tiling.usedCoreNum - 1) ? tiling.lastCoreLength : tiling.perCoreLength;
        tileLength_ = tiling.tileLength;

        x1Gm_.SetGlobalBuffer((__gm__ T*)x1 + offset, coreLength_);
        x2Gm_.SetGlobalBuffer((__gm__ T*)x2 + offset, coreLength_);
        yGm_.SetGlobalBuffer((__gm__ uint8_t*)y + offset, coreLength_);

        pipe_.InitBuffer(inQueueX1_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(inQueueX2_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(outQueueY_, BUFFER_NUM, tileLength_ * sizeof(uint8_t));
        // one bit per element for the compare mask, rounded to a full block
        pipe_.InitBuffer(maskBuf_, (tileLength_ / 8 + 31) / 32 * 32);
        pipe_.InitBuffer(onesBuf_, tileLength_ * sizeof(half));
        pipe_.InitBuffer(zerosBuf_, tileLength_ * sizeof(half));
        pipe_.InitBuffer(selBuf_, tileLength_ * sizeof(half));

        LocalTensor<half> ones = onesBuf_.Get<half>();
        LocalTensor<half> zeros = zerosBuf_.Get<half>();
        Duplicate(ones, (half)1.0, tileLength_);
        Duplicate(zeros, (half)0.0, tileLength_);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < coreLength_; done += tileLength_) {
            const uint32_t count = (coreLength_ - done < tileLength_) ? (coreLength_ - done) : tileLength_;
            CopyIn(done, count);
            Compute(count);
            CopyOut(done, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        LocalTensor<T> a = inQueueX1_.AllocTensor<T>();
        LocalTensor<T> b = inQueueX2_.AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(a, x1Gm_[offset], params, pad);
        DataCopyPad(b, x2Gm_[offset], params, pad);
        inQueueX1_.EnQue(a);
        inQueueX2_.EnQue(b);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> a = inQueueX1_.DeQue<T>();
        LocalTensor<T> b = inQueueX2_.DeQue<T>();
        LocalTensor<uint8_t> y = outQueueY_.AllocTensor<uint8_t>();
        LocalTensor<uint8_t> mask = maskBuf_.Get<uint8_t>();
        LocalTensor<half> sel = selBuf_.Get<half>();
        const uint32_t perRepeat = CMP_REPEAT_BYTES / sizeof(T);
        const uint32_t cmpCount = (count + perRepeat - 1) / perRepeat * perRepeat;

        Compare(mask, a, b, CMPMODE::LE, cmpCount);
        // turn the bit mask into 1.0 / 0.0, then narrow half -> uint8
        Select(sel, mask, onesBuf_.Get<half>(), zerosBuf_.Get<half>(), SELMODE::VSEL_TENSOR_TENSOR_MODE, cmpCount);
        Cast(y, sel, RoundMode::CAST_NONE, cmpCount);

        outQueueY_.EnQue(y);
        inQueueX1_.FreeTensor(a);
        inQueueX2_.FreeTensor(b);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        LocalTensor<uint8_t> y = outQueueY_.DeQue<uint8_t>();
        DataCopyExtParams params{1, count, 0, 0, 0};
        DataCopyPad(yGm_[offset], y, params);
        outQueueY_.FreeTensor(y);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX1_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX2_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY_;
    TBuf<TPosition::VECCALC> maskBuf_;
    TBuf<TPosition::VECCALC> onesBuf_;
    TBuf<TPosition::VECCALC> zerosBuf_;
    TBuf<TPosition::VECCALC> selBuf_;
    GlobalTensor<T> x1Gm_;
    GlobalTensor<T> x2Gm_;
    GlobalTensor<uint8_t> yGm_;
    uint32_t coreLength_ = 0;
    uint32_t tileLength_ = 0;
};

template <uint32_t schMode>
__global__ __aicore__ void less_equal(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if constexpr (schMode == SCH_MODE_FLOAT) {
        KernelLessEqual<float> op;
        op.Init(x1, x2, y, tilingData);
        op.Process();
    } else if constexpr (schMode == SCH_MODE_HALF) {
        KernelLessEqual<half> op;
        op.Init(x1, x2, y, tilingData);
        op.Process();
    }
}
