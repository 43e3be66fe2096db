/*
 * conv_offset_mish.cpp
 *
 * Direct 2-D convolution (stride 1, no padding) followed by subtraction of a
 * constant offset and the Mish activation:
 *     z = conv(x, w) + b - offset
 *     y = z * tanh(softplus(z))
 *
 * Work unit = one output row (n, oh) for ALL output channels.
 * For that row we gather the IC*KH*KW shifted input rows once into UB
 * (DataCopyPad handles the unaligned GM start of the kw shift), then every
 * output channel is an accumulation of Axpy's over those rows.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct ConvOffsetMishTiling {
    uint32_t batch;
    uint32_t inC;
    uint32_t inH;
    uint32_t inW;
    uint32_t outC;
    uint32_t kH;
    uint32_t kW;
    uint32_t outH;
    uint32_t outW;
    uint32_t outWAlign;   // outW rounded up to 8 floats
    uint32_t rowsPerCore; // (n, oh) rows handled per core
    uint32_t totalRows;   // batch * outH
    float offset;         // sum of the constants subtracted after the conv
};

class ConvOffsetMishKernel {
public:
    __aicore__ inline ConvOffsetMishKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const ConvOffsetMishTiling &tiling)
    {
        tl = tiling;
        taps = tl.inC * tl.kH * tl.kW;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        uint32_t wCount = tl.outC * taps;
        uint32_t wAlign = (wCount + 7) / 8 * 8;
        uint32_t bAlign = (tl.outC + 7) / 8 * 8;
        pipe.InitBuffer(patchBuf, taps * tl.outWAlign * sizeof(float));
        pipe.InitBuffer(weightBuf, wAlign * sizeof(float));
        pipe.InitBuffer(biasBuf, bAlign * sizeof(float));
        pipe.InitBuffer(tmpBuf, tl.outWAlign * sizeof(float));
        pipe.InitBuffer(denBuf, tl.outWAlign * sizeof(float));
        pipe.InitBuffer(outQueue, 2, tl.outWAlign * sizeof(float));

        // weights and bias are tiny: keep them resident in UB for scalar reads
        weights = weightBuf.Get<float>();
        bias = biasBuf.Get<float>();
        DataCopyExtParams wp{1, wCount * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(weights, wGm, wp, pad);
        DataCopyExtParams bp{1, tl.outC * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(bias, bGm, bp, pad);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);

        rowStart = GetBlockIdx() * tl.rowsPerCore;
        rowStop = rowStart + tl.rowsPerCore;
        if (rowStop > tl.totalRows) rowStop = tl.totalRows;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = rowStart; row < rowStop; ++row) {
            uint32_t n = row / tl.outH;
            uint32_t oh = row % tl.outH;
            GatherPatch(n, oh);
            for (uint32_t oc = 0; oc < tl.outC; ++oc) {
                ComputeChannel(oc);
                StoreChannel(n, oc, oh);
            }
        }
    }

private:
    // Load the taps shifted input rows for output row (n, oh) into patchBuf.
    __aicore__ inline void GatherPatch(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> patch = patchBuf.Get<float>();
        // previous row's vector work must be finished before we overwrite the patch
        event_t evVM = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(evVM);
        WaitFlag<HardEvent::V_MTE2>(evVM);

        DataCopyExtParams cp{1, tl.outW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint32_t t = 0;
        for (uint32_t ic = 0; ic < tl.inC; ++ic) {
            uint64_t plane = ((uint64_t)n * tl.inC + ic) * tl.inH * tl.inW;
            for (uint32_t kh = 0; kh < tl.kH; ++kh) {
                uint64_t rowBase = plane + (uint64_t)(oh + kh) * tl.inW;
                for (uint32_t kw = 0; kw < tl.kW; ++kw, ++t) {
                    DataCopyPad(patch[t * tl.outWAlign], xGm[rowBase + kw], cp, pad);
                }
            }
        }
        event_t evMV = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evMV);
        WaitFlag<HardEvent::MTE2_V>(evMV);
    }

    __aicore__ inline void ComputeChannel(uint32_t oc)
    {
        LocalTensor<float> patch = patchBuf.Get<float>();
        LocalTensor<float> acc = outQueue.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        const uint32_t len = tl.outWAlign;

        // start from bias minus the fused constant offset
        float init = bias.GetValue(oc) - tl.offset;
        Duplicate(acc, init, len);
        uint32_t wBase = oc * taps;
        for (uint32_t t = 0; t < taps; ++t) {
            float wv = weights.GetValue(wBase + t);
            Axpy(acc, patch[t * len], wv, len);
        }

        // Mish: z * tanh(log(1 + e^z)) = z * (s - 1) / (s + 1),  s = (1 + e^z)^2
        LocalTensor<float> den = denBuf.Get<float>();
        Mins(tmp, acc, 20.0f, len);           // avoid overflow; the ratio is 1 there anyway
        Exp(tmp, tmp, len);
        Adds(tmp, tmp, 1.0f, len);
        Mul(tmp, tmp, tmp, len);              // s
        Adds(den, tmp, 1.0f, len);            // s + 1
        Adds(tmp, tmp, -1.0f, len);           // s - 1
        Div(tmp, tmp, den, len);              // tanh(softplus(z))
        Mul(acc, acc, tmp, len);

        outQueue.EnQue(acc);
    }

    __aicore__ inline void StoreChannel(uint32_t n, uint32_t oc, uint32_t oh)
    {
        LocalTensor<float> res = outQueue.DeQue<float>();
        uint64_t dst = (((uint64_t)n * tl.outC + oc) * tl.outH + oh) * tl.outW;
        DataCopyExtParams cp{1, tl.outW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[dst], res, cp);
        outQueue.FreeTensor(res);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> patchBuf, weightBuf, biasBuf, tmpBuf, denBuf;
    TQue<QuePosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    LocalTensor<float> weights, bias;
    ConvOffsetMishTiling tl;
    uint32_t taps = 0;
    uint32_t rowStart = 0, rowStop = 0;
};

extern "C" __global__ __aicore__ void conv_offset_mish(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR tiling)
{
    ConvOffsetMishTiling tl;
    auto *src = reinterpret_cast<__gm__ uint8_t *>(tiling);
    auto *dst = reinterpret_cast<uint8_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(tl); ++i) {
        dst[i] = src[i];
    }
    ConvOffsetMishKernel k;
    k.Init(x, w, b, y, tl);
    k.Process();
}
