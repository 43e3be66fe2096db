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
 * \file depthwise_conv1d.cpp
 * \brief Depthwise 1-D convolution, NCL layout, stride 1, "valid" padding, optional dilation.
 *
 *   y[n, c, l] = bias[c] + sum_k w[c, k] * x[n, c, l + k * dilation]
 *
 * Vector instructions need 32-byte aligned operands, so a tap cannot read x at an arbitrary
 * element offset inside UB. Instead every tap reloads its shifted window from GM with
 * DataCopyPad (MTE2 handles unaligned GM addresses) and is accumulated with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MODE_NO_BIAS = 0;
constexpr uint32_t MODE_WITH_BIAS = 1;
}  // namespace

template <uint32_t MODE>
class KernelDepthwiseConv1d {
public:
    __aicore__ inline KernelDepthwiseConv1d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                const DepthwiseConv1dTilingData& tiling)
    {
        tiling_ = tiling;
        firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * tiling_.rowsPerCore;
        myRows_ = (GetBlockIdx() == tiling_.usedCoreNum - 1) ? tiling_.tailCoreRows : tiling_.rowsPerCore;

        xGm_.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(tiling_.totalRows) * tiling_.inLen);
        wGm_.SetGlobalBuffer((__gm__ float*)weight, static_cast<uint64_t>(tiling_.channels) * tiling_.kernelSize);
        if constexpr (MODE == MODE_WITH_BIAS) {
            biasGm_.SetGlobalBuffer((__gm__ float*)bias, tiling_.channels);
        }
        yGm_.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(tiling_.totalRows) * tiling_.outLen);

        pipe_.InitBuffer(tapQueue_, BUFFER_NUM, tiling_.tileLen * sizeof(float));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, tiling_.tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows_; ++r) {
            const uint64_t row = firstRow_ + r;
            const uint32_t channel = static_cast<uint32_t>(row % tiling_.channels);
            for (uint32_t l = 0; l < tiling_.outLen; l += tiling_.tileLen) {
                const uint32_t len = (tiling_.outLen - l < tiling_.tileLen) ? (tiling_.outLen - l) : tiling_.tileLen;
                ComputeTile(row, channel, l, len);
            }
        }
    }

private:
    __aicore__ inline void ComputeTile(uint64_t row, uint32_t channel, uint32_t outStart, uint32_t len)
    {
        LocalTensor<float> acc = outQueue_.AllocTensor<float>();
        float initValue = 0.0f;
        if constexpr (MODE == MODE_WITH_BIAS) {
            initValue = biasGm_.GetValue(channel);
        }
        Duplicate(acc, initValue, len);

        const DataCopyExtParams copyParams{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        const DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        const uint64_t rowBase = row * tiling_.inLen + outStart;
        for (uint32_t k = 0; k < tiling_.kernelSize; ++k) {
            LocalTensor<float> tap = tapQueue_.AllocTensor<float>();
            DataCopyPad(tap, xGm_[rowBase + static_cast<uint64_t>(k) * tiling_.dilation], copyParams, padParams);
            tapQueue_.EnQue(tap);
            tap = tapQueue_.DeQue<float>();
            const float w = wGm_.GetValue(static_cast<uint64_t>(channel) * tiling_.kernelSize + k);
            Axpy(acc, tap, w, len);  // acc += w * tap
            tapQueue_.FreeTensor(tap);
        }

        outQueue_.EnQue(acc);
        acc = outQueue_.DeQue<float>();
        DataCopyPad(yGm_[row * tiling_.outLen + outStart], acc, copyParams);
        outQueue_.FreeTensor(acc);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> tapQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> wGm_;
    GlobalTensor<float> biasGm_;
    GlobalTensor<float> yGm_;
    DepthwiseConv1dTilingData tiling_;
    uint64_t firstRow_ = 0;
    uint32_t myRows_ = 0;
};

template <uint32_t schMode>
__global__ __aicore__ void depthwise_conv1d(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                            GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() >= tilingData.usedCoreNum) {
        return;
    }
    KernelDepthwiseConv1d<schMode> op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
