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
 * \file reduce_sum_last_dim.cpp
 * \brief y[r] = sum_c x[r, c] for a row-major [rows, cols] float tensor.
 *
 * Tiling key 1: short rows (cols <= 64, one 256-byte repeat) -> many rows per WholeReduceSum.
 * Tiling key 2: long rows -> column chunks are accumulated, then reduced once per row.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_BLOCK = 8;   // 32 bytes
constexpr uint32_t OUT_BATCH = 64;         // row results gathered before one store
}  // namespace

class KernelReduceSumLastDim {
public:
    __aicore__ inline KernelReduceSumLastDim() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceSumLastDimTilingData& tiling)
    {
        const uint32_t coreIdx = GetBlockIdx();
        cols_ = tiling.cols;
        colsAligned_ = (cols_ + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK;
        rowsPerTile_ = tiling.rowsPerTile;
        chunkCols_ = tiling.chunkCols;
        myRows_ = (coreIdx == tiling.usedCoreNum - 1) ? tiling.tailCoreRows : tiling.rowsPerCore;
        const uint64_t firstRow = static_cast<uint64_t>(coreIdx) * tiling.rowsPerCore;

        xGm_.SetGlobalBuffer((__gm__ float*)x + firstRow * cols_, static_cast<uint64_t>(myRows_) * cols_);
        yGm_.SetGlobalBuffer((__gm__ float*)y + firstRow, myRows_);
    }

    __aicore__ inline void ProcessShortRows()
    {
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, rowsPerTile_ * colsAligned_ * sizeof(float));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, (rowsPerTile_ + FLOATS_PER_BLOCK) * sizeof(float));
        for (uint32_t row = 0; row < myRows_; row += rowsPerTile_) {
            const uint32_t n = (myRows_ - row < rowsPerTile_) ? (myRows_ - row) : rowsPerTile_;
            LocalTensor<float> xLocal = inQueue_.AllocTensor<float>();
            // n rows of cols floats; every row lands 32-byte aligned in UB (colsAligned stride)
            DataCopyExtParams inParams{static_cast<uint16_t>(n), cols_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(xLocal, xGm_[static_cast<uint64_t>(row) * cols_], inParams, {true, 0, 0, 0.0f});
            inQueue_.EnQue(xLocal);

            xLocal = inQueue_.DeQue<float>();
            LocalTensor<float> yLocal = outQueue_.AllocTensor<float>();
            // one repeat per row: mask = cols valid lanes, src repeat stride in 32-byte blocks
            WholeReduceSum(yLocal, xLocal, static_cast<int32_t>(cols_), static_cast<int32_t>(n), 1, 1,
                           static_cast<int32_t>(colsAligned_ / FLOATS_PER_BLOCK));
            outQueue_.EnQue(yLocal);
            inQueue_.FreeTensor(xLocal);

            yLocal = outQueue_.DeQue<float>();
            DataCopyPad(yGm_[row], yLocal, {1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
            outQueue_.FreeTensor(yLocal);
        }
    }

    __aicore__ inline void ProcessLongRows()
    {
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, chunkCols_ * sizeof(float));
        pipe_.InitBuffer(outQueue_, 1, OUT_BATCH * sizeof(float));
        pipe_.InitBuffer(accBuf_, chunkCols_ * sizeof(float));
        pipe_.InitBuffer(workBuf_, chunkCols_ * sizeof(float));
        pipe_.InitBuffer(sumBuf_, FLOATS_PER_BLOCK * sizeof(float));
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> rowSum = sumBuf_.Get<float>();

        for (uint32_t batchStart = 0; batchStart < myRows_; batchStart += OUT_BATCH) {
            const uint32_t batchRows = (myRows_ - batchStart < OUT_BATCH) ? (myRows_ - batchStart) : OUT_BATCH;
            LocalTensor<float> yLocal = outQueue_.AllocTensor<float>();
            for (uint32_t r = 0; r < batchRows; ++r) {
                const uint64_t rowBase = static_cast<uint64_t>(batchStart + r) * cols_;
                Duplicate(acc, 0.0f, chunkCols_);
                for (uint32_t c = 0; c < cols_; c += chunkCols_) {
                    const uint32_t len = (cols_ - c < chunkCols_) ? (cols_ - c) : chunkCols_;
                    LocalTensor<float> chunk = inQueue_.AllocTensor<float>();
                    DataCopyPad(chunk, xGm_[rowBase + c], {1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                                {false, 0, 0, 0.0f});
                    inQueue_.EnQue(chunk);
                    chunk = inQueue_.DeQue<float>();
                    Add(acc, acc, chunk, len);
                    inQueue_.FreeTensor(chunk);
                }
                ReduceSum(rowSum, acc, work, static_cast<int32_t>(chunkCols_));
                // the sum is read by the scalar unit: wait for the vector pipe first
                event_t vToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
                SetFlag<HardEvent::V_S>(vToS);
                WaitFlag<HardEvent::V_S>(vToS);
                yLocal.SetValue(r, rowSum.GetValue(0));
            }
            event_t sToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
            SetFlag<HardEvent::S_MTE3>(sToMte3);
            WaitFlag<HardEvent::S_MTE3>(sToMte3);
            outQueue_.EnQue(yLocal);
            yLocal = outQueue_.DeQue<float>();
            DataCopyPad(yGm_[batchStart], yLocal, {1, batchRows * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
            outQueue_.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
    TBuf<TPosition::VECCALC> accBuf_;
    TBuf<TPosition::VECCALC> workBuf_;
    TBuf<TPosition::VECCALC> sumBuf_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    uint32_t cols_ = 0;
    uint32_t colsAligned_ = 0;
    uint32_t rowsPerTile_ = 0;
    uint32_t chunkCols_ = 0;
    uint32_t myRows_ = 0;
};

extern "C" __global__ __aicore__ void reduce_sum_last_dim(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelReduceSumLastDim op;
    op.Init(x, y, tilingData);
    if (TILING_KEY_IS(1)) {
        op.ProcessShortRows();
    } else if (TILING_KEY_IS(2)) {
        op.ProcessLongRows();
    }
}
