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
 * \file max_pool2d_apt.cpp
 * \brief max_pool2d for NHWC input (channels contiguous), used on arch35 builds.
 *
 * One work item is one output pixel (n, oh, ow); its result is a vector of C channels, so the
 * window maximum is a chain of Max over C-element vectors and needs no gather.
 * schMode 0: general kernel and stride, one load per window element.
 * schMode 1: strideW == kernelW and C is a multiple of 8, so a whole kernel row (kernelW * C
 *            contiguous elements) arrives with one load and is folded from 32-byte aligned slices.
 */
#include "../max_pool2d_common.h"

using namespace MaxPool2dKernel;

namespace {
constexpr uint32_t SCH_GENERAL = 0;
constexpr uint32_t SCH_ROW_LOAD = 1;
}  // namespace

template <uint32_t schMode>
class KernelMaxPool2dNhwc {
public:
    __aicore__ inline KernelMaxPool2dNhwc() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MaxPool2dTilingData& tiling)
    {
        t_ = tiling;
        const uint64_t pixels = static_cast<uint64_t>(t_.batch) * t_.outH * t_.outW;
        range_ = SplitWork(pixels, GetBlockIdx(), GetBlockNum());
        xGm_.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(t_.batch) * t_.inH * t_.inW * t_.channels);
        yGm_.SetGlobalBuffer((__gm__ float*)y, pixels * t_.channels);
        cAligned_ = (t_.channels + 7) / 8 * 8;
        const uint32_t loadElems = (schMode == SCH_ROW_LOAD) ? t_.kernelW * cAligned_ : cAligned_;
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, loadElems * sizeof(float));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, cAligned_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t p = range_.begin; p < range_.end; ++p) {
            const uint32_t ow = static_cast<uint32_t>(p % t_.outW);
            const uint32_t oh = static_cast<uint32_t>((p / t_.outW) % t_.outH);
            const uint64_t n = p / (static_cast<uint64_t>(t_.outW) * t_.outH);
            LocalTensor<float> acc = outQueue_.AllocTensor<float>();
            Duplicate(acc, NEG_INF, t_.channels);
            for (uint32_t kh = 0; kh < t_.kernelH; ++kh) {
                const uint64_t ih = static_cast<uint64_t>(oh) * t_.strideH + kh;
                const uint64_t rowPixel = (n * t_.inH + ih) * t_.inW + static_cast<uint64_t>(ow) * t_.strideW;
                if constexpr (schMode == SCH_ROW_LOAD) {
                    FoldKernelRow(acc, rowPixel);
                } else {
                    for (uint32_t kw = 0; kw < t_.kernelW; ++kw) {
                        FoldPixel(acc, rowPixel + kw);
                    }
                }
            }
            outQueue_.EnQue(acc);
            acc = outQueue_.DeQue<float>();
            DataCopyPad(yGm_[p * t_.channels], acc, {1, static_cast<uint32_t>(t_.channels * sizeof(float)), 0, 0, 0});
            outQueue_.FreeTensor(acc);
        }
    }

private:
    __aicore__ inline void FoldPixel(const LocalTensor<float>& acc, uint64_t pixel)
    {
        LocalTensor<float> v = inQueue_.AllocTensor<float>();
        DataCopyPad(v, xGm_[pixel * t_.channels], {1, static_cast<uint32_t>(t_.channels * sizeof(float)), 0, 0, 0},
                    {false, 0, 0, 0.0f});
        inQueue_.EnQue(v);
        v = inQueue_.DeQue<float>();
        Max(acc, acc, v, t_.channels);
        inQueue_.FreeTensor(v);
    }

    __aicore__ inline void FoldKernelRow(const LocalTensor<float>& acc, uint64_t firstPixel)
    {
        LocalTensor<float> seg = inQueue_.AllocTensor<float>();
        DataCopyPad(seg, xGm_[firstPixel * t_.channels],
                    {1, static_cast<uint32_t>(t_.kernelW * t_.channels * sizeof(float)), 0, 0, 0},
                    {false, 0, 0, 0.0f});
        inQueue_.EnQue(seg);
        seg = inQueue_.DeQue<float>();
        for (uint32_t kw = 0; kw < t_.kernelW; ++kw) {
            Max(acc, acc, seg[kw * t_.channels], t_.channels);  // C % 8 == 0 keeps each slice aligned
        }
        inQueue_.FreeTensor(seg);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    MaxPool2dTilingData t_;
    WorkRange range_{};
    uint32_t cAligned_ = 0;
};

template <uint32_t schMode>
__global__ __aicore__ void max_pool2d(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    KernelMaxPool2dNhwc<schMode> op;
    op.Init(x, y, tilingData);
    op.Process();
}
