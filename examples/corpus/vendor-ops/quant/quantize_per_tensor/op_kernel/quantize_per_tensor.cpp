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
 * \file quantize_per_tensor.cpp
 * \brief y = saturate_int8(round(x * scale + offset)), one scale and offset for the whole tensor.
 *
 * The arithmetic runs in fp32; the result is narrowed fp32 -> fp16 (exact for |v| <= 2048),
 * clamped to [-128, 127] in fp16 and converted fp16 -> int8 with round-half-to-even.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr float INT8_MIN_F = -128.0f;
constexpr float INT8_MAX_F = 127.0f;
}  // namespace

template <typename T>
class KernelQuantizePerTensor {
public:
    __aicore__ inline KernelQuantizePerTensor() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const QuantizePerTensorTilingData& tiling)
    {
        const uint32_t coreIdx = GetBlockIdx();
        const uint64_t start = static_cast<uint64_t>(coreIdx) * tiling.perCoreLength;
        count_ = (coreIdx == tiling.usedCoreNum - 1) ? tiling.lastCoreLength : tiling.perCoreLength;
        tileLength_ = tiling.tileLength;  // multiple of 32 so that the int8 tile is block aligned
        scale_ = tiling.scale;
        offset_ = tiling.offset;

        xGm_.SetGlobalBuffer((__gm__ T*)x + start, count_);
        yGm_.SetGlobalBuffer((__gm__ int8_t*)y + start, count_);
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, tileLength_ * sizeof(T));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileLength_ * sizeof(int8_t));
        pipe_.InitBuffer(fp32Buf_, tileLength_ * sizeof(float));
        pipe_.InitBuffer(fp16Buf_, tileLength_ * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < count_; done += tileLength_) {
            const uint32_t n = (count_ - done < tileLength_) ? (count_ - done) : tileLength_;
            CopyIn(done, n);
            Compute(n);
            CopyOut(done, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t done, uint32_t n)
    {
        LocalTensor<T> xLocal = inQueue_.AllocTensor<T>();
        DataCopyPad(xLocal, xGm_[done], {1, n * static_cast<uint32_t>(sizeof(T)), 0, 0, 0}, {false, 0, 0, 0});
        inQueue_.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> xLocal = inQueue_.DeQue<T>();
        LocalTensor<int8_t> yLocal = outQueue_.AllocTensor<int8_t>();
        LocalTensor<float> f32 = fp32Buf_.Get<float>();
        LocalTensor<half> f16 = fp16Buf_.Get<half>();

        if constexpr (sizeof(T) == sizeof(float)) {
            Muls(f32, xLocal.template ReinterpretCast<float>(), scale_, n);
        } else {
            Cast(f32, xLocal, RoundMode::CAST_NONE, n);
            Muls(f32, f32, scale_, n);
        }
        Adds(f32, f32, offset_, n);
        // clamp before narrowing so that large values cannot overflow fp16
        Maxs(f32, f32, INT8_MIN_F, n);
        Mins(f32, f32, INT8_MAX_F, n);
        Cast(f16, f32, RoundMode::CAST_NONE, n);
        Cast(yLocal, f16, RoundMode::CAST_RINT, n);

        outQueue_.EnQue(yLocal);
        inQueue_.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t done, uint32_t n)
    {
        LocalTensor<int8_t> yLocal = outQueue_.DeQue<int8_t>();
        DataCopyPad(yGm_[done], yLocal, {1, n, 0, 0, 0});
        outQueue_.FreeTensor(yLocal);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
    TBuf<TPosition::VECCALC> fp32Buf_;
    TBuf<TPosition::VECCALC> fp16Buf_;
    GlobalTensor<T> xGm_;
    GlobalTensor<int8_t> yGm_;
    uint32_t count_ = 0;
    uint32_t tileLength_ = 0;
    float scale_ = 1.0f;
    float offset_ = 0.0f;
};

extern "C" __global__ __aicore__ void quantize_per_tensor(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() >= tilingData.usedCoreNum) {
        return;
    }
    KernelQuantizePerTensor<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
