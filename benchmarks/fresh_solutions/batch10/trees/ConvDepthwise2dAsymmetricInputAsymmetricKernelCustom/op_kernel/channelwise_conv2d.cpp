/*
 * ChannelwiseConv2d: one KH x KW filter per channel (groups == channels).
 *
 * Planes (n, c) are split across cores. Vector path (key 1): for an output row,
 * every filter tap (i, j) contributes w[c, i, j] * x[n, c, ih, j*dw - pw + ow]
 * over the whole row, which is one DataCopyPad of a shifted input segment
 * (zeros injected on the left by the DMA, on the right by Duplicate) and one Axpy.
 * Scalar path (key 2) covers strided width and large paddings.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t kInDepth = 2;
constexpr int32_t kOutDepth = 2;
constexpr uint32_t kF32PerBlock = 8;
constexpr uint32_t kMaxTaps = 1024;
}  // namespace

class ChannelwiseConv2dKernel {
public:
    __aicore__ inline ChannelwiseConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const ChannelwiseConv2dTilingData& td)
    {
        tl = td;
        uint32_t id = GetBlockIdx();
        planeBeg = id * td.planesPerCore + (id < td.planesRem ? id : td.planesRem);
        planeCnt = td.planesPerCore + (id < td.planesRem ? 1 : 0);
        taps = td.kH * td.kW;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        if (td.hasBias) {
            bGm.SetGlobalBuffer((__gm__ float*)b);
        }
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQ, kInDepth, td.outWAlign * sizeof(float));
        pipe.InitBuffer(outQ, kOutDepth, td.outWAlign * sizeof(float));
    }

    __aicore__ inline void RunVector()
    {
        for (uint32_t p = planeBeg; p < planeBeg + planeCnt; ++p) {
            LoadFilter(p % tl.channels);
            const uint64_t inPlane = static_cast<uint64_t>(p) * tl.inH * tl.inW;
            const uint64_t outPlane = static_cast<uint64_t>(p) * tl.outH * tl.outW;
            for (uint32_t r = 0; r < tl.outH; ++r) {
                LocalTensor<float> acc = outQ.AllocTensor<float>();
                Duplicate(acc, biasVal, tl.outW);
                for (uint32_t i = 0; i < tl.kH; ++i) {
                    int32_t ih = static_cast<int32_t>(r * tl.strideH + i * tl.dilH) - static_cast<int32_t>(tl.padH);
                    if (ih < 0 || ih >= static_cast<int32_t>(tl.inH)) {
                        continue;   // whole row of taps hits vertical padding
                    }
                    for (uint32_t j = 0; j < tl.kW; ++j) {
                        int32_t c0 = static_cast<int32_t>(j * tl.dilW) - static_cast<int32_t>(tl.padW);
                        uint32_t tail = 0;
                        if (!FetchSegment(inPlane + static_cast<uint64_t>(ih) * tl.inW, c0, tail)) {
                            continue;
                        }
                        LocalTensor<float> seg = inQ.DeQue<float>();
                        if (tail < tl.outW) {
                            Duplicate(seg[tail], 0.0f, tl.outW - tail);
                        }
                        Axpy(acc, seg, filt[i * tl.kW + j], tl.outW);
                        inQ.FreeTensor(seg);
                    }
                }
                outQ.EnQue(acc);
                LocalTensor<float> res = outQ.DeQue<float>();
                DataCopyPad(yGm[outPlane + static_cast<uint64_t>(r) * tl.outW], res,
                            DataCopyExtParams{1, tl.outW * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
                outQ.FreeTensor(res);
            }
        }
    }

    __aicore__ inline void RunScalar()
    {
        for (uint32_t p = planeBeg; p < planeBeg + planeCnt; ++p) {
            LoadFilter(p % tl.channels);
            const uint64_t inPlane = static_cast<uint64_t>(p) * tl.inH * tl.inW;
            const uint64_t outPlane = static_cast<uint64_t>(p) * tl.outH * tl.outW;
            for (uint32_t r = 0; r < tl.outH; ++r) {
                for (uint32_t q = 0; q < tl.outW; ++q) {
                    float s = biasVal;
                    for (uint32_t i = 0; i < tl.kH; ++i) {
                        int32_t ih = static_cast<int32_t>(r * tl.strideH + i * tl.dilH) - static_cast<int32_t>(tl.padH);
                        if (ih < 0 || ih >= static_cast<int32_t>(tl.inH)) continue;
                        for (uint32_t j = 0; j < tl.kW; ++j) {
                            int32_t iw = static_cast<int32_t>(q * tl.strideW + j * tl.dilW) - static_cast<int32_t>(tl.padW);
                            if (iw < 0 || iw >= static_cast<int32_t>(tl.inW)) continue;
                            s += filt[i * tl.kW + j] * xGm.GetValue(inPlane + static_cast<uint64_t>(ih) * tl.inW + iw);
                        }
                    }
                    yGm.SetValue(outPlane + static_cast<uint64_t>(r) * tl.outW + q, s);
                }
            }
        }
        // scalar stores go through the data cache; flush them to HBM
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(yGm);
    }

private:
    __aicore__ inline void LoadFilter(uint32_t ch)
    {
        const uint64_t base = static_cast<uint64_t>(ch) * taps;
        for (uint32_t t = 0; t < taps && t < kMaxTaps; ++t) {
            filt[t] = wGm.GetValue(base + t);
        }
        biasVal = tl.hasBias ? bGm.GetValue(ch) : 0.0f;
    }

    // Loads x_row[c0 .. c0 + outW) into the next input buffer, zero filled outside the row.
    // `tail` receives the first (block aligned) position that still has to be zeroed.
    __aicore__ inline bool FetchSegment(uint64_t rowOff, int32_t c0, uint32_t& tail)
    {
        int32_t lo = c0 > 0 ? c0 : 0;
        int32_t hi = c0 + static_cast<int32_t>(tl.outW);
        if (hi > static_cast<int32_t>(tl.inW)) {
            hi = static_cast<int32_t>(tl.inW);
        }
        if (hi <= lo) {
            return false;
        }
        uint32_t left = static_cast<uint32_t>(lo - c0);
        uint32_t cnt = static_cast<uint32_t>(hi - lo);
        uint32_t used = left + cnt;
        tail = (used + kF32PerBlock - 1) / kF32PerBlock * kF32PerBlock;

        LocalTensor<float> seg = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, static_cast<uint8_t>(left), static_cast<uint8_t>(tail - used), 0.0f};
        DataCopyPad(seg, xGm[rowOff + lo], cp, pad);
        inQ.EnQue(seg);
        return true;
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, kInDepth> inQ;
    TQue<QuePosition::VECOUT, kOutDepth> outQ;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    ChannelwiseConv2dTilingData tl;
    uint32_t planeBeg = 0, planeCnt = 0, taps = 0;
    float filt[kMaxTaps];
    float biasVal = 0.0f;
};

extern "C" __global__ __aicore__ void channelwise_conv2d(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ChannelwiseConv2dKernel op;
    op.Init(x, weight, bias, y, td);
    if (TILING_KEY_IS(1)) {
        op.RunVector();
    } else if (TILING_KEY_IS(2)) {
        op.RunScalar();
    }
}
