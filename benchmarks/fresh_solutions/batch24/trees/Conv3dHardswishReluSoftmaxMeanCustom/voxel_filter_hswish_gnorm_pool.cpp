// voxel_filter_hswish_gnorm_pool
//
// For every sample of a 5-D volume batch:
//   h  = conv3d(x, w, b)               valid padding, stride 1, cubic kernel
//   h  = hard_swish(h)
//   g  = group_norm(h, groups, gamma, beta)
//   y  = spatial average of g          -> one value per output channel
//
// The spatial average of a group-normalised channel only needs per-channel
// sums and per-group sums of squares of h, so g is never materialised:
//   y[c] = gamma[c] * (mean_c(h) - mu_g) / sqrt(var_g + eps) + beta[c]
//
// One sample is processed at a time per core.  For each output depth slice
// the kernel loads shifted input planes (one per (ci, kd, kh, kw) tap) with
// DataCopyPad so that every tap lines up with the output plane, then
// accumulates all output channels with Axpy.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t MAX_COUT = 16;
constexpr uint32_t PLANE_BUF = 2;

struct VoxelFilterHswishGnormPoolTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t depth, height, width;
    uint32_t cout;
    uint32_t ksize;
    uint32_t outD, outH, outW;
    uint32_t rowPitch;      // outW rounded up to 8 floats
    uint32_t groups;
    uint32_t samplesPerCore;
    float eps;
};

class VoxelFilterHswishGnormPool {
public:
    __aicore__ inline VoxelFilterHswishGnormPool() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR y, const VoxelFilterHswishGnormPoolTiling &t)
    {
        t_ = t;
        planeLen_ = t.outH * t.rowPitch;
        taps_ = t.cin * t.ksize * t.ksize * t.ksize;
        uint32_t first = GetBlockIdx() * t.samplesPerCore;
        uint32_t last = first + t.samplesPerCore;
        if (last > t.batch) last = t.batch;
        sampleBegin_ = first;
        sampleEnd_ = (first < last) ? last : first;

        uint64_t vol = (uint64_t)t.cin * t.depth * t.height * t.width;
        xGm_.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.batch * vol);
        wGm_.SetGlobalBuffer((__gm__ float *)w, (uint64_t)t.cout * taps_);
        bGm_.SetGlobalBuffer((__gm__ float *)b, t.cout);
        gammaGm_.SetGlobalBuffer((__gm__ float *)gamma, t.cout);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta, t.cout);
        yGm_.SetGlobalBuffer((__gm__ float *)y, (uint64_t)t.batch * t.cout);

        pipe_.InitBuffer(planeQ_, PLANE_BUF, planeLen_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, 32 * sizeof(float));
        pipe_.InitBuffer(accBuf_, t.cout * planeLen_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, planeLen_ * sizeof(float));
        pipe_.InitBuffer(maskBuf_, planeLen_ * sizeof(float));
        pipe_.InitBuffer(wBuf_, t.cout * taps_ * sizeof(float));
        pipe_.InitBuffer(parBuf_, 4 * 32 * sizeof(float));
        pipe_.InitBuffer(redBuf_, planeLen_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        PrepareConstants();
        for (uint32_t n = sampleBegin_; n < sampleEnd_; ++n) {
            float chSum[MAX_COUT];
            float chSq[MAX_COUT];
            for (uint32_t c = 0; c < t_.cout; ++c) {
                chSum[c] = 0.0f;
                chSq[c] = 0.0f;
            }
            for (uint32_t od = 0; od < t_.outD; ++od) {
                ConvSlice(n, od);
                ActivateAndReduce(chSum, chSq);
            }
            Finalize(n, chSum, chSq);
        }
    }

private:
    __aicore__ inline void SyncVtoS()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void SyncStoV()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    // weights to UB once, and a 0/1 mask that hides the padded tail of every row
    __aicore__ inline void PrepareConstants()
    {
        LocalTensor<float> wl = wBuf_.Get<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(t_.cout * taps_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(wl, wGm_, p, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});

        LocalTensor<float> mask = maskBuf_.Get<float>();
        for (uint32_t r = 0; r < t_.outH; ++r) {
            for (uint32_t c = 0; c < t_.rowPitch; ++c) {
                mask.SetValue(r * t_.rowPitch + c, c < t_.outW ? 1.0f : 0.0f);
            }
        }
        for (uint32_t c = 0; c < t_.cout; ++c) {
            bias_[c] = bGm_.GetValue(c);
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    // acc[co] = bias[co] + sum_taps w[co][tap] * shifted_plane(tap)
    __aicore__ inline void ConvSlice(uint32_t n, uint32_t od)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> wl = wBuf_.Get<float>();
        for (uint32_t co = 0; co < t_.cout; ++co) {
            Duplicate(acc[co * planeLen_], bias_[co], planeLen_);
        }
        const uint32_t k = t_.ksize;
        const uint64_t hw = (uint64_t)t_.height * t_.width;
        const uint64_t sampleOff = (uint64_t)n * t_.cin * t_.depth * hw;
        uint32_t tap = 0;
        for (uint32_t ci = 0; ci < t_.cin; ++ci) {
            for (uint32_t kd = 0; kd < k; ++kd) {
                uint64_t sliceOff = sampleOff + ((uint64_t)ci * t_.depth + od + kd) * hw;
                for (uint32_t kh = 0; kh < k; ++kh) {
                    for (uint32_t kw = 0; kw < k; ++kw, ++tap) {
                        // rows kh..kh+outH-1, columns kw..kw+outW-1 of the input slice
                        LocalTensor<float> pl = planeQ_.AllocTensor<float>();
                        DataCopyExtParams cp;
                        cp.blockCount = static_cast<uint16_t>(t_.outH);
                        cp.blockLen = t_.outW * sizeof(float);
                        cp.srcStride = (t_.width - t_.outW) * sizeof(float);
                        cp.dstStride = 0;
                        cp.rsv = 0;
                        DataCopyPadExtParams<float> pad{true, 0,
                            static_cast<uint8_t>(t_.rowPitch - t_.outW), 0.0f};
                        DataCopyPad(pl, xGm_[sliceOff + (uint64_t)kh * t_.width + kw], cp, pad);
                        planeQ_.EnQue(pl);

                        LocalTensor<float> src = planeQ_.DeQue<float>();
                        for (uint32_t co = 0; co < t_.cout; ++co) {
                            float wv = wl.GetValue(co * taps_ + tap);
                            Axpy(acc[co * planeLen_], src, wv, planeLen_);
                        }
                        planeQ_.FreeTensor(src);
                    }
                }
            }
        }
    }

    // hard_swish in place, mask the padding, then per-channel sum and sum of squares
    __aicore__ inline void ActivateAndReduce(float *chSum, float *chSq)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        LocalTensor<float> mask = maskBuf_.Get<float>();
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> par = parBuf_.Get<float>();
        for (uint32_t co = 0; co < t_.cout; ++co) {
            LocalTensor<float> a = acc[co * planeLen_];
            Adds(tmp, a, 3.0f, planeLen_);
            Maxs(tmp, tmp, 0.0f, planeLen_);
            Mins(tmp, tmp, 6.0f, planeLen_);
            Mul(a, a, tmp, planeLen_);
            Muls(a, a, 1.0f / 6.0f, planeLen_);
            Mul(a, a, mask, planeLen_);
            ReduceSum(par, a, red, planeLen_);
            Mul(tmp, a, a, planeLen_);
            ReduceSum(par[8], tmp, red, planeLen_);
            SyncVtoS();
            chSum[co] += par.GetValue(0);
            chSq[co] += par.GetValue(8);
        }
    }

    __aicore__ inline void Finalize(uint32_t n, const float *chSum, const float *chSq)
    {
        const float cnt = static_cast<float>(t_.outD * t_.outH * t_.outW);
        const uint32_t cpg = t_.cout / t_.groups;
        const float gcnt = cnt * cpg;
        LocalTensor<float> par = parBuf_.Get<float>();
        LocalTensor<float> chMean = par;          // [0, 32)
        LocalTensor<float> grpMu = par[32];       // [32, 64)
        LocalTensor<float> grpVar = par[64];      // [64, 96)
        LocalTensor<float> scratch = par[96];
        for (uint32_t g = 0; g < t_.groups; ++g) {
            float s = 0.0f, q = 0.0f;
            for (uint32_t j = 0; j < cpg; ++j) {
                s += chSum[g * cpg + j];
                q += chSq[g * cpg + j];
            }
            float mu = s / gcnt;
            float var = q / gcnt - mu * mu;
            for (uint32_t j = 0; j < cpg; ++j) {
                uint32_t c = g * cpg + j;
                chMean.SetValue(c, chSum[c] / cnt);
                grpMu.SetValue(c, mu);
                grpVar.SetValue(c, var + t_.eps);
                scratch.SetValue(c, gammaGm_.GetValue(c));
                scratch.SetValue(16 + c, betaGm_.GetValue(c));
            }
        }
        SyncStoV();
        LocalTensor<float> out = outQ_.AllocTensor<float>();
        Sqrt(grpVar, grpVar, t_.cout);
        Sub(out, chMean, grpMu, t_.cout);
        Div(out, out, grpVar, t_.cout);
        Mul(out, out, scratch, t_.cout);
        Add(out, out, scratch[16], t_.cout);
        outQ_.EnQue(out);
        LocalTensor<float> o = outQ_.DeQue<float>();
        DataCopy(yGm_[(uint64_t)n * t_.cout], o, t_.cout);
        outQ_.FreeTensor(o);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, PLANE_BUF> planeQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<QuePosition::VECCALC> accBuf_, tmpBuf_, maskBuf_, wBuf_, parBuf_, redBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, gammaGm_, betaGm_, yGm_;
    VoxelFilterHswishGnormPoolTiling t_;
    float bias_[MAX_COUT];
    uint32_t planeLen_ = 0, taps_ = 0, sampleBegin_ = 0, sampleEnd_ = 0;
};

extern "C" __global__ __aicore__ void voxel_filter_hswish_gnorm_pool(GM_ADDR x, GM_ADDR w, GM_ADDR b,
                                                                     GM_ADDR gamma, GM_ADDR beta,
                                                                     GM_ADDR y, GM_ADDR tiling)
{
    VoxelFilterHswishGnormPoolTiling t;
    auto *src = reinterpret_cast<__gm__ uint8_t *>(tiling);
    auto *dst = reinterpret_cast<uint8_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t); ++i) {
        dst[i] = src[i];
    }
    VoxelFilterHswishGnormPool op;
    op.Init(x, w, b, gamma, beta, y, t);
    op.Process();
}
