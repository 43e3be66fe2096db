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
 * \file row_sum.cpp
 * \brief dst[i] = sum_j src[i, j] over the last axis of a [height, width] float tensor.
 *
 * Tiling key 1: narrow lines (width <= 64, one 256-byte repeat) -> many lines per WholeReduceSum.
 * Tiling key 2: wide lines -> segments are accumulated, then reduced once per line.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t QUE_DEPTH = 2;
constexpr uint32_t F32_BLK = 8;   // 32 bytes
constexpr uint32_t RES_GROUP = 64;         // line results gathered before one store
}  // namespace

class RowSumOp {
public:
    __aicore__ inline RowSumOp() {}

    __aicore__ inline void Setup(GM_ADDR src, GM_ADDR dst, const RowSumTilingData& tilingBuf)
    {
        const uint32_t blkId = GetBlockIdx();
        width = tilingBuf.width;
        widthPad = (width + F32_BLK - 1) / F32_BLK * F32_BLK;
        batchRows = tilingBuf.batchLines;
        segLen = tilingBuf.segWidth;
        lineCnt = (blkId == tilingBuf.coreCount - 1) ? tilingBuf.linesLastCore : tilingBuf.linesPerCore;
        const uint64_t lineStart = static_cast<uint64_t>(blkId) * tilingBuf.linesPerCore;

        srcGlobal.SetGlobalBuffer((__gm__ float*)src + lineStart * width, static_cast<uint64_t>(lineCnt) * width);
        dstGlobal.SetGlobalBuffer((__gm__ float*)dst + lineStart, lineCnt);
    }

    __aicore__ inline void RunNarrow()
    {
        tpipe.InitBuffer(qIn, QUE_DEPTH, batchRows * widthPad * sizeof(float));
        tpipe.InitBuffer(qOut, QUE_DEPTH, (batchRows + F32_BLK) * sizeof(float));
        for (uint32_t line = 0; line < lineCnt; line += batchRows) {
            const uint32_t cnt = (lineCnt - line < batchRows) ? (lineCnt - line) : batchRows;
            LocalTensor<float> srcUb = qIn.AllocTensor<float>();
            // cnt height of width floats; every line lands 32-byte aligned in UB (widthPad stride)
            DataCopyExtParams loadCfg{static_cast<uint16_t>(cnt), width * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(srcUb, srcGlobal[static_cast<uint64_t>(line) * width], loadCfg, {true, 0, 0, 0.0f});
            qIn.EnQue(srcUb);

            srcUb = qIn.DeQue<float>();
            LocalTensor<float> dstUb = qOut.AllocTensor<float>();
            // one repeat per line: mask = width valid lanes, src repeat stride in 32-byte blocks
            WholeReduceSum(dstUb, srcUb, static_cast<int32_t>(width), static_cast<int32_t>(cnt), 1, 1,
                           static_cast<int32_t>(widthPad / F32_BLK));
            qOut.EnQue(dstUb);
            qIn.FreeTensor(srcUb);

            dstUb = qOut.DeQue<float>();
            DataCopyPad(dstGlobal[line], dstUb, {1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
            qOut.FreeTensor(dstUb);
        }
    }

    __aicore__ inline void RunWide()
    {
        tpipe.InitBuffer(qIn, QUE_DEPTH, segLen * sizeof(float));
        tpipe.InitBuffer(qOut, 1, RES_GROUP * sizeof(float));
        tpipe.InitBuffer(partialBuf, segLen * sizeof(float));
        tpipe.InitBuffer(scratchBuf, segLen * sizeof(float));
        tpipe.InitBuffer(totalBuf, F32_BLK * sizeof(float));
        LocalTensor<float> partial = partialBuf.Get<float>();
        LocalTensor<float> scratch = scratchBuf.Get<float>();
        LocalTensor<float> lineTotal = totalBuf.Get<float>();

        for (uint32_t grp = 0; grp < lineCnt; grp += RES_GROUP) {
            const uint32_t grpLines = (lineCnt - grp < RES_GROUP) ? (lineCnt - grp) : RES_GROUP;
            LocalTensor<float> dstUb = qOut.AllocTensor<float>();
            for (uint32_t li = 0; li < grpLines; ++li) {
                const uint64_t lineOff = static_cast<uint64_t>(grp + li) * width;
                Duplicate(partial, 0.0f, segLen);
                for (uint32_t ci = 0; ci < width; ci += segLen) {
                    const uint32_t segCnt = (width - ci < segLen) ? (width - ci) : segLen;
                    LocalTensor<float> seg = qIn.AllocTensor<float>();
                    DataCopyPad(seg, srcGlobal[lineOff + ci], {1, segCnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                                {false, 0, 0, 0.0f});
                    qIn.EnQue(seg);
                    seg = qIn.DeQue<float>();
                    Add(partial, partial, seg, segCnt);
                    qIn.FreeTensor(seg);
                }
                ReduceSum(lineTotal, partial, scratch, static_cast<int32_t>(segLen));
                // the sum is read by the scalar unit: wait for the vector pipe first
                event_t evVecScalar = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
                SetFlag<HardEvent::V_S>(evVecScalar);
                WaitFlag<HardEvent::V_S>(evVecScalar);
                dstUb.SetValue(li, lineTotal.GetValue(0));
            }
            event_t evScalarOut = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
            SetFlag<HardEvent::S_MTE3>(evScalarOut);
            WaitFlag<HardEvent::S_MTE3>(evScalarOut);
            qOut.EnQue(dstUb);
            dstUb = qOut.DeQue<float>();
            DataCopyPad(dstGlobal[grp], dstUb, {1, grpLines * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
            qOut.FreeTensor(dstUb);
        }
    }

private:
    TPipe tpipe;
    TQue<QuePosition::VECIN, QUE_DEPTH> qIn;
    TQue<QuePosition::VECOUT, QUE_DEPTH> qOut;
    TBuf<TPosition::VECCALC> partialBuf;
    TBuf<TPosition::VECCALC> scratchBuf;
    TBuf<TPosition::VECCALC> totalBuf;
    GlobalTensor<float> srcGlobal;
    GlobalTensor<float> dstGlobal;
    uint32_t width = 0;
    uint32_t widthPad = 0;
    uint32_t batchRows = 0;
    uint32_t segLen = 0;
    uint32_t lineCnt = 0;
};

extern "C" __global__ __aicore__ void row_sum(GM_ADDR src, GM_ADDR dst, GM_ADDR workspace, GM_ADDR tilingBuf)
{
    GET_TILING_DATA(td, tilingBuf);
    RowSumOp kernel;
    kernel.Setup(src, dst, td);
    if (TILING_KEY_IS(1)) {
        kernel.RunNarrow();
    } else if (TILING_KEY_IS(2)) {
        kernel.RunWide();
    }
}
