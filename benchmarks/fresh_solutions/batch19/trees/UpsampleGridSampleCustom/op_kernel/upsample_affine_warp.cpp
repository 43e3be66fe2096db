// UpsampleAffineWarp
//   u = bilinear resize of x by `scale` (half-pixel centres, align_corners = false)
//   y = bilinear sample of u on the affine grid theta (zero padding, align_corners = false)
//
// Phase 1: the sampling grid only depends on (n, row), so each core turns a share of the output
//          rows into 4 byte offsets + 4 weights per column and parks them in workspace.
// Phase 2: each core takes whole (n, c) planes: x plane -> UB, resized plane built in UB with
//          vertical Axpy + horizontal Gather, then every output row is 4 Gathers and 4 MACs.
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr uint32_t CORNERS = 4;

__aicore__ inline int32_t FloorToInt(float v)
{
    int32_t i = static_cast<int32_t>(v);
    return (static_cast<float>(i) > v) ? i - 1 : i;
}
}

template <typename T>
class UpsampleAffineWarpKernel {
public:
    __aicore__ inline UpsampleAffineWarpKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR theta, GM_ADDR y, GM_ADDR ws,
                                const UpsampleAffineWarpTilingData &tdIn)
    {
        td = tdIn;
        rec = CORNERS * 2 * td.outWPad;   // 32-bit words per grid record
        xGm.SetGlobalBuffer((__gm__ T *)x);
        thetaGm.SetGlobalBuffer((__gm__ float *)theta);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        gridGm.SetGlobalBuffer((__gm__ uint32_t *)ws);
    }

    // ------------------------------------------------------------------ phase 1
    __aicore__ inline void BuildGrid()
    {
        const uint32_t total = td.batch * td.outH;
        const uint32_t r0 = GetBlockIdx() * td.gridRowsPerCore;
        uint32_t r1 = r0 + td.gridRowsPerCore;
        if (r1 > total) r1 = total;
        if (r0 >= r1) return;

        pipe.InitBuffer(gridOutQ, 2, rec * sizeof(uint32_t));
        const float fw = static_cast<float>(td.outW);
        const float fh = static_cast<float>(td.outH);
        for (uint32_t r = r0; r < r1; ++r) {
            const uint32_t n = r / td.outH;
            const uint32_t i = r % td.outH;
            const float t00 = thetaGm.GetValue(n * 6 + 0), t01 = thetaGm.GetValue(n * 6 + 1);
            const float t02 = thetaGm.GetValue(n * 6 + 2), t10 = thetaGm.GetValue(n * 6 + 3);
            const float t11 = thetaGm.GetValue(n * 6 + 4), t12 = thetaGm.GetValue(n * 6 + 5);
            const float yn = (2.0f * i + 1.0f) / fh - 1.0f;

            LocalTensor<uint32_t> recL = gridOutQ.AllocTensor<uint32_t>();
            LocalTensor<float> wts = recL[CORNERS * td.outWPad].template ReinterpretCast<float>();
            for (uint32_t j = 0; j < td.outWPad; ++j) {
                if (j >= td.outW) {
                    for (uint32_t k = 0; k < CORNERS; ++k) {
                        recL.SetValue(k * td.outWPad + j, 0);
                        wts.SetValue(k * td.outWPad + j, 0.0f);
                    }
                    continue;
                }
                const float xn = (2.0f * j + 1.0f) / fw - 1.0f;
                const float gx = t00 * xn + t01 * yn + t02;
                const float gy = t10 * xn + t11 * yn + t12;
                const float ix = ((gx + 1.0f) * fw - 1.0f) * 0.5f;
                const float iy = ((gy + 1.0f) * fh - 1.0f) * 0.5f;
                const int32_t x0 = FloorToInt(ix);
                const int32_t y0 = FloorToInt(iy);
                const float ax = ix - x0;
                const float ay = iy - y0;
                const int32_t cx[CORNERS] = {x0, x0 + 1, x0, x0 + 1};
                const int32_t cy[CORNERS] = {y0, y0, y0 + 1, y0 + 1};
                const float cw[CORNERS] = {(1.f - ax) * (1.f - ay), ax * (1.f - ay), (1.f - ax) * ay, ax * ay};
                for (uint32_t k = 0; k < CORNERS; ++k) {
                    const bool inside = cx[k] >= 0 && cx[k] < (int32_t)td.outW && cy[k] >= 0 && cy[k] < (int32_t)td.outH;
                    // out-of-range corners read element 0 with weight 0 (zero padding)
                    recL.SetValue(k * td.outWPad + j,
                                  inside ? (uint32_t)((cy[k] * td.outWPad + cx[k]) * sizeof(float)) : 0U);
                    wts.SetValue(k * td.outWPad + j, inside ? cw[k] : 0.0f);
                }
            }
            gridOutQ.EnQue(recL);
            recL = gridOutQ.DeQue<uint32_t>();
            DataCopy(gridGm[(uint64_t)r * rec], recL, rec);
            gridOutQ.FreeTensor(recL);
        }
        pipe.Reset();
    }

    // ------------------------------------------------------------------ phase 2
    __aicore__ inline void Warp()
    {
        const uint32_t planes = td.batch * td.channels;
        const uint32_t p0 = GetBlockIdx() * td.planesPerCore;
        uint32_t p1 = p0 + td.planesPerCore;
        if (p1 > planes) p1 = planes;
        if (p0 >= p1) return;

        const uint32_t owp = td.outWPad;
        pipe.InitBuffer(srcBuf, td.inH * td.inWPad * sizeof(float));
        pipe.InitBuffer(upBuf, td.outH * owp * sizeof(float));
        pipe.InitBuffer(rawBuf, td.inH * td.inWPad * sizeof(T));
        pipe.InitBuffer(hIdxBuf, 2 * owp * sizeof(uint32_t));
        pipe.InitBuffer(hWtBuf, 2 * owp * sizeof(float));
        pipe.InitBuffer(lineBuf, td.inWPad * sizeof(float));
        pipe.InitBuffer(gatherBuf, 2 * owp * sizeof(float));
        pipe.InitBuffer(recQ, 2, rec * sizeof(uint32_t));
        pipe.InitBuffer(outQ, 2, owp * sizeof(T));
        pipe.InitBuffer(accBuf, owp * sizeof(float));

        PrepareHorizontal();
        for (uint32_t p = p0; p < p1; ++p) {
            const uint32_t n = p / td.channels;
            LoadPlane(p);
            Resize();
            for (uint32_t i = 0; i < td.outH; ++i) {
                SampleRow(n, i, p);
            }
        }
    }

private:
    __aicore__ inline void SourceIndex(uint32_t dst, float step, uint32_t inLen, uint32_t &i0, uint32_t &i1, float &frac)
    {
        float s = (dst + 0.5f) * step - 0.5f;
        if (s < 0.0f) s = 0.0f;
        i0 = static_cast<uint32_t>(s);
        if (i0 > inLen - 1) i0 = inLen - 1;
        i1 = (i0 + 1 < inLen) ? i0 + 1 : inLen - 1;
        frac = s - static_cast<float>(i0);
    }

    // horizontal resize taps are the same for every row and plane
    __aicore__ inline void PrepareHorizontal()
    {
        LocalTensor<uint32_t> idx = hIdxBuf.Get<uint32_t>();
        LocalTensor<float> wt = hWtBuf.Get<float>();
        const uint32_t owp = td.outWPad;
        for (uint32_t v = 0; v < owp; ++v) {
            uint32_t a = 0, b = 0;
            float f = 0.0f;
            if (v < td.outW) {
                SourceIndex(v, td.invScaleW, td.inW, a, b, f);
            }
            idx.SetValue(v, a * sizeof(float));
            idx.SetValue(owp + v, b * sizeof(float));
            wt.SetValue(v, 1.0f - f);
            wt.SetValue(owp + v, f);
        }
    }

    __aicore__ inline void LoadPlane(uint32_t p)
    {
        LocalTensor<float> src = srcBuf.Get<float>();
        const uint64_t base = (uint64_t)p * td.inH * td.inW;
        DataCopyExtParams cp{(uint16_t)td.inH, td.inW * (uint32_t)sizeof(T), 0,
                             (uint32_t)((td.inWPad - td.inW) * sizeof(T) / 32), 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopyPad(src, xGm[base], cp, pad);
        } else {
            LocalTensor<T> raw = rawBuf.Get<T>();
            DataCopyPad(raw, xGm[base], cp, pad);
            event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
            SetFlag<HardEvent::MTE2_V>(e);
            WaitFlag<HardEvent::MTE2_V>(e);
            Cast(src, raw, RoundMode::CAST_NONE, td.inH * td.inWPad);
        }
        event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e2);
        WaitFlag<HardEvent::MTE2_V>(e2);
    }

    __aicore__ inline void Resize()
    {
        LocalTensor<float> src = srcBuf.Get<float>();
        LocalTensor<float> up = upBuf.Get<float>();
        LocalTensor<float> line = lineBuf.Get<float>();
        LocalTensor<uint32_t> idx = hIdxBuf.Get<uint32_t>();
        LocalTensor<float> wt = hWtBuf.Get<float>();
        LocalTensor<float> g = gatherBuf.Get<float>();
        const uint32_t owp = td.outWPad;
        const uint32_t iwp = td.inWPad;
        for (uint32_t u = 0; u < td.outH; ++u) {
            uint32_t a, b;
            float f;
            SourceIndex(u, td.invScaleH, td.inH, a, b, f);
            // vertical blend of two source rows
            Muls(line, src[a * iwp], 1.0f - f, iwp);
            Axpy(line, src[b * iwp], f, iwp);
            // horizontal blend through gathers
            Gather(g, line, idx, 0, owp);
            Gather(g[owp], line, idx[owp], 0, owp);
            Mul(g, g, wt, owp);
            Mul(g[owp], g[owp], wt[owp], owp);
            Add(up[u * owp], g, g[owp], owp);
        }
    }

    __aicore__ inline void SampleRow(uint32_t n, uint32_t i, uint32_t p)
    {
        const uint32_t owp = td.outWPad;
        LocalTensor<uint32_t> recL = recQ.AllocTensor<uint32_t>();
        DataCopy(recL, gridGm[((uint64_t)n * td.outH + i) * rec], rec);
        recQ.EnQue(recL);
        recL = recQ.DeQue<uint32_t>();
        LocalTensor<float> wts = recL[CORNERS * owp].template ReinterpretCast<float>();

        LocalTensor<float> up = upBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> g = gatherBuf.Get<float>();
        Duplicate(acc, 0.0f, owp);
        for (uint32_t k = 0; k < CORNERS; ++k) {
            Gather(g, up, recL[k * owp], 0, owp);
            Mul(g, g, wts[k * owp], owp);
            Add(acc, acc, g, owp);
        }
        recQ.FreeTensor(recL);

        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(o, acc, owp);
        } else {
            Cast(o, acc, RoundMode::CAST_ROUND, owp);
        }
        outQ.EnQue(o);
        o = outQ.DeQue<T>();
        DataCopyExtParams cp{1, td.outW * (uint32_t)sizeof(T), 0, 0, 0};
        DataCopyPad(yGm[((uint64_t)p * td.outH + i) * td.outW], o, cp);
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    UpsampleAffineWarpTilingData td;
    uint32_t rec = 0;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> thetaGm;
    GlobalTensor<uint32_t> gridGm;
    TQue<QuePosition::VECOUT, 2> gridOutQ;
    TQue<QuePosition::VECIN, 2> recQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> srcBuf, upBuf, rawBuf, hIdxBuf, hWtBuf, lineBuf, gatherBuf, accBuf;
};

extern "C" __global__ __aicore__ void upsample_affine_warp(GM_ADDR x, GM_ADDR theta, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(0)) {
        UpsampleAffineWarpKernel<float> k;
        k.Init(x, theta, y, usr, td);
        k.BuildGrid();
        SyncAll();
        k.Warp();
    } else if (TILING_KEY_IS(1)) {
        UpsampleAffineWarpKernel<half> k;
        k.Init(x, theta, y, usr, td);
        k.BuildGrid();
        SyncAll();
        k.Warp();
    }
}
