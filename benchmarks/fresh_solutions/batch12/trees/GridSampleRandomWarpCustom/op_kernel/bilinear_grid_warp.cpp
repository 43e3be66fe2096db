/*
 * BilinearGridWarp kernel.
 *
 * For every output pixel (n, ho, wo) the normalised location grid[n, ho, wo] = (gx, gy)
 * in [-1, 1] is mapped to input pixel space, and the four neighbouring input pixels are
 * blended bilinearly; neighbours that fall outside the image contribute zero.
 *
 * Cores split the output lines (n, ho). A line is processed in chunks of tileW columns:
 *   1. coordinates, corner weights and corner indices are computed once per chunk with
 *      vector instructions (shared by all channels);
 *   2. the input rows touched by the chunk form a narrow band (the grid is a mild warp of
 *      the identity in practice), which is loaded to UB per channel and sampled with the
 *      vector Gather instruction;
 *   3. when the band would not fit in UB we fall back to scalar reads from GM.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t QDEPTH = 2;
constexpr uint32_t SLOTS = 40;

// scratch slot map (each slot is tileW fp32 values)
enum Slot : uint32_t {
    S_GRID = 0,            // 2 slots: interleaved (gx, gy) as fp32
    S_GX = 2, S_GY = 3,    // ix / x1 and iy / y1
    S_X0 = 4, S_ITMP = 5,
    S_WX1 = 6, S_WX0 = 7, S_XC0 = 8, S_XC1 = 9,
    S_Y0 = 10, S_WY1 = 11, S_WY0 = 12, S_YC0 = 13, S_YC1 = 14,
    S_MIN = 15, S_RWORK = 16, S_MAX = 17, S_SUM = 18,
    S_OFF = 19,            // 4 slots: corner offsets (uint32)
    S_W = 23,              // 4 slots: corner weights
    S_VRAW = 27,           // 4 slots: gathered corner values (raw dtype)
    S_VF32 = 31,           // 4 slots: corner values as fp32 (fp16 path)
    S_ACC = 35,
    S_MASK = 36
};

template <HardEvent E>
__aicore__ inline void Barrier()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(ev);
    WaitFlag<E>(ev);
}
}  // namespace

template <typename T>
class BilinearGridWarpKernel {
public:
    __aicore__ inline BilinearGridWarpKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR grid, GM_ADDR y, const BilinearGridWarpTilingData& tiling)
    {
        t = tiling;
        const uint32_t id = GetBlockIdx();
        lineStart = id * t.linesPerCore + (id < t.linesRem ? id : t.linesRem);
        lineCnt = t.linesPerCore + (id < t.linesRem ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ T*)x);
        gridGm.SetGlobalBuffer((__gm__ T*)grid);
        yGm.SetGlobalBuffer((__gm__ T*)y);

        pipe.InitBuffer(gridQue, QDEPTH, t.tileW * 2 * sizeof(T));
        pipe.InitBuffer(outQue, QDEPTH, t.tileW * sizeof(T));
        pipe.InitBuffer(scratchBuf, t.tileW * SLOTS * sizeof(float));
        pipe.InitBuffer(bandBuf, t.bandElems * sizeof(T));

        const float w = static_cast<float>(t.inW);
        const float h = static_cast<float>(t.inH);
        // ix = gx * ax + bx  (align_corners: ((g + 1) / 2) * (W - 1), else ((g + 1) * W - 1) / 2)
        ax = t.alignCorners ? (w - 1.0f) * 0.5f : w * 0.5f;
        bx = (w - 1.0f) * 0.5f;
        ay = t.alignCorners ? (h - 1.0f) * 0.5f : h * 0.5f;
        by = (h - 1.0f) * 0.5f;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t l = 0; l < lineCnt; ++l) {
            const uint32_t line = lineStart + l;
            const uint32_t n = line / t.outH;
            const uint32_t ho = line % t.outH;
            for (uint32_t w0 = 0; w0 < t.outW; w0 += t.tileW) {
                const uint32_t cnt = (t.outW - w0) < t.tileW ? (t.outW - w0) : t.tileW;
                Chunk(n, ho, w0, cnt);
            }
        }
    }

private:
    __aicore__ inline LocalTensor<float> Sl(uint32_t idx)
    {
        return scratchBuf.Get<float>()[idx * t.tileW];
    }

    // Computes clamped corner coordinates along one axis and zeroes the weights of
    // out-of-range corners. On return: c0/c1 clamped coordinates, w0/w1 weights.
    __aicore__ inline void Axis(LocalTensor<float>& coord, LocalTensor<float>& lo, LocalTensor<int32_t> itmp,
                                LocalTensor<float>& w1, LocalTensor<float>& w0, LocalTensor<float>& c0,
                                LocalTensor<float>& c1, float scale, float bias, float limit)
    {
        const uint32_t n = t.tileW;
        LocalTensor<uint8_t> mask = Sl(S_MASK).ReinterpretCast<uint8_t>();
        Muls(coord, coord, scale, n);
        Adds(coord, coord, bias, n);
        Cast(itmp, coord, RoundMode::CAST_FLOOR, n);
        Cast(lo, itmp, RoundMode::CAST_NONE, n);
        Sub(w1, coord, lo, n);            // fractional part -> weight of the upper corner
        Muls(w0, w1, -1.0f, n);
        Adds(w0, w0, 1.0f, n);            // 1 - frac
        Adds(coord, lo, 1.0f, n);         // coord now holds the upper corner
        Maxs(c0, lo, 0.0f, n);
        Mins(c0, c0, limit, n);
        Maxs(c1, coord, 0.0f, n);
        Mins(c1, c1, limit, n);
        Compare(mask, c0, lo, CMPMODE::EQ, n);
        Select(w0, mask, w0, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        Compare(mask, c1, coord, CMPMODE::EQ, n);
        Select(w1, mask, w1, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
    }

    __aicore__ inline void Chunk(uint32_t n, uint32_t ho, uint32_t w0, uint32_t cnt)
    {
        const uint32_t tw = t.tileW;
        // ---- 1. grid -> fp32, de-interleave
        LocalTensor<T> g = gridQue.AllocTensor<T>();
        if (cnt < tw) {
            Duplicate(g, static_cast<T>(0), tw * 2);   // keep tail lanes finite
            Barrier<HardEvent::V_MTE2>();
        }
        DataCopyExtParams gcp{1, static_cast<uint32_t>(cnt * 2 * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        const uint64_t gOff = ((static_cast<uint64_t>(n) * t.outH + ho) * t.outW + w0) * 2;
        DataCopyPad(g, gridGm[gOff], gcp, pad);
        gridQue.EnQue(g);
        g = gridQue.DeQue<T>();

        LocalTensor<float> gf = Sl(S_GRID);
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(gf, g, tw * 2);
        } else {
            Cast(gf, g, RoundMode::CAST_NONE, tw * 2);
        }
        gridQue.FreeTensor(g);

        LocalTensor<float> gx = Sl(S_GX);
        LocalTensor<float> gy = Sl(S_GY);
        uint64_t kept = 0;
        const uint8_t repeats = static_cast<uint8_t>(tw * 2 * sizeof(float) / 256);
        GatherMask(gx, gf, 1, false, 0, {1, repeats, 8, 0}, kept);   // even lanes: x
        GatherMask(gy, gf, 2, false, 0, {1, repeats, 8, 0}, kept);   // odd lanes:  y

        // ---- 2. coordinates / weights
        LocalTensor<int32_t> itmp = Sl(S_ITMP).ReinterpretCast<int32_t>();
        LocalTensor<float> x0 = Sl(S_X0), wx1 = Sl(S_WX1), wx0 = Sl(S_WX0), xc0 = Sl(S_XC0), xc1 = Sl(S_XC1);
        LocalTensor<float> y0 = Sl(S_Y0), wy1 = Sl(S_WY1), wy0 = Sl(S_WY0), yc0 = Sl(S_YC0), yc1 = Sl(S_YC1);
        Axis(gx, x0, itmp, wx1, wx0, xc0, xc1, ax, bx, static_cast<float>(t.inW - 1));
        Axis(gy, y0, itmp, wy1, wy0, yc0, yc1, ay, by, static_cast<float>(t.inH - 1));

        LocalTensor<float> wgt[4] = {Sl(S_W), Sl(S_W + 1), Sl(S_W + 2), Sl(S_W + 3)};
        Mul(wgt[0], wy0, wx0, tw);
        Mul(wgt[1], wy0, wx1, tw);
        Mul(wgt[2], wy1, wx0, tw);
        Mul(wgt[3], wy1, wx1, tw);

        // rows touched by the valid lanes of this chunk
        LocalTensor<float> mn = Sl(S_MIN), mx = Sl(S_MAX), rw = Sl(S_RWORK);
        ReduceMin(mn, yc0, rw, cnt, false);
        ReduceMax(mx, yc1, rw, cnt, false);
        Barrier<HardEvent::V_S>();
        const uint32_t bandLo = static_cast<uint32_t>(mn.GetValue(0));
        const uint32_t bandHi = static_cast<uint32_t>(mx.GetValue(0));
        const uint32_t bandRows = bandHi - bandLo + 1;
        const bool useBand = static_cast<uint64_t>(bandRows) * t.inW <= t.bandElems;

        // corner offsets: bytes inside the band (Gather path) or elements inside the plane
        if (useBand) {
            Maxs(yc0, yc0, static_cast<float>(bandLo), tw);
            Mins(yc0, yc0, static_cast<float>(bandHi), tw);
            Maxs(yc1, yc1, static_cast<float>(bandLo), tw);
            Mins(yc1, yc1, static_cast<float>(bandHi), tw);
            Adds(yc0, yc0, -static_cast<float>(bandLo), tw);
            Adds(yc1, yc1, -static_cast<float>(bandLo), tw);
        }
        const float rowScale = static_cast<float>(t.inW);
        const float unit = useBand ? static_cast<float>(sizeof(T)) : 1.0f;
        Muls(yc0, yc0, rowScale, tw);
        Muls(yc1, yc1, rowScale, tw);
        LocalTensor<float> sum = Sl(S_SUM);
        LocalTensor<float>* rows[4] = {&yc0, &yc0, &yc1, &yc1};
        LocalTensor<float>* cols[4] = {&xc0, &xc1, &xc0, &xc1};
        LocalTensor<int32_t> off[4];
        for (uint32_t k = 0; k < 4; ++k) {
            off[k] = Sl(S_OFF + k).ReinterpretCast<int32_t>();
            Add(sum, *rows[k], *cols[k], tw);
            Muls(sum, sum, unit, tw);
            Cast(off[k], sum, RoundMode::CAST_ROUND, tw);
        }

        // ---- 3. per channel sampling
        LocalTensor<float> acc = Sl(S_ACC);
        const uint64_t planeSize = static_cast<uint64_t>(t.inH) * t.inW;
        for (uint32_t c = 0; c < t.channels; ++c) {
            const uint64_t plane = (static_cast<uint64_t>(n) * t.channels + c) * planeSize;
            if (useBand) {
                SampleBand(plane + static_cast<uint64_t>(bandLo) * t.inW, bandRows, off, wgt, acc);
            } else {
                SampleScalar(plane, cnt, off, wgt, acc);
            }
            Emit(acc, n, c, ho, w0, cnt);
        }
    }

    __aicore__ inline void SampleBand(uint64_t src, uint32_t rows, LocalTensor<int32_t>* off,
                                      LocalTensor<float>* wgt, LocalTensor<float>& acc)
    {
        const uint32_t tw = t.tileW;
        LocalTensor<T> band = bandBuf.Get<T>();
        Barrier<HardEvent::V_MTE2>();   // previous channel's gathers are done with the band
        DataCopyExtParams cp{1, static_cast<uint32_t>(rows * t.inW * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(band, xGm[src], cp, pad);
        Barrier<HardEvent::MTE2_V>();

        for (uint32_t k = 0; k < 4; ++k) {
            LocalTensor<T> raw = Sl(S_VRAW + k).ReinterpretCast<T>();
            Gather(raw, band, off[k].ReinterpretCast<uint32_t>(), 0u, tw);
            LocalTensor<float> v;
            if constexpr (sizeof(T) == sizeof(float)) {
                v = raw.template ReinterpretCast<float>();
            } else {
                v = Sl(S_VF32 + k);
                Cast(v, raw, RoundMode::CAST_NONE, tw);
            }
            if (k == 0) {
                Mul(acc, v, wgt[0], tw);
            } else {
                MulAddDst(acc, v, wgt[k], tw);
            }
        }
    }

    __aicore__ inline void SampleScalar(uint64_t plane, uint32_t cnt, LocalTensor<int32_t>* off,
                                        LocalTensor<float>* wgt, LocalTensor<float>& acc)
    {
        Barrier<HardEvent::V_S>();
        for (uint32_t i = 0; i < cnt; ++i) {
            float s = 0.0f;
            for (uint32_t k = 0; k < 4; ++k) {
                const float wk = wgt[k].GetValue(i);
                if (wk != 0.0f) {
                    s += wk * static_cast<float>(xGm.GetValue(plane + static_cast<uint64_t>(off[k].GetValue(i))));
                }
            }
            acc.SetValue(i, s);
        }
        Barrier<HardEvent::S_V>();
    }

    __aicore__ inline void Emit(LocalTensor<float>& acc, uint32_t n, uint32_t c, uint32_t ho, uint32_t w0,
                                uint32_t cnt)
    {
        LocalTensor<T> o = outQue.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(o, acc, t.tileW);
        } else {
            Cast(o, acc, RoundMode::CAST_ROUND, t.tileW);
        }
        outQue.EnQue(o);
        o = outQue.DeQue<T>();
        const uint64_t dst = ((static_cast<uint64_t>(n) * t.channels + c) * t.outH + ho) * t.outW + w0;
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[dst], o, cp);
        outQue.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, QDEPTH> gridQue;
    TQue<QuePosition::VECOUT, QDEPTH> outQue;
    TBuf<TPosition::VECCALC> scratchBuf, bandBuf;
    GlobalTensor<T> xGm, gridGm, yGm;
    BilinearGridWarpTilingData t;
    uint32_t lineStart = 0, lineCnt = 0;
    float ax = 0.f, bx = 0.f, ay = 0.f, by = 0.f;
};

extern "C" __global__ __aicore__ void bilinear_grid_warp(GM_ADDR x, GM_ADDR grid, GM_ADDR y, GM_ADDR workspace,
                                                         GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(0)) {
        BilinearGridWarpKernel<float> op;
        op.Init(x, grid, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        BilinearGridWarpKernel<half> op;
        op.Init(x, grid, y, tilingData);
        op.Process();
    }
}
