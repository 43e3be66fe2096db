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
 * \file concat_last_dim.cpp
 * \brief y = concat([x_0, ..., x_{n-1}], dim=-1) for up to 8 row-major inputs with equal row counts.
 *
 * Pure data movement: a block of rows of one input is read with one strided DataCopyPad
 * (every row starts on a 32-byte boundary in UB) and written back with a GM-side gap equal to
 * the columns of the other inputs, so each row lands at its column offset inside y.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_INPUTS = 8;
constexpr uint32_t UB_BLOCK = 32;
}  // namespace

template <typename T>
class KernelConcatLastDim {
public:
    __aicore__ inline KernelConcatLastDim() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ConcatLastDimTilingData* tiling)
    {
        tiling_ = tiling;
        const uint32_t coreIdx = GetBlockIdx();
        firstRow_ = static_cast<uint64_t>(coreIdx) * tiling_->rowsPerCore;
        myRows_ = (coreIdx == tiling_->usedCoreNum - 1) ? tiling_->tailCoreRows : tiling_->rowsPerCore;

        ListTensorDesc inputs((__gm__ void*)x);
        inputNum_ = tiling_->inputNum < MAX_INPUTS ? tiling_->inputNum : MAX_INPUTS;
        for (uint32_t i = 0; i < inputNum_; ++i) {
            __gm__ T* base = inputs.GetDataPtr<T>(i);
            inGm_[i].SetGlobalBuffer(base, static_cast<uint64_t>(tiling_->rows) * tiling_->inputCols[i]);
        }
        yGm_.SetGlobalBuffer((__gm__ T*)y, static_cast<uint64_t>(tiling_->rows) * tiling_->totalCols);
        pipe_.InitBuffer(moveQueue_, BUFFER_NUM, tiling_->bufferBytes);
    }

    __aicore__ inline void Process()
    {
        uint32_t colOffset = 0;
        for (uint32_t i = 0; i < inputNum_; ++i) {
            const uint32_t cols = tiling_->inputCols[i];
            const uint32_t rowBytes = cols * sizeof(T);
            const uint32_t rowBytesUb = (rowBytes + UB_BLOCK - 1) / UB_BLOCK * UB_BLOCK;
            uint32_t rowsPerChunk = tiling_->bufferBytes / rowBytesUb;
            rowsPerChunk = rowsPerChunk > 4095 ? 4095 : rowsPerChunk;  // blockCount is 12 bits wide
            for (uint32_t r = 0; r < myRows_; r += rowsPerChunk) {
                const uint32_t rows = (myRows_ - r < rowsPerChunk) ? (myRows_ - r) : rowsPerChunk;
                MoveBlock(i, firstRow_ + r, rows, rowBytes, colOffset);
            }
            colOffset += cols;
        }
    }

private:
    __aicore__ inline void MoveBlock(uint32_t input, uint64_t row, uint32_t rows, uint32_t rowBytes,
                                     uint32_t colOffset)
    {
        LocalTensor<T> buf = moveQueue_.AllocTensor<T>();
        DataCopyExtParams inParams{static_cast<uint16_t>(rows), rowBytes, 0, 0, 0};
        DataCopyPad(buf, inGm_[input][row * tiling_->inputCols[input]], inParams, {false, 0, 0, 0});
        moveQueue_.EnQue(buf);
        buf = moveQueue_.DeQue<T>();
        // GM gap between rows of this input inside y, in bytes
        const uint32_t gapBytes = (tiling_->totalCols - tiling_->inputCols[input]) * sizeof(T);
        DataCopyExtParams outParams{static_cast<uint16_t>(rows), rowBytes, 0, gapBytes, 0};
        DataCopyPad(yGm_[row * tiling_->totalCols + colOffset], buf, outParams);
        moveQueue_.FreeTensor(buf);
    }

private:
    TPipe pipe_;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> moveQueue_;
    GlobalTensor<T> inGm_[MAX_INPUTS];
    GlobalTensor<T> yGm_;
    const ConcatLastDimTilingData* tiling_ = nullptr;
    uint64_t firstRow_ = 0;
    uint32_t myRows_ = 0;
    uint32_t inputNum_ = 0;
};

extern "C" __global__ __aicore__ void concat_last_dim(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() >= tilingData.usedCoreNum) {
        return;
    }
    KernelConcatLastDim<DTYPE_Y> op;
    op.Init(x, y, &tilingData);
    op.Process();
}
