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
 * \file add_custom.cpp
 * \brief z = x + y, element-wise, one flat slice per AI core.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
// Two buffers per queue: MTE2 loads tile i+1 while the vector unit adds tile i.
constexpr int32_t BUFFER_NUM = 2;
}  // namespace

class KernelAddCustom {
public:
    __aicore__ inline KernelAddCustom() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        // The host picks totalLength and tileNum so that every tile is a multiple of
        // 32 bytes: DataCopy moves whole 32-byte blocks only.
        blockLength_ = totalLength / GetBlockNum();
        tileNum_ = tileNum;
        tileLength_ = blockLength_ / tileNum_ / BUFFER_NUM;

        const uint32_t coreOffset = blockLength_ * GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ DTYPE_X*)x + coreOffset, blockLength_);
        yGm_.SetGlobalBuffer((__gm__ DTYPE_Y*)y + coreOffset, blockLength_);
        zGm_.SetGlobalBuffer((__gm__ DTYPE_Z*)z + coreOffset, blockLength_);

        pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(DTYPE_X));
        pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(DTYPE_Y));
        pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(DTYPE_Z));
    }

    __aicore__ inline void Process()
    {
        const int32_t loopCount = static_cast<int32_t>(tileNum_ * BUFFER_NUM);
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<DTYPE_X> xLocal = inQueueX_.AllocTensor<DTYPE_X>();
        LocalTensor<DTYPE_Y> yLocal = inQueueY_.AllocTensor<DTYPE_Y>();
        DataCopy(xLocal, xGm_[progress * tileLength_], tileLength_);
        DataCopy(yLocal, yGm_[progress * tileLength_], tileLength_);
        inQueueX_.EnQue(xLocal);
        inQueueY_.EnQue(yLocal);
    }

    __aicore__ inline void Compute(int32_t progress)
    {
        LocalTensor<DTYPE_X> xLocal = inQueueX_.DeQue<DTYPE_X>();
        LocalTensor<DTYPE_Y> yLocal = inQueueY_.DeQue<DTYPE_Y>();
        LocalTensor<DTYPE_Z> zLocal = outQueueZ_.AllocTensor<DTYPE_Z>();
        Add(zLocal, xLocal, yLocal, tileLength_);
        outQueueZ_.EnQue<DTYPE_Z>(zLocal);
        inQueueX_.FreeTensor(xLocal);
        inQueueY_.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<DTYPE_Z> zLocal = outQueueZ_.DeQue<DTYPE_Z>();
        DataCopy(zGm_[progress * tileLength_], zLocal, tileLength_);
        outQueueZ_.FreeTensor(zLocal);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueY_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ_;
    GlobalTensor<DTYPE_X> xGm_;
    GlobalTensor<DTYPE_Y> yGm_;
    GlobalTensor<DTYPE_Z> zGm_;
    uint32_t blockLength_ = 0;
    uint32_t tileNum_ = 0;
    uint32_t tileLength_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddCustom op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
