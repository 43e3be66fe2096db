// channel_offset_add: out[n, c, h, w] = x[n, c, h, w] + offset[c]
// Work unit = one (n, c) plane; a plane is split into tiles, and the per-channel offset is
// a scalar for the whole plane, so the add is a single Adds per tile.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t QUEUE_DEPTH = 2;

struct ChannelOffsetAddTiling {
    uint32_t batch;
    uint32_t channels;
    uint32_t planeSize;   // H * W
    uint32_t tileLen;     // elements per tile (multiple of 8)
    uint32_t planesPerCore;
    uint32_t extraPlanes; // first `extraPlanes` cores take one more plane
};

class ChannelOffsetAdd {
public:
    __aicore__ inline ChannelOffsetAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR offset, GM_ADDR out, ChannelOffsetAddTiling *t)
    {
        cfg = t;
        uint32_t id = GetBlockIdx();
        planeBegin = id * cfg->planesPerCore + (id < cfg->extraPlanes ? id : cfg->extraPlanes);
        planeCnt = cfg->planesPerCore + (id < cfg->extraPlanes ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        offGm.SetGlobalBuffer((__gm__ float *)offset, cfg->channels);
        outGm.SetGlobalBuffer((__gm__ float *)out);
        pipe.InitBuffer(qIn, QUEUE_DEPTH, cfg->tileLen * sizeof(float));
        pipe.InitBuffer(qOut, QUEUE_DEPTH, cfg->tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = planeBegin; p < planeBegin + planeCnt; ++p) {
            float bias = offGm.GetValue(p % cfg->channels);
            uint64_t base = (uint64_t)p * cfg->planeSize;
            for (uint32_t off = 0; off < cfg->planeSize; off += cfg->tileLen) {
                uint32_t len = cfg->planeSize - off;
                if (len > cfg->tileLen) {
                    len = cfg->tileLen;
                }
                CopyIn(base + off, len);
                Compute(bias, len);
                CopyOut(base + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<float> t = qIn.AllocTensor<float>();
        if (len % 8 == 0) {
            DataCopy(t, xGm[gmOff], len);
        } else {
            DataCopyPad(t, xGm[gmOff], {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0},
                        {false, 0, 0, 0.0f});
        }
        qIn.EnQue(t);
    }

    __aicore__ inline void Compute(float bias, uint32_t len)
    {
        LocalTensor<float> src = qIn.DeQue<float>();
        LocalTensor<float> dst = qOut.AllocTensor<float>();
        Adds(dst, src, bias, len);
        qOut.EnQue(dst);
        qIn.FreeTensor(src);
    }

    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<float> t = qOut.DeQue<float>();
        if (len % 8 == 0) {
            DataCopy(outGm[gmOff], t, len);
        } else {
            DataCopyPad(outGm[gmOff], t, {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0});
        }
        qOut.FreeTensor(t);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, QUEUE_DEPTH> qIn;
    TQue<QuePosition::VECOUT, QUEUE_DEPTH> qOut;
    GlobalTensor<float> xGm, offGm, outGm;
    ChannelOffsetAddTiling *cfg;
    uint32_t planeBegin = 0;
    uint32_t planeCnt = 0;
};

extern "C" __global__ __aicore__ void channel_offset_add(GM_ADDR x, GM_ADDR offset, GM_ADDR out, GM_ADDR tiling)
{
    ChannelOffsetAddTiling t;
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto *dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    ChannelOffsetAdd op;
    op.Init(x, offset, out, &t);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void channel_offset_add_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *offset, uint8_t *out,
                           uint8_t *tiling)
{
    channel_offset_add<<<blockDim, nullptr, stream>>>(x, offset, out, tiling);
}
#endif
