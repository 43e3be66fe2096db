/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

// LayerNorm over the last axis: y = (x - mean) / sqrt(var + eps) * weight + bias, fp32.
// Two passes per row inside UB: the mean first, then the centred squares for the variance.
// Rows longer than what fits in UB are rejected by the host tiling.
#include "kernel_operator.h"

namespace ln {
using AscendC::LocalTensor;

constexpr uint32_t kAlign = 8;  // fp32 per 32-byte block

__aicore__ inline uint32_t RoundUp8(uint32_t v)
{
    return (v + kAlign - 1) / kAlign * kAlign;
}

class LayerNormRows {
public:
    __aicore__ inline LayerNormRows() = default;

    __aicore__ inline void Prepare(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, uint32_t hidden,
                                   uint32_t rowsThisCore, uint64_t rowOffset, float eps)
    {
        h = hidden;
        hPad = RoundUp8(hidden);
        rows = rowsThisCore;
        epsilon = eps;
        invH = 1.0f / static_cast<float>(hidden);
        src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + rowOffset * h, static_cast<uint64_t>(rows) * h);
        dst.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + rowOffset * h, static_cast<uint64_t>(rows) * h);
        gamma.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(weight), h);
        beta.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), h);

        tp.InitBuffer(xq, 2, hPad * sizeof(float));
        tp.InitBuffer(yq, 2, hPad * sizeof(float));
        tp.InitBuffer(gammaUb, hPad * sizeof(float));
        tp.InitBuffer(betaUb, hPad * sizeof(float));
        tp.InitBuffer(centred, hPad * sizeof(float));
        tp.InitBuffer(scratch, hPad * sizeof(float));
        tp.InitBuffer(scalarSlot, kAlign * sizeof(float));
    }

    __aicore__ inline void Execute()
    {
        const AscendC::DataCopyExtParams rowCopy{1, h * 4U, 0, 0, 0};
        // weight and bias stay resident for all rows of this core
        AscendC::DataCopyPad(gammaUb.Get<float>(), gamma, rowCopy, {false, 0, 0, 0.0f});
        AscendC::DataCopyPad(betaUb.Get<float>(), beta, rowCopy, {false, 0, 0, 0.0f});
        AscendC::PipeBarrier<PIPE_ALL>();

        for (uint32_t i = 0; i < rows; ++i) {
            LocalTensor<float> xin = xq.AllocTensor<float>();
            AscendC::DataCopyPad(xin, src[static_cast<uint64_t>(i) * h], rowCopy, {false, 0, 0, 0.0f});
            xq.EnQue(xin);
            xin = xq.DeQue<float>();

            LocalTensor<float> yout = yq.AllocTensor<float>();
            NormaliseRow(yout, xin);
            xq.FreeTensor(xin);
            yq.EnQue(yout);

            yout = yq.DeQue<float>();
            AscendC::DataCopyPad(dst[static_cast<uint64_t>(i) * h], yout, rowCopy);
            yq.FreeTensor(yout);
        }
    }

private:
    __aicore__ inline float SumOf(const LocalTensor<float>& v)
    {
        LocalTensor<float> slot = scalarSlot.Get<float>();
        AscendC::ReduceSum(slot, v, scratch.Get<float>(), static_cast<int32_t>(h));
        AscendC::PipeBarrier<PIPE_ALL>();  // scalar read of a vector result
        return slot.GetValue(0);
    }

    __aicore__ inline void NormaliseRow(const LocalTensor<float>& yout, const LocalTensor<float>& xin)
    {
        LocalTensor<float> c = centred.Get<float>();
        const float mean = SumOf(xin) * invH;
        AscendC::Adds(c, xin, -mean, h);
        AscendC::Mul(yout, c, c, h);                 // yout is free scratch until the end
        const float variance = SumOf(yout) * invH;
        AscendC::Duplicate(yout, variance + epsilon, h);
        AscendC::Sqrt(yout, yout, h);
        AscendC::Div(yout, c, yout, h);
        AscendC::Mul(yout, yout, gammaUb.Get<float>(), h);
        AscendC::Add(yout, yout, betaUb.Get<float>(), h);
    }

    AscendC::TPipe tp;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> xq;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> yq;
    AscendC::TBuf<AscendC::TPosition::VECCALC> gammaUb;
    AscendC::TBuf<AscendC::TPosition::VECCALC> betaUb;
    AscendC::TBuf<AscendC::TPosition::VECCALC> centred;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scratch;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scalarSlot;
    AscendC::GlobalTensor<float> src;
    AscendC::GlobalTensor<float> dst;
    AscendC::GlobalTensor<float> gamma;
    AscendC::GlobalTensor<float> beta;
    uint32_t h = 0;
    uint32_t hPad = 0;
    uint32_t rows = 0;
    float epsilon = 1e-5f;
    float invH = 0.0f;
};
}  // namespace ln

extern "C" __global__ __aicore__ void layer_norm(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(cfg, tiling);
    const uint32_t core = AscendC::GetBlockIdx();
    const uint64_t first = static_cast<uint64_t>(core) * cfg.rowsPerCore;
    if (first >= cfg.totalRows) {
        return;
    }
    const uint64_t remaining = cfg.totalRows - first;
    const uint32_t mine = remaining < cfg.rowsPerCore ? static_cast<uint32_t>(remaining) : cfg.rowsPerCore;
    ln::LayerNormRows worker;
    worker.Prepare(x, weight, bias, y, cfg.hidden, mine, first, cfg.eps);
    worker.Execute();
}
