// AaBilinearResize kernel.
//
// Separable anti-aliased bilinear resampling (half-pixel centres, triangle filter whose
// support grows with the downscale factor, weights normalised to sum 1).
//   pass 1 (vertical):   rowAcc[x]  = sum_t wy[oy][t] * in[ymin(oy) + t][x]     -> Axpy over full rows
//   pass 2 (horizontal): out[ox]    = sum_t wx[t][ox] * rowAcc[xmin(ox) + t]     -> Gather + Mul + Add
// Filter tables are built once per core by the scalar unit.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DB = 2;

template <typename T>
class AaBilinearResizeKernel {
public:
    __aicore__ inline AaBilinearResizeKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AaBilinearResizeTilingData &t)
    {
        td = t;
        uint32_t first = GetBlockIdx() * td.planesPerCore;
        uint32_t last = first + td.planesPerCore;
        planeBeg = first;
        planeEnd = last > td.planes ? td.planes : last;

        xGm.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(td.planes) * td.inH * td.inW);
        yGm.SetGlobalBuffer((__gm__ T *)y, static_cast<uint64_t>(td.planes) * td.outH * td.outW);

        pipe.InitBuffer(inQ, DB, td.inWAlign * sizeof(T));
        pipe.InitBuffer(outQ, DB, td.outWAlign * sizeof(T));
        pipe.InitBuffer(rowBuf, td.inWAlign * sizeof(float));
        pipe.InitBuffer(castBuf, td.inWAlign * sizeof(float));
        pipe.InitBuffer(accBuf, td.outWAlign * sizeof(float));
        pipe.InitBuffer(gatBuf, td.outWAlign * sizeof(float));
        pipe.InitBuffer(offBuf, td.tapsW * td.outWAlign * sizeof(uint32_t));
        pipe.InitBuffer(wxBuf, td.tapsW * td.outWAlign * sizeof(float));
        pipe.InitBuffer(wyBuf, ((td.outH * td.tapsH + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(yminBuf, ((td.outH + 7) / 8 * 8) * sizeof(int32_t));
        pipe.InitBuffer(ycntBuf, ((td.outH + 7) / 8 * 8) * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        if (planeBeg >= planeEnd) {
            return;
        }
        BuildTables();
        for (uint32_t p = planeBeg; p < planeEnd; ++p) {
            for (uint32_t oy = 0; oy < td.outH; ++oy) {
                VerticalPass(p, oy);
                HorizontalPass(p, oy);
            }
        }
    }

private:
    __aicore__ inline float Tri(float v) const
    {
        v = v < 0.0f ? -v : v;
        return v < 1.0f ? 1.0f - v : 0.0f;
    }

    // Computes [lo, lo+cnt) and normalised weights for one output coordinate.
    __aicore__ inline void Span(uint32_t o, float scale, float support, uint32_t inLen, int32_t &lo, int32_t &cnt,
                                float *w, uint32_t maxTaps) const
    {
        float center = scale * (static_cast<float>(o) + 0.5f);
        float invs = scale >= 1.0f ? 1.0f / scale : 1.0f;
        int32_t a = static_cast<int32_t>(center - support + 0.5f);
        int32_t b = static_cast<int32_t>(center + support + 0.5f);
        a = a < 0 ? 0 : a;
        b = b > static_cast<int32_t>(inLen) ? static_cast<int32_t>(inLen) : b;
        cnt = b - a;
        if (cnt > static_cast<int32_t>(maxTaps)) {
            cnt = static_cast<int32_t>(maxTaps);
        }
        lo = a;
        float total = 0.0f;
        for (int32_t t = 0; t < cnt; ++t) {
            w[t] = Tri((static_cast<float>(t + a) - center + 0.5f) * invs);
            total += w[t];
        }
        float norm = total > 0.0f ? 1.0f / total : 0.0f;
        for (int32_t t = 0; t < cnt; ++t) {
            w[t] *= norm;
        }
    }

    __aicore__ inline void BuildTables()
    {
        constexpr uint32_t MAX_LOCAL_TAPS = 64;
        float w[MAX_LOCAL_TAPS];
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        LocalTensor<float> wx = wxBuf.Get<float>();
        LocalTensor<float> wy = wyBuf.Get<float>();
        LocalTensor<int32_t> ymin = yminBuf.Get<int32_t>();
        LocalTensor<int32_t> ycnt = ycntBuf.Get<int32_t>();

        for (uint32_t ox = 0; ox < td.outWAlign; ++ox) {
            int32_t lo = 0, cnt = 0;
            if (ox < td.outW) {
                Span(ox, td.scaleW, td.supportW, td.inW, lo, cnt, w, td.tapsW);
            }
            for (uint32_t t = 0; t < td.tapsW; ++t) {
                bool live = static_cast<int32_t>(t) < cnt;
                uint32_t src = live ? static_cast<uint32_t>(lo) + t : 0U;
                offs.SetValue(t * td.outWAlign + ox, src * static_cast<uint32_t>(sizeof(float)));
                wx.SetValue(t * td.outWAlign + ox, live ? w[t] : 0.0f);
            }
        }
        for (uint32_t oy = 0; oy < td.outH; ++oy) {
            int32_t lo = 0, cnt = 0;
            Span(oy, td.scaleH, td.supportH, td.inH, lo, cnt, w, td.tapsH);
            ymin.SetValue(oy, lo);
            ycnt.SetValue(oy, cnt);
            for (uint32_t t = 0; t < td.tapsH; ++t) {
                wy.SetValue(oy * td.tapsH + t, static_cast<int32_t>(t) < cnt ? w[t] : 0.0f);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void VerticalPass(uint32_t plane, uint32_t oy)
    {
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> wy = wyBuf.Get<float>();
        int32_t lo = yminBuf.Get<int32_t>().GetValue(oy);
        int32_t cnt = ycntBuf.Get<int32_t>().GetValue(oy);
        Duplicate(row, 0.0f, td.inWAlign);

        DataCopyExtParams cp{1, static_cast<uint32_t>(td.inW * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
        uint64_t planeOff = static_cast<uint64_t>(plane) * td.inH * td.inW;
        for (int32_t t = 0; t < cnt; ++t) {
            float wt = wy.GetValue(oy * td.tapsH + t);
            LocalTensor<T> src = inQ.AllocTensor<T>();
            DataCopyPad(src, xGm[planeOff + static_cast<uint64_t>(lo + t) * td.inW], cp, noPad);
            inQ.EnQue(src);
            src = inQ.DeQue<T>();
            if constexpr (std::is_same<T, float>::value) {
                Axpy(row, src, wt, td.inW);
            } else {
                LocalTensor<float> f = castBuf.Get<float>();
                Cast(f, src, RoundMode::CAST_NONE, td.inW);
                PipeBarrier<PIPE_V>();
                Axpy(row, f, wt, td.inW);
            }
            PipeBarrier<PIPE_V>();
            inQ.FreeTensor(src);
        }
    }

    __aicore__ inline void HorizontalPass(uint32_t plane, uint32_t oy)
    {
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> g = gatBuf.Get<float>();
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        LocalTensor<float> wx = wxBuf.Get<float>();

        Duplicate(acc, 0.0f, td.outWAlign);
        for (uint32_t t = 0; t < td.tapsW; ++t) {
            Gather(g, row, offs[t * td.outWAlign], 0U, td.outWAlign);
            PipeBarrier<PIPE_V>();
            Mul(g, g, wx[t * td.outWAlign], td.outWAlign);
            PipeBarrier<PIPE_V>();
            Add(acc, acc, g, td.outWAlign);
            PipeBarrier<PIPE_V>();
        }

        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(out, acc, td.outWAlign);
        } else {
            Cast(out, acc, RoundMode::CAST_ROUND, td.outWAlign);
        }
        outQ.EnQue(out);
        out = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(td.outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[(static_cast<uint64_t>(plane) * td.outH + oy) * td.outW], out, cp);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, DB> inQ;
    TQue<QuePosition::VECOUT, DB> outQ;
    TBuf<TPosition::VECCALC> rowBuf, castBuf, accBuf, gatBuf, offBuf, wxBuf, wyBuf, yminBuf, ycntBuf;
    GlobalTensor<T> xGm, yGm;
    AaBilinearResizeTilingData td;
    uint32_t planeBeg = 0;
    uint32_t planeEnd = 0;
};

extern "C" __global__ __aicore__ void aa_bilinear_resize(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AaBilinearResizeKernel<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
