/**
 * channel_batch_standardize.cpp
 *
 * Per-channel standardisation of an NCHW tensor using statistics gathered
 * over the (N, H, W) axes of the current batch, followed by a per-channel
 * affine transform:
 *
 *     mean[c] = E_{n,h,w}  x[n,c,h,w]
 *     var[c]  = E_{n,h,w} (x[n,c,h,w] - mean[c])^2          (biased)
 *     y       = (x - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c]
 *
 * Work split: each AI core owns a contiguous range of channels. For every
 * channel the core streams the N planes twice: once to accumulate sum and
 * sum of squares (vector accumulators, reduced once at the end) and once
 * to write the normalised values.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct ChannelBatchStandardizeTiling {
    uint32_t batch;          // N
    uint32_t channels;       // C
    uint32_t planeSize;      // H * W
    uint32_t tileLen;        // elements per UB tile (planeSize % tileLen == 0)
    uint32_t chPerCore;      // channels for every core except possibly the last ones
    uint32_t chRemainder;    // first chRemainder cores take one extra channel
    float eps;
};

__aicore__ inline void LoadTiling(ChannelBatchStandardizeTiling *dst, GM_ADDR src)
{
    auto in = reinterpret_cast<__gm__ uint32_t *>(src);
    auto out = reinterpret_cast<uint32_t *>(dst);
    for (uint32_t i = 0; i < sizeof(ChannelBatchStandardizeTiling) / sizeof(uint32_t); ++i) {
        out[i] = in[i];
    }
}

class ChannelBatchStandardizeKernel {
public:
    __aicore__ inline ChannelBatchStandardizeKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const ChannelBatchStandardizeTiling &t)
    {
        n_ = t.batch;
        c_ = t.channels;
        plane_ = t.planeSize;
        tile_ = t.tileLen;
        eps_ = t.eps;
        tilesPerPlane_ = plane_ / tile_;

        uint32_t core = GetBlockIdx();
        if (core < t.chRemainder) {
            chCount_ = t.chPerCore + 1;
            chStart_ = core * chCount_;
        } else {
            chCount_ = t.chPerCore;
            chStart_ = t.chRemainder * (t.chPerCore + 1) + (core - t.chRemainder) * t.chPerCore;
        }

        uint64_t total = static_cast<uint64_t>(n_) * c_ * plane_;
        xGm_.SetGlobalBuffer((__gm__ float *)x, total);
        yGm_.SetGlobalBuffer((__gm__ float *)y, total);
        gammaGm_.SetGlobalBuffer((__gm__ float *)gamma, c_);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta, c_);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, tile_ * sizeof(float));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, tile_ * sizeof(float));
        pipe_.InitBuffer(sumBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(sqBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(sqTmpBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(redBuf_, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < chCount_; ++i) {
            uint32_t ch = chStart_ + i;
            float mean = 0.0f;
            float invStd = 0.0f;
            GatherStats(ch, mean, invStd);
            float scale = invStd * gammaGm_.GetValue(ch);
            float shift = betaGm_.GetValue(ch) - mean * scale;
            Normalize(ch, scale, shift);
        }
    }

private:
    __aicore__ inline uint64_t TileOffset(uint32_t b, uint32_t ch, uint32_t t) const
    {
        return (static_cast<uint64_t>(b) * c_ + ch) * plane_ + static_cast<uint64_t>(t) * tile_;
    }

    __aicore__ inline void CopyIn(uint64_t off)
    {
        LocalTensor<float> xl = inQ_.AllocTensor<float>();
        DataCopy(xl, xGm_[off], tile_);
        inQ_.EnQue(xl);
    }

    // pass 1: sum and sum of squares, accumulated element-wise in UB
    __aicore__ inline void GatherStats(uint32_t ch, float &mean, float &invStd)
    {
        LocalTensor<float> acc = sumBuf_.Get<float>();
        LocalTensor<float> accSq = sqBuf_.Get<float>();
        LocalTensor<float> sq = sqTmpBuf_.Get<float>();
        Duplicate(acc, 0.0f, tile_);
        Duplicate(accSq, 0.0f, tile_);

        for (uint32_t b = 0; b < n_; ++b) {
            for (uint32_t t = 0; t < tilesPerPlane_; ++t) {
                CopyIn(TileOffset(b, ch, t));
                LocalTensor<float> xl = inQ_.DeQue<float>();
                Add(acc, acc, xl, tile_);
                Mul(sq, xl, xl, tile_);
                Add(accSq, accSq, sq, tile_);
                inQ_.FreeTensor(xl);
            }
        }

        LocalTensor<float> red = redBuf_.Get<float>();
        ReduceSum<float>(red, acc, sq, tile_);
        ReduceSum<float>(red[8], accSq, sq, tile_);
        SyncVS();
        float cnt = static_cast<float>(n_) * static_cast<float>(plane_);
        mean = red.GetValue(0) / cnt;
        float var = red.GetValue(8) / cnt - mean * mean;
        if (var < 0.0f) {
            var = 0.0f;
        }

        // 1/sqrt on the vector unit, then back to a scalar
        Duplicate(red[16], var + eps_, 8);
        Sqrt(red[16], red[16], 8);
        Duplicate(red[24], 1.0f, 8);
        Div(red[16], red[24], red[16], 8);
        SyncVS();
        invStd = red.GetValue(16);
    }

    // pass 2: y = x * scale + shift
    __aicore__ inline void Normalize(uint32_t ch, float scale, float shift)
    {
        for (uint32_t b = 0; b < n_; ++b) {
            for (uint32_t t = 0; t < tilesPerPlane_; ++t) {
                uint64_t off = TileOffset(b, ch, t);
                CopyIn(off);
                LocalTensor<float> xl = inQ_.DeQue<float>();
                LocalTensor<float> yl = outQ_.AllocTensor<float>();
                Muls(yl, xl, scale, tile_);
                Adds(yl, yl, shift, tile_);
                outQ_.EnQue(yl);
                inQ_.FreeTensor(xl);

                LocalTensor<float> yo = outQ_.DeQue<float>();
                DataCopy(yGm_[off], yo, tile_);
                outQ_.FreeTensor(yo);
            }
        }
    }

    __aicore__ inline void SyncVS()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<QuePosition::VECCALC> sumBuf_, sqBuf_, sqTmpBuf_, redBuf_;
    GlobalTensor<float> xGm_, yGm_, gammaGm_, betaGm_;

    uint32_t n_ = 0, c_ = 0, plane_ = 0, tile_ = 0, tilesPerPlane_ = 0;
    uint32_t chStart_ = 0, chCount_ = 0;
    float eps_ = 1e-5f;
};

extern "C" __global__ __aicore__ void channel_batch_standardize(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                                GM_ADDR y, GM_ADDR tiling)
{
    ChannelBatchStandardizeTiling t;
    LoadTiling(&t, tiling);
    ChannelBatchStandardizeKernel op;
    op.Init(x, gamma, beta, y, t);
    op.Process();
}
