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
 * \file add_v2_copy.cpp
 * \brief legacy copy of add_v2 kept for the old op name.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;
}  // namespace

template <typename T, bool NEED_CAST>
class KernelAddV2Copy {
public:
    __aicore__ inline KernelAddV2Copy() {}

    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const AddV2CopyTilingData* tiling)
    {
        // The first formerNum cores take one extra tile-aligned chunk; the rest take tailLength.
        const uint32_t coreIdx = GetBlockIdx();
        uint64_t offset = 0;
        if (coreIdx < tiling->formerNum) {
            coreLength_ = tiling->formerLength;
            offset = static_cast<uint64_t>(coreIdx) * tiling->formerLength;
        } else {
            coreLength_ = tiling->tailLength;
            offset = static_cast<uint64_t>(tiling->formerNum) * tiling->formerLength +
                     static_cast<uint64_t>(coreIdx - tiling->formerNum) * tiling->tailLength;
        }
        tileLength_ = tiling->tileLength;
        alpha_ = tiling->alpha;

        x1Gm_.SetGlobalBuffer((__gm__ T*)x1 + offset, coreLength_);
        x2Gm_.SetGlobalBuffer((__gm__ T*)x2 + offset, coreLength_);
        yGm_.SetGlobalBuffer((__gm__ T*)y + offset, coreLength_);

        pipe_.InitBuffer(inQueueX1_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(inQueueX2_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(outQueueY_, BUFFER_NUM, tileLength_ * sizeof(T));
        if constexpr (NEED_CAST) {
            // half inputs are widened to float so that alpha * x2 does not lose precision
            pipe_.InitBuffer(castBuf0_, tileLength_ * sizeof(float));
            pipe_.InitBuffer(castBuf1_, tileLength_ * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        const uint32_t fullTiles = coreLength_ / tileLength_;
        const uint32_t lastLength = coreLength_ % tileLength_;
        for (uint32_t i = 0; i < fullTiles; i++) {
            CopyIn(i * tileLength_, tileLength_);
            Compute(tileLength_);
            CopyOut(i * tileLength_, tileLength_);
        }
        if (lastLength > 0) {
            CopyIn(fullTiles * tileLength_, lastLength);
            Compute(lastLength);
            CopyOut(fullTiles * tileLength_, lastLength);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        LocalTensor<T> x1Local = inQueueX1_.AllocTensor<T>();
        LocalTensor<T> x2Local = inQueueX2_.AllocTensor<T>();
        // DataCopyPad accepts any byte length and pads the last 32-byte block in UB.
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        DataCopyPad(x1Local, x1Gm_[offset], copyParams, padParams);
        DataCopyPad(x2Local, x2Gm_[offset], copyParams, padParams);
        inQueueX1_.EnQue(x1Local);
        inQueueX2_.EnQue(x2Local);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> x1Local = inQueueX1_.DeQue<T>();
        LocalTensor<T> x2Local = inQueueX2_.DeQue<T>();
        LocalTensor<T> yLocal = outQueueY_.AllocTensor<T>();
        // vector instructions work on whole blocks: round the element count up
        const uint32_t alignedCount = (count * sizeof(T) + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES / sizeof(T);
        if constexpr (NEED_CAST) {
            LocalTensor<float> a = castBuf0_.Get<float>();
            LocalTensor<float> b = castBuf1_.Get<float>();
            Cast(a, x1Local, RoundMode::CAST_NONE, alignedCount);
            Cast(b, x2Local, RoundMode::CAST_NONE, alignedCount);
            Muls(b, b, alpha_, alignedCount);
            Add(a, a, b, alignedCount);
            Cast(yLocal, a, RoundMode::CAST_RINT, alignedCount);
        } else {
            Muls(x2Local, x2Local, static_cast<T>(alpha_), alignedCount);
            Add(yLocal, x1Local, x2Local, alignedCount);
        }
        outQueueY_.EnQue<T>(yLocal);
        inQueueX1_.FreeTensor(x1Local);
        inQueueX2_.FreeTensor(x2Local);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        LocalTensor<T> yLocal = outQueueY_.DeQue<T>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[offset], yLocal, copyParams);
        outQueueY_.FreeTensor(yLocal);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX1_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX2_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY_;
    TBuf<TPosition::VECCALC> castBuf0_;
    TBuf<TPosition::VECCALC> castBuf1_;
    GlobalTensor<T> x1Gm_;
    GlobalTensor<T> x2Gm_;
    GlobalTensor<T> yGm_;
    uint32_t coreLength_ = 0;
    uint32_t tileLength_ = 0;
    float alpha_ = 1.0f;
};

extern "C" __global__ __aicore__ void add_v2_copy(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        KernelAddV2Copy<float, false> op;
        op.Init(x1, x2, y, &tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelAddV2Copy<half, true> op;
        op.Init(x1, x2, y, &tilingData);
        op.Process();
    }
}
