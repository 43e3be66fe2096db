// pixel_replicate_x4: integer-factor nearest upscaling of NCHW float planes.
//   out[p, y, x] = in[p, y / f, x / f]
//
// A tile is `rowsIn` consecutive input rows of one plane. Its output is the
// contiguous block of rowsIn*f output rows, so it can be built in UB in one go
// with the vector Gather instruction (per-element byte offsets computed once
// in Init) and stored with a single DataCopy.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;

struct PixelReplicateTiling {
    uint32_t planes;       // N * C
    uint32_t inH;
    uint32_t inW;          // multiple of 8
    uint32_t factor;
    uint32_t rowsIn;       // input rows per tile (divides inH)
    uint32_t tilesPerCore;
};

class PixelReplicate {
public:
    __aicore__ inline PixelReplicate() {}

    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, GM_ADDR tiling)
    {
        auto p = reinterpret_cast<__gm__ uint32_t *>(tiling);
        cfg.planes = p[0];
        cfg.inH = p[1];
        cfg.inW = p[2];
        cfg.factor = p[3];
        cfg.rowsIn = p[4];
        cfg.tilesPerCore = p[5];

        outW = cfg.inW * cfg.factor;
        inTile = cfg.rowsIn * cfg.inW;
        outTile = cfg.rowsIn * cfg.factor * outW;
        tilesPerPlane = cfg.inH / cfg.rowsIn;

        const uint64_t inPlane = (uint64_t)cfg.inH * cfg.inW;
        srcGm.SetGlobalBuffer((__gm__ float *)src, cfg.planes * inPlane);
        dstGm.SetGlobalBuffer((__gm__ float *)dst, cfg.planes * inPlane * cfg.factor * cfg.factor);

        pipe.InitBuffer(inQ, DEPTH, inTile * sizeof(float));
        pipe.InitBuffer(outQ, DEPTH, outTile * sizeof(float));
        pipe.InitBuffer(idxBuf, outTile * sizeof(uint32_t));

        // byte offset into the input tile for every output element of the tile
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t i = 0; i < outTile; ++i) {
            const uint32_t oy = i / outW;
            const uint32_t ox = i - oy * outW;
            idx.SetValue(i, ((oy / cfg.factor) * cfg.inW + ox / cfg.factor) * sizeof(float));
        }
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void Process()
    {
        const uint32_t total = cfg.planes * tilesPerPlane;
        const uint32_t begin = GetBlockIdx() * cfg.tilesPerCore;
        uint32_t end = begin + cfg.tilesPerCore;
        if (end > total) {
            end = total;
        }
        for (uint32_t tIdx = begin; tIdx < end; ++tIdx) {
            CopyIn(tIdx);
            Expand();
            CopyOut(tIdx);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t tIdx)
    {
        LocalTensor<float> a = inQ.AllocTensor<float>();
        // tiles are contiguous in the input: plane-major, rowsIn rows each
        DataCopy(a, srcGm[(uint64_t)tIdx * inTile], inTile);
        inQ.EnQue(a);
    }

    __aicore__ inline void Expand()
    {
        LocalTensor<float> a = inQ.DeQue<float>();
        LocalTensor<float> z = outQ.AllocTensor<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        Gather(z, a, idx, (uint32_t)0, outTile);
        outQ.EnQue(z);
        inQ.FreeTensor(a);
    }

    __aicore__ inline void CopyOut(uint32_t tIdx)
    {
        LocalTensor<float> z = outQ.DeQue<float>();
        // output tiles are contiguous too: each is factor^2 times bigger
        DataCopy(dstGm[(uint64_t)tIdx * outTile], z, outTile);
        outQ.FreeTensor(z);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> inQ;
    TQue<QuePosition::VECOUT, DEPTH> outQ;
    TBuf<TPosition::VECCALC> idxBuf;
    GlobalTensor<float> srcGm, dstGm;
    PixelReplicateTiling cfg;
    uint32_t outW = 0, inTile = 0, outTile = 0, tilesPerPlane = 0;
};

extern "C" __global__ __aicore__ void pixel_replicate_x4(GM_ADDR src, GM_ADDR dst, GM_ADDR tiling)
{
    PixelReplicate k;
    k.Init(src, dst, tiling);
    k.Process();
}
