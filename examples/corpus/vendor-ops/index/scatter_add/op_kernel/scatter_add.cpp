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
 * \file scatter_add.cpp
 * \brief y = var; y[indices[i], :] += updates[i, :] for every i (duplicates accumulate).
 *
 * Phase 1: every core copies its share of var into y.
 * Phase 2 (after SyncAll): every core streams its share of updates into y with the GM atomic
 * add enabled, so concurrent writes to the same row from different cores are safe.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t COPY_CHUNK = 4096;   // floats per phase-1 copy
constexpr uint32_t INDEX_BATCH = 128;
}  // namespace

class KernelScatterAdd {
public:
    __aicore__ inline KernelScatterAdd() {}

    __aicore__ inline void Init(GM_ADDR var, GM_ADDR indices, GM_ADDR updates, GM_ADDR y,
                                const ScatterAddTilingData& tiling)
    {
        tiling_ = tiling;
        coreIdx_ = GetBlockIdx();
        coreNum_ = GetBlockNum();
        const uint64_t varElems = static_cast<uint64_t>(tiling_.varRows) * tiling_.rowLen;
        varGm_.SetGlobalBuffer((__gm__ float*)var, varElems);
        yGm_.SetGlobalBuffer((__gm__ float*)y, varElems);
        idxGm_.SetGlobalBuffer((__gm__ int32_t*)indices, tiling_.numIndices);
        updGm_.SetGlobalBuffer((__gm__ float*)updates, static_cast<uint64_t>(tiling_.numIndices) * tiling_.rowLen);

        const uint32_t rowBytes = (tiling_.rowLen * sizeof(float) + 31) / 32 * 32;
        const uint32_t moveBytes = rowBytes > COPY_CHUNK * sizeof(float) ? rowBytes : COPY_CHUNK * sizeof(float);
        pipe_.InitBuffer(moveQueue_, BUFFER_NUM, moveBytes);
        pipe_.InitBuffer(idxBuf_, INDEX_BATCH * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        CopyVarToOutput();
        SyncAll();
        ScatterUpdates();
    }

private:
    __aicore__ inline void CopyVarToOutput()
    {
        const uint64_t total = static_cast<uint64_t>(tiling_.varRows) * tiling_.rowLen;
        const uint64_t per = (total + coreNum_ - 1) / coreNum_;
        const uint64_t begin = per * coreIdx_;
        const uint64_t end = (begin + per < total) ? begin + per : total;
        for (uint64_t off = begin; off < end; off += COPY_CHUNK) {
            const uint32_t len = static_cast<uint32_t>((end - off < COPY_CHUNK) ? (end - off) : COPY_CHUNK);
            const DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            LocalTensor<float> buf = moveQueue_.AllocTensor<float>();
            DataCopyPad(buf, varGm_[off], params, {false, 0, 0, 0.0f});
            moveQueue_.EnQue(buf);
            buf = moveQueue_.DeQue<float>();
            DataCopyPad(yGm_[off], buf, params);
            moveQueue_.FreeTensor(buf);
        }
    }

    __aicore__ inline void ScatterUpdates()
    {
        const uint32_t per = (tiling_.numIndices + coreNum_ - 1) / coreNum_;
        const uint32_t begin = per * coreIdx_;
        const uint32_t end = (begin + per < tiling_.numIndices) ? begin + per : tiling_.numIndices;
        const DataCopyExtParams rowParams{1, static_cast<uint32_t>(tiling_.rowLen * sizeof(float)), 0, 0, 0};
        LocalTensor<int32_t> idxLocal = idxBuf_.Get<int32_t>();

        SetAtomicAdd<float>();
        for (uint32_t batch = begin; batch < end; batch += INDEX_BATCH) {
            const uint32_t n = (end - batch < INDEX_BATCH) ? (end - batch) : INDEX_BATCH;
            DataCopyPad(idxLocal, idxGm_[batch], {1, n * static_cast<uint32_t>(sizeof(int32_t)), 0, 0, 0},
                        {false, 0, 0, 0});
            event_t mte2ToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(mte2ToS);
            WaitFlag<HardEvent::MTE2_S>(mte2ToS);
            for (uint32_t i = 0; i < n; ++i) {
                const int32_t target = idxLocal.GetValue(i);
                if (target < 0 || static_cast<uint32_t>(target) >= tiling_.varRows) {
                    continue;  // out-of-range rows are skipped, as the reference does
                }
                LocalTensor<float> row = moveQueue_.AllocTensor<float>();
                DataCopyPad(row, updGm_[static_cast<uint64_t>(batch + i) * tiling_.rowLen], rowParams,
                            {false, 0, 0, 0.0f});
                moveQueue_.EnQue(row);
                row = moveQueue_.DeQue<float>();
                DataCopyPad(yGm_[static_cast<uint64_t>(target) * tiling_.rowLen], row, rowParams);
                moveQueue_.FreeTensor(row);
            }
            event_t sToMte2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
            SetFlag<HardEvent::S_MTE2>(sToMte2);
            WaitFlag<HardEvent::S_MTE2>(sToMte2);
        }
        SetAtomicNone();
    }

private:
    TPipe pipe_;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> moveQueue_;
    TBuf<TPosition::VECCALC> idxBuf_;
    GlobalTensor<float> varGm_;
    GlobalTensor<int32_t> idxGm_;
    GlobalTensor<float> updGm_;
    GlobalTensor<float> yGm_;
    ScatterAddTilingData tiling_;
    uint32_t coreIdx_ = 0;
    uint32_t coreNum_ = 1;
};

extern "C" __global__ __aicore__ void scatter_add(GM_ADDR var, GM_ADDR indices, GM_ADDR updates, GM_ADDR y,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    KernelScatterAdd op;
    op.Init(var, indices, updates, y, tilingData);
    op.Process();
}
