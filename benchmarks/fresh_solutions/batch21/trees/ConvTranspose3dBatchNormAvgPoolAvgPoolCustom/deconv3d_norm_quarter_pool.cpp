/**
 * deconv3d_norm_quarter_pool.cpp
 *
 * Transposed 3-D convolution -> per-channel batch normalisation (batch statistics)
 * -> two back-to-back 2x2x2 average pools.
 *
 * Two 2x2x2 pools with floor rounding are the same as one 4x4x4 pool over the
 * first 4*floor(floor(L/2)/2) elements of every axis.  Normalisation is an affine
 * map per channel, so it commutes with averaging: we pool the raw deconvolution
 * output and apply scale/shift at the very end.  The statistics, however, must be
 * taken over the *whole* deconvolution output, including the tail that the pools
 * drop.
 *
 * Work split: one AI core owns one output channel (for every batch item), so the
 * channel statistics never have to be exchanged between cores.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct Deconv3dNormQuarterPoolTiling {
    uint32_t batch;
    uint32_t inCh;
    uint32_t outCh;
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t outD;      // deconvolution output extent
    uint32_t outH;
    uint32_t outW;
    uint32_t kernel;    // cubic kernel edge
    uint32_t stride;
    uint32_t pad;
    uint32_t poolD;     // final (pooled) extent
    uint32_t poolH;
    uint32_t poolW;
    float eps;
};

__aicore__ inline void LoadTiling(Deconv3dNormQuarterPoolTiling *t, GM_ADDR tiling)
{
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(t);
    for (uint32_t i = 0; i < sizeof(Deconv3dNormQuarterPoolTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
}

class Deconv3dNormQuarterPool {
public:
    __aicore__ inline Deconv3dNormQuarterPool() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR y, const Deconv3dNormQuarterPoolTiling &t)
    {
        tl = t;
        kVol = tl.kernel * tl.kernel * tl.kernel;
        inVol = tl.inD * tl.inH * tl.inW;
        poolVol = tl.poolD * tl.poolH * tl.poolW;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tl.batch * tl.inCh * inVol);
        wGm.SetGlobalBuffer((__gm__ float *)weight, (uint64_t)tl.inCh * tl.outCh * kVol);
        bGm.SetGlobalBuffer((__gm__ float *)bias, tl.outCh);
        gGm.SetGlobalBuffer((__gm__ float *)gamma, tl.outCh);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, tl.outCh);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)tl.batch * tl.outCh * poolVol);

        pipe.InitBuffer(wBuf, AlignUp(tl.inCh * tl.outCh * kVol) * sizeof(float));
        pipe.InitBuffer(xBuf, AlignUp(tl.inCh * inVol) * sizeof(float));
        pipe.InitBuffer(rowBuf, AlignUp(tl.outW) * sizeof(float));
        pipe.InitBuffer(accBuf, AlignUp(tl.batch * poolVol) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        // the full weight tensor is tiny, keep it resident
        LocalTensor<float> wLocal = wBuf.Get<float>();
        DataCopyPad(wLocal, wGm, {1, tl.inCh * tl.outCh * kVol * (uint32_t)sizeof(float), 0, 0, 0},
                    {false, 0, 0, 0});
        SyncMte2ToScalar();

        for (uint32_t co = GetBlockIdx(); co < tl.outCh; co += GetBlockNum()) {
            ProcessChannel(co);
        }
    }

private:
    __aicore__ inline uint32_t AlignUp(uint32_t n) { return (n + 7) / 8 * 8; }

    __aicore__ inline void SyncMte2ToScalar()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void SyncScalarToMte2()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
        SetFlag<HardEvent::S_MTE2>(ev);
        WaitFlag<HardEvent::S_MTE2>(ev);
    }

    // one output row (fixed n, co, od, oh) of the transposed convolution, gather form
    __aicore__ inline void DeconvRow(LocalTensor<float> &xl, LocalTensor<float> &wl, LocalTensor<float> &row,
                                     uint32_t co, uint32_t od, uint32_t oh, float biasVal)
    {
        const int32_t K = tl.kernel, S = tl.stride, P = tl.pad;
        for (uint32_t ow = 0; ow < tl.outW; ++ow) {
            row.SetValue(ow, biasVal);
        }
        for (int32_t kd = 0; kd < K; ++kd) {
            int32_t td = (int32_t)od + P - kd;
            if (td < 0 || td % S != 0 || td / S >= (int32_t)tl.inD) continue;
            int32_t id = td / S;
            for (int32_t kh = 0; kh < K; ++kh) {
                int32_t th = (int32_t)oh + P - kh;
                if (th < 0 || th % S != 0 || th / S >= (int32_t)tl.inH) continue;
                int32_t ih = th / S;
                for (uint32_t ci = 0; ci < tl.inCh; ++ci) {
                    uint32_t xBase = ci * inVol + (id * tl.inH + ih) * tl.inW;
                    // weight layout: [inCh][outCh][kd][kh][kw]
                    uint32_t wBase = ((ci * tl.outCh + co) * K + kd) * K * K + kh * K;
                    for (uint32_t ow = 0; ow < tl.outW; ++ow) {
                        float acc = row.GetValue(ow);
                        for (int32_t kw = 0; kw < K; ++kw) {
                            int32_t tw = (int32_t)ow + P - kw;
                            if (tw < 0 || tw % S != 0 || tw / S >= (int32_t)tl.inW) continue;
                            acc += xl.GetValue(xBase + tw / S) * wl.GetValue(wBase + kw);
                        }
                        row.SetValue(ow, acc);
                    }
                }
            }
        }
    }

    __aicore__ inline void ProcessChannel(uint32_t co)
    {
        LocalTensor<float> wLocal = wBuf.Get<float>();
        LocalTensor<float> xLocal = xBuf.Get<float>();
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();

        const float biasVal = bGm.GetValue(co);
        const uint32_t usedD = tl.poolD * 4, usedH = tl.poolH * 4, usedW = tl.poolW * 4;

        for (uint32_t i = 0; i < tl.batch * poolVol; ++i) {
            acc.SetValue(i, 0.0f);
        }

        float sum = 0.0f;
        float sqSum = 0.0f;
        for (uint32_t n = 0; n < tl.batch; ++n) {
            SyncScalarToMte2();   // previous batch item finished reading xLocal
            DataCopyPad(xLocal, xGm[(uint64_t)n * tl.inCh * inVol],
                        {1, tl.inCh * inVol * (uint32_t)sizeof(float), 0, 0, 0}, {false, 0, 0, 0});
            SyncMte2ToScalar();

            for (uint32_t od = 0; od < tl.outD; ++od) {
                for (uint32_t oh = 0; oh < tl.outH; ++oh) {
                    DeconvRow(xLocal, wLocal, row, co, od, oh, biasVal);
                    const bool pooled = (od < usedD) && (oh < usedH);
                    uint32_t accBase = n * poolVol + ((od >> 2) * tl.poolH + (oh >> 2)) * tl.poolW;
                    for (uint32_t ow = 0; ow < tl.outW; ++ow) {
                        float v = row.GetValue(ow);
                        sum += v;
                        sqSum += v * v;
                        if (pooled && ow < usedW) {
                            uint32_t idx = accBase + (ow >> 2);
                            acc.SetValue(idx, acc.GetValue(idx) + v);
                        }
                    }
                }
            }
        }

        // batch statistics of this channel (biased variance, as in training mode)
        const float count = (float)tl.batch * tl.outD * tl.outH * tl.outW;
        const float mean = sum / count;
        float var = sqSum / count - mean * mean;
        if (var < 0.0f) var = 0.0f;
        const float g = gGm.GetValue(co);
        const float b = betaGm.GetValue(co);

        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);

        // pooled = sum/64 ; out = (pooled - mean) * g / sqrt(var+eps) + b
        LocalTensor<float> tmp = row;
        Duplicate(tmp, var + tl.eps, 8);
        Sqrt(tmp, tmp, 8);
        PipeBarrier<PIPE_V>();
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        const float scale = g / tmp.GetValue(0);
        const float shift = b - mean * scale;
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);

        const uint32_t total = tl.batch * poolVol;
        Muls(acc, acc, scale / 64.0f, total);
        PipeBarrier<PIPE_V>();
        Adds(acc, acc, shift, total);

        event_t vm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vm);
        WaitFlag<HardEvent::V_MTE3>(vm);
        for (uint32_t n = 0; n < tl.batch; ++n) {
            DataCopyPad(yGm[((uint64_t)n * tl.outCh + co) * poolVol], acc[n * poolVol],
                        {1, poolVol * (uint32_t)sizeof(float), 0, 0, 0});
        }
        event_t ms = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(ms);
        WaitFlag<HardEvent::MTE3_S>(ms);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> wBuf, xBuf, rowBuf, accBuf;
    GlobalTensor<float> xGm, wGm, bGm, gGm, betaGm, yGm;
    Deconv3dNormQuarterPoolTiling tl;
    uint32_t kVol = 0, inVol = 0, poolVol = 0;
};

extern "C" __global__ __aicore__ void deconv3d_norm_quarter_pool(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                 GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                                 GM_ADDR tiling)
{
    Deconv3dNormQuarterPoolTiling t;
    LoadTiling(&t, tiling);
    Deconv3dNormQuarterPool op;
    op.Init(x, weight, bias, gamma, beta, y, t);
    op.Process();
}
