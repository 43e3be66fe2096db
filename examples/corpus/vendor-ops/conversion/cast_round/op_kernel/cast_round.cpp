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
 * \file cast_round.cpp
 * \brief Float-to-int32 conversion with a rounding mode chosen at compile time.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr int MODE_RINT = 0;
constexpr int MODE_FLOOR = 1;
constexpr int MODE_CEIL = 2;
constexpr int MODE_TRUNC = 3;

template <int MODE>
__aicore__ constexpr RoundMode ToRoundMode()
{
    if constexpr (MODE == MODE_FLOOR) {
        return RoundMode::CAST_FLOOR;
    } else if constexpr (MODE == MODE_CEIL) {
        return RoundMode::CAST_CEIL;
    } else if constexpr (MODE == MODE_TRUNC) {
        return RoundMode::CAST_TRUNC;
    } else {
        return RoundMode::CAST_RINT;
    }
}
}  // namespace

template <typename T, int MODE>
class KernelCastRound {
public:
    __aicore__ inline KernelCastRound() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength)
    {
        blockLength_ = blockLength;
        tileLength_ = tileLength;
        const uint64_t offset = static_cast<uint64_t>(GetBlockIdx()) * blockLength_;
        srcGm_.SetGlobalBuffer((__gm__ T*)x + offset, blockLength_);
        dstGm_.SetGlobalBuffer((__gm__ int32_t*)y + offset, blockLength_);
        pipe_.InitBuffer(srcQueue_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(dstQueue_, BUFFER_NUM, tileLength_ * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        // blockLength is a multiple of tileLength and tileLength covers whole 32-byte blocks
        // for both the source and the int32 destination (host guarantees it).
        const uint32_t tiles = blockLength_ / tileLength_;
        for (uint32_t t = 0; t < tiles; ++t) {
            LocalTensor<T> src = srcQueue_.AllocTensor<T>();
            DataCopy(src, srcGm_[t * tileLength_], tileLength_);
            srcQueue_.EnQue(src);

            src = srcQueue_.DeQue<T>();
            LocalTensor<int32_t> dst = dstQueue_.AllocTensor<int32_t>();
            Cast(dst, src, ToRoundMode<MODE>(), tileLength_);
            dstQueue_.EnQue(dst);
            srcQueue_.FreeTensor(src);

            dst = dstQueue_.DeQue<int32_t>();
            DataCopy(dstGm_[t * tileLength_], dst, tileLength_);
            dstQueue_.FreeTensor(dst);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> srcQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> dstQueue_;
    GlobalTensor<T> srcGm_;
    GlobalTensor<int32_t> dstGm_;
    uint32_t blockLength_ = 0;
    uint32_t tileLength_ = 0;
};

template <typename T, int MODE>
__global__ __aicore__ void cast_round(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCastRound<T, MODE> op;
    op.Init(x, y, tilingData.blockLength, tilingData.tileLength);
    op.Process();
}
