// PatchEmbedConv: non-overlapping P x P patch convolution (kernel == stride),
// the patchify/embedding stem of a vision transformer.
//
//   tokens[b, e, gy, gx] = bias[e] + sum_{c,ky,kx} w[e,c,ky,kx] * img[b, c, gy*P+ky, gx*P+kx]
//
// Work unit = one row of patches of one image.  The C*P image rows of that
// strip are staged in UB, rearranged by one Gather into C*P*P im2col columns
// of length gridW, and each embedding channel is a bias fill plus C*P*P Axpys.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class PatchEmbedConvKernel {
public:
    __aicore__ inline PatchEmbedConvKernel() {}

    __aicore__ inline void Init(GM_ADDR img, GM_ADDR w, GM_ADDR b, GM_ADDR out, const PatchEmbedConvTilingData &td)
    {
        c_ = td.channels; h_ = td.height; w_ = td.width; e_ = td.embedDim; p_ = td.patch;
        gh_ = td.gridH; gw_ = td.gridW; rowPitch_ = td.rowPitch; colPitch_ = td.colPitch; units_ = td.units;
        taps_ = c_ * p_ * p_;
        stripRows_ = c_ * p_;

        imgGm_.SetGlobalBuffer((__gm__ T *)img);
        wGm_.SetGlobalBuffer((__gm__ T *)w);
        bGm_.SetGlobalBuffer((__gm__ T *)b);
        outGm_.SetGlobalBuffer((__gm__ T *)out);

        uint32_t wAll = (taps_ * e_ + 15) / 16 * 16;
        uint32_t bAll = (e_ + 15) / 16 * 16;
        pipe_.InitBuffer(stripQ_, 1, stripRows_ * rowPitch_ * sizeof(T));
        pipe_.InitBuffer(outQ_, 2, colPitch_ * sizeof(T));
        pipe_.InitBuffer(stripF_, stripRows_ * rowPitch_ * sizeof(float));
        pipe_.InitBuffer(cols_, taps_ * colPitch_ * sizeof(float));
        pipe_.InitBuffer(offs_, taps_ * colPitch_ * sizeof(uint32_t));
        pipe_.InitBuffer(wRaw_, wAll * sizeof(T));
        pipe_.InitBuffer(wF_, wAll * sizeof(float));
        pipe_.InitBuffer(bRaw_, bAll * sizeof(T));
        pipe_.InitBuffer(bF_, bAll * sizeof(float));
        pipe_.InitBuffer(acc_, colPitch_ * sizeof(float));

        StageParameters(wAll, bAll);
        BuildIm2colOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = GetBlockIdx(); u < units_; u += GetBlockNum()) {
            uint32_t bi = u / gh_;
            uint32_t gy = u % gh_;
            LoadStrip(bi, gy);
            EmbedStrip(bi, gy);
        }
    }

private:
    // weights and bias are small: keep them resident in fp32 for the whole launch
    __aicore__ inline void StageParameters(uint32_t wAll, uint32_t bAll)
    {
        LocalTensor<T> wr = wRaw_.Get<T>();
        LocalTensor<T> br = bRaw_.Get<T>();
        DataCopyPadExtParams<T> pp{false, 0, 0, 0};
        DataCopyPad(wr, wGm_, DataCopyExtParams{1, static_cast<uint32_t>(taps_ * e_ * sizeof(T)), 0, 0, 0}, pp);
        DataCopyPad(br, bGm_, DataCopyExtParams{1, static_cast<uint32_t>(e_ * sizeof(T)), 0, 0, 0}, pp);
        event_t m2v = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(m2v);
        WaitFlag<HardEvent::MTE2_V>(m2v);
        LocalTensor<float> wf = wF_.Get<float>();
        LocalTensor<float> bf = bF_.Get<float>();
        if constexpr (sizeof(T) == 4) {
            Adds(wf, wr, 0.0f, taps_ * e_);
            Adds(bf, br, 0.0f, e_);
        } else {
            Cast(wf, wr, RoundMode::CAST_NONE, taps_ * e_);
            Cast(bf, br, RoundMode::CAST_NONE, e_);
        }
        event_t v2s = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(v2s);
        WaitFlag<HardEvent::V_S>(v2s);
    }

    // column t = (c*P + ky)*P + kx, element gx  <-  strip row (c*P + ky), pixel gx*P + kx
    __aicore__ inline void BuildIm2colOffsets()
    {
        LocalTensor<uint32_t> off = offs_.Get<uint32_t>();
        for (uint32_t r = 0; r < stripRows_; ++r) {
            for (uint32_t kx = 0; kx < p_; ++kx) {
                uint32_t t = r * p_ + kx;
                for (uint32_t gx = 0; gx < colPitch_; ++gx) {
                    uint32_t px = gx < gw_ ? gx * p_ + kx : kx;   // pad lanes read a valid pixel
                    off.SetValue(t * colPitch_ + gx, (r * rowPitch_ + px) * static_cast<uint32_t>(sizeof(float)));
                }
            }
        }
        event_t s2v = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(s2v);
        WaitFlag<HardEvent::S_V>(s2v);
    }

    __aicore__ inline void LoadStrip(uint32_t bi, uint32_t gy)
    {
        LocalTensor<T> s = stripQ_.AllocTensor<T>();
        // C blocks of P consecutive image rows; every row lands at rowPitch in UB
        uint32_t rowBytes = w_ * sizeof(T);
        uint32_t dstGap = (rowPitch_ * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32;
        DataCopyPadExtParams<T> pp{false, 0, 0, 0};
        for (uint32_t ch = 0; ch < c_; ++ch) {
            uint64_t src = ((static_cast<uint64_t>(bi) * c_ + ch) * h_ + gy * p_) * w_;
            DataCopyExtParams cp{static_cast<uint16_t>(p_), rowBytes, 0, dstGap, 0};
            DataCopyPad(s[ch * p_ * rowPitch_], imgGm_[src], cp, pp);
        }
        stripQ_.EnQue(s);
    }

    __aicore__ inline void EmbedStrip(uint32_t bi, uint32_t gy)
    {
        LocalTensor<T> s = stripQ_.DeQue<T>();
        LocalTensor<float> sf = stripF_.Get<float>();
        if constexpr (sizeof(T) == 4) {
            Adds(sf, s, 0.0f, stripRows_ * rowPitch_);
        } else {
            Cast(sf, s, RoundMode::CAST_NONE, stripRows_ * rowPitch_);
        }
        stripQ_.FreeTensor(s);

        LocalTensor<float> cl = cols_.Get<float>();
        Gather(cl, sf, offs_.Get<uint32_t>(), 0U, taps_ * colPitch_);

        LocalTensor<float> wf = wF_.Get<float>();
        LocalTensor<float> bf = bF_.Get<float>();
        LocalTensor<float> a = acc_.Get<float>();
        for (uint32_t e = 0; e < e_; ++e) {
            Duplicate(a, bf.GetValue(e), colPitch_);
            const uint32_t wb = e * taps_;
            for (uint32_t t = 0; t < taps_; ++t) {
                Axpy(a, cl[t * colPitch_], wf.GetValue(wb + t), colPitch_);
            }
            LocalTensor<T> o = outQ_.AllocTensor<T>();
            if constexpr (sizeof(T) == 4) {
                Adds(o, a, 0.0f, gw_);
            } else {
                Cast(o, a, RoundMode::CAST_ROUND, gw_);
            }
            outQ_.EnQue(o);
            o = outQ_.DeQue<T>();
            uint64_t dst = ((static_cast<uint64_t>(bi) * e_ + e) * gh_ + gy) * gw_;
            DataCopyPad(outGm_[dst], o, DataCopyExtParams{1, static_cast<uint32_t>(gw_ * sizeof(T)), 0, 0, 0});
            outQ_.FreeTensor(o);
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> stripQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> stripF_, cols_, offs_, wRaw_, wF_, bRaw_, bF_, acc_;
    GlobalTensor<T> imgGm_, wGm_, bGm_, outGm_;
    uint32_t c_ = 0, h_ = 0, w_ = 0, e_ = 0, p_ = 0, gh_ = 0, gw_ = 0;
    uint32_t rowPitch_ = 0, colPitch_ = 0, units_ = 0, taps_ = 0, stripRows_ = 0;
};

extern "C" __global__ __aicore__ void patch_embed_conv(GM_ADDR image, GM_ADDR weight, GM_ADDR bias, GM_ADDR tokens,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    PatchEmbedConvKernel<DTYPE_IMAGE> op;
    op.Init(image, weight, bias, tokens, td);
    op.Process();
}
