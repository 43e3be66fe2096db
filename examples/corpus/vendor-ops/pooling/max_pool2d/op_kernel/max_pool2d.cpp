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
 * \file max_pool2d.cpp
 * \brief 2-D max pooling on NCHW float input, no padding, any kernel and stride.
 *
 * One work item is one output row of one (n, c) plane. For every kernel row the matching input
 * row is loaded once; each kernel column is then picked out with Gather (byte offsets
 * (ow * strideW + kw) * 4) and folded into the running maximum with Max.
 */
#include "max_pool2d_common.h"

using namespace MaxPool2dKernel;

class KernelMaxPool2dNchw {
public:
    __aicore__ inline KernelMaxPool2dNchw() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MaxPool2dTilingData& tiling)
    {
        t_ = tiling;
        const uint64_t planes = static_cast<uint64_t>(t_.batch) * t_.channels;
        range_ = SplitWork(planes * t_.outH, GetBlockIdx(), GetBlockNum());
        xGm_.SetGlobalBuffer((__gm__ float*)x, planes * t_.inH * t_.inW);
        yGm_.SetGlobalBuffer((__gm__ float*)y, planes * t_.outH * t_.outW);

        const uint32_t inWAligned = (t_.inW + 7) / 8 * 8;
        const uint32_t outWAligned = (t_.outW + 7) / 8 * 8;
        pipe_.InitBuffer(rowQueue_, BUFFER_NUM, inWAligned * sizeof(float));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, outWAligned * sizeof(float));
        pipe_.InitBuffer(baseOffBuf_, outWAligned * sizeof(int32_t));
        pipe_.InitBuffer(tapOffBuf_, outWAligned * sizeof(int32_t));
        pipe_.InitBuffer(pickBuf_, outWAligned * sizeof(float));

        // base byte offset of every output column inside an input row
        LocalTensor<int32_t> baseOff = baseOffBuf_.Get<int32_t>();
        CreateVecIndex(baseOff, 0, t_.outW);
        Muls(baseOff, baseOff, static_cast<int32_t>(t_.strideW * sizeof(float)), t_.outW);
    }

    __aicore__ inline void Process()
    {
        for (uint64_t item = range_.begin; item < range_.end; ++item) {
            const uint64_t plane = item / t_.outH;
            const uint32_t oh = static_cast<uint32_t>(item % t_.outH);
            LocalTensor<float> acc = outQueue_.AllocTensor<float>();
            Duplicate(acc, NEG_INF, t_.outW);
            for (uint32_t kh = 0; kh < t_.kernelH; ++kh) {
                const uint64_t ih = static_cast<uint64_t>(oh) * t_.strideH + kh;
                LocalTensor<float> row = rowQueue_.AllocTensor<float>();
                DataCopyPad(row, xGm_[(plane * t_.inH + ih) * t_.inW],
                            {1, static_cast<uint32_t>(t_.inW * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0.0f});
                rowQueue_.EnQue(row);
                row = rowQueue_.DeQue<float>();
                FoldRow(acc, row);
                rowQueue_.FreeTensor(row);
            }
            outQueue_.EnQue(acc);
            acc = outQueue_.DeQue<float>();
            DataCopyPad(yGm_[item * t_.outW], acc, {1, static_cast<uint32_t>(t_.outW * sizeof(float)), 0, 0, 0});
            outQueue_.FreeTensor(acc);
        }
    }

private:
    __aicore__ inline void FoldRow(const LocalTensor<float>& acc, const LocalTensor<float>& row)
    {
        LocalTensor<int32_t> baseOff = baseOffBuf_.Get<int32_t>();
        LocalTensor<int32_t> tapOff = tapOffBuf_.Get<int32_t>();
        LocalTensor<float> pick = pickBuf_.Get<float>();
        for (uint32_t kw = 0; kw < t_.kernelW; ++kw) {
            Adds(tapOff, baseOff, static_cast<int32_t>(kw * sizeof(float)), t_.outW);
            Gather(pick, row, tapOff.ReinterpretCast<uint32_t>(), 0, t_.outW);
            Max(acc, acc, pick, t_.outW);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
    TBuf<TPosition::VECCALC> baseOffBuf_;
    TBuf<TPosition::VECCALC> tapOffBuf_;
    TBuf<TPosition::VECCALC> pickBuf_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    MaxPool2dTilingData t_;
    WorkRange range_{};
};

extern "C" __global__ __aicore__ void max_pool2d(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMaxPool2dNchw op;
    op.Init(x, y, tilingData);
    op.Process();
}
