// upconv_mish_clip_gain.cpp
//
// Transposed 2D convolution (stride s, kernel K, padding p, output padding op)
// followed by  y = clamp(mish(v) + addVal, -1, 1) * gain.
//
// Work split: one "task" is one output row (n, oh) for all output channels.
// For every input channel that contributes to the row, each kernel column kw
// gets a zero-stuffed, pre-shifted copy of the input row so that the
// contribution of tap (kh, kw) becomes a plain Axpy over OW contiguous floats.
#include "kernel_operator.h"

using namespace AscendC;

struct UpconvMishClipGainTiling {
    uint32_t batch;
    uint32_t inC;
    uint32_t outC;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t outWAlign;   // outW rounded up to 8 floats
    uint32_t inWAlign;
    uint32_t kSize;
    uint32_t stride;
    uint32_t pad;
    uint32_t rowsPerCore; // (n, oh) rows per core
    uint32_t totalRows;
    float addVal;
    float gain;
};

class UpconvMishClipGain {
public:
    __aicore__ inline UpconvMishClipGain() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const UpconvMishClipGainTiling &tl)
    {
        t = tl;
        kk = t.kSize * t.kSize;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        rowBegin = GetBlockIdx() * t.rowsPerCore;
        rowEnd = rowBegin + t.rowsPerCore;
        if (rowEnd > t.totalRows) {
            rowEnd = t.totalRows;
        }

        uint32_t wSlice = (t.outC * kk + 7) / 8 * 8;
        pipe.InitBuffer(wQue, 1, wSlice * sizeof(float));
        pipe.InitBuffer(xQue, 1, t.inWAlign * sizeof(float));
        pipe.InitBuffer(yQue, 2, t.outWAlign * sizeof(float));
        pipe.InitBuffer(accBuf, t.outC * t.outWAlign * sizeof(float));
        pipe.InitBuffer(shiftBuf, t.kSize * t.outWAlign * sizeof(float));
        pipe.InitBuffer(tmpBuf, t.outWAlign * sizeof(float));
        pipe.InitBuffer(biasBuf, (t.outC + 7) / 8 * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowBegin >= rowEnd) {
            return;
        }
        // bias lives in UB for the whole kernel
        LocalTensor<float> bias = biasBuf.Get<float>();
        DataCopy(bias, bGm, (t.outC + 7) / 8 * 8);
        SyncMte2ToScalar();

        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            uint32_t n = r / t.outH;
            uint32_t oh = r % t.outH;
            InitAcc(bias);
            for (uint32_t ic = 0; ic < t.inC; ++ic) {
                AccumulateChannel(n, ic, oh);
            }
            Epilogue(n, oh);
        }
    }

private:
    __aicore__ inline void SyncMte2ToScalar()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }
    __aicore__ inline void SyncScalarToVector()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }
    __aicore__ inline void SyncVectorToScalar()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    __aicore__ inline void InitAcc(LocalTensor<float> &bias)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        for (uint32_t oc = 0; oc < t.outC; ++oc) {
            float bv = bias.GetValue(oc);
            SyncScalarToVector();
            Duplicate(acc[oc * t.outWAlign], bv, t.outWAlign);
        }
    }

    // Add the contribution of input channel ic to output row oh (all output channels).
    __aicore__ inline void AccumulateChannel(uint32_t n, uint32_t ic, uint32_t oh)
    {
        // weight layout (inC, outC, K, K): slice for this ic is contiguous
        LocalTensor<float> wl = wQue.AllocTensor<float>();
        DataCopy(wl, wGm[ic * t.outC * kk], (t.outC * kk + 7) / 8 * 8);
        wQue.EnQue(wl);
        wl = wQue.DeQue<float>();

        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> sh = shiftBuf.Get<float>();

        for (uint32_t kh = 0; kh < t.kSize; ++kh) {
            int32_t num = (int32_t)oh + (int32_t)t.pad - (int32_t)kh;
            if (num < 0 || num % (int32_t)t.stride != 0) {
                continue;
            }
            uint32_t ih = (uint32_t)num / t.stride;
            if (ih >= t.inH) {
                continue;
            }

            LocalTensor<float> xr = xQue.AllocTensor<float>();
            DataCopy(xr, xGm[((n * t.inC + ic) * t.inH + ih) * t.inW], t.inWAlign);
            xQue.EnQue(xr);
            xr = xQue.DeQue<float>();

            // previous Axpy calls may still read sh
            SyncVectorToScalar();
            // sh[kw][ow] = x[(ow + pad - kw) / s] when the division is exact, 0 otherwise
            for (uint32_t kw = 0; kw < t.kSize; ++kw) {
                for (uint32_t ow = 0; ow < t.outW; ++ow) {
                    int32_t q = (int32_t)ow + (int32_t)t.pad - (int32_t)kw;
                    float v = 0.0f;
                    if (q >= 0 && q % (int32_t)t.stride == 0 && (uint32_t)q / t.stride < t.inW) {
                        v = xr.GetValue((uint32_t)q / t.stride);
                    }
                    sh.SetValue(kw * t.outWAlign + ow, v);
                }
            }
            xQue.FreeTensor(xr);
            SyncScalarToVector();

            for (uint32_t oc = 0; oc < t.outC; ++oc) {
                uint32_t wBase = oc * kk + kh * t.kSize;
                for (uint32_t kw = 0; kw < t.kSize; ++kw) {
                    float wv = wl.GetValue(wBase + kw);
                    Axpy(acc[oc * t.outWAlign], sh[kw * t.outWAlign], wv, t.outW);
                }
            }
        }
        wQue.FreeTensor(wl);
    }

    __aicore__ inline void Epilogue(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        uint32_t len = t.outWAlign;
        for (uint32_t oc = 0; oc < t.outC; ++oc) {
            LocalTensor<float> v = acc[oc * len];
            LocalTensor<float> out = yQue.AllocTensor<float>();
            // mish(v) = v * tanh(softplus(v)) = v * ((1+e^v)^2 - 1) / ((1+e^v)^2 + 1)
            Mins(tmp, v, 20.0f, len);          // keep exp finite
            Exp(tmp, tmp, len);
            Adds(tmp, tmp, 1.0f, len);
            Mul(tmp, tmp, tmp, len);
            Adds(out, tmp, 1.0f, len);         // denominator
            Adds(tmp, tmp, -1.0f, len);        // numerator
            Div(tmp, tmp, out, len);
            Mul(out, tmp, v, len);
            // + addVal, hardtanh, * gain
            Adds(out, out, t.addVal, len);
            Maxs(out, out, -1.0f, len);
            Mins(out, out, 1.0f, len);
            Muls(out, out, t.gain, len);
            yQue.EnQue(out);

            out = yQue.DeQue<float>();
            uint64_t dst = ((uint64_t)(n * t.outC + oc) * t.outH + oh) * t.outW;
            DataCopyExtParams cp{1, (uint32_t)(t.outW * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[dst], out, cp);
            yQue.FreeTensor(out);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> wQue, xQue;
    TQue<QuePosition::VECOUT, 2> yQue;
    TBuf<TPosition::VECCALC> accBuf, shiftBuf, tmpBuf, biasBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    UpconvMishClipGainTiling t;
    uint32_t kk = 0;
    uint32_t rowBegin = 0, rowEnd = 0;
};

extern "C" __global__ __aicore__ void upconv_mish_clip_gain(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                                            GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    UpconvMishClipGainTiling tl;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(tl) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    UpconvMishClipGain op;
    op.Init(x, w, b, y, tl);
    op.Process();
}
