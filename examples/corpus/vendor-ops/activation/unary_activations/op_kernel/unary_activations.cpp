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
 * \file unary_activations.cpp
 * \brief Three element-wise activations sharing one tiling: relu, leaky_relu, hard_sigmoid.
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

// ---------------------------------------------------------------------------------------------
// Parameterised activations. They share the queue layout of KernelRelu but keep a tail tile,
// so any length is accepted, and they take their scalars from the tiling data.
// ---------------------------------------------------------------------------------------------
enum class ScalarActivation : uint32_t {
    LEAKY_RELU = 0,
    HARD_SIGMOID = 1,
};

struct ActivationScalars {
    float negativeSlope;
    float hsAlpha;
    float hsBeta;
};

template <ScalarActivation ACT>
class KernelScalarActivation {
public:
    __aicore__ inline KernelScalarActivation() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileNum,
                                const ActivationScalars& scalars)
    {
        scalars_ = scalars;
        // split by whole 32-byte blocks (8 floats) so only the last core sees a ragged tail
        const uint32_t totalBlocks = (totalLength + 7) / 8;
        const uint32_t blocksPerCore = (totalBlocks + GetBlockNum() - 1) / GetBlockNum();
        const uint32_t start = blocksPerCore * 8 * GetBlockIdx();
        length_ = 0;
        if (start < totalLength) {
            const uint32_t remain = totalLength - start;
            length_ = remain < blocksPerCore * 8 ? remain : blocksPerCore * 8;
        }
        const uint32_t tileBlocks = (blocksPerCore + tileNum - 1) / tileNum;
        tileLength_ = tileBlocks * 8;

        xGm_.SetGlobalBuffer((__gm__ float*)x + start, length_);
        yGm_.SetGlobalBuffer((__gm__ float*)y + start, length_);
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, tileLength_ * sizeof(float));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileLength_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t offset = 0; offset < length_; offset += tileLength_) {
            const uint32_t count = (length_ - offset < tileLength_) ? (length_ - offset) : tileLength_;
            CopyIn(offset, count);
            Compute(count);
            CopyOut(offset, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t count)
    {
        LocalTensor<float> xLocal = inQueue_.AllocTensor<float>();
        DataCopyExtParams copyParams{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm_[offset], copyParams, padParams);
        inQueue_.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<float> xLocal = inQueue_.DeQue<float>();
        LocalTensor<float> yLocal = outQueue_.AllocTensor<float>();
        if constexpr (ACT == ScalarActivation::LEAKY_RELU) {
            LeakyRelu(yLocal, xLocal, scalars_.negativeSlope, count);
        } else {
            // hard_sigmoid(x) = clamp(alpha * x + beta, 0, 1)
            Muls(yLocal, xLocal, scalars_.hsAlpha, count);
            Adds(yLocal, yLocal, scalars_.hsBeta, count);
            Maxs(yLocal, yLocal, 0.0f, count);
            Mins(yLocal, yLocal, 1.0f, count);
        }
        outQueue_.EnQue(yLocal);
        inQueue_.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t count)
    {
        LocalTensor<float> yLocal = outQueue_.DeQue<float>();
        DataCopyExtParams copyParams{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[offset], yLocal, copyParams);
        outQueue_.FreeTensor(yLocal);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    ActivationScalars scalars_{};
    uint32_t length_ = 0;
    uint32_t tileLength_ = 0;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ActivationScalars scalars{tilingData.negativeSlope, tilingData.hsAlpha, tilingData.hsBeta};
    KernelScalarActivation<ScalarActivation::LEAKY_RELU> op;
    op.Init(x, y, tilingData.totalLength, tilingData.tileNum, scalars);
    op.Process();
}

extern "C" __global__ __aicore__ void hard_sigmoid_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ActivationScalars scalars{tilingData.negativeSlope, tilingData.hsAlpha, tilingData.hsBeta};
    KernelScalarActivation<ScalarActivation::HARD_SIGMOID> op;
    op.Init(x, y, tilingData.totalLength, tilingData.tileNum, scalars);
    op.Process();
}
