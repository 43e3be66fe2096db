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
 * \file rms_norm_impl.h
 * \brief Row-wise RMS normalisation: y = x * rstd * gamma, rstd written as a second output.
 */
#ifndef RMS_NORM_IMPL_H
#define RMS_NORM_IMPL_H

#include "../rms_norm_common.h"
#include "rms_norm_reduce.h"

namespace RmsNormKernel {

// GAMMA_RESIDENT: gamma is widened to fp32 once and kept in UB (enough UB on 220-class cores);
// otherwise it is re-read and widened for every row.
template <typename T, bool GAMMA_RESIDENT>
class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, const RmsNormSlice& slice)
    {
        slice_ = slice;
        const uint64_t elemOffset = slice_.firstRow * slice_.cols;
        xGm_.SetGlobalBuffer((__gm__ T*)x + elemOffset, static_cast<uint64_t>(slice_.rowCount) * slice_.cols);
        yGm_.SetGlobalBuffer((__gm__ T*)y + elemOffset, static_cast<uint64_t>(slice_.rowCount) * slice_.cols);
        gammaGm_.SetGlobalBuffer((__gm__ T*)gamma, slice_.cols);
        rstdGm_.SetGlobalBuffer((__gm__ float*)rstd + slice_.firstRow, slice_.rowCount);

        const uint32_t rowBytesT = slice_.colsAligned * sizeof(T);
        const uint32_t rowBytesF = slice_.colsAligned * sizeof(float);
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, rowBytesT);
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, rowBytesT);
        pipe_.InitBuffer(gammaQueue_, 1, rowBytesT);
        pipe_.InitBuffer(xfBuf_, rowBytesF);
        pipe_.InitBuffer(gammaFBuf_, rowBytesF);
        pipe_.InitBuffer(sqBuf_, rowBytesF);
        pipe_.InitBuffer(workBuf_, rowBytesF);
        pipe_.InitBuffer(statBuf_, UB_BLOCK_BYTES);
    }

    __aicore__ inline void Process()
    {
        if constexpr (GAMMA_RESIDENT) {
            LoadGamma();
        }
        for (uint32_t r = 0; r < slice_.rowCount; ++r) {
            if constexpr (!GAMMA_RESIDENT) {
                LoadGamma();
            }
            CopyIn(r);
            Compute(r);
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void LoadGamma()
    {
        LocalTensor<T> g = gammaQueue_.AllocTensor<T>();
        DataCopyPad(g, gammaGm_, {1, static_cast<uint32_t>(slice_.cols * sizeof(T)), 0, 0, 0}, {false, 0, 0, 0});
        gammaQueue_.EnQue(g);
        g = gammaQueue_.DeQue<T>();
        LocalTensor<float> gf = gammaFBuf_.Get<float>();
        if constexpr (sizeof(T) == sizeof(float)) {
            Adds(gf, g.template ReinterpretCast<float>(), 0.0f, slice_.cols);
        } else {
            Cast(gf, g, RoundMode::CAST_NONE, slice_.cols);
        }
        gammaQueue_.FreeTensor(g);
    }

    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<T> xLocal = inQueue_.AllocTensor<T>();
        DataCopyPad(xLocal, xGm_[static_cast<uint64_t>(r) * slice_.cols],
                    {1, static_cast<uint32_t>(slice_.cols * sizeof(T)), 0, 0, 0}, {false, 0, 0, 0});
        inQueue_.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t r)
    {
        LocalTensor<T> xLocal = inQueue_.DeQue<T>();
        LocalTensor<T> yLocal = outQueue_.AllocTensor<T>();
        LocalTensor<float> xf = xfBuf_.Get<float>();
        LocalTensor<float> stat = statBuf_.Get<float>();
        if constexpr (sizeof(T) == sizeof(float)) {
            Adds(xf, xLocal.template ReinterpretCast<float>(), 0.0f, slice_.cols);
        } else {
            Cast(xf, xLocal, RoundMode::CAST_NONE, slice_.cols);
        }
        inQueue_.FreeTensor(xLocal);

        RowInverseRms(stat, xf, sqBuf_.Get<float>(), workBuf_.Get<float>(), slice_);
        event_t vToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        const float rstd = stat.GetValue(0);

        Muls(xf, xf, rstd, slice_.cols);
        Mul(xf, xf, gammaFBuf_.Get<float>(), slice_.cols);
        if constexpr (sizeof(T) == sizeof(float)) {
            Adds(yLocal.template ReinterpretCast<float>(), xf, 0.0f, slice_.cols);
        } else {
            Cast(yLocal, xf, RoundMode::CAST_RINT, slice_.cols);
        }
        outQueue_.EnQue(yLocal);

        // rstd leaves straight from the statistic block: order V -> MTE3, then MTE3 -> V
        event_t vToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vToMte3);
        WaitFlag<HardEvent::V_MTE3>(vToMte3);
        DataCopyPad(rstdGm_[r], stat, {1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
        event_t mte3ToV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_V));
        SetFlag<HardEvent::MTE3_V>(mte3ToV);
        WaitFlag<HardEvent::MTE3_V>(mte3ToV);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<T> yLocal = outQueue_.DeQue<T>();
        DataCopyPad(yGm_[static_cast<uint64_t>(r) * slice_.cols], yLocal,
                    {1, static_cast<uint32_t>(slice_.cols * sizeof(T)), 0, 0, 0});
        outQueue_.FreeTensor(yLocal);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue_;
    TQue<QuePosition::VECIN, 1> gammaQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
    TBuf<TPosition::VECCALC> xfBuf_;
    TBuf<TPosition::VECCALC> gammaFBuf_;
    TBuf<TPosition::VECCALC> sqBuf_;
    TBuf<TPosition::VECCALC> workBuf_;
    TBuf<TPosition::VECCALC> statBuf_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> gammaGm_;
    GlobalTensor<T> yGm_;
    GlobalTensor<float> rstdGm_;
    RmsNormSlice slice_{};
};

}  // namespace RmsNormKernel

#endif  // RMS_NORM_IMPL_H
