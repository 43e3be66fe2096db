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
 * \file histc.cpp
 * \brief torch.histc: counts of x in `bins` equal-width bins over [minValue, maxValue].
 *
 * The vector unit turns a tile of x into bin numbers (floor((x - min) * bins / (max - min)));
 * the scalar unit then counts them into a per-core histogram kept in UB. Values equal to
 * maxValue belong to the last bin; values outside the range are ignored. Per-core histograms
 * are added into y with the GM atomic add after core 0 has cleared y.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
}  // namespace

class KernelHistc {
public:
    __aicore__ inline KernelHistc() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const HistcTilingData& tiling)
    {
        t_ = tiling;
        const uint32_t coreIdx = GetBlockIdx();
        const uint64_t start = static_cast<uint64_t>(coreIdx) * t_.perCoreLength;
        count_ = (coreIdx == t_.usedCoreNum - 1) ? t_.lastCoreLength : t_.perCoreLength;
        xGm_.SetGlobalBuffer((__gm__ float*)x + start, count_);
        yGm_.SetGlobalBuffer((__gm__ float*)y, t_.bins);

        const uint32_t binsAligned = (t_.bins + 7) / 8 * 8;
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, t_.tileLength * sizeof(float));
        pipe_.InitBuffer(binQueue_, 1, t_.tileLength * sizeof(int32_t));
        pipe_.InitBuffer(scaledBuf_, t_.tileLength * sizeof(float));
        pipe_.InitBuffer(histQueue_, 1, binsAligned * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (GetBlockIdx() == 0) {
            InitGlobalMemory(yGm_, t_.bins, 0.0f);
        }
        LocalTensor<float> hist = histQueue_.AllocTensor<float>();
        Duplicate(hist, 0.0f, (t_.bins + 7) / 8 * 8);
        event_t vToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);

        for (uint32_t off = 0; off < count_; off += t_.tileLength) {
            const uint32_t n = (count_ - off < t_.tileLength) ? (count_ - off) : t_.tileLength;
            LocalTensor<float> xLocal = inQueue_.AllocTensor<float>();
            DataCopyPad(xLocal, xGm_[off], {1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                        {false, 0, 0, 0.0f});
            inQueue_.EnQue(xLocal);
            xLocal = inQueue_.DeQue<float>();
            CountTile(hist, xLocal, n);
            inQueue_.FreeTensor(xLocal);
        }

        // the counts were written by the scalar unit: order S -> MTE3 explicitly
        event_t sToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToMte3);
        WaitFlag<HardEvent::S_MTE3>(sToMte3);
        histQueue_.EnQue(hist);
        hist = histQueue_.DeQue<float>();
        SyncAll();  // y must be cleared by core 0 before anyone adds into it
        SetAtomicAdd<float>();
        DataCopyPad(yGm_, hist, {1, t_.bins * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
        SetAtomicNone();
        histQueue_.FreeTensor(hist);
    }

private:
    __aicore__ inline void CountTile(const LocalTensor<float>& hist, const LocalTensor<float>& xLocal, uint32_t n)
    {
        LocalTensor<float> scaled = scaledBuf_.Get<float>();
        LocalTensor<int32_t> bin = binQueue_.AllocTensor<int32_t>();
        Adds(scaled, xLocal, -t_.minValue, n);
        Muls(scaled, scaled, t_.binScale, n);  // binScale = bins / (max - min)
        Cast(bin, scaled, RoundMode::CAST_FLOOR, n);

        event_t vToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        const int32_t bins = static_cast<int32_t>(t_.bins);
        for (uint32_t i = 0; i < n; ++i) {
            const float v = xLocal.GetValue(i);
            if (v < t_.minValue || v > t_.maxValue) {
                continue;
            }
            int32_t b = bin.GetValue(i);
            b = (b >= bins) ? bins - 1 : b;  // v == maxValue
            hist.SetValue(b, hist.GetValue(b) + 1.0f);
        }
        // the next tile's vector work must not overwrite x before the scalar loop is done
        event_t sToV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sToV);
        WaitFlag<HardEvent::S_V>(sToV);
        binQueue_.FreeTensor(bin);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue_;
    TQue<QuePosition::VECOUT, 1> binQueue_;
    TQue<QuePosition::VECOUT, 1> histQueue_;
    TBuf<TPosition::VECCALC> scaledBuf_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    HistcTilingData t_;
    uint32_t count_ = 0;
};

extern "C" __global__ __aicore__ void histc(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelHistc op;
    op.Init(x, y, tilingData);
    op.Process();
}
