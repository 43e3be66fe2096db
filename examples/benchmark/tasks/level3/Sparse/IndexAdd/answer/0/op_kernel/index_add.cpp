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
 * \file index_add.cpp
 * \brief out = self; out[index[j], :] += source[j, :] for every j (duplicates accumulate).
 *
 * Phase 1: every core copies its share of self into out.
 * Phase 2 (after SyncAll): every core streams its share of source into out with the GM atomic
 * add enabled, so concurrent writes to the same line from different cores are safe.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
constexpr uint32_t MOVE_ELEMS = 4096;   // floats per phase-1 copy
constexpr uint32_t POS_GROUP = 128;
}  // namespace

class IndexAddOp {
public:
    __aicore__ inline IndexAddOp() {}

    __aicore__ inline void Bind(GM_ADDR self, GM_ADDR index, GM_ADDR source, GM_ADDR out,
                                const IndexAddTilingData& tilingArg)
    {
        cfg_ = tilingArg;
        myId = GetBlockIdx();
        peers = GetBlockNum();
        const uint64_t selfCount = static_cast<uint64_t>(cfg_.selfRows) * cfg_.lineLen;
        selfGlobal.SetGlobalBuffer((__gm__ float*)self, selfCount);
        outGlobal.SetGlobalBuffer((__gm__ float*)out, selfCount);
        posGlobal.SetGlobalBuffer((__gm__ int32_t*)index, cfg_.indexCount);
        srcGlobal.SetGlobalBuffer((__gm__ float*)source, static_cast<uint64_t>(cfg_.indexCount) * cfg_.lineLen);

        const uint32_t lineBytes = (cfg_.lineLen * sizeof(float) + 31) / 32 * 32;
        const uint32_t stageBytes = lineBytes > MOVE_ELEMS * sizeof(float) ? lineBytes : MOVE_ELEMS * sizeof(float);
        tp.InitBuffer(stageQue, DEPTH, stageBytes);
        tp.InitBuffer(posBuf, POS_GROUP * sizeof(int32_t));
    }

    __aicore__ inline void Run()
    {
        CloneSelf();
        SyncAll();
        AccumulateSources();
    }

private:
    __aicore__ inline void CloneSelf()
    {
        const uint64_t count = static_cast<uint64_t>(cfg_.selfRows) * cfg_.lineLen;
        const uint64_t share = (count + peers - 1) / peers;
        const uint64_t lo = share * myId;
        const uint64_t hi = (lo + share < count) ? lo + share : count;
        for (uint64_t pos0 = lo; pos0 < hi; pos0 += MOVE_ELEMS) {
            const uint32_t cnt = static_cast<uint32_t>((hi - pos0 < MOVE_ELEMS) ? (hi - pos0) : MOVE_ELEMS);
            const DataCopyExtParams cfgCopy{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            LocalTensor<float> stage = stageQue.AllocTensor<float>();
            DataCopyPad(stage, selfGlobal[pos0], cfgCopy, {false, 0, 0, 0.0f});
            stageQue.EnQue(stage);
            stage = stageQue.DeQue<float>();
            DataCopyPad(outGlobal[pos0], stage, cfgCopy);
            stageQue.FreeTensor(stage);
        }
    }

    __aicore__ inline void AccumulateSources()
    {
        const uint32_t share = (cfg_.indexCount + peers - 1) / peers;
        const uint32_t lo = share * myId;
        const uint32_t hi = (lo + share < cfg_.indexCount) ? lo + share : cfg_.indexCount;
        const DataCopyExtParams lineCfg{1, static_cast<uint32_t>(cfg_.lineLen * sizeof(float)), 0, 0, 0};
        LocalTensor<int32_t> posUb = posBuf.Get<int32_t>();

        SetAtomicAdd<float>();
        for (uint32_t grp = lo; grp < hi; grp += POS_GROUP) {
            const uint32_t m = (hi - grp < POS_GROUP) ? (hi - grp) : POS_GROUP;
            DataCopyPad(posUb, posGlobal[grp], {1, m * static_cast<uint32_t>(sizeof(int32_t)), 0, 0, 0},
                        {false, 0, 0, 0});
            event_t evLoadScalar = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(evLoadScalar);
            WaitFlag<HardEvent::MTE2_S>(evLoadScalar);
            for (uint32_t j = 0; j < m; ++j) {
                const int32_t dstLine = posUb.GetValue(j);
                if (dstLine < 0 || static_cast<uint32_t>(dstLine) >= cfg_.selfRows) {
                    continue;  // out-of-range rows are skipped, as the reference does
                }
                LocalTensor<float> line = stageQue.AllocTensor<float>();
                DataCopyPad(line, srcGlobal[static_cast<uint64_t>(grp + j) * cfg_.lineLen], lineCfg,
                            {false, 0, 0, 0.0f});
                stageQue.EnQue(line);
                line = stageQue.DeQue<float>();
                DataCopyPad(outGlobal[static_cast<uint64_t>(dstLine) * cfg_.lineLen], line, lineCfg);
                stageQue.FreeTensor(line);
            }
            event_t evScalarLoad = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
            SetFlag<HardEvent::S_MTE2>(evScalarLoad);
            WaitFlag<HardEvent::S_MTE2>(evScalarLoad);
        }
        SetAtomicNone();
    }

private:
    TPipe tp;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, DEPTH> stageQue;
    TBuf<TPosition::VECCALC> posBuf;
    GlobalTensor<float> selfGlobal;
    GlobalTensor<int32_t> posGlobal;
    GlobalTensor<float> srcGlobal;
    GlobalTensor<float> outGlobal;
    IndexAddTilingData cfg_;
    uint32_t myId = 0;
    uint32_t peers = 1;
};

extern "C" __global__ __aicore__ void index_add(GM_ADDR self, GM_ADDR index, GM_ADDR source, GM_ADDR out,
                                                  GM_ADDR workspace, GM_ADDR tilingArg)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(cfg, tilingArg);
    IndexAddOp runner;
    runner.Bind(self, index, source, out, cfg);
    runner.Run();
}
