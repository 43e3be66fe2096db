// Separable bicubic resampling (cubic convolution, a = -0.75) of NCHW planes.
// Horizontal pass: 4 Gathers with clamped column tables, weighted by per-column coefficient rows.
// Vertical pass: 4 horizontally filtered rows combined with scalar weights. Filtered rows are kept
// in a 4-slot cache indexed by (source row mod 4), so each source row is filtered once per plane
// when upsampling.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr float CUBIC_A = -0.75f;
constexpr int32_t TAPS = 4;

__aicore__ inline float CubicNear(float x)   // |x| <= 1
{
    return ((CUBIC_A + 2.0f) * x - (CUBIC_A + 3.0f)) * x * x + 1.0f;
}
__aicore__ inline float CubicFar(float x)    // 1 < |x| < 2
{
    return ((CUBIC_A * x - 5.0f * CUBIC_A) * x + 8.0f * CUBIC_A) * x - 4.0f * CUBIC_A;
}
__aicore__ inline int32_t FloorToInt(float v)
{
    int32_t i = static_cast<int32_t>(v);
    return (static_cast<float>(i) > v) ? i - 1 : i;
}
__aicore__ inline int32_t Clamp(int32_t v, int32_t hi)
{
    return v < 0 ? 0 : (v > hi ? hi : v);
}
}  // namespace

template <typename T>
class BicubicResize2dKernel {
public:
    __aicore__ inline BicubicResize2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const BicubicResize2dTilingData &td)
    {
        tiling_ = td;
        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        owa_ = tiling_.outWAlign;

        pipe_.InitBuffer(inQ_, 2, tiling_.inWAlign * sizeof(T));
        pipe_.InitBuffer(outQ_, 2, owa_ * sizeof(T));
        pipe_.InitBuffer(srcRow_, tiling_.inWAlign * sizeof(float));
        pipe_.InitBuffer(cache_, TAPS * owa_ * sizeof(float));
        pipe_.InitBuffer(gat_, owa_ * sizeof(float));
        pipe_.InitBuffer(acc_, owa_ * sizeof(float));
        pipe_.InitBuffer(wx_, TAPS * owa_ * sizeof(float));
        pipe_.InitBuffer(ox_, TAPS * owa_ * sizeof(uint32_t));
        PrepareColumns();
    }

    __aicore__ inline void Process()
    {
        uint32_t p0 = GetBlockIdx() * tiling_.planesPerCore;
        uint32_t p1 = p0 + tiling_.planesPerCore;
        if (p1 > tiling_.planes) {
            p1 = tiling_.planes;
        }
        for (uint32_t p = p0; p < p1; ++p) {
            for (int32_t s = 0; s < TAPS; ++s) {
                slotRow_[s] = -1;   // cache is per plane
            }
            for (uint32_t oy = 0; oy < tiling_.outH; ++oy) {
                OutputRow(p, oy);
            }
        }
    }

private:
    __aicore__ inline float SourceCoord(uint32_t dst, float step)
    {
        if (tiling_.alignCorners != 0) {
            return step * static_cast<float>(dst);
        }
        return step * (static_cast<float>(dst) + 0.5f) - 0.5f;
    }

    // per output column: 4 clamped source columns (byte offsets) and 4 weights
    __aicore__ inline void PrepareColumns()
    {
        LocalTensor<float> w = wx_.Get<float>();
        LocalTensor<uint32_t> o = ox_.Get<uint32_t>();
        int32_t last = static_cast<int32_t>(tiling_.inW) - 1;
        for (uint32_t ox = 0; ox < owa_; ++ox) {
            float real = SourceCoord(ox < tiling_.outW ? ox : 0, tiling_.scaleW);
            int32_t ix = FloorToInt(real);
            float t = real - static_cast<float>(ix);
            float c[TAPS] = {CubicFar(t + 1.0f), CubicNear(t), CubicNear(1.0f - t), CubicFar(2.0f - t)};
            for (int32_t k = 0; k < TAPS; ++k) {
                w.SetValue(k * owa_ + ox, c[k]);
                o.SetValue(k * owa_ + ox, static_cast<uint32_t>(Clamp(ix - 1 + k, last)) * 4u);
            }
        }
        event_t e = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    // make sure source row `r` of plane `p` is horizontally filtered in its cache slot
    __aicore__ inline LocalTensor<float> FilteredRow(uint32_t p, int32_t r)
    {
        int32_t slot = r % TAPS;
        LocalTensor<float> dst = cache_.Get<float>()[slot * owa_];
        if (slotRow_[slot] == r) {
            return dst;
        }
        LocalTensor<T> raw = inQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(tiling_.inW * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        uint64_t off = (static_cast<uint64_t>(p) * tiling_.inH + static_cast<uint32_t>(r)) * tiling_.inW;
        DataCopyPad(raw, xGm_[off], cp, pad);
        inQ_.EnQue(raw);
        raw = inQ_.DeQue<T>();

        LocalTensor<float> src = srcRow_.Get<float>();
        if constexpr (std::is_same<T, half>::value) {
            Cast(src, raw, RoundMode::CAST_NONE, tiling_.inW);
        } else {
            Adds(src, raw, 0.0f, tiling_.inW);
        }
        inQ_.FreeTensor(raw);
        PipeBarrier<PIPE_V>();

        LocalTensor<float> g = gat_.Get<float>();
        LocalTensor<float> w = wx_.Get<float>();
        LocalTensor<uint32_t> o = ox_.Get<uint32_t>();
        for (int32_t k = 0; k < TAPS; ++k) {
            Gather(g, src, o[k * owa_], 0u, owa_);
            PipeBarrier<PIPE_V>();
            if (k == 0) {
                Mul(dst, g, w, owa_);
            } else {
                MulAddDst(dst, g, w[k * owa_], owa_);
            }
            PipeBarrier<PIPE_V>();
        }
        slotRow_[slot] = r;
        return dst;
    }

    __aicore__ inline void OutputRow(uint32_t p, uint32_t oy)
    {
        float real = SourceCoord(oy, tiling_.scaleH);
        int32_t iy = FloorToInt(real);
        float t = real - static_cast<float>(iy);
        float wy[TAPS] = {CubicFar(t + 1.0f), CubicNear(t), CubicNear(1.0f - t), CubicFar(2.0f - t)};
        int32_t last = static_cast<int32_t>(tiling_.inH) - 1;

        LocalTensor<float> a = acc_.Get<float>();
        for (int32_t k = 0; k < TAPS; ++k) {
            LocalTensor<float> h = FilteredRow(p, Clamp(iy - 1 + k, last));
            if (k == 0) {
                Muls(a, h, wy[0], owa_);
            } else {
                Axpy(a, h, wy[k], owa_);
            }
            PipeBarrier<PIPE_V>();
        }

        LocalTensor<T> out = outQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, half>::value) {
            Cast(out, a, RoundMode::CAST_ROUND, owa_);
        } else {
            Adds(out, a, 0.0f, owa_);
        }
        outQ_.EnQue(out);
        out = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(tiling_.outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[(static_cast<uint64_t>(p) * tiling_.outH + oy) * tiling_.outW], out, cp);
        outQ_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> srcRow_, cache_, gat_, acc_, wx_, ox_;
    GlobalTensor<T> xGm_, yGm_;
    BicubicResize2dTilingData tiling_;
    uint32_t owa_ = 0;
    int32_t slotRow_[TAPS] = {-1, -1, -1, -1};
};

extern "C" __global__ __aicore__ void bicubic_resize2d(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        BicubicResize2dKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        BicubicResize2dKernel<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
