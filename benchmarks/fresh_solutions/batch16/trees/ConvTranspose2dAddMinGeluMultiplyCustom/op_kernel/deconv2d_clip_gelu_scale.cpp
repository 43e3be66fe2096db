// Deconv2dClipGeluScale
//   t = conv_transpose2d(x, w, b, stride)      (no padding)
//   t = min(t + add_value, 0)
//   y = gelu(t) * mul_value                     (exact, erf based)
//
// Work unit: a block of R output rows of one (n, co) plane. The transposed conv
// is evaluated as a correlation of the zero-inserted input with the flipped
// kernel; the zero-inserted rows are kept in KW copies, copy j shifted left by
// j columns, so that every Axpy operand starts on a 32-byte boundary.
#include "kernel_operator.h"

using namespace AscendC;

class Deconv2dClipGeluScaleKernel {
public:
    __aicore__ inline Deconv2dClipGeluScaleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const Deconv2dClipGeluScaleTilingData &t)
    {
        p_ = t;
        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)w);
        bGm_.SetGlobalBuffer((__gm__ float *)b);
        yGm_.SetGlobalBuffer((__gm__ float *)y);

        upRows_ = p_.rowsPerTask + p_.kH - 1;
        upPlane_ = upRows_ * p_.upWAlign;
        accLen_ = p_.rowsPerTask * p_.outWAlign;
        inRowA_ = (p_.inW + 7) / 8 * 8;

        pipe_.InitBuffer(upBuf_, p_.kW * upPlane_ * sizeof(float));
        pipe_.InitBuffer(inBuf_, (p_.rowsPerTask + p_.kH) * inRowA_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, accLen_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, accLen_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, accLen_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = GetBlockIdx(); task < p_.taskNum; task += GetBlockNum()) {
            const uint32_t blk = task % p_.rowBlocks;
            const uint32_t co = (task / p_.rowBlocks) % p_.cout;
            const uint32_t n = task / (p_.rowBlocks * p_.cout);
            const uint32_t oh0 = blk * p_.rowsPerTask;
            const uint32_t nRows = (p_.outH - oh0) < p_.rowsPerTask ? (p_.outH - oh0) : p_.rowsPerTask;

            LocalTensor<float> acc = accBuf_.Get<float>();
            Duplicate(acc, bGm_.GetValue(co), accLen_);
            for (uint32_t ci = 0; ci < p_.cin; ++ci) {
                Upsample(n, ci, oh0, nRows);
                Accumulate(acc, ci, co, nRows);
            }
            Epilogue(acc, nRows);
            Store(n, co, oh0, nRows);
        }
    }

private:
    // Fill the shifted up-sampled row window that feeds output rows [oh0, oh0 + nRows).
    // Up-sampled row u corresponds to padded row (oh0 + u); input row ih lands on
    // padded row (kH - 1) + ih * stride.
    __aicore__ inline void Upsample(uint32_t n, uint32_t ci, uint32_t oh0, uint32_t nRows)
    {
        LocalTensor<float> up = upBuf_.Get<float>();
        PipeBarrier<PIPE_ALL>();
        Duplicate(up, 0.0f, p_.kW * upPlane_);

        const int32_t firstPad = (int32_t)oh0 - (int32_t)(p_.kH - 1);
        const int32_t lastPad = (int32_t)(oh0 + nRows - 1);   // padded rows oh0 .. oh0+nRows-1+kH-1
        int32_t ihLo = firstPad <= 0 ? 0 : (firstPad + (int32_t)p_.stride - 1) / (int32_t)p_.stride;
        int32_t ihHi = lastPad / (int32_t)p_.stride;
        if (ihHi >= (int32_t)p_.inH) {
            ihHi = (int32_t)p_.inH - 1;
        }
        if (ihLo > ihHi) {
            PipeBarrier<PIPE_ALL>();
            return;
        }
        const uint32_t cnt = (uint32_t)(ihHi - ihLo + 1);
        LocalTensor<float> in = inBuf_.Get<float>();
        const uint64_t src = (((uint64_t)n * p_.cin + ci) * p_.inH + ihLo) * p_.inW;
        DataCopyExtParams cp{(uint16_t)cnt, (uint32_t)(p_.inW * sizeof(float)), 0, 0, 0};
        DataCopyPad(in, xGm_[src], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();

        for (uint32_t r = 0; r < cnt; ++r) {
            const uint32_t ih = (uint32_t)ihLo + r;
            const uint32_t u = (p_.kH - 1) + ih * p_.stride - oh0;   // row inside the window
            for (uint32_t iw = 0; iw < p_.inW; ++iw) {
                const float v = in.GetValue(r * inRowA_ + iw);
                const uint32_t col = (p_.kW - 1) + iw * p_.stride;
                for (uint32_t j = 0; j < p_.kW; ++j) {
                    up.SetValue(j * upPlane_ + u * p_.upWAlign + (col - j), v);
                }
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Accumulate(LocalTensor<float> &acc, uint32_t ci, uint32_t co, uint32_t nRows)
    {
        LocalTensor<float> up = upBuf_.Get<float>();
        const uint64_t wBase = ((uint64_t)ci * p_.cout + co) * p_.kH * p_.kW;
        for (uint32_t kh = 0; kh < p_.kH; ++kh) {
            for (uint32_t kw = 0; kw < p_.kW; ++kw) {
                const float wv = wGm_.GetValue(wBase + (p_.kH - 1 - kh) * p_.kW + (p_.kW - 1 - kw));
                for (uint32_t r = 0; r < nRows; ++r) {
                    Axpy(acc[r * p_.outWAlign], up[kw * upPlane_ + (r + kh) * p_.upWAlign], wv, p_.outWAlign);
                }
            }
        }
    }

    __aicore__ inline void Epilogue(LocalTensor<float> &acc, uint32_t nRows)
    {
        const uint32_t len = nRows * p_.outWAlign;
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        LocalTensor<float> out = outQ_.AllocTensor<float>();
        PipeBarrier<PIPE_V>();
        Adds(acc, acc, p_.addValue, len);
        Mins(acc, acc, 0.0f, len);
        // gelu(v) = 0.5 * v * (1 + erf(v / sqrt(2)))
        Muls(tmp, acc, 0.70710678f, len);
        Erf(tmp, tmp, len);
        Adds(tmp, tmp, 1.0f, len);
        Mul(out, acc, tmp, len);
        Muls(out, out, 0.5f * p_.mulValue, len);
        outQ_.EnQue(out);
    }

    __aicore__ inline void Store(uint32_t n, uint32_t co, uint32_t oh0, uint32_t nRows)
    {
        LocalTensor<float> out = outQ_.DeQue<float>();
        const uint64_t dst = (((uint64_t)n * p_.cout + co) * p_.outH + oh0) * p_.outW;
        DataCopyExtParams cp{(uint16_t)nRows, (uint32_t)(p_.outW * sizeof(float)),
                             (uint32_t)((p_.outWAlign - p_.outW) * sizeof(float) / 32), 0, 0};
        DataCopyPad(yGm_[dst], out, cp);
        outQ_.FreeTensor(out);
    }

    TPipe pipe_;
    Deconv2dClipGeluScaleTilingData p_;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_;
    TBuf<TPosition::VECCALC> upBuf_, inBuf_, accBuf_, tmpBuf_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    uint32_t upRows_ = 0, upPlane_ = 0, accLen_ = 0, inRowA_ = 0;
};

extern "C" __global__ __aicore__ void deconv2d_clip_gelu_scale(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Deconv2dClipGeluScaleKernel op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
