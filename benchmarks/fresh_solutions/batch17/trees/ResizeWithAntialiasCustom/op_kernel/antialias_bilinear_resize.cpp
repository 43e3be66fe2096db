/*
 * AntialiasBilinearResize: separable bilinear resize with an anti-aliasing triangle filter
 * (half-pixel centres, align_corners = false).
 *
 * For an axis with scale s = in / out, output index i is centred at c = s * (i + 0.5) and
 * takes input pixels j in [lo, hi) with
 *     support = max(s, 1),  lo = max(int(c - support + 0.5), 0),  hi = min(int(c + support + 0.5), in)
 *     w_j     = max(0, 1 - |(j - c + 0.5) / max(s, 1)|),  normalised to sum 1.
 * For upsampling this reduces to ordinary bilinear interpolation.
 *
 * Work unit: one output row of one (n, c) plane.
 *   1. vertical pass:   acc(inW) = sum_k wy_k * x[row lo_i + k]      (Axpy over whole rows)
 *   2. horizontal pass: out(outW) = sum_k gather(acc, lo_j + k) * wx_k[j]
 * The horizontal offsets/weights do not depend on the row and are built once per core.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
struct Window {
    int32_t lo;
    int32_t size;
};

__aicore__ inline float Triangle(float v)
{
    v = v < 0.0f ? -v : v;
    return v < 1.0f ? 1.0f - v : 0.0f;
}

// fills w[0..size) (unnormalised -> normalised) for output index i; returns the tap window
__aicore__ inline Window FilterWindow(uint32_t i, float scale, float support, uint32_t inLen,
                                      LocalTensor<float> &w, uint32_t wBase)
{
    float centre = scale * (static_cast<float>(i) + 0.5f);
    float inv = scale >= 1.0f ? 1.0f / scale : 1.0f;
    int32_t lo = static_cast<int32_t>(centre - support + 0.5f);
    lo = lo < 0 ? 0 : lo;
    int32_t hi = static_cast<int32_t>(centre + support + 0.5f);
    hi = hi > static_cast<int32_t>(inLen) ? static_cast<int32_t>(inLen) : hi;
    int32_t size = hi - lo;
    float total = 0.0f;
    for (int32_t k = 0; k < size; ++k) {
        float v = Triangle((static_cast<float>(k + lo) - centre + 0.5f) * inv);
        w.SetValue(wBase + k, v);
        total += v;
    }
    if (total != 0.0f) {
        float norm = 1.0f / total;
        for (int32_t k = 0; k < size; ++k) {
            w.SetValue(wBase + k, w.GetValue(wBase + k) * norm);
        }
    }
    return Window{lo, size};
}
}  // namespace

template <typename T>
class AntialiasBilinearResizeKernel {
public:
    __aicore__ inline AntialiasBilinearResizeKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AaResizeTiling &td)
    {
        cfg_ = td;
        xGm_.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(cfg_.planes) * cfg_.inH * cfg_.inW);
        yGm_.SetGlobalBuffer((__gm__ T *)y, static_cast<uint64_t>(cfg_.planes) * cfg_.outH * cfg_.outW);

        uint32_t tapPitch = (cfg_.tapsW > cfg_.tapsH ? cfg_.tapsW : cfg_.tapsH);
        tapPitch = (tapPitch + 15) / 16 * 16;
        pipe_.InitBuffer(rowQ_, 2, cfg_.inWPitch * sizeof(T));
        pipe_.InitBuffer(stageBuf_, cfg_.inWPitch * sizeof(float));
        pipe_.InitBuffer(vertBuf_, cfg_.inWPitch * sizeof(float));
        pipe_.InitBuffer(colOffBuf_, cfg_.tapsW * cfg_.outWPitch * sizeof(uint32_t));
        pipe_.InitBuffer(colWBuf_, cfg_.tapsW * cfg_.outWPitch * sizeof(float));
        pipe_.InitBuffer(tapWBuf_, tapPitch * sizeof(float));
        pipe_.InitBuffer(pickBuf_, cfg_.outWPitch * sizeof(float));
        pipe_.InitBuffer(outAccBuf_, cfg_.outWPitch * sizeof(float));
        pipe_.InitBuffer(outQ_, 2, cfg_.outWPitch * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        BuildColumnTables();
        uint32_t first = GetBlockIdx() * cfg_.rowsPerCore;
        uint32_t stop = first + cfg_.rowsPerCore;
        stop = stop > cfg_.totalRows ? cfg_.totalRows : stop;
        for (uint32_t u = first; u < stop; ++u) {
            uint32_t plane = u / cfg_.outH;
            uint32_t oy = u - plane * cfg_.outH;
            VerticalPass(plane, oy);
            HorizontalPassAndStore(u);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Fence()
    {
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    // colOff[k][j] = byte offset of input column lo_j + k (clamped), colW[k][j] = weight or 0
    __aicore__ inline void BuildColumnTables()
    {
        LocalTensor<uint32_t> off = colOffBuf_.Get<uint32_t>();
        LocalTensor<float> wt = colWBuf_.Get<float>();
        LocalTensor<float> tap = tapWBuf_.Get<float>();
        const uint32_t pitch = cfg_.outWPitch;
        for (uint32_t j = 0; j < pitch; ++j) {
            Window win{0, 0};
            if (j < cfg_.outW) {
                win = FilterWindow(j, cfg_.scaleW, cfg_.supportW, cfg_.inW, tap, 0);
            }
            for (uint32_t k = 0; k < cfg_.tapsW; ++k) {
                bool live = static_cast<int32_t>(k) < win.size;
                int32_t col = live ? win.lo + static_cast<int32_t>(k) : win.lo;
                off.SetValue(k * pitch + j, static_cast<uint32_t>(col) * sizeof(float));
                wt.SetValue(k * pitch + j, live ? tap.GetValue(k) : 0.0f);
            }
        }
        Fence<HardEvent::S_V>();
    }

    __aicore__ inline void VerticalPass(uint32_t plane, uint32_t oy)
    {
        LocalTensor<float> tap = tapWBuf_.Get<float>();
        LocalTensor<float> acc = vertBuf_.Get<float>();
        LocalTensor<float> stage = stageBuf_.Get<float>();

        // scalar weights of this output row (UB written by scalar, read back by scalar)
        PipeBarrier<PIPE_V>();
        Fence<HardEvent::V_S>();
        Window win = FilterWindow(oy, cfg_.scaleH, cfg_.supportH, cfg_.inH, tap, 0);

        Duplicate(acc, 0.0f, cfg_.inW);
        uint64_t planeBase = static_cast<uint64_t>(plane) * cfg_.inH * cfg_.inW;
        for (int32_t k = 0; k < win.size; ++k) {
            float wk = tap.GetValue(k);
            LocalTensor<T> raw = rowQ_.AllocTensor<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(cfg_.inW * sizeof(T)), 0, 0, 0};
            DataCopyPad(raw, xGm_[planeBase + static_cast<uint64_t>(win.lo + k) * cfg_.inW], cp,
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
            rowQ_.EnQue(raw);
            raw = rowQ_.DeQue<T>();
            if constexpr (std::is_same<T, float>::value) {
                Axpy(acc, raw, wk, cfg_.inW);
            } else {
                Cast(stage, raw, RoundMode::CAST_NONE, cfg_.inW);
                PipeBarrier<PIPE_V>();
                Axpy(acc, stage, wk, cfg_.inW);
            }
            PipeBarrier<PIPE_V>();
            rowQ_.FreeTensor(raw);
        }
    }

    __aicore__ inline void HorizontalPassAndStore(uint32_t outRow)
    {
        LocalTensor<float> acc = vertBuf_.Get<float>();
        LocalTensor<float> pick = pickBuf_.Get<float>();
        LocalTensor<float> out = outAccBuf_.Get<float>();
        LocalTensor<uint32_t> off = colOffBuf_.Get<uint32_t>();
        LocalTensor<float> wt = colWBuf_.Get<float>();
        const uint32_t pitch = cfg_.outWPitch;
        const uint32_t ow = cfg_.outW;

        Duplicate(out, 0.0f, ow);
        for (uint32_t k = 0; k < cfg_.tapsW; ++k) {
            Gather(pick, acc, off[k * pitch], 0, ow);
            PipeBarrier<PIPE_V>();
            Mul(pick, pick, wt[k * pitch], ow);
            PipeBarrier<PIPE_V>();
            Add(out, out, pick, ow);
            PipeBarrier<PIPE_V>();
        }

        LocalTensor<T> o = outQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(o, out, pitch);
        } else {
            Cast(o, out, RoundMode::CAST_ROUND, ow);
        }
        outQ_.EnQue(o);
        o = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(ow * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[static_cast<uint64_t>(outRow) * ow], o, cp);
        outQ_.FreeTensor(o);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> rowQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> stageBuf_, vertBuf_, colOffBuf_, colWBuf_, tapWBuf_, pickBuf_, outAccBuf_;
    GlobalTensor<T> xGm_, yGm_;
    AaResizeTiling cfg_;
};

extern "C" __global__ __aicore__ void antialias_bilinear_resize(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(td, tiling);
    AntialiasBilinearResizeKernel<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
