/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

// Second reference answer for AddCustom: one buffer per queue and byte-exact tails, so any
// length is accepted (the first answer needs lengths that split evenly into 32-byte tiles).
#include "kernel_operator.h"

using namespace AscendC;

class AddAnyLength {
public:
    __aicore__ inline AddAnyLength() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        const uint32_t cores = GetBlockNum();
        const uint32_t each = (totalLength + cores - 1) / cores;
        begin = each * GetBlockIdx();
        end = begin + each < totalLength ? begin + each : totalLength;
        step = (each + tileNum - 1) / tileNum;
        step = (step + 15) / 16 * 16;  // whole blocks for fp16 and fp32
        a.SetGlobalBuffer((__gm__ DTYPE_X*)x);
        b.SetGlobalBuffer((__gm__ DTYPE_Y*)y);
        c.SetGlobalBuffer((__gm__ DTYPE_Z*)z);
        pipe.InitBuffer(qa, 1, step * sizeof(DTYPE_X));
        pipe.InitBuffer(qb, 1, step * sizeof(DTYPE_Y));
        pipe.InitBuffer(qc, 1, step * sizeof(DTYPE_Z));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t at = begin; at < end; at += step) {
            const uint32_t cnt = end - at < step ? end - at : step;
            const uint32_t bytes = cnt * sizeof(DTYPE_X);
            LocalTensor<DTYPE_X> ta = qa.AllocTensor<DTYPE_X>();
            LocalTensor<DTYPE_Y> tb = qb.AllocTensor<DTYPE_Y>();
            DataCopyPad(ta, a[at], {1, bytes, 0, 0, 0}, {false, 0, 0, 0});
            DataCopyPad(tb, b[at], {1, bytes, 0, 0, 0}, {false, 0, 0, 0});
            qa.EnQue(ta);
            qb.EnQue(tb);
            ta = qa.DeQue<DTYPE_X>();
            tb = qb.DeQue<DTYPE_Y>();
            LocalTensor<DTYPE_Z> tc = qc.AllocTensor<DTYPE_Z>();
            Add(tc, ta, tb, cnt);
            qa.FreeTensor(ta);
            qb.FreeTensor(tb);
            qc.EnQue(tc);
            tc = qc.DeQue<DTYPE_Z>();
            DataCopyPad(c[at], tc, {1, bytes, 0, 0, 0});
            qc.FreeTensor(tc);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qa;
    TQue<TPosition::VECIN, 1> qb;
    TQue<TPosition::VECOUT, 1> qc;
    GlobalTensor<DTYPE_X> a;
    GlobalTensor<DTYPE_Y> b;
    GlobalTensor<DTYPE_Z> c;
    uint32_t begin = 0;
    uint32_t end = 0;
    uint32_t step = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AddAnyLength op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
