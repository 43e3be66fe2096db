// y[n, c, h, w] = x[n, c, h, w] + bias[c]  (NCHW, float32)
// Planes (n, c) are contiguous runs of H*W values sharing one bias, so each plane is a single Adds.
#include "kernel_operator.h"

using namespace AscendC;

struct ChannelOffsetAddTiling {
    uint32_t planes;          // N * C
    uint32_t channels;        // C
    uint32_t planeLen;        // H * W (multiple of 8)
    uint32_t planesPerTile;   // planes moved per DMA
    uint32_t planesPerCore;
};

constexpr int32_t QDEPTH = 2;

class ChannelOffsetAdd {
public:
    __aicore__ inline ChannelOffsetAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const ChannelOffsetAddTiling &tt)
    {
        t = tt;
        first = GetBlockIdx() * t.planesPerCore;
        last = first + t.planesPerCore < t.planes ? first + t.planesPerCore : t.planes;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        bGm.SetGlobalBuffer((__gm__ float *)bias, t.channels);
        uint32_t bytes = t.planesPerTile * t.planeLen * sizeof(float);
        pipe.InitBuffer(inQ, QDEPTH, bytes);
        pipe.InitBuffer(outQ, QDEPTH, bytes);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = first; p < last; p += t.planesPerTile) {
            uint32_t cnt = (last - p) < t.planesPerTile ? (last - p) : t.planesPerTile;
            CopyIn(p, cnt);
            Compute(p, cnt);
            CopyOut(p, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t p, uint32_t cnt)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopy(xl, xGm[(uint64_t)p * t.planeLen], cnt * t.planeLen);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t p, uint32_t cnt)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        for (uint32_t i = 0; i < cnt; ++i) {
            float b = bGm.GetValue((p + i) % t.channels);
            Adds(yl[i * t.planeLen], xl[i * t.planeLen], b, t.planeLen);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t p, uint32_t cnt)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopy(yGm[(uint64_t)p * t.planeLen], yl, cnt * t.planeLen);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, QDEPTH> inQ;
    TQue<QuePosition::VECOUT, QDEPTH> outQ;
    GlobalTensor<float> xGm, yGm, bGm;
    ChannelOffsetAddTiling t;
    uint32_t first, last;
};

extern "C" __global__ __aicore__ void channel_offset_add(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR tiling)
{
    ChannelOffsetAddTiling t;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) dst[i] = src[i];
    ChannelOffsetAdd op;
    op.Init(x, bias, y, t);
    op.Process();
}
