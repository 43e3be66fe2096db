// ConvBatchStatNormScale
//   z = conv2d(x, filter) + bias                   (valid, stride 1)
//   y = scale * (gamma * (z - mean_c) / sqrt(var_c + eps) + beta)
// mean_c / var_c are the batch statistics of channel c over (N, OH, OW), biased variance.
//
// Every core owns a contiguous range of output channels, so all statistics of
// a channel are produced on one core and no cross-core reduction is needed.
//  pass 1: conv rows -> y (raw), per-lane running sum / sum of squares
//  pass 2: y <- y * a_c + b_c, streamed through UB plane by plane
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t kTapDepth = 2;
constexpr int32_t kNormDepth = 2;

class ConvBatchStatNormScaleOp {
public:
    __aicore__ inline ConvBatchStatNormScaleOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR y, const ConvBatchStatNormScaleTilingData& td)
    {
        t_ = td;
        const uint32_t core = GetBlockIdx();
        chBegin_ = core * td.chPerCore + (core < td.chTail ? core : td.chTail);
        chCount_ = td.chPerCore + (core < td.chTail ? 1 : 0);
        taps_ = td.cin * td.kh * td.kw;

        xGm_.SetGlobalBuffer((__gm__ float*)x);
        fGm_.SetGlobalBuffer((__gm__ float*)filter);
        bGm_.SetGlobalBuffer((__gm__ float*)bias);
        gGm_.SetGlobalBuffer((__gm__ float*)gamma);
        betaGm_.SetGlobalBuffer((__gm__ float*)beta);
        yGm_.SetGlobalBuffer((__gm__ float*)y);

        const uint32_t rows = td.chBlock * td.owAlign;
        pipe_.InitBuffer(tapQ_, kTapDepth, td.owAlign * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, rows * sizeof(float));
        pipe_.InitBuffer(sumBuf_, rows * sizeof(float));
        pipe_.InitBuffer(sqBuf_, rows * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, td.owAlign * sizeof(float));
        pipe_.InitBuffer(wBuf_, ((td.chBlock * taps_ + 7) / 8 * 8) * sizeof(float));
        pipe_.InitBuffer(redBuf_, 64 * sizeof(float));
        pipe_.InitBuffer(inQ_, kNormDepth, td.normChunk * sizeof(float));
        pipe_.InitBuffer(resQ_, kNormDepth, td.normChunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c0 = 0; c0 < chCount_; c0 += t_.chBlock) {
            uint32_t nb = chCount_ - c0 < t_.chBlock ? chCount_ - c0 : t_.chBlock;
            uint32_t cBase = chBegin_ + c0;
            LoadFilters(cBase, nb);
            ConvAndStats(cBase, nb);
            for (uint32_t c = 0; c < nb; ++c) {
                Normalize(cBase + c, mean_[c], rstd_[c]);
            }
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    // filter[cBase .. cBase + nb) is contiguous: nb * Cin * KH * KW values
    __aicore__ inline void LoadFilters(uint32_t cBase, uint32_t nb)
    {
        LocalTensor<float> wl = wBuf_.Get<float>();
        DataCopyExtParams cp{1, nb * taps_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(wl, fGm_[static_cast<uint64_t>(cBase) * taps_], cp, DataCopyPadExtParams<float>{false, 0, 0, 0});
        Sync<HardEvent::MTE2_S>();
    }

    __aicore__ inline void ConvAndStats(uint32_t cBase, uint32_t nb)
    {
        const uint32_t ow = t_.ow;
        const uint32_t ld = t_.owAlign;
        LocalTensor<float> wl = wBuf_.Get<float>();
        LocalTensor<float> sum = sumBuf_.Get<float>();
        LocalTensor<float> sq = sqBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        Duplicate(sum, 0.0f, nb * ld);
        Duplicate(sq, 0.0f, nb * ld);

        for (uint32_t n = 0; n < t_.n; ++n) {
            for (uint32_t r = 0; r < t_.oh; ++r) {
                LocalTensor<float> acc = outQ_.AllocTensor<float>();
                for (uint32_t c = 0; c < nb; ++c) {
                    Duplicate(acc[c * ld], bGm_.GetValue(cBase + c), ow);
                }
                uint32_t tap = 0;
                for (uint32_t ci = 0; ci < t_.cin; ++ci) {
                    for (uint32_t i = 0; i < t_.kh; ++i) {
                        uint64_t src = ((static_cast<uint64_t>(n) * t_.cin + ci) * t_.h + r + i) * t_.w;
                        for (uint32_t j = 0; j < t_.kw; ++j, ++tap) {
                            LocalTensor<float> in = tapQ_.AllocTensor<float>();
                            DataCopyPad(in, xGm_[src + j], DataCopyExtParams{1, ow * 4U, 0, 0, 0},
                                        DataCopyPadExtParams<float>{false, 0, 0, 0});
                            tapQ_.EnQue(in);
                            in = tapQ_.DeQue<float>();
                            for (uint32_t c = 0; c < nb; ++c) {
                                Axpy(acc[c * ld], in, wl.GetValue(c * taps_ + tap), ow);
                            }
                            tapQ_.FreeTensor(in);
                        }
                    }
                }
                // running statistics, lane-wise
                for (uint32_t c = 0; c < nb; ++c) {
                    Add(sum[c * ld], sum[c * ld], acc[c * ld], ow);
                    Mul(tmp, acc[c * ld], acc[c * ld], ow);
                    Add(sq[c * ld], sq[c * ld], tmp, ow);
                }
                outQ_.EnQue(acc);
                acc = outQ_.DeQue<float>();
                for (uint32_t c = 0; c < nb; ++c) {
                    uint64_t dst = ((static_cast<uint64_t>(n) * t_.cout + cBase + c) * t_.oh + r) * ow;
                    DataCopyPad(yGm_[dst], acc[c * ld], DataCopyExtParams{1, ow * 4U, 0, 0, 0});
                }
                outQ_.FreeTensor(acc);
            }
        }

        // fold the lanes, derive mean / inverse std per channel
        LocalTensor<float> red = redBuf_.Get<float>();
        const float inv = 1.0f / (static_cast<float>(t_.n) * t_.oh * ow);
        for (uint32_t c = 0; c < nb; ++c) {
            ReduceSum(red, sum[c * ld], tmp, ow);
            ReduceSum(red[8], sq[c * ld], tmp, ow);
            Sync<HardEvent::V_S>();
            float m = red.GetValue(0) * inv;
            float var = red.GetValue(8) * inv - m * m;
            var = var < 0.0f ? 0.0f : var;
            mean_[c] = m;
            var_[c] = var + t_.eps;
            Sync<HardEvent::S_V>();
        }
        // rsqrt on the vector unit for the whole block
        for (uint32_t c = 0; c < nb; ++c) {
            red.SetValue(c, var_[c]);
        }
        Sync<HardEvent::S_V>();
        Sqrt(red, red, nb);
        Sync<HardEvent::V_S>();
        for (uint32_t c = 0; c < nb; ++c) {
            rstd_[c] = 1.0f / red.GetValue(c);
        }
        // the raw conv rows must be in GM before pass 2 reads them back
        Sync<HardEvent::MTE3_MTE2>();
    }

    __aicore__ inline void Normalize(uint32_t ch, float mean, float rstd)
    {
        const float g = gGm_.GetValue(ch) * rstd;
        const float mul = g * t_.scale;
        const float add = (betaGm_.GetValue(ch) - mean * g) * t_.scale;
        const uint32_t plane = t_.oh * t_.ow;
        for (uint32_t n = 0; n < t_.n; ++n) {
            uint64_t base = (static_cast<uint64_t>(n) * t_.cout + ch) * plane;
            for (uint32_t off = 0; off < plane; off += t_.normChunk) {
                uint32_t len = plane - off < t_.normChunk ? plane - off : t_.normChunk;
                LocalTensor<float> a = inQ_.AllocTensor<float>();
                DataCopyPad(a, yGm_[base + off], DataCopyExtParams{1, len * 4U, 0, 0, 0},
                            DataCopyPadExtParams<float>{false, 0, 0, 0});
                inQ_.EnQue(a);
                a = inQ_.DeQue<float>();
                LocalTensor<float> b = resQ_.AllocTensor<float>();
                Muls(b, a, mul, len);
                Adds(b, b, add, len);
                inQ_.FreeTensor(a);
                resQ_.EnQue(b);
                b = resQ_.DeQue<float>();
                DataCopyPad(yGm_[base + off], b, DataCopyExtParams{1, len * 4U, 0, 0, 0});
                resQ_.FreeTensor(b);
            }
        }
    }

private:
    static constexpr uint32_t kMaxBlock = 64;

    TPipe pipe_;
    TQue<QuePosition::VECIN, kTapDepth> tapQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TQue<QuePosition::VECIN, kNormDepth> inQ_;
    TQue<QuePosition::VECOUT, kNormDepth> resQ_;
    TBuf<TPosition::VECCALC> sumBuf_, sqBuf_, tmpBuf_, wBuf_, redBuf_;
    GlobalTensor<float> xGm_, fGm_, bGm_, gGm_, betaGm_, yGm_;
    ConvBatchStatNormScaleTilingData t_;
    uint32_t chBegin_ = 0, chCount_ = 0, taps_ = 0;
    float mean_[kMaxBlock];
    float var_[kMaxBlock];
    float rstd_[kMaxBlock];
};

extern "C" __global__ __aicore__ void conv_batch_stat_norm_scale(GM_ADDR x, GM_ADDR filter, GM_ADDR bias,
                                                                  GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ConvBatchStatNormScaleOp op;
    op.Init(x, filter, bias, gamma, beta, y, td);
    op.Process();
}
