/*
 * Resize3dTrilinear kernel.
 *
 * Each core owns a contiguous range of output rows r = ((plane * outD) + od) * outH + oh.
 * For one row the four contributing input rows (d0|d1) x (h0|h1) are blended along D and H
 * with scalar weights, then the W direction is resolved with two Gathers (left / right
 * neighbour) and a lerp using per-column tables built once in Init.
 * Arithmetic is float32; float16 data is widened after load and narrowed before store.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class Resize3dTrilinearKernel {
    static constexpr int32_t BUFS = 2;

public:
    __aicore__ inline Resize3dTrilinearKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Resize3dTrilinearTilingData &t)
    {
        tiling_ = t;
        uint64_t inPlane = static_cast<uint64_t>(t.inD) * t.inH * t.inW;
        uint64_t outPlane = static_cast<uint64_t>(t.outD) * t.outH * t.outW;
        xGm_.SetGlobalBuffer((__gm__ T *)x, inPlane * t.planes);
        yGm_.SetGlobalBuffer((__gm__ T *)y, outPlane * t.planes);

        uint64_t total = static_cast<uint64_t>(t.planes) * t.outD * t.outH;
        rowBegin_ = static_cast<uint64_t>(GetBlockIdx()) * t.rowsPerCore;
        rowEnd_ = rowBegin_ + t.rowsPerCore;
        if (rowEnd_ > total) {
            rowEnd_ = total;
        }

        pipe_.InitBuffer(inQ_, BUFS, 4 * t.inWPad * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFS, t.outWPad * sizeof(T));
        pipe_.InitBuffer(rowsF_, 4 * t.inWPad * sizeof(float));
        pipe_.InitBuffer(blendF_, t.inWPad * sizeof(float));
        pipe_.InitBuffer(leftF_, t.outWPad * sizeof(float));
        pipe_.InitBuffer(rightF_, t.outWPad * sizeof(float));
        pipe_.InitBuffer(idxL_, t.outWPad * sizeof(uint32_t));
        pipe_.InitBuffer(idxR_, t.outWPad * sizeof(uint32_t));
        pipe_.InitBuffer(lamW_, t.outWPad * sizeof(float));
        BuildWTables();
    }

    __aicore__ inline void Process()
    {
        for (uint64_t r = rowBegin_; r < rowEnd_; ++r) {
            uint32_t oh = static_cast<uint32_t>(r % tiling_.outH);
            uint64_t rest = r / tiling_.outH;
            uint32_t od = static_cast<uint32_t>(rest % tiling_.outD);
            uint64_t plane = rest / tiling_.outD;

            uint32_t d0, d1, h0, h1;
            float ld, lh;
            Source(od, tiling_.inD, tiling_.ratioD, d0, d1, ld);
            Source(oh, tiling_.inH, tiling_.ratioH, h0, h1, lh);

            LoadRows(plane, d0, d1, h0, h1);
            BlendRow(ld, lh);
            InterpolateW();
            StoreRow(r);
        }
    }

private:
    // map an output coordinate to its two source neighbours and the weight of the upper one
    __aicore__ inline void Source(uint32_t dst, uint32_t inSize, float ratio, uint32_t &i0, uint32_t &i1,
                                  float &lambda)
    {
        float src;
        if (tiling_.alignCorners != 0) {
            src = static_cast<float>(dst) * ratio;
        } else {
            src = (static_cast<float>(dst) + 0.5f) * ratio - 0.5f;
            if (src < 0.0f) {
                src = 0.0f;
            }
        }
        i0 = static_cast<uint32_t>(src);
        if (i0 > inSize - 1) {
            i0 = inSize - 1;
        }
        i1 = (i0 + 1 < inSize) ? i0 + 1 : inSize - 1;
        lambda = src - static_cast<float>(i0);
    }

    __aicore__ inline void BuildWTables()
    {
        LocalTensor<uint32_t> l = idxL_.Get<uint32_t>();
        LocalTensor<uint32_t> rgt = idxR_.Get<uint32_t>();
        LocalTensor<float> lam = lamW_.Get<float>();
        for (uint32_t ow = 0; ow < tiling_.outWPad; ++ow) {
            uint32_t i0 = 0, i1 = 0;
            float w = 0.0f;
            if (ow < tiling_.outW) {
                Source(ow, tiling_.inW, tiling_.ratioW, i0, i1, w);
            }
            // Gather offsets are byte offsets into the source tensor
            l.SetValue(ow, i0 * static_cast<uint32_t>(sizeof(float)));
            rgt.SetValue(ow, i1 * static_cast<uint32_t>(sizeof(float)));
            lam.SetValue(ow, w);
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void LoadRows(uint64_t plane, uint32_t d0, uint32_t d1, uint32_t h0, uint32_t h1)
    {
        LocalTensor<T> buf = inQ_.AllocTensor<T>();
        uint64_t base = plane * tiling_.inD * tiling_.inH * tiling_.inW;
        uint32_t ds[2] = {d0, d1};
        uint32_t hs[2] = {h0, h1};
        DataCopyExtParams cp(1, tiling_.inW * sizeof(T), 0, 0, 0);
        DataCopyPadExtParams<T> pad(false, 0, 0, 0);
        for (uint32_t i = 0; i < 2; ++i) {
            for (uint32_t j = 0; j < 2; ++j) {
                uint64_t off = base + (static_cast<uint64_t>(ds[i]) * tiling_.inH + hs[j]) * tiling_.inW;
                DataCopyPad(buf[(i * 2 + j) * tiling_.inWPad], xGm_[off], cp, pad);
            }
        }
        inQ_.EnQue(buf);
    }

    __aicore__ inline void BlendRow(float ld, float lh)
    {
        LocalTensor<T> raw = inQ_.DeQue<T>();
        LocalTensor<float> rows = rowsF_.Get<float>();
        uint32_t n = tiling_.inWPad;
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(rows, raw.template ReinterpretCast<float>(), 4 * n);
        } else {
            Cast(rows, raw, RoundMode::CAST_NONE, 4 * n);
        }
        inQ_.FreeTensor(raw);

        LocalTensor<float> acc = blendF_.Get<float>();
        float w00 = (1.0f - ld) * (1.0f - lh);
        float w01 = (1.0f - ld) * lh;
        float w10 = ld * (1.0f - lh);
        float w11 = ld * lh;
        Muls(acc, rows, w00, n);
        Axpy(acc, rows[n], w01, n);
        Axpy(acc, rows[2 * n], w10, n);
        Axpy(acc, rows[3 * n], w11, n);
    }

    __aicore__ inline void InterpolateW()
    {
        LocalTensor<float> acc = blendF_.Get<float>();
        LocalTensor<float> left = leftF_.Get<float>();
        LocalTensor<float> right = rightF_.Get<float>();
        LocalTensor<uint32_t> il = idxL_.Get<uint32_t>();
        LocalTensor<uint32_t> ir = idxR_.Get<uint32_t>();
        LocalTensor<float> lam = lamW_.Get<float>();
        uint32_t n = tiling_.outWPad;

        Gather(left, acc, il, 0, n);
        Gather(right, acc, ir, 0, n);
        Sub(right, right, left, n);    // right - left
        Mul(right, right, lam, n);     // * lambda
        Add(left, left, right, n);     // left + lambda * (right - left)

        LocalTensor<T> o = outQ_.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(o.template ReinterpretCast<float>(), left, n);
        } else {
            Cast(o, left, RoundMode::CAST_ROUND, n);
        }
        outQ_.EnQue(o);
    }

    __aicore__ inline void StoreRow(uint64_t r)
    {
        LocalTensor<T> o = outQ_.DeQue<T>();
        DataCopyExtParams cp(1, tiling_.outW * sizeof(T), 0, 0, 0);
        DataCopyPad(yGm_[r * tiling_.outW], o, cp);
        outQ_.FreeTensor(o);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFS> inQ_;
    TQue<QuePosition::VECOUT, BUFS> outQ_;
    TBuf<TPosition::VECCALC> rowsF_, blendF_, leftF_, rightF_, idxL_, idxR_, lamW_;
    GlobalTensor<T> xGm_, yGm_;
    Resize3dTrilinearTilingData tiling_;
    uint64_t rowBegin_ = 0, rowEnd_ = 0;
};

extern "C" __global__ __aicore__ void resize3d_trilinear(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Resize3dTrilinearKernel<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
