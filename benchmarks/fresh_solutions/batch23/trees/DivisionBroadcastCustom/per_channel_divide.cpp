/*
 * per_channel_divide
 *   y[n, c, h, w] = x[n, c, h, w] / s[c]
 *
 * x is viewed as (planes = N*C, planeLen = H*W). Each core gets a contiguous
 * run of planes; a plane is divided by a UB vector filled with its channel's
 * divisor (true division, so results match x / s bit for bit up to rounding).
 */
#include "kernel_operator.h"

constexpr int32_t QUEUE_DEPTH = 2;

struct PerChannelDivideTiling {
    uint32_t planes;        // N * C
    uint32_t channels;      // C
    uint32_t planeLen;      // H * W
    uint32_t tileLen;       // elements per tile (<= planeLen, multiple of 8)
    uint32_t tilesPerPlane;
    uint32_t tailLen;
    uint32_t planesPerCore;
    uint32_t pad;
};

class PerChannelDivide {
public:
    __aicore__ inline PerChannelDivide() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR s, GM_ADDR y, const PerChannelDivideTiling &tl)
    {
        t = tl;
        startPlane = AscendC::GetBlockIdx() * t.planesPerCore;
        endPlane = startPlane + t.planesPerCore;
        if (endPlane > t.planes) {
            endPlane = t.planes;
        }
        uint64_t total = static_cast<uint64_t>(t.planes) * t.planeLen;
        xGm.SetGlobalBuffer((__gm__ float *)x, total);
        yGm.SetGlobalBuffer((__gm__ float *)y, total);
        sGm.SetGlobalBuffer((__gm__ float *)s, t.channels);

        pipe.InitBuffer(inQ, QUEUE_DEPTH, t.tileLen * sizeof(float));
        pipe.InitBuffer(outQ, QUEUE_DEPTH, t.tileLen * sizeof(float));
        pipe.InitBuffer(divisorBuf, t.tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = startPlane; p < endPlane; ++p) {
            // divisor for this channel, read as a scalar straight from GM
            float d = sGm.GetValue(p % t.channels);
            AscendC::LocalTensor<float> dv = divisorBuf.Get<float>();
            AscendC::Duplicate(dv, d, t.tileLen);

            uint64_t base = static_cast<uint64_t>(p) * t.planeLen;
            for (uint32_t i = 0; i < t.tilesPerPlane; ++i) {
                uint32_t n = (i == t.tilesPerPlane - 1) ? t.tailLen : t.tileLen;
                uint64_t off = base + static_cast<uint64_t>(i) * t.tileLen;
                CopyIn(off, n);
                Compute(n);
                CopyOut(off, n);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        AscendC::LocalTensor<float> v = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(v, xGm[off], cp, pd);
        inQ.EnQue(v);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        AscendC::LocalTensor<float> v = inQ.DeQue<float>();
        AscendC::LocalTensor<float> r = outQ.AllocTensor<float>();
        AscendC::LocalTensor<float> dv = divisorBuf.Get<float>();
        AscendC::Div(r, v, dv, n);
        outQ.EnQue(r);
        inQ.FreeTensor(v);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        AscendC::LocalTensor<float> r = outQ.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], r, cp);
        outQ.FreeTensor(r);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, QUEUE_DEPTH> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, QUEUE_DEPTH> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> divisorBuf;
    AscendC::GlobalTensor<float> xGm, yGm, sGm;
    PerChannelDivideTiling t;
    uint32_t startPlane = 0;
    uint32_t endPlane = 0;
};

extern "C" __global__ __aicore__ void per_channel_divide(GM_ADDR x, GM_ADDR s, GM_ADDR y, GM_ADDR tiling)
{
    PerChannelDivideTiling tl;
    auto *gm = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto *dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(PerChannelDivideTiling) / sizeof(uint32_t); ++i) {
        dst[i] = gm[i];
    }
    PerChannelDivide op;
    op.Init(x, s, y, tl);
    op.Process();
}
