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
 * \file top_k_last_dim.cpp
 * \brief values, indices = topk(x, k, dim=-1) for rows of at most maxCols floats.
 *
 * A full-row sort is cheap when a row fits in UB: the row is padded to a multiple of 32
 * (the Sort repeat size) with -inf, sorted in descending order together with its element
 * indices, split back into values and indices with Extract, and the first k are stored.
 * Tiling key 1: largest = true. Tiling key 2: largest = false (the row is negated around the sort).
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SORT_REPEAT = 32;        // elements per Sort / Extract repeat
constexpr uint32_t FP32_PER_BLOCK = 8;
constexpr float NEG_INF = -3.402823466e+38f;
constexpr float POS_INF = 3.402823466e+38f;
}  // namespace

template <bool LARGEST>
class KernelTopKLastDim {
public:
    __aicore__ inline KernelTopKLastDim() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, const TopKLastDimTilingData& tiling)
    {
        cols_ = tiling.cols;
        k_ = tiling.k;
        colsBlock_ = (cols_ + FP32_PER_BLOCK - 1) / FP32_PER_BLOCK * FP32_PER_BLOCK;
        colsSort_ = (cols_ + SORT_REPEAT - 1) / SORT_REPEAT * SORT_REPEAT;
        const uint32_t coreIdx = GetBlockIdx();
        const uint64_t firstRow = static_cast<uint64_t>(coreIdx) * tiling.rowsPerCore;
        myRows_ = (coreIdx == tiling.usedCoreNum - 1) ? tiling.tailCoreRows : tiling.rowsPerCore;

        xGm_.SetGlobalBuffer((__gm__ float*)x + firstRow * cols_, static_cast<uint64_t>(myRows_) * cols_);
        valGm_.SetGlobalBuffer((__gm__ float*)values + firstRow * k_, static_cast<uint64_t>(myRows_) * k_);
        idxGm_.SetGlobalBuffer((__gm__ int32_t*)indices + firstRow * k_, static_cast<uint64_t>(myRows_) * k_);

        pipe_.InitBuffer(inQueue_, BUFFER_NUM, colsSort_ * sizeof(float));
        pipe_.InitBuffer(valOutQueue_, BUFFER_NUM, colsSort_ * sizeof(float));
        pipe_.InitBuffer(idxOutQueue_, BUFFER_NUM, colsSort_ * sizeof(uint32_t));
        // sorted (value, index) pairs take 8 bytes per element; the tmp buffer is the same size
        pipe_.InitBuffer(sortedBuf_, colsSort_ * 2 * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, colsSort_ * 2 * sizeof(float));
        pipe_.InitBuffer(posBuf_, colsSort_ * sizeof(int32_t));

        LocalTensor<int32_t> pos = posBuf_.Get<int32_t>();
        CreateVecIndex(pos, 0, colsSort_);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows_; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<float> row = inQueue_.AllocTensor<float>();
        // the pad value is negated with the row when LARGEST is false, so pick its sign here
        const float padValue = LARGEST ? NEG_INF : POS_INF;
        DataCopyExtParams params{1, cols_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(colsBlock_ - cols_), padValue};
        DataCopyPad(row, xGm_[static_cast<uint64_t>(r) * cols_], params, pad);
        inQueue_.EnQue(row);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> row = inQueue_.DeQue<float>();
        if constexpr (!LARGEST) {
            Muls(row, row, -1.0f, colsBlock_);
        }
        if (colsSort_ > colsBlock_) {
            Duplicate(row[colsBlock_], NEG_INF, colsSort_ - colsBlock_);
        }

        LocalTensor<float> sorted = sortedBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        LocalTensor<uint32_t> pos = posBuf_.Get<int32_t>().ReinterpretCast<uint32_t>();
        const int32_t repeats = static_cast<int32_t>(colsSort_ / SORT_REPEAT);
        Sort<float, true>(sorted, row, pos, tmp, repeats);
        inQueue_.FreeTensor(row);

        LocalTensor<float> vals = valOutQueue_.AllocTensor<float>();
        LocalTensor<uint32_t> idx = idxOutQueue_.AllocTensor<uint32_t>();
        Extract(vals, idx, sorted, repeats);
        if constexpr (!LARGEST) {
            Muls(vals, vals, -1.0f, (k_ + FP32_PER_BLOCK - 1) / FP32_PER_BLOCK * FP32_PER_BLOCK);
        }
        valOutQueue_.EnQue(vals);
        idxOutQueue_.EnQue(idx);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<float> vals = valOutQueue_.DeQue<float>();
        LocalTensor<uint32_t> idx = idxOutQueue_.DeQue<uint32_t>();
        const DataCopyExtParams valParams{1, k_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        const DataCopyExtParams idxParams{1, k_ * static_cast<uint32_t>(sizeof(int32_t)), 0, 0, 0};
        DataCopyPad(valGm_[static_cast<uint64_t>(r) * k_], vals, valParams);
        DataCopyPad(idxGm_[static_cast<uint64_t>(r) * k_], idx.ReinterpretCast<int32_t>(), idxParams);
        valOutQueue_.FreeTensor(vals);
        idxOutQueue_.FreeTensor(idx);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> valOutQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> idxOutQueue_;
    TBuf<TPosition::VECCALC> sortedBuf_;
    TBuf<TPosition::VECCALC> tmpBuf_;
    TBuf<TPosition::VECCALC> posBuf_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> valGm_;
    GlobalTensor<int32_t> idxGm_;
    uint32_t cols_ = 0;
    uint32_t colsBlock_ = 0;
    uint32_t colsSort_ = 0;
    uint32_t k_ = 0;
    uint32_t myRows_ = 0;
};

extern "C" __global__ __aicore__ void top_k_last_dim(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() >= tilingData.usedCoreNum) {
        return;
    }
    if (TILING_KEY_IS(1)) {
        KernelTopKLastDim<true> op;
        op.Init(x, values, indices, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelTopKLastDim<false> op;
        op.Init(x, values, indices, tilingData);
        op.Process();
    }
}
