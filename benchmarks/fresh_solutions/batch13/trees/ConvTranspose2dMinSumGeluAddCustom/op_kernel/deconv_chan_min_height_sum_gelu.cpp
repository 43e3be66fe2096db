/*
 * DeconvChanMinHeightSumGelu kernel.
 *
 *   t[n, co, oh, ow] = convT(x, weight)[n, co, oh, ow] + conv_bias[co]
 *   s[n, ow]         = sum_oh  min_co t[n, co, oh, ow]
 *   y[n, 0, 0, ow]   = gelu_erf(s[n, ow]) + shift
 *
 * Every core owns a contiguous range of (n, ow) columns. The transposed convolution is
 * evaluated in gather form: an output pixel (oh, ow) reads input (ih, iw) through tap
 * (kh, kw) when oh + pad - kh == ih * stride (same for width). Filters for a chunk of output
 * channels are kept resident in UB. Column sums are buffered and the GELU + shift epilogue
 * runs vectorised over the buffer before each store.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr float FLOAT_BIG = 3.402823e38f;
constexpr float INV_SQRT2 = 0.70710678118654752f;
constexpr uint32_t MAX_TAPS = 64;
}

class DeconvChanMinHeightSumGeluKernel {
public:
    __aicore__ inline DeconvChanMinHeightSumGeluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR convBias, GM_ADDR shift, GM_ADDR y,
                                const DeconvChanMinHeightSumGeluTilingData &td)
    {
        batch_ = td.batch;
        cin_ = td.inChannels;
        cout_ = td.outChannels;
        inH_ = td.inH;
        inW_ = td.inW;
        kh_ = td.kernelH;
        kw_ = td.kernelW;
        stride_ = td.stride;
        pad_ = td.pad;
        outH_ = td.outH;
        outW_ = td.outW;
        coChunk_ = td.coChunk;
        flushLen_ = td.flushLen;

        const uint32_t core = GetBlockIdx();
        colCount_ = td.columnsPerCore + (core < td.columnsTail ? 1 : 0);
        colStart_ = core * td.columnsPerCore + (core < td.columnsTail ? core : td.columnsTail);

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)weight);
        bGm_.SetGlobalBuffer((__gm__ float *)convBias);
        shiftGm_.SetGlobalBuffer((__gm__ float *)shift);
        yGm_.SetGlobalBuffer((__gm__ float *)y);

        const uint32_t biasLen = (cout_ + 7) / 8 * 8;
        pipe_.InitBuffer(wBuf_, cin_ * ((coChunk_ * kh_ * kw_ + 7) / 8 * 8) * sizeof(float));
        pipe_.InitBuffer(biasBuf_, biasLen * sizeof(float));
        pipe_.InitBuffer(accBuf_, flushLen_ * sizeof(float));
        pipe_.InitBuffer(erfBuf_, flushLen_ * sizeof(float));
        pipe_.InitBuffer(outQue_, 1, flushLen_ * sizeof(float));

        numChunks_ = (cout_ + coChunk_ - 1) / coChunk_;
        shiftVal_ = shiftGm_.GetValue(0);

        LocalTensor<float> biasLocal = biasBuf_.Get<float>();
        DataCopyExtParams bp{1, static_cast<uint32_t>(cout_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(biasLocal, bGm_, bp, noPad);
        if (numChunks_ == 1) {
            LoadFilters(0);
        }
        SyncMte2ToScalar();
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        uint32_t buffered = 0;
        uint32_t flushBase = colStart_;
        for (uint32_t i = 0; i < colCount_; ++i) {
            const uint32_t col = colStart_ + i;
            acc.SetValue(buffered, ColumnSum(col / outW_, col % outW_));
            ++buffered;
            if (buffered == flushLen_) {
                Flush(flushBase, buffered);
                flushBase += buffered;
                buffered = 0;
            }
        }
        if (buffered > 0) {
            Flush(flushBase, buffered);
        }
    }

private:
    // Bring the filters of output channels [chunk*coChunk, +cnt) into UB as [ci][c][kh][kw].
    __aicore__ inline void LoadFilters(uint32_t chunk)
    {
        const uint32_t coBeg = chunk * coChunk_;
        const uint32_t cnt = (cout_ - coBeg) < coChunk_ ? (cout_ - coBeg) : coChunk_;
        const uint32_t taps = kh_ * kw_;
        LocalTensor<float> wLocal = wBuf_.Get<float>();
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        // one burst per input channel; the GM gap skips the channels outside the chunk
        DataCopyExtParams p;
        p.blockCount = static_cast<uint16_t>(cin_);
        p.blockLen = cnt * taps * sizeof(float);
        p.srcStride = (cout_ - cnt) * taps * sizeof(float);
        p.dstStride = 0;
        p.rsv = 0;
        // in UB every burst starts on a 32B boundary, so a row of cnt*taps floats is padded
        // up to a multiple of 8 elements
        DataCopyPad(wLocal, wGm_[static_cast<uint64_t>(coBeg) * taps], p, noPad);
        curChunkCnt_ = cnt;
        curChunkStride_ = (cnt * taps + 7) / 8 * 8;
    }

    // min over channels of the deconvolution output, summed over all rows of column (n, ow)
    __aicore__ inline float ColumnSum(uint32_t n, uint32_t ow)
    {
        // horizontal taps that land on this column do not depend on the row
        uint32_t kwList[MAX_TAPS];
        uint32_t iwList[MAX_TAPS];
        uint32_t nkw = 0;
        for (uint32_t k = 0; k < kw_ && nkw < MAX_TAPS; ++k) {
            int32_t t = static_cast<int32_t>(ow + pad_) - static_cast<int32_t>(k);
            if (t < 0 || (t % static_cast<int32_t>(stride_)) != 0) {
                continue;
            }
            uint32_t iw = static_cast<uint32_t>(t) / stride_;
            if (iw >= inW_) {
                continue;
            }
            kwList[nkw] = k;
            iwList[nkw] = iw;
            ++nkw;
        }

        LocalTensor<float> biasLocal = biasBuf_.Get<float>();
        LocalTensor<float> wLocal = wBuf_.Get<float>();
        const uint64_t planeIn = static_cast<uint64_t>(inH_) * inW_;
        const uint64_t xBatch = static_cast<uint64_t>(n) * cin_ * planeIn;
        const uint32_t taps = kh_ * kw_;

        // running channel minimum for every output row
        float colSum = 0.0f;
        for (uint32_t oh = 0; oh < outH_; ++oh) {
            float rowMin = FLOAT_BIG;
            for (uint32_t chunk = 0; chunk < numChunks_; ++chunk) {
                if (numChunks_ > 1) {
                    LoadFilters(chunk);
                    SyncMte2ToScalar();
                }
                for (uint32_t c = 0; c < curChunkCnt_; ++c) {
                    const uint32_t co = chunk * coChunk_ + c;
                    float v = biasLocal.GetValue(co);
                    for (uint32_t a = 0; a < kh_; ++a) {
                        int32_t t = static_cast<int32_t>(oh + pad_) - static_cast<int32_t>(a);
                        if (t < 0 || (t % static_cast<int32_t>(stride_)) != 0) {
                            continue;
                        }
                        uint32_t ih = static_cast<uint32_t>(t) / stride_;
                        if (ih >= inH_) {
                            continue;
                        }
                        for (uint32_t j = 0; j < nkw; ++j) {
                            const uint64_t xOff = xBatch + static_cast<uint64_t>(ih) * inW_ + iwList[j];
                            const uint32_t wOff = c * taps + a * kw_ + kwList[j];
                            for (uint32_t ci = 0; ci < cin_; ++ci) {
                                v += xGm_.GetValue(xOff + ci * planeIn) *
                                     wLocal.GetValue(ci * curChunkStride_ + wOff);
                            }
                        }
                    }
                    rowMin = v < rowMin ? v : rowMin;
                }
            }
            colSum += rowMin;
        }
        return colSum;
    }

    // gelu(x) = 0.5 * x * (1 + erf(x / sqrt(2))), then + shift, then store cnt results
    __aicore__ inline void Flush(uint32_t base, uint32_t cnt)
    {
        SyncScalarToVector();
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> e = erfBuf_.Get<float>();
        LocalTensor<float> out = outQue_.AllocTensor<float>();

        Muls(e, acc, INV_SQRT2, cnt);
        Erf(e, e, cnt);
        Adds(e, e, 1.0f, cnt);
        Mul(out, acc, e, cnt);
        Muls(out, out, 0.5f, cnt);
        Adds(out, out, shiftVal_, cnt);
        outQue_.EnQue(out);

        out = outQue_.DeQue<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[base], out, p);
        outQue_.FreeTensor(out);
        // the accumulator is rewritten by the scalar unit next
        SyncVectorToScalar();
    }

    __aicore__ inline void SyncMte2ToScalar()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }
    __aicore__ inline void SyncScalarToVector()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }
    __aicore__ inline void SyncVectorToScalar()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> wBuf_, biasBuf_, accBuf_, erfBuf_;
    TQue<QuePosition::VECOUT, 1> outQue_;
    GlobalTensor<float> xGm_, wGm_, bGm_, shiftGm_, yGm_;

    uint32_t batch_, cin_, cout_, inH_, inW_, kh_, kw_, stride_, pad_, outH_, outW_;
    uint32_t coChunk_, numChunks_, flushLen_;
    uint32_t curChunkCnt_ = 0, curChunkStride_ = 0;
    uint32_t colStart_, colCount_;
    float shiftVal_ = 0.0f;
};

extern "C" __global__ __aicore__ void deconv_chan_min_height_sum_gelu(GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias,
                                                                      GM_ADDR shift, GM_ADDR y, GM_ADDR workspace,
                                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DeconvChanMinHeightSumGeluKernel op;
    op.Init(x, weight, conv_bias, shift, y, td);
    op.Process();
}
