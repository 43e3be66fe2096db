/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * torch.histc-style histogram with up to HIST_MAX_BINS equal-width bins over
 * [lo, hi]. On AI Core 220 the counts come from vector compares; older cores take
 * a scalar path over the UB buffer. Written with vendor-style macros on purpose:
 * a plain clang parse without the CANN headers cannot resolve most of it.
 */
#include "kernel_operator.h"
#include "histogram_tiling.h"

#ifndef DTYPE_X
#define DTYPE_X float
#endif
#define HIST_MAX_BINS 16
#define HIST_TILE_ELEMS (64 * 64)
#define HIST_ALIGN_BLOCK(n) ((((n) + 7U) / 8U) * 8U)
#define HIST_INLINE __aicore__ inline
#define HIST_ENTRY extern "C" __global__ __aicore__

class KernelHistogram {
public:
    HIST_INLINE KernelHistogram() {}

    HIST_INLINE void Init(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
    {
        const __gm__ HistogramTiling *tp = reinterpret_cast<const __gm__ HistogramTiling *>(tiling);
        bins = tp->bins > HIST_MAX_BINS ? HIST_MAX_BINS : tp->bins;
        lo = tp->lo;
        hi = tp->hi;
        binWidth = tp->binWidth;
        const uint32_t start = tp->blockLength * AscendC::GetBlockIdx();
        blockLength = start < tp->totalLength ? tp->totalLength - start : 0;
        blockLength = blockLength > tp->blockLength ? tp->blockLength : blockLength;

        xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x + start, blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y, HIST_MAX_BINS);
        pipe.InitBuffer(inQueue, 1, HIST_TILE_ELEMS * sizeof(DTYPE_X));
        pipe.InitBuffer(histBuf, HIST_ALIGN_BLOCK(HIST_MAX_BINS) * sizeof(float));
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 220)
        pipe.InitBuffer(maskBuf, HIST_TILE_ELEMS / 8);
        pipe.InitBuffer(onesBuf, HIST_TILE_ELEMS * sizeof(float));
        pipe.InitBuffer(selBuf, HIST_TILE_ELEMS * sizeof(float));
        pipe.InitBuffer(workBuf, HIST_TILE_ELEMS * sizeof(float));
        pipe.InitBuffer(sumBuf, 2 * 32);
#endif
        for (uint32_t b = 0; b < HIST_MAX_BINS; ++b) {
            counts[b] = 0.0f;
        }
    }

    HIST_INLINE void Process()
    {
        for (uint32_t done = 0; done < blockLength; done += HIST_TILE_ELEMS) {
            const uint32_t count = blockLength - done < HIST_TILE_ELEMS ? blockLength - done : HIST_TILE_ELEMS;
            AscendC::LocalTensor<DTYPE_X> xLocal = inQueue.AllocTensor<DTYPE_X>();
            // Values below lo fall in no bin, so the tail is padded with one.
            AscendC::Duplicate(xLocal, static_cast<DTYPE_X>(lo - 1.0f), HIST_TILE_ELEMS);
            AscendC::PipeBarrier<PIPE_ALL>();
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(DTYPE_X)), 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[done], copyParams, AscendC::DataCopyPadExtParams<DTYPE_X>{});
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<DTYPE_X>();
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 220)
            CountVector(xLocal);
#else
            CountScalar(xLocal, count);
#endif
            inQueue.FreeTensor(xLocal);
        }
        Flush();
    }

private:
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 220)
    // counts[b] = #(x >= edge_b) - #(x >= edge_{b+1}); the last bin also keeps x == hi.
    HIST_INLINE void CountVector(AscendC::LocalTensor<DTYPE_X> &xLocal)
    {
        AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        AscendC::LocalTensor<float> ones = onesBuf.Get<float>();
        AscendC::LocalTensor<float> sel = selBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> sum = sumBuf.Get<float>();
        AscendC::Duplicate(ones, 1.0f, HIST_TILE_ELEMS);
        float previous = 0.0f;
        for (uint32_t b = 0; b <= bins; ++b) {
            const bool last = (b == bins);
            const DTYPE_X edge = last ? static_cast<DTYPE_X>(hi) : static_cast<DTYPE_X>(lo + b * binWidth);
            AscendC::Compares(mask, xLocal, edge, last ? AscendC::CMPMODE::GT : AscendC::CMPMODE::GE,
                              HIST_TILE_ELEMS);
            AscendC::Select(sel, mask, ones, 0.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, HIST_TILE_ELEMS);
            AscendC::ReduceSum(sum, sel, work, HIST_TILE_ELEMS);
            event_t eventVToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
            AscendC::SetFlag<AscendC::HardEvent::V_S>(eventVToS);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventVToS);
            const float atLeast = sum.GetValue(0);
            if (b > 0) {
                counts[b - 1] += previous - atLeast;
            }
            previous = atLeast;
        }
    }
#else
    HIST_INLINE void CountScalar(AscendC::LocalTensor<DTYPE_X> &xLocal, uint32_t count)
    {
        __ubuf__ DTYPE_X *ub = (__ubuf__ DTYPE_X *)xLocal.GetPhyAddr();
        set_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
        const float invWidth = 1.0f / binWidth;
        for (uint32_t i = 0; i < count; ++i) {
            const float v = static_cast<float>(ub[i]);
            if (v < lo || v > hi) {
                continue;
            }
            int32_t bin = static_cast<int32_t>((v - lo) * invWidth);
            bin = bin >= static_cast<int32_t>(bins) ? static_cast<int32_t>(bins) - 1 : bin;
            counts[bin] += 1.0f;
        }
    }
#endif

    HIST_INLINE void Flush()
    {
        AscendC::LocalTensor<float> hist = histBuf.Get<float>();
        for (uint32_t b = 0; b < HIST_MAX_BINS; ++b) {
            hist.SetValue(b, b < bins ? counts[b] : 0.0f);
        }
        event_t eventSToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_MTE3));
        AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(eventSToMte3);
        AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(eventSToMte3);
        AscendC::SetAtomicAdd<float>();
        AscendC::DataCopyExtParams outParams{1, static_cast<uint32_t>(bins * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm, hist, outParams);
        AscendC::SetAtomicNone();
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> histBuf;
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 220)
    AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf, onesBuf, selBuf, workBuf, sumBuf;
#endif
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<float> yGm;
    float counts[HIST_MAX_BINS];
    uint32_t blockLength = 0;
    uint32_t bins = 0;
    float lo = 0.0f;
    float hi = 0.0f;
    float binWidth = 1.0f;
};

HIST_ENTRY void histogram_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 220)
    if ASCEND_IS_AIC {
        return;
    }
#endif
    KernelHistogram op;
    op.Init(x, y, tiling);
    op.Process();
}
