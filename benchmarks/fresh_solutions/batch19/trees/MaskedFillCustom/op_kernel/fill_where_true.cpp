/*
 * FillWhereTrue kernel.
 *
 *   y[i] = mask[i] ? value : x[i]
 *
 * The bool mask arrives as one byte per element. It is widened to half,
 * compared against zero to build a per-element bit mask, and Select then picks
 * between x and the scalar fill value. Arithmetic blending is avoided on
 * purpose: value is typically -inf and 0 * inf would produce NaN.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t DEPTH = 2;

template <typename T>
class FillWhereTrueKernel {
public:
    __aicore__ inline FillWhereTrueKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, const FillWhereTrueTilingData &td)
    {
        const uint64_t first = td.blockElems * GetBlockIdx();
        span_ = first < td.elemCount ? td.elemCount - first : 0;
        if (span_ > td.blockElems) {
            span_ = td.blockElems;
        }
        tile_ = td.tileElems;
        fill_ = static_cast<T>(td.fillValue);

        xGm_.SetGlobalBuffer((__gm__ T *)x + first, span_);
        mGm_.SetGlobalBuffer((__gm__ uint8_t *)mask + first, span_);
        yGm_.SetGlobalBuffer((__gm__ T *)y + first, span_);

        pipe_.InitBuffer(xQue_, DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(mQue_, DEPTH, tile_ * sizeof(uint8_t));
        pipe_.InitBuffer(yQue_, DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(maskHalf_, tile_ * sizeof(half));
        pipe_.InitBuffer(selBits_, tile_ / 8);
    }

    __aicore__ inline void Process()
    {
        for (uint64_t pos = 0; pos < span_; pos += tile_) {
            uint32_t len = static_cast<uint32_t>((span_ - pos) < tile_ ? (span_ - pos) : tile_);
            Load(pos, len);
            Blend(len);
            Store(pos, len);
        }
    }

private:
    __aicore__ inline void Load(uint64_t pos, uint32_t len)
    {
        LocalTensor<T> xl = xQue_.AllocTensor<T>();
        LocalTensor<uint8_t> ml = mQue_.AllocTensor<uint8_t>();
        DataCopyPad(xl, xGm_[pos], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        DataCopyPad(ml, mGm_[pos], DataCopyExtParams{1, len, 0, 0, 0},
                    DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
        xQue_.EnQue(xl);
        mQue_.EnQue(ml);
    }

    __aicore__ inline void Blend(uint32_t len)
    {
        // vector instructions work on whole 256-element groups; the padding
        // lanes are computed but never written back
        const uint32_t calc = (len + 255U) / 256U * 256U;
        LocalTensor<T> xl = xQue_.DeQue<T>();
        LocalTensor<uint8_t> ml = mQue_.DeQue<uint8_t>();
        LocalTensor<T> yl = yQue_.AllocTensor<T>();
        LocalTensor<half> mh = maskHalf_.Get<half>();
        LocalTensor<uint8_t> bits = selBits_.Get<uint8_t>();

        Cast(mh, ml, RoundMode::CAST_NONE, calc);
        PipeBarrier<PIPE_V>();
        // bit = 1 where mask is false -> keep x; bit = 0 -> take the fill value
        CompareScalar(bits, mh, static_cast<half>(0), CMPMODE::EQ, calc);
        PipeBarrier<PIPE_V>();
        Select(yl, bits, xl, fill_, SELMODE::VSEL_TENSOR_SCALAR_MODE, calc);

        yQue_.EnQue(yl);
        xQue_.FreeTensor(xl);
        mQue_.FreeTensor(ml);
    }

    __aicore__ inline void Store(uint64_t pos, uint32_t len)
    {
        LocalTensor<T> yl = yQue_.DeQue<T>();
        DataCopyPad(yGm_[pos], yl, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
        yQue_.FreeTensor(yl);
    }

    TPipe pipe_;
    TQue<TPosition::VECIN, DEPTH> xQue_, mQue_;
    TQue<TPosition::VECOUT, DEPTH> yQue_;
    TBuf<TPosition::VECCALC> maskHalf_, selBits_;
    GlobalTensor<T> xGm_, yGm_;
    GlobalTensor<uint8_t> mGm_;
    uint64_t span_ = 0;
    uint32_t tile_ = 0;
    T fill_;
};

extern "C" __global__ __aicore__ void fill_where_true(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        FillWhereTrueKernel<float> k;
        k.Init(x, mask, y, td);
        k.Process();
    } else if (TILING_KEY_IS(2)) {
        FillWhereTrueKernel<half> k;
        k.Init(x, mask, y, td);
        k.Process();
    }
}
