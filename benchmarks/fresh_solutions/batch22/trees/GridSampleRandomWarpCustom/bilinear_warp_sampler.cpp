/*
 * bilinear_warp_sampler
 *
 * Samples an NCHW float image at per-pixel normalized coordinates (x, y) in
 * [-1, 1] (grid layout N x Ho x Wo x 2) with bilinear weights. Corner
 * convention: pixel centres, i.e. ix = ((gx + 1) * W - 1) / 2. Taps that fall
 * outside the image contribute zero.
 *
 * Scheme per output row (n, ho):
 *   1. grid row (Wo x 2 floats, interleaved) -> UB
 *   2. vector unit: pixel coordinates = g * scale + shift (interleaved scale
 *      table built once), floor via CAST_FLOOR, fractional part
 *   3. the rows of the input touched by this output row form a band; if the
 *      band is small it is loaded for all channels into UB, and the 4-tap blend
 *      runs on the scalar unit out of UB. Large bands (strong warps) fall back
 *      to reading taps straight from GM.
 *   4. the C x Wo result goes out with one strided copy.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct BilinearWarpSamplerTiling {
    uint32_t n;
    uint32_t c;
    uint32_t h;
    uint32_t w;
    uint32_t ho;
    uint32_t wo;          // multiple of 8
    uint32_t rowsPerCore; // output rows (over N*Ho) per core
    uint32_t maxBand;     // input rows that fit in the band buffer per channel
};

class BilinearWarpSampler {
public:
    __aicore__ inline BilinearWarpSampler() {}

    __aicore__ inline void Init(GM_ADDR img, GM_ADDR grid, GM_ADDR out, GM_ADDR tilingGm)
    {
        auto raw = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
        uint32_t *dst = reinterpret_cast<uint32_t *>(&tl);
        for (uint32_t i = 0; i < sizeof(tl) / sizeof(uint32_t); ++i) {
            dst[i] = raw[i];
        }
        planeIn = tl.h * tl.w;
        planeOut = tl.ho * tl.wo;

        imgGm.SetGlobalBuffer((__gm__ float *)img, (uint64_t)tl.n * tl.c * planeIn);
        gridGm.SetGlobalBuffer((__gm__ float *)grid, (uint64_t)tl.n * planeOut * 2);
        outGm.SetGlobalBuffer((__gm__ float *)out, (uint64_t)tl.n * tl.c * planeOut);

        const uint32_t pair = tl.wo * 2;
        pipe.InitBuffer(gridQ, 1, pair * sizeof(float));
        pipe.InitBuffer(outQ, 1, tl.c * tl.wo * sizeof(float));
        pipe.InitBuffer(scaleBuf, pair * sizeof(float));
        pipe.InitBuffer(shiftBuf, pair * sizeof(float));
        pipe.InitBuffer(floorBuf, pair * sizeof(int32_t));
        pipe.InitBuffer(fracBuf, pair * sizeof(float));
        pipe.InitBuffer(bandBuf, tl.c * tl.maxBand * tl.w * sizeof(float));

        // interleaved affine map: even lanes use W, odd lanes use H
        LocalTensor<float> sc = scaleBuf.Get<float>();
        LocalTensor<float> sh = shiftBuf.Get<float>();
        const float fw = static_cast<float>(tl.w);
        const float fh = static_cast<float>(tl.h);
        for (uint32_t i = 0; i < tl.wo; ++i) {
            sc.SetValue(2 * i, fw * 0.5f);
            sc.SetValue(2 * i + 1, fh * 0.5f);
            sh.SetValue(2 * i, (fw - 1.0f) * 0.5f);
            sh.SetValue(2 * i + 1, (fh - 1.0f) * 0.5f);
        }
        event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    __aicore__ inline void Process()
    {
        const uint32_t totalRows = tl.n * tl.ho;
        uint32_t r0 = GetBlockIdx() * tl.rowsPerCore;
        uint32_t r1 = r0 + tl.rowsPerCore;
        if (r1 > totalRows) {
            r1 = totalRows;
        }
        for (uint32_t r = r0; r < r1; ++r) {
            const uint32_t nIdx = r / tl.ho;
            const uint32_t hIdx = r % tl.ho;
            LoadGrid(r);
            MapCoords();
            Blend(nIdx);
            Store(nIdx, hIdx);
        }
    }

private:
    __aicore__ inline void LoadGrid(uint32_t row)
    {
        LocalTensor<float> g = gridQ.AllocTensor<float>();
        DataCopy(g, gridGm[(uint64_t)row * tl.wo * 2], tl.wo * 2);
        gridQ.EnQue(g);
    }

    __aicore__ inline void MapCoords()
    {
        const uint32_t pair = tl.wo * 2;
        LocalTensor<float> g = gridQ.DeQue<float>();
        LocalTensor<float> sc = scaleBuf.Get<float>();
        LocalTensor<float> sh = shiftBuf.Get<float>();
        LocalTensor<int32_t> fl = floorBuf.Get<int32_t>();
        LocalTensor<float> fr = fracBuf.Get<float>();

        Mul(g, g, sc, pair);
        Add(g, g, sh, pair);                        // g now holds pixel coordinates
        Cast(fl, g, RoundMode::CAST_FLOOR, pair);    // integer corner
        Cast(fr, fl, RoundMode::CAST_NONE, pair);
        Sub(fr, g, fr, pair);                        // fractional weight in [0, 1)
        gridQ.FreeTensor(g);

        event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
    }

    __aicore__ inline float Tap(bool useBand, const LocalTensor<float> &band, uint64_t gmPlane,
                                uint32_t bandPlane, int32_t yy, int32_t xx, int32_t lo)
    {
        if (xx < 0 || yy < 0 || xx >= static_cast<int32_t>(tl.w) || yy >= static_cast<int32_t>(tl.h)) {
            return 0.0f;
        }
        if (useBand) {
            return band.GetValue(bandPlane + static_cast<uint32_t>(yy - lo) * tl.w + xx);
        }
        return imgGm.GetValue(gmPlane + static_cast<uint64_t>(yy) * tl.w + xx);
    }

    __aicore__ inline void Blend(uint32_t nIdx)
    {
        LocalTensor<int32_t> fl = floorBuf.Get<int32_t>();
        LocalTensor<float> fr = fracBuf.Get<float>();
        LocalTensor<float> band = bandBuf.Get<float>();

        // rows touched by this output row, clipped to the image
        int32_t lo = static_cast<int32_t>(tl.h);
        int32_t hi = -1;
        for (uint32_t j = 0; j < tl.wo; ++j) {
            int32_t y0 = fl.GetValue(2 * j + 1);
            if (y0 < lo) lo = y0;
            if (y0 + 1 > hi) hi = y0 + 1;
        }
        if (lo < 0) lo = 0;
        if (hi > static_cast<int32_t>(tl.h) - 1) hi = static_cast<int32_t>(tl.h) - 1;
        const int32_t bandRows = hi - lo + 1;
        const bool useBand = bandRows > 0 && bandRows <= static_cast<int32_t>(tl.maxBand);

        if (useBand) {
            const uint32_t cnt = static_cast<uint32_t>(bandRows) * tl.w;
            for (uint32_t ch = 0; ch < tl.c; ++ch) {
                uint64_t src = ((uint64_t)nIdx * tl.c + ch) * planeIn + (uint64_t)lo * tl.w;
                DataCopy(band[ch * tl.maxBand * tl.w], imgGm[src], cnt);
            }
            event_t ms = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(ms);
            WaitFlag<HardEvent::MTE2_S>(ms);
        }

        LocalTensor<float> o = outQ.AllocTensor<float>();
        for (uint32_t j = 0; j < tl.wo; ++j) {
            const int32_t x0 = fl.GetValue(2 * j);
            const int32_t y0 = fl.GetValue(2 * j + 1);
            const float ax = fr.GetValue(2 * j);
            const float ay = fr.GetValue(2 * j + 1);
            const float w00 = (1.0f - ax) * (1.0f - ay);
            const float w01 = ax * (1.0f - ay);
            const float w10 = (1.0f - ax) * ay;
            const float w11 = ax * ay;
            for (uint32_t ch = 0; ch < tl.c; ++ch) {
                const uint64_t gmPlane = ((uint64_t)nIdx * tl.c + ch) * planeIn;
                const uint32_t bPlane = ch * tl.maxBand * tl.w;
                float v = w00 * Tap(useBand, band, gmPlane, bPlane, y0, x0, lo) +
                          w01 * Tap(useBand, band, gmPlane, bPlane, y0, x0 + 1, lo) +
                          w10 * Tap(useBand, band, gmPlane, bPlane, y0 + 1, x0, lo) +
                          w11 * Tap(useBand, band, gmPlane, bPlane, y0 + 1, x0 + 1, lo);
                o.SetValue(ch * tl.wo + j, v);
            }
        }
        event_t sm = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sm);
        WaitFlag<HardEvent::S_MTE3>(sm);
        outQ.EnQue(o);
    }

    __aicore__ inline void Store(uint32_t nIdx, uint32_t hIdx)
    {
        LocalTensor<float> o = outQ.DeQue<float>();
        // C rows of Wo floats, one per channel plane
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(tl.c);
        p.blockLen = static_cast<uint16_t>(tl.wo * sizeof(float) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((planeOut - tl.wo) * sizeof(float) / 32);
        DataCopy(outGm[(uint64_t)nIdx * tl.c * planeOut + (uint64_t)hIdx * tl.wo], o, p);
        outQ.FreeTensor(o);
        // band / floor buffers are rewritten by the next row: drain everything first
        PipeBarrier<PIPE_ALL>();
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> gridQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> scaleBuf, shiftBuf, floorBuf, fracBuf, bandBuf;
    GlobalTensor<float> imgGm, gridGm, outGm;
    BilinearWarpSamplerTiling tl;
    uint32_t planeIn = 0;
    uint32_t planeOut = 0;
};

extern "C" __global__ __aicore__ void bilinear_warp_sampler(GM_ADDR img, GM_ADDR grid, GM_ADDR out, GM_ADDR tiling)
{
    BilinearWarpSampler k;
    k.Init(img, grid, out, tiling);
    k.Process();
}
