/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelRelu {
public:
    __aicore__ inline KernelRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileNum)
    {
        blockLen = totalLength / GetBlockNum();
        tileCount = tileNum;
        tileLen = blockLen / tileCount / BUFFER_NUM;
        inputGm.SetGlobalBuffer((__gm__ float*)x + blockLen * GetBlockIdx(), blockLen);
        outputGm.SetGlobalBuffer((__gm__ float*)y + blockLen * GetBlockIdx(), blockLen);
        pipe.InitBuffer(queIn, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(queOut, BUFFER_NUM, tileLen * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t n = 0; n < tileCount * BUFFER_NUM; n++) {
            LocalTensor<float> src = queIn.AllocTensor<float>();
            DataCopy(src, inputGm[n * tileLen], tileLen);
            queIn.EnQue(src);
            src = queIn.DeQue<float>();
            LocalTensor<float> dst = queOut.AllocTensor<float>();
            Relu(dst, src, tileLen);
            queOut.EnQue(dst);
            queIn.FreeTensor(src);
            dst = queOut.DeQue<float>();
            DataCopy(outputGm[n * tileLen], dst, tileLen);
            queOut.FreeTensor(dst);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> queIn;
    TQue<QuePosition::VECOUT, BUFFER_NUM> queOut;
    GlobalTensor<float> inputGm;
    GlobalTensor<float> outputGm;
    uint32_t blockLen;
    uint32_t tileCount;
    uint32_t tileLen;
};

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRelu op;
    op.Init(x, y, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
