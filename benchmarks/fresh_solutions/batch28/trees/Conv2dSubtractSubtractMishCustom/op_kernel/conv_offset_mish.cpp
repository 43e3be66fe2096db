/**
 * ConvOffsetMish kernel
 *
 *   y = mish( conv2d(x, weight) + bias - offset_a - offset_b )
 *   mish(v) = v * tanh(softplus(v)) = v * ((1+e^v)^2 - 1) / ((1+e^v)^2 + 1)
 *
 * Valid convolution (stride 1, no padding, no dilation), NCHW fp32.
 * Every core owns a contiguous range of output rows (n, oh).  For one row and
 * one column tile the kernel keeps an accumulator of outC x tile in UB and
 * streams the shifted input rows x[n, ic, oh+kh, ow0+kw ...] from GM; each
 * loaded row is broadcast into all output channels with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr float EXP_CLAMP = 20.0f;  // tanh(softplus(v)) == 1 in fp32 beyond this
}

class ConvOffsetMishKernel {
public:
    __aicore__ inline ConvOffsetMishKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                const ConvOffsetMishTilingData &t)
    {
        n_ = t.batch;
        ci_ = t.inChannels;
        h_ = t.inHeight;
        w_ = t.inWidth;
        co_ = t.outChannels;
        kh_ = t.kernelH;
        kw_ = t.kernelW;
        oh_ = t.outHeight;
        ow_ = t.outWidth;
        colTile_ = t.colTile;
        colAlign_ = t.colTileAlign;
        weightCount_ = t.weightCount;
        weightInUb_ = t.weightInUb != 0;
        offA_ = t.offsetA;
        offB_ = t.offsetB;

        uint32_t core = GetBlockIdx();
        rowCount_ = t.rowsPerCore + (core < t.rowsTail ? 1 : 0);
        rowStart_ = core * t.rowsPerCore + (core < t.rowsTail ? core : t.rowsTail);

        xGm_.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(n_) * ci_ * h_ * w_);
        wGm_.SetGlobalBuffer((__gm__ float *)weight, weightCount_);
        bGm_.SetGlobalBuffer((__gm__ float *)bias, co_);
        yGm_.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(n_) * co_ * oh_ * ow_);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, colAlign_ * sizeof(float));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, colAlign_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, co_ * colAlign_ * sizeof(float));
        pipe_.InitBuffer(tmpA_, colAlign_ * sizeof(float));
        pipe_.InitBuffer(tmpB_, colAlign_ * sizeof(float));
        pipe_.InitBuffer(biasBuf_, AlignFloat(co_) * sizeof(float));
        if (weightInUb_) {
            pipe_.InitBuffer(wBuf_, AlignFloat(weightCount_) * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (rowCount_ == 0) {
            return;
        }
        LoadParameters();
        for (uint32_t r = 0; r < rowCount_; ++r) {
            uint32_t row = rowStart_ + r;
            uint32_t b = row / oh_;
            uint32_t oy = row % oh_;
            for (uint32_t c0 = 0; c0 < ow_; c0 += colTile_) {
                uint32_t len = (ow_ - c0) < colTile_ ? (ow_ - c0) : colTile_;
                ComputeTile(b, oy, c0, len);
            }
        }
    }

private:
    __aicore__ inline uint32_t AlignFloat(uint32_t v) const { return (v + 7) / 8 * 8; }

    __aicore__ inline void LoadParameters()
    {
        LocalTensor<float> bl = biasBuf_.Get<float>();
        DataCopyExtParams bp{1, static_cast<uint32_t>(co_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(bl, bGm_, bp, pad);
        if (weightInUb_) {
            LocalTensor<float> wl = wBuf_.Get<float>();
            DataCopyExtParams wp{1, static_cast<uint32_t>(weightCount_ * sizeof(float)), 0, 0, 0};
            DataCopyPad(wl, wGm_, wp, pad);
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline float Weight(uint32_t idx)
    {
        if (weightInUb_) {
            return wBuf_.Get<float>().GetValue(idx);
        }
        return wGm_.GetValue(idx);
    }

    __aicore__ inline void ComputeTile(uint32_t b, uint32_t oy, uint32_t c0, uint32_t len)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> bl = biasBuf_.Get<float>();
        for (uint32_t oc = 0; oc < co_; ++oc) {
            Duplicate(acc[oc * colAlign_], bl.GetValue(oc), colAlign_);
        }

        const uint32_t kArea = kh_ * kw_;
        for (uint32_t ic = 0; ic < ci_; ++ic) {
            for (uint32_t ky = 0; ky < kh_; ++ky) {
                uint64_t rowBase = ((static_cast<uint64_t>(b) * ci_ + ic) * h_ + (oy + ky)) * w_;
                for (uint32_t kx = 0; kx < kw_; ++kx) {
                    CopyInRow(rowBase + c0 + kx, len);
                    LocalTensor<float> xr = inQ_.DeQue<float>();
                    uint32_t wOff = ic * kArea + ky * kw_ + kx;
                    for (uint32_t oc = 0; oc < co_; ++oc) {
                        float wv = Weight(oc * ci_ * kArea + wOff);
                        Axpy(acc[oc * colAlign_], xr, wv, colAlign_);
                    }
                    inQ_.FreeTensor(xr);
                }
            }
        }

        for (uint32_t oc = 0; oc < co_; ++oc) {
            LocalTensor<float> v = acc[oc * colAlign_];
            Adds(v, v, -offA_, colAlign_);
            Adds(v, v, -offB_, colAlign_);
            LocalTensor<float> o = outQ_.AllocTensor<float>();
            Mish(o, v);
            outQ_.EnQue(o);
            CopyOutRow(b, oc, oy, c0, len);
        }
    }

    // dst = v * tanh(log(1 + e^v))
    __aicore__ inline void Mish(const LocalTensor<float> &dst, const LocalTensor<float> &v)
    {
        LocalTensor<float> t = tmpA_.Get<float>();
        LocalTensor<float> u = tmpB_.Get<float>();
        Mins(t, v, EXP_CLAMP, colAlign_);
        Exp(t, t, colAlign_);
        Adds(t, t, 1.0f, colAlign_);      // 1 + e^v
        Mul(t, t, t, colAlign_);          // (1 + e^v)^2
        Adds(u, t, 1.0f, colAlign_);      // q + 1
        Adds(t, t, -1.0f, colAlign_);     // q - 1
        Div(t, t, u, colAlign_);          // tanh(softplus(v))
        Mul(dst, v, t, colAlign_);
    }

    __aicore__ inline void CopyInRow(uint64_t gmOffset, uint32_t len)
    {
        LocalTensor<float> xr = inQ_.AllocTensor<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xr, xGm_[gmOffset], p, pad);
        inQ_.EnQue(xr);
    }

    __aicore__ inline void CopyOutRow(uint32_t b, uint32_t oc, uint32_t oy, uint32_t c0, uint32_t len)
    {
        LocalTensor<float> o = outQ_.DeQue<float>();
        uint64_t off = ((static_cast<uint64_t>(b) * co_ + oc) * oh_ + oy) * ow_ + c0;
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[off], o, p);
        outQ_.FreeTensor(o);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<TPosition::VECCALC> accBuf_;
    TBuf<TPosition::VECCALC> tmpA_;
    TBuf<TPosition::VECCALC> tmpB_;
    TBuf<TPosition::VECCALC> biasBuf_;
    TBuf<TPosition::VECCALC> wBuf_;

    GlobalTensor<float> xGm_;
    GlobalTensor<float> wGm_;
    GlobalTensor<float> bGm_;
    GlobalTensor<float> yGm_;

    uint32_t n_ = 0, ci_ = 0, h_ = 0, w_ = 0, co_ = 0, kh_ = 0, kw_ = 0, oh_ = 0, ow_ = 0;
    uint32_t colTile_ = 0, colAlign_ = 0, weightCount_ = 0;
    uint32_t rowStart_ = 0, rowCount_ = 0;
    bool weightInUb_ = false;
    float offA_ = 0.0f, offB_ = 0.0f;
};

extern "C" __global__ __aicore__ void conv_offset_mish(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                       GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    ConvOffsetMishKernel op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
