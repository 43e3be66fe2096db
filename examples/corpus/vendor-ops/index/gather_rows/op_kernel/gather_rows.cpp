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
 * \file gather_rows.cpp
 * \brief y[i, :] = x[indices[i], :] (gather along axis 0, e.g. an embedding lookup).
 *
 * Rows are moved GM -> UB -> GM without touching the vector unit, so one bound queue
 * (VECIN and VECOUT sharing the same buffers) is enough. Indices are read by the scalar unit.
 * An index outside [0, numRows) yields a zero row instead of reading out of bounds.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t INDEX_CHUNK = 256;  // indices staged in UB per batch
}  // namespace

template <typename T>
class KernelGatherRows {
public:
    __aicore__ inline KernelGatherRows() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR y, const GatherRowsTilingData& tiling)
    {
        numRows_ = tiling.numRows;
        rowLen_ = tiling.rowLen;
        const uint32_t coreIdx = GetBlockIdx();
        firstIndex_ = static_cast<uint64_t>(coreIdx) * tiling.indicesPerCore;
        myIndices_ = (coreIdx == tiling.usedCoreNum - 1) ? tiling.lastCoreIndices : tiling.indicesPerCore;

        xGm_.SetGlobalBuffer((__gm__ T*)x, static_cast<uint64_t>(numRows_) * rowLen_);
        idxGm_.SetGlobalBuffer((__gm__ int32_t*)indices + firstIndex_, myIndices_);
        yGm_.SetGlobalBuffer((__gm__ T*)y + firstIndex_ * rowLen_, static_cast<uint64_t>(myIndices_) * rowLen_);

        const uint32_t rowBytes = (rowLen_ * sizeof(T) + 31) / 32 * 32;
        pipe_.InitBuffer(rowQueue_, BUFFER_NUM, rowBytes);
        pipe_.InitBuffer(idxBuf_, INDEX_CHUNK * sizeof(int32_t));
        pipe_.InitBuffer(zeroBuf_, rowBytes);

        LocalTensor<T> zeros = zeroBuf_.Get<T>();
        Duplicate(zeros, static_cast<T>(0), static_cast<int32_t>(rowBytes / sizeof(T)));
        // the zero row is only ever read by MTE3; make sure the vector write is done
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Process()
    {
        LocalTensor<int32_t> idxLocal = idxBuf_.Get<int32_t>();
        const DataCopyExtParams rowParams{1, static_cast<uint32_t>(rowLen_ * sizeof(T)), 0, 0, 0};
        for (uint32_t base = 0; base < myIndices_; base += INDEX_CHUNK) {
            const uint32_t count = (myIndices_ - base < INDEX_CHUNK) ? (myIndices_ - base) : INDEX_CHUNK;
            DataCopyPad(idxLocal, idxGm_[base], {1, count * static_cast<uint32_t>(sizeof(int32_t)), 0, 0, 0},
                        {false, 0, 0, 0});
            event_t mte2ToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(mte2ToS);
            WaitFlag<HardEvent::MTE2_S>(mte2ToS);

            for (uint32_t i = 0; i < count; ++i) {
                const int32_t src = idxLocal.GetValue(i);
                const uint64_t dstRow = static_cast<uint64_t>(base + i) * rowLen_;
                if (src < 0 || static_cast<uint32_t>(src) >= numRows_) {
                    DataCopyPad(yGm_[dstRow], zeroBuf_.Get<T>(), rowParams);
                    continue;
                }
                LocalTensor<T> row = rowQueue_.AllocTensor<T>();
                DataCopyPad(row, xGm_[static_cast<uint64_t>(src) * rowLen_], rowParams, {false, 0, 0, 0});
                rowQueue_.EnQue(row);
                row = rowQueue_.DeQue<T>();
                DataCopyPad(yGm_[dstRow], row, rowParams);
                rowQueue_.FreeTensor(row);
            }
            // the next batch overwrites idxLocal: scalar reads of this batch must be finished
            event_t sToMte2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
            SetFlag<HardEvent::S_MTE2>(sToMte2);
            WaitFlag<HardEvent::S_MTE2>(sToMte2);
        }
    }

private:
    TPipe pipe_;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> rowQueue_;
    TBuf<TPosition::VECCALC> idxBuf_;
    TBuf<TPosition::VECCALC> zeroBuf_;
    GlobalTensor<T> xGm_;
    GlobalTensor<int32_t> idxGm_;
    GlobalTensor<T> yGm_;
    uint32_t numRows_ = 0;
    uint32_t rowLen_ = 0;
    uint64_t firstIndex_ = 0;
    uint32_t myIndices_ = 0;
};

extern "C" __global__ __aicore__ void gather_rows(GM_ADDR x, GM_ADDR indices, GM_ADDR y, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() >= tilingData.usedCoreNum) {
        return;
    }
    KernelGatherRows<DTYPE_X> op;
    op.Init(x, indices, y, tilingData);
    op.Process();
}
