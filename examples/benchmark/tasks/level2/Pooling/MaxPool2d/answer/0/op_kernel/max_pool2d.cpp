/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

// MaxPool2d, NCHW, fp32, no padding, no dilation.
// Separable evaluation per output row: a vertical pass folds the kernelH input rows with
// element-wise Max into one full-width row; a horizontal pass then takes the maximum of each
// kernelW window of that row on the scalar unit (windows start at unaligned offsets, which the
// vector unit cannot address). Each core owns whole (n, c) planes.
#include "kernel_operator.h"

using namespace AscendC;

class MaxPoolPlanes {
public:
    __aicore__ inline MaxPoolPlanes() {}

    __aicore__ inline void Attach(GM_ADDR input, GM_ADDR output, const MaxPool2dTilingData& cfg)
    {
        p = cfg;
        const uint32_t planesEach = (p.planes + GetBlockNum() - 1) / GetBlockNum();
        planeLo = GetBlockIdx() * planesEach;
        planeHi = planeLo + planesEach < p.planes ? planeLo + planesEach : p.planes;
        inGm.SetGlobalBuffer((__gm__ float*)input);
        outGm.SetGlobalBuffer((__gm__ float*)output);
        const uint32_t wIn = (p.width + 7) / 8 * 8;
        const uint32_t wOut = (p.outWidth + 7) / 8 * 8;
        pipe.InitBuffer(rowIn, 2, wIn * sizeof(float));
        pipe.InitBuffer(colMax, wIn * sizeof(float));
        pipe.InitBuffer(rowOut, 2, wOut * sizeof(float));
    }

    __aicore__ inline void Run()
    {
        for (uint32_t plane = planeLo; plane < planeHi; ++plane) {
            for (uint32_t oh = 0; oh < p.outHeight; ++oh) {
                VerticalPass(plane, oh);
                HorizontalPass(plane, oh);
            }
        }
    }

private:
    __aicore__ inline void VerticalPass(uint32_t plane, uint32_t oh)
    {
        LocalTensor<float> fold = colMax.Get<float>();
        const uint64_t planeBase = static_cast<uint64_t>(plane) * p.height * p.width;
        for (uint32_t kh = 0; kh < p.kernelH; ++kh) {
            const uint64_t src = planeBase + static_cast<uint64_t>(oh * p.strideH + kh) * p.width;
            LocalTensor<float> line = rowIn.AllocTensor<float>();
            DataCopyPad(line, inGm[src], {1, p.width * 4U, 0, 0, 0}, {false, 0, 0, 0.0f});
            rowIn.EnQue(line);
            line = rowIn.DeQue<float>();
            if (kh == 0) {
                Adds(fold, line, 0.0f, p.width);
            } else {
                Max(fold, fold, line, p.width);
            }
            rowIn.FreeTensor(line);
        }
    }

    __aicore__ inline void HorizontalPass(uint32_t plane, uint32_t oh)
    {
        LocalTensor<float> fold = colMax.Get<float>();
        LocalTensor<float> res = rowOut.AllocTensor<float>();
        PipeBarrier<PIPE_ALL>();  // vector results -> scalar reads
        for (uint32_t ow = 0; ow < p.outWidth; ++ow) {
            const uint32_t w0 = ow * p.strideW;
            float best = fold.GetValue(w0);
            for (uint32_t kw = 1; kw < p.kernelW; ++kw) {
                const float v = fold.GetValue(w0 + kw);
                best = v > best ? v : best;
            }
            res.SetValue(ow, best);
        }
        PipeBarrier<PIPE_ALL>();  // scalar writes -> MTE3
        rowOut.EnQue(res);
        res = rowOut.DeQue<float>();
        const uint64_t dst = (static_cast<uint64_t>(plane) * p.outHeight + oh) * p.outWidth;
        DataCopyPad(outGm[dst], res, {1, p.outWidth * 4U, 0, 0, 0});
        rowOut.FreeTensor(res);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 2> rowIn;
    TQue<TPosition::VECOUT, 2> rowOut;
    TBuf<TPosition::VECCALC> colMax;
    GlobalTensor<float> inGm;
    GlobalTensor<float> outGm;
    MaxPool2dTilingData p;
    uint32_t planeLo = 0;
    uint32_t planeHi = 0;
};

extern "C" __global__ __aicore__ void max_pool2d(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(cfg, tiling);
    MaxPoolPlanes pool;
    pool.Attach(x, y, cfg);
    pool.Run();
}
