/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

// y = A x for a CSR matrix A (row_ptr int32 [m+1], col_idx int32 [nnz], values fp32 [nnz])
// and a dense fp32 vector x [n] that fits in UB.
// x is staged once per core; for every row the column indices become byte offsets
// (col * 4) so that Gather can pick x[col] for all non-zeros of the row in one instruction.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t NNZ_STEP = 2048;  // non-zeros handled per gather step
}

class CsrSpmvKernel {
public:
    __aicore__ inline CsrSpmvKernel() {}

    __aicore__ inline void Start(GM_ADDR rowPtr, GM_ADDR colIdx, GM_ADDR values, GM_ADDR x, GM_ADDR y,
                                 uint32_t numRows, uint32_t numCols, uint32_t rowsEach)
    {
        rowBegin = GetBlockIdx() * rowsEach;
        rowEnd = rowBegin + rowsEach < numRows ? rowBegin + rowsEach : numRows;
        cols = numCols;
        ptrGm.SetGlobalBuffer((__gm__ int32_t*)rowPtr, numRows + 1);
        colGm.SetGlobalBuffer((__gm__ int32_t*)colIdx);
        valGm.SetGlobalBuffer((__gm__ float*)values);
        xGm.SetGlobalBuffer((__gm__ float*)x, numCols);
        yGm.SetGlobalBuffer((__gm__ float*)y, numRows);

        pipe.InitBuffer(denseX, (numCols + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(colStage, NNZ_STEP * sizeof(int32_t));
        pipe.InitBuffer(valStage, NNZ_STEP * sizeof(float));
        pipe.InitBuffer(picked, NNZ_STEP * sizeof(float));
        pipe.InitBuffer(partial, NNZ_STEP * sizeof(float));
        pipe.InitBuffer(oneValue, 8 * sizeof(float));
    }

    __aicore__ inline void Compute()
    {
        if (rowBegin >= rowEnd) {
            return;
        }
        LocalTensor<float> xs = denseX.Get<float>();
        DataCopyPad(xs, xGm, {1, cols * 4U, 0, 0, 0}, {false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();

        for (uint32_t row = rowBegin; row < rowEnd; ++row) {
            const int32_t lo = ptrGm.GetValue(row);
            const int32_t hi = ptrGm.GetValue(row + 1);
            float dot = 0.0f;
            for (int32_t at = lo; at < hi; at += NNZ_STEP) {
                const uint32_t cnt = static_cast<uint32_t>(hi - at < (int32_t)NNZ_STEP ? hi - at : NNZ_STEP);
                dot += StepDot(xs, static_cast<uint64_t>(at), cnt);
            }
            yGm.SetValue(row, dot);
        }
        // scalar stores to GM go through the data cache: write them back before the kernel ends
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(yGm);
    }

private:
    __aicore__ inline float StepDot(const LocalTensor<float>& xs, uint64_t at, uint32_t cnt)
    {
        LocalTensor<int32_t> cidx = colStage.Get<int32_t>();
        LocalTensor<float> vals = valStage.Get<float>();
        LocalTensor<float> xv = picked.Get<float>();
        LocalTensor<float> prod = partial.Get<float>();
        LocalTensor<float> out = oneValue.Get<float>();
        DataCopyPad(cidx, colGm[at], {1, cnt * 4U, 0, 0, 0}, {false, 0, 0, 0});
        DataCopyPad(vals, valGm[at], {1, cnt * 4U, 0, 0, 0}, {false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();
        ShiftLeft(cidx, cidx, 2, static_cast<int32_t>(cnt));   // column -> byte offset
        Gather(xv, xs, cidx.ReinterpretCast<uint32_t>(), 0, cnt);
        Mul(prod, xv, vals, static_cast<int32_t>(cnt));
        ReduceSum(out, prod, xv, static_cast<int32_t>(cnt));
        PipeBarrier<PIPE_ALL>();
        return out.GetValue(0);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> denseX;
    TBuf<TPosition::VECCALC> colStage;
    TBuf<TPosition::VECCALC> valStage;
    TBuf<TPosition::VECCALC> picked;
    TBuf<TPosition::VECCALC> partial;
    TBuf<TPosition::VECCALC> oneValue;
    GlobalTensor<int32_t> ptrGm;
    GlobalTensor<int32_t> colGm;
    GlobalTensor<float> valGm;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t rowBegin = 0;
    uint32_t rowEnd = 0;
    uint32_t cols = 0;
};

extern "C" __global__ __aicore__ void csr_spmv(GM_ADDR rowPtr, GM_ADDR colIdx, GM_ADDR values, GM_ADDR x,
                                               GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    CsrSpmvKernel kernel;
    kernel.Start(rowPtr, colIdx, values, x, y, t.numRows, t.numCols, t.rowsEach);
    kernel.Compute();
}
