// channel_bias_add.cpp
// y[n, c, h, w] = x[n, c, h, w] + b[c]
//
// An NCHW tensor is a sequence of N*C contiguous planes of H*W values, and every
// plane sees a single bias scalar. The planes are split evenly between the cores;
// each plane is streamed through UB in tiles and the bias is applied with Adds.
#include "kernel_operator.h"

using namespace AscendC;

struct ChannelBiasAddTiling {
    uint32_t channels;      // C
    uint32_t planeLen;      // H * W
    uint32_t planeCount;    // N * C
    uint32_t planesPerCore;
    uint32_t extraPlanes;   // cores [0, extraPlanes) take one more plane
    uint32_t tileLen;       // elements per UB tile (multiple of 8)
};

namespace {
constexpr int32_t kDepth = 2;
}

class ChannelBiasAdd {
public:
    __aicore__ inline ChannelBiasAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR b, GM_ADDR y, const ChannelBiasAddTiling &t)
    {
        cfg = t;
        uint32_t core = GetBlockIdx();
        firstPlane = core * cfg.planesPerCore + (core < cfg.extraPlanes ? core : cfg.extraPlanes);
        numPlanes = cfg.planesPerCore + (core < cfg.extraPlanes ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        bGm.SetGlobalBuffer((__gm__ float *)b, cfg.channels);

        pipe.InitBuffer(inQ, kDepth, cfg.tileLen * sizeof(float));
        pipe.InitBuffer(outQ, kDepth, cfg.tileLen * sizeof(float));
        uint32_t cAlign = (cfg.channels + 7) / 8 * 8;
        pipe.InitBuffer(biasBuf, cAlign * sizeof(float));

        // the bias vector is tiny: keep all of it in UB for scalar reads
        biasLocal = biasBuf.Get<float>();
        DataCopyPad(biasLocal, bGm, DataCopyExtParams{1, cfg.channels * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < numPlanes; ++p) {
            uint32_t plane = firstPlane + p;
            float bv = biasLocal.GetValue(plane % cfg.channels);
            uint64_t base = (uint64_t)plane * cfg.planeLen;
            for (uint32_t off = 0; off < cfg.planeLen; off += cfg.tileLen) {
                uint32_t len = cfg.planeLen - off < cfg.tileLen ? cfg.planeLen - off : cfg.tileLen;
                CopyIn(base + off, len);
                Compute(bv, len);
                CopyOut(base + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t pos, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopyPad(xl, xGm[pos], DataCopyExtParams{1, len * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(float bv, uint32_t len)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        Adds(yl, xl, bv, len);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t pos, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopyPad(yGm[pos], yl, DataCopyExtParams{1, len * (uint32_t)sizeof(float), 0, 0, 0});
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, kDepth> inQ;
    TQue<QuePosition::VECOUT, kDepth> outQ;
    TBuf<TPosition::VECCALC> biasBuf;
    GlobalTensor<float> xGm, yGm, bGm;
    LocalTensor<float> biasLocal;
    ChannelBiasAddTiling cfg;
    uint32_t firstPlane = 0;
    uint32_t numPlanes = 0;
};

extern "C" __global__ __aicore__ void channel_bias_add(GM_ADDR x, GM_ADDR b, GM_ADDR y, GM_ADDR tiling)
{
    ChannelBiasAddTiling t;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    ChannelBiasAdd op;
    op.Init(x, b, y, t);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void channel_bias_add_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *b, uint8_t *y, uint8_t *tiling)
{
    channel_bias_add<<<blockDim, nullptr, stream>>>(x, b, y, tiling);
}
#endif
