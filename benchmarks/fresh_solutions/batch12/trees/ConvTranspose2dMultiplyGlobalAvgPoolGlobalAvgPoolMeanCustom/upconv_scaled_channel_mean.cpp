/**
 * upconv_scaled_channel_mean.cpp
 *
 * Computes, for every (batch, out_channel), the spatial mean of a strided
 * transposed 2-D convolution, scaled by a constant:
 *
 *     y[b, oc] = alpha * mean_{oh,ow}( deconv(x)[b, oc, oh, ow] )
 *
 * The full upsampled feature map is never materialised. Because the mean is
 * linear, it is enough to know, for every input channel and every kernel tap
 * (kh, kw), the sum of the input pixels whose scattered contribution lands
 * inside the cropped output window. For each tap that set is a rectangle of
 * the input plane, so one streaming pass over the input gives all K*K sums:
 *
 *     rowAll[w]      = sum over all input rows of x[ih, w]
 *     rowSkip[kh][w] = sum over rows that tap kh pushes outside the output
 *     tap[kh][kw]    = sum_w (rowAll - rowSkip[kh])[w], restricted to the
 *                      valid column interval of kw
 *
 * The channel mixing is then a tiny GEMV against the (host re-packed)
 * weight  wPack[ic][kh*K+kw][oc].
 *
 * One AI core handles one batch image at a time.
 */
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_K = 8;

struct UpconvScaledChannelMeanTiling {
    uint32_t batch;
    uint32_t inCh;
    uint32_t outCh;
    uint32_t inH;
    uint32_t inW;
    uint32_t kSize;
    uint32_t outH;
    uint32_t outW;
    uint32_t rowsPerTile;      // input rows moved per DataCopy
    uint32_t rowLo[MAX_K];     // first valid input row for tap kh
    uint32_t rowHi[MAX_K];     // last valid input row for tap kh
    uint32_t colLo[MAX_K];     // first valid input column for tap kw
    uint32_t colHi[MAX_K];     // last valid input column for tap kw
    float alpha;               // output multiplier
};

__aicore__ inline void LoadTiling(UpconvScaledChannelMeanTiling *dst, GM_ADDR src)
{
    auto *words = reinterpret_cast<uint32_t *>(dst);
    auto *gmWords = reinterpret_cast<__gm__ uint32_t *>(src);
    for (uint32_t i = 0; i < sizeof(UpconvScaledChannelMeanTiling) / sizeof(uint32_t); ++i) {
        words[i] = gmWords[i];
    }
}

class UpconvScaledChannelMean {
public:
    __aicore__ inline UpconvScaledChannelMean() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wPack, GM_ADDR bias, GM_ADDR y,
                                const UpconvScaledChannelMeanTiling &t)
    {
        tl = t;
        kk = tl.kSize * tl.kSize;
        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tl.batch * tl.inCh * tl.inH * tl.inW);
        wGm.SetGlobalBuffer((__gm__ float *)wPack, (uint64_t)tl.inCh * kk * tl.outCh);
        bGm.SetGlobalBuffer((__gm__ float *)bias, tl.outCh);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)tl.batch * tl.outCh);

        pipe.InitBuffer(xQue, BUFFER_NUM, tl.rowsPerTile * tl.inW * sizeof(float));
        pipe.InitBuffer(wQue, 1, kk * tl.outCh * sizeof(float));
        pipe.InitBuffer(yQue, 1, tl.outCh * sizeof(float));
        pipe.InitBuffer(rowAllBuf, tl.inW * sizeof(float));
        pipe.InitBuffer(rowSkipBuf, tl.kSize * tl.inW * sizeof(float));
        pipe.InitBuffer(tmpBuf, tl.inW * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(redWork, tl.inW * sizeof(float));
        pipe.InitBuffer(biasBuf, tl.outCh * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> biasLocal = biasBuf.Get<float>();
        AscendC::DataCopy(biasLocal, bGm, tl.outCh);

        for (uint32_t b = AscendC::GetBlockIdx(); b < tl.batch; b += AscendC::GetBlockNum()) {
            LocalTensor<float> acc = yQue.AllocTensor<float>();
            AscendC::Duplicate(acc, 0.0f, tl.outCh);
            for (uint32_t ic = 0; ic < tl.inCh; ++ic) {
                ChannelTapSums(b, ic);
                MixChannel(ic, acc);
            }
            // mean over the (outH x outW) plane, bias, then the multiplier
            const float invArea = 1.0f / static_cast<float>(tl.outH * tl.outW);
            AscendC::Muls(acc, acc, invArea, tl.outCh);
            AscendC::Add(acc, acc, biasLocal, tl.outCh);
            AscendC::Muls(acc, acc, tl.alpha, tl.outCh);
            yQue.EnQue(acc);
            LocalTensor<float> out = yQue.DeQue<float>();
            AscendC::DataCopy(yGm[(uint64_t)b * tl.outCh], out, tl.outCh);
            yQue.FreeTensor(out);
        }
    }

private:
    template <typename T> using LocalTensor = AscendC::LocalTensor<T>;

    // Streams one input plane and fills tapSum[kh*K + kw].
    __aicore__ inline void ChannelTapSums(uint32_t b, uint32_t ic)
    {
        LocalTensor<float> rowAll = rowAllBuf.Get<float>();
        LocalTensor<float> rowSkip = rowSkipBuf.Get<float>();
        AscendC::Duplicate(rowAll, 0.0f, tl.inW);
        AscendC::Duplicate(rowSkip, 0.0f, tl.kSize * tl.inW);

        const uint64_t planeBase = ((uint64_t)b * tl.inCh + ic) * tl.inH * tl.inW;
        for (uint32_t r0 = 0; r0 < tl.inH; r0 += tl.rowsPerTile) {
            uint32_t rows = (tl.inH - r0 < tl.rowsPerTile) ? (tl.inH - r0) : tl.rowsPerTile;
            LocalTensor<float> xin = xQue.AllocTensor<float>();
            AscendC::DataCopy(xin, xGm[planeBase + (uint64_t)r0 * tl.inW], rows * tl.inW);
            xQue.EnQue(xin);
            xin = xQue.DeQue<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                uint32_t ih = r0 + r;
                LocalTensor<float> row = xin[r * tl.inW];
                AscendC::Add(rowAll, rowAll, row, tl.inW);
                for (uint32_t kh = 0; kh < tl.kSize; ++kh) {
                    if (ih < tl.rowLo[kh] || ih > tl.rowHi[kh]) {
                        LocalTensor<float> skip = rowSkip[kh * tl.inW];
                        AscendC::Add(skip, skip, row, tl.inW);
                    }
                }
            }
            xQue.FreeTensor(xin);
        }

        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = redWork.Get<float>();
        for (uint32_t kh = 0; kh < tl.kSize; ++kh) {
            AscendC::Sub(tmp, rowAll, rowSkip[kh * tl.inW], tl.inW);
            AscendC::ReduceSum(red, tmp, work, tl.inW);
            SyncVecToScalar();
            float whole = red.GetValue(0);
            for (uint32_t kw = 0; kw < tl.kSize; ++kw) {
                float s = whole;
                // drop the columns this tap pushes outside the cropped output
                for (uint32_t c = 0; c < tl.colLo[kw]; ++c) {
                    s -= tmp.GetValue(c);
                }
                for (uint32_t c = tl.colHi[kw] + 1; c < tl.inW; ++c) {
                    s -= tmp.GetValue(c);
                }
                tapSum[kh * tl.kSize + kw] = s;
            }
            SyncScalarToVec();
        }
    }

    // acc[oc] += sum_k wPack[ic][k][oc] * tapSum[k]
    __aicore__ inline void MixChannel(uint32_t ic, LocalTensor<float> &acc)
    {
        LocalTensor<float> w = wQue.AllocTensor<float>();
        AscendC::DataCopy(w, wGm[(uint64_t)ic * kk * tl.outCh], kk * tl.outCh);
        wQue.EnQue(w);
        w = wQue.DeQue<float>();
        for (uint32_t k = 0; k < kk; ++k) {
            AscendC::Axpy(acc, w[k * tl.outCh], tapSum[k], tl.outCh);
        }
        wQue.FreeTensor(w);
    }

    __aicore__ inline void SyncVecToScalar()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
    }

    __aicore__ inline void SyncScalarToVec()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> xQue;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> wQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> yQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowAllBuf, rowSkipBuf, tmpBuf, redBuf, redWork, biasBuf;
    AscendC::GlobalTensor<float> xGm, wGm, bGm, yGm;
    UpconvScaledChannelMeanTiling tl;
    uint32_t kk = 0;
    float tapSum[MAX_K * MAX_K];
};

extern "C" __global__ __aicore__ void upconv_scaled_channel_mean(GM_ADDR x, GM_ADDR wPack, GM_ADDR bias,
                                                                 GM_ADDR y, GM_ADDR tiling)
{
    UpconvScaledChannelMeanTiling t;
    LoadTiling(&t, tiling);
    UpconvScaledChannelMean op;
    op.Init(x, wPack, bias, y, t);
    op.Process();
}
