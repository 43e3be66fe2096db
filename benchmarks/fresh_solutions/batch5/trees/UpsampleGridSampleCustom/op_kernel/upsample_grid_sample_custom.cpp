#include "kernel_operator.h"

using namespace AscendC;

// per (n, c) plane:
//   1) bilinear x2 upsample (align_corners=False) into UB, separable: gather along W, axpy along H
//   2) affine grid + bilinear grid_sample (zeros padding, align_corners=False) from the UB plane
class KernelUpsampleGridSample {
public:
    __aicore__ inline KernelUpsampleGridSample() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR theta, GM_ADDR y, const UpsampleGridSampleCustomTilingData& t)
    {
        C = t.channels; H = t.inH; W = t.inW; UH = t.upH; UW = t.upW;
        rowsPerTile = t.rowsPerTile;
        uint32_t bid = GetBlockIdx();
        planeCnt = t.planesPerCore + (bid < t.extraPlanes ? 1 : 0);
        planeBeg = bid * t.planesPerCore + (bid < t.extraPlanes ? bid : t.extraPlanes);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        thGm.SetGlobalBuffer((__gm__ float*)theta);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQ, 1, H * W * sizeof(float));
        pipe.InitBuffer(outQ, 2, rowsPerTile * UW * sizeof(float));
        pipe.InitBuffer(hBuf, H * UW * sizeof(float));
        pipe.InitBuffer(upBuf, UH * UW * sizeof(float));
        pipe.InitBuffer(tabBuf, 5 * UW * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_SLOTS * UW * sizeof(float));

        // horizontal upsample taps + normalised base x coordinate of the grid
        LocalTensor<float> tab = tabBuf.Get<float>();
        LocalTensor<uint32_t> tabU = tab.ReinterpretCast<uint32_t>();
        float scale = static_cast<float>(W) / static_cast<float>(UW);
        for (uint32_t j = 0; j < UW; ++j) {
            float src = (static_cast<float>(j) + 0.5f) * scale - 0.5f;
            if (src < 0.0f) src = 0.0f;
            uint32_t i0 = static_cast<uint32_t>(src);
            uint32_t i1 = (i0 + 1 < W) ? i0 + 1 : W - 1;
            float l1 = src - static_cast<float>(i0);
            tabU.SetValue(j, i0 * sizeof(float));
            tabU.SetValue(UW + j, i1 * sizeof(float));
            tab.SetValue(2 * UW + j, 1.0f - l1);
            tab.SetValue(3 * UW + j, l1);
            tab.SetValue(4 * UW + j, (2.0f * j + 1.0f) / static_cast<float>(UW) - 1.0f);
        }
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < planeCnt; ++p) {
            uint32_t plane = planeBeg + p;
            uint32_t n = plane / C;
            LoadPlane(plane);
            Upsample();
            float th[6];
            for (int i = 0; i < 6; ++i) {
                th[i] = thGm.GetValue(n * 6 + i);
            }
            GridSample(plane, th);
        }
    }

private:
    static constexpr uint32_t WORK_SLOTS = 20;

    __aicore__ inline void LoadPlane(uint32_t plane)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopy(xl, xGm[(uint64_t)plane * H * W], H * W);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Upsample()
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> hb = hBuf.Get<float>();
        LocalTensor<float> up = upBuf.Get<float>();
        LocalTensor<float> tab = tabBuf.Get<float>();
        LocalTensor<uint32_t> tabU = tab.ReinterpretCast<uint32_t>();
        LocalTensor<float> wk = workBuf.Get<float>();
        LocalTensor<float> gA = wk;
        LocalTensor<float> gB = wk[UW];

        for (uint32_t r = 0; r < H; ++r) {
            Gather(gA, xl[r * W], tabU, 0, UW);
            Gather(gB, xl[r * W], tabU[UW], 0, UW);
            PipeBarrier<PIPE_V>();
            Mul(gA, gA, tab[2 * UW], UW);
            Mul(gB, gB, tab[3 * UW], UW);
            PipeBarrier<PIPE_V>();
            Add(hb[r * UW], gA, gB, UW);
            PipeBarrier<PIPE_V>();
        }
        inQ.FreeTensor(xl);

        float scale = static_cast<float>(H) / static_cast<float>(UH);
        for (uint32_t oy = 0; oy < UH; ++oy) {
            float src = (static_cast<float>(oy) + 0.5f) * scale - 0.5f;
            if (src < 0.0f) src = 0.0f;
            uint32_t y0 = static_cast<uint32_t>(src);
            uint32_t y1 = (y0 + 1 < H) ? y0 + 1 : H - 1;
            float l1 = src - static_cast<float>(y0);
            Muls(up[oy * UW], hb[y0 * UW], 1.0f - l1, UW);
            PipeBarrier<PIPE_V>();
            Axpy(up[oy * UW], hb[y1 * UW], l1, UW);
        }
        PipeBarrier<PIPE_V>();
    }

    // v = 1 where 0 <= base + shift <= lim - 1, else 0 (base holds integers)
    __aicore__ inline void InRange(const LocalTensor<float>& v, const LocalTensor<float>& base, float shift,
                                   float lim, const LocalTensor<float>& tmp)
    {
        Adds(v, base, shift + 1.0f, UW);
        Muls(tmp, base, -1.0f, UW);
        PipeBarrier<PIPE_V>();
        Adds(tmp, tmp, lim - shift, UW);
        Maxs(v, v, 0.0f, UW);
        PipeBarrier<PIPE_V>();
        Maxs(tmp, tmp, 0.0f, UW);
        Mins(v, v, 1.0f, UW);
        PipeBarrier<PIPE_V>();
        Mins(tmp, tmp, 1.0f, UW);
        PipeBarrier<PIPE_V>();
        Mul(v, v, tmp, UW);
    }

    __aicore__ inline void ClampIdx(const LocalTensor<float>& dst, const LocalTensor<float>& base, float shift,
                                    float lim)
    {
        Adds(dst, base, shift, UW);
        PipeBarrier<PIPE_V>();
        Maxs(dst, dst, 0.0f, UW);
        PipeBarrier<PIPE_V>();
        Mins(dst, dst, lim - 1.0f, UW);
    }

    __aicore__ inline void SampleRow(const LocalTensor<float>& outRow, float ys, const float* th)
    {
        LocalTensor<float> up = upBuf.Get<float>();
        LocalTensor<float> baseX = tabBuf.Get<float>()[4 * UW];
        LocalTensor<float> wk = workBuf.Get<float>();
        LocalTensor<float> ix = wk, iy = wk[UW], x0 = wk[2 * UW], y0 = wk[3 * UW];
        LocalTensor<float> fx = wk[4 * UW], fy = wk[5 * UW];
        LocalTensor<float> vx0 = wk[6 * UW], vx1 = wk[7 * UW], vy0 = wk[8 * UW], vy1 = wk[9 * UW];
        LocalTensor<float> xc0 = wk[10 * UW], xc1 = wk[11 * UW], yc0 = wk[12 * UW], yc1 = wk[13 * UW];
        LocalTensor<float> tmp = wk[14 * UW], wgt = wk[15 * UW], g = wk[16 * UW], offF = wk[17 * UW];
        LocalTensor<int32_t> ti = wk[18 * UW].ReinterpretCast<int32_t>();

        float hw = 0.5f * UW, hh = 0.5f * UH;
        // unnormalised source coords: ix = ((gx + 1) * UW - 1) / 2
        Muls(ix, baseX, th[0] * hw, UW);
        Muls(iy, baseX, th[3] * hh, UW);
        PipeBarrier<PIPE_V>();
        Adds(ix, ix, (th[1] * ys + th[2]) * hw + hw - 0.5f, UW);
        Adds(iy, iy, (th[4] * ys + th[5]) * hh + hh - 0.5f, UW);
        PipeBarrier<PIPE_V>();
        Cast(ti, ix, RoundMode::CAST_FLOOR, UW);
        PipeBarrier<PIPE_V>();
        Cast(x0, ti, RoundMode::CAST_NONE, UW);
        PipeBarrier<PIPE_V>();
        Cast(ti, iy, RoundMode::CAST_FLOOR, UW);
        PipeBarrier<PIPE_V>();
        Cast(y0, ti, RoundMode::CAST_NONE, UW);
        PipeBarrier<PIPE_V>();
        Sub(fx, ix, x0, UW);
        Sub(fy, iy, y0, UW);

        InRange(vx0, x0, 0.0f, (float)UW, tmp);
        InRange(vx1, x0, 1.0f, (float)UW, tmp);
        InRange(vy0, y0, 0.0f, (float)UH, tmp);
        InRange(vy1, y0, 1.0f, (float)UH, tmp);
        ClampIdx(xc0, x0, 0.0f, (float)UW);
        ClampIdx(xc1, x0, 1.0f, (float)UW);
        ClampIdx(yc0, y0, 0.0f, (float)UH);
        ClampIdx(yc1, y0, 1.0f, (float)UH);
        PipeBarrier<PIPE_V>();

        // fold the bilinear factors into the validity masks: vx0 *= 1 - fx, vx1 *= fx, ...
        Muls(tmp, fx, -1.0f, UW);
        PipeBarrier<PIPE_V>();
        Adds(tmp, tmp, 1.0f, UW);
        Mul(vx1, vx1, fx, UW);
        PipeBarrier<PIPE_V>();
        Mul(vx0, vx0, tmp, UW);
        Muls(tmp, fy, -1.0f, UW);
        PipeBarrier<PIPE_V>();
        Adds(tmp, tmp, 1.0f, UW);
        Mul(vy1, vy1, fy, UW);
        PipeBarrier<PIPE_V>();
        Mul(vy0, vy0, tmp, UW);
        Duplicate(outRow, 0.0f, UW);
        PipeBarrier<PIPE_V>();

        LocalTensor<float> ycs[2] = {yc0, yc1};
        LocalTensor<float> xcs[2] = {xc0, xc1};
        LocalTensor<float> vys[2] = {vy0, vy1};
        LocalTensor<float> vxs[2] = {vx0, vx1};
        for (int a = 0; a < 2; ++a) {
            for (int b = 0; b < 2; ++b) {
                // byte offset = (y * UW + x) * 4
                Muls(offF, ycs[a], (float)(UW * sizeof(float)), UW);
                PipeBarrier<PIPE_V>();
                Axpy(offF, xcs[b], (float)sizeof(float), UW);
                PipeBarrier<PIPE_V>();
                Cast(ti, offF, RoundMode::CAST_RINT, UW);
                Mul(wgt, vys[a], vxs[b], UW);
                PipeBarrier<PIPE_V>();
                Gather(g, up, ti.ReinterpretCast<uint32_t>(), 0, UW);
                PipeBarrier<PIPE_V>();
                Mul(g, g, wgt, UW);
                PipeBarrier<PIPE_V>();
                Add(outRow, outRow, g, UW);
                PipeBarrier<PIPE_V>();
            }
        }
    }

    __aicore__ inline void GridSample(uint32_t plane, const float* th)
    {
        uint64_t outBase = (uint64_t)plane * UH * UW;
        for (uint32_t r0 = 0; r0 < UH; r0 += rowsPerTile) {
            uint32_t rows = (r0 + rowsPerTile <= UH) ? rowsPerTile : UH - r0;
            LocalTensor<float> ot = outQ.AllocTensor<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                uint32_t oy = r0 + r;
                float ys = (2.0f * oy + 1.0f) / static_cast<float>(UH) - 1.0f;
                SampleRow(ot[r * UW], ys, th);
            }
            outQ.EnQue(ot);
            ot = outQ.DeQue<float>();
            DataCopy(yGm[outBase + (uint64_t)r0 * UW], ot, rows * UW);
            outQ.FreeTensor(ot);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> hBuf, upBuf, tabBuf, workBuf;
    GlobalTensor<float> xGm, thGm, yGm;
    uint32_t C, H, W, UH, UW, rowsPerTile;
    uint32_t planeCnt, planeBeg;
};

extern "C" __global__ __aicore__ void upsample_grid_sample_custom(GM_ADDR x, GM_ADDR theta, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelUpsampleGridSample op;
    op.Init(x, theta, y, tilingData);
    op.Process();
}
