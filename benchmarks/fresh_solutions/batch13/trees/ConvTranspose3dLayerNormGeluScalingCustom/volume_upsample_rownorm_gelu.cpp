/*
 * volume_upsample_rownorm_gelu
 *
 *   y   = transposed 3-D convolution of x (kernel 4, stride 2, padding 1) + bias
 *   y   = normalise y along its innermost (width) axis, affine gamma/beta per width position
 *   out = gelu(y) * scale                (exact, erf based gelu)
 *
 * x      : [N, Cin, D, H, W]
 * weight : [Cin, Cout, 4, 4, 4]   (PyTorch transposed-conv layout)
 * bias   : [Cout]
 * gamma  : [OW], beta : [OW]      (OW = 2 * W)
 * out    : [N, Cout, 2D, 2H, 2W]
 *
 * Decomposition used here: with stride 2 / kernel 4 / padding 1 every output
 * coordinate receives exactly two kernel taps per axis, chosen by the parity
 * of the coordinate. Along the width axis this gives two dense "phases":
 *
 *   out[2j]   = w[kw=1] * x[j]   + w[kw=3] * x[j-1]
 *   out[2j+1] = w[kw=0] * x[j+1] + w[kw=2] * x[j]
 *
 * so one output row (n, co, od, oh) is produced from 2 (depth) x 2 (height)
 * x Cin input rows and their +/-1 shifted copies with plain Axpy calls on
 * W-element vectors. The two phases are interleaved with a Gather, after
 * which the whole row is in UB and the width-normalisation / gelu / scale
 * tail can be fused in before the single store.
 *
 * Work unit: one (n, od, oh) triple -> all Cout output rows for it; the
 * needed input rows are loaded once and reused for every output channel.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct VolumeUpsampleTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t outD;
    uint32_t outH;
    uint32_t outW;
    uint32_t unitsPerCore;   // (n, od, oh) triples per core
    uint32_t unitsTail;      // first unitsTail cores take one more
    float eps;
    float scale;
};

constexpr uint32_t KS = 4;          // kernel size (all axes)
constexpr uint32_t KVOL = KS * KS * KS;
constexpr uint32_t TAPS2D = 4;      // 2 depth taps x 2 height taps per output row
constexpr float INV_SQRT2 = 0.70710678118654752f;

class VolumeUpsampleRowNormGelu {
public:
    __aicore__ inline VolumeUpsampleRowNormGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR gamma, GM_ADDR beta, GM_ADDR out,
                                const VolumeUpsampleTiling &tl)
    {
        t_ = tl;
        rowLen_ = tl.outW;                 // == 2 * inW
        uint32_t bid = GetBlockIdx();
        unitCount_ = tl.unitsPerCore + (bid < tl.unitsTail ? 1 : 0);
        unitStart_ = bid * tl.unitsPerCore + (bid < tl.unitsTail ? bid : tl.unitsTail);

        xGm_.SetGlobalBuffer((__gm__ float *)x,
                             (uint64_t)tl.batch * tl.cin * tl.inD * tl.inH * tl.inW);
        wGm_.SetGlobalBuffer((__gm__ float *)w, (uint64_t)tl.cin * tl.cout * KVOL);
        bGm_.SetGlobalBuffer((__gm__ float *)b, tl.cout);
        gammaGm_.SetGlobalBuffer((__gm__ float *)gamma, rowLen_);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta, rowLen_);
        outGm_.SetGlobalBuffer((__gm__ float *)out,
                               (uint64_t)tl.batch * tl.cout * tl.outD * tl.outH * tl.outW);

        // three copies (x[j], x[j-1], x[j+1]) of every input row needed by one unit
        pipe_.InitBuffer(rowsQ_, 1, tl.cin * TAPS2D * 3 * tl.inW * sizeof(float));
        pipe_.InitBuffer(wQ_, 1, tl.cin * KVOL * sizeof(float));
        pipe_.InitBuffer(outQ_, 2, rowLen_ * sizeof(float));
        pipe_.InitBuffer(phaseBuf_, rowLen_ * sizeof(float));     // [even | odd]
        pipe_.InitBuffer(gatherBuf_, rowLen_ * sizeof(uint32_t));
        pipe_.InitBuffer(affineBuf_, 2 * rowLen_ * sizeof(float)); // [gamma | beta]
        pipe_.InitBuffer(workBuf_, 2 * rowLen_ * sizeof(float));
        pipe_.InitBuffer(redBuf_, 32 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        PrepareConstants();
        for (uint32_t u = 0; u < unitCount_; ++u) {
            uint32_t unit = unitStart_ + u;
            uint32_t oh = unit % t_.outH;
            uint32_t od = (unit / t_.outH) % t_.outD;
            uint32_t n = unit / (t_.outH * t_.outD);
            RunUnit(n, od, oh);
        }
    }

private:
    __aicore__ inline void PrepareConstants()
    {
        // interleave table: out[k] <- phase[k/2] (k even) / phase[W + k/2] (k odd)
        LocalTensor<uint32_t> g = gatherBuf_.Get<uint32_t>();
        uint32_t half = t_.inW;
        for (uint32_t k = 0; k < rowLen_; ++k) {
            uint32_t src = (k & 1u) ? (half + (k >> 1)) : (k >> 1);
            g.SetValue(k, src * (uint32_t)sizeof(float));
        }
        LocalTensor<float> aff = affineBuf_.Get<float>();
        DataCopy(aff, gammaGm_, rowLen_);
        DataCopy(aff[rowLen_], betaGm_, rowLen_);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
        event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e2);
        WaitFlag<HardEvent::S_V>(e2);
    }

    // the two kernel taps (k, input index) reaching output coordinate o along one axis
    __aicore__ inline void AxisTaps(uint32_t o, uint32_t inLen, int32_t kOut[2], int32_t iOut[2]) const
    {
        int32_t first = (int32_t)((o + 1) & 1u);     // (o + pad - k) must be even, pad = 1
        for (int32_t s = 0; s < 2; ++s) {
            int32_t k = first + 2 * s;
            int32_t num = (int32_t)o + 1 - k;
            int32_t i = num / 2;
            kOut[s] = k;
            iOut[s] = (num >= 0 && i < (int32_t)inLen) ? i : -1;
        }
    }

    __aicore__ inline void RunUnit(uint32_t n, uint32_t od, uint32_t oh)
    {
        int32_t kd[2], id[2], kh[2], ih[2];
        AxisTaps(od, t_.inD, kd, id);
        AxisTaps(oh, t_.inH, kh, ih);

        const uint32_t W = t_.inW;
        const uint32_t slotLen = 3 * W;
        LocalTensor<float> rows = rowsQ_.AllocTensor<float>();
        DataCopyPadExtParams<float> padLeft{true, 1, 0, 0.0f};
        DataCopyPadExtParams<float> padRight{true, 0, 1, 0.0f};
        DataCopyExtParams shortRow{1, (uint32_t)((W - 1) * sizeof(float)), 0, 0, 0};

        for (uint32_t ci = 0; ci < t_.cin; ++ci) {
            for (uint32_t a = 0; a < 2; ++a) {
                for (uint32_t c = 0; c < 2; ++c) {
                    if (id[a] < 0 || ih[c] < 0) {
                        continue;
                    }
                    uint32_t slot = (ci * TAPS2D + a * 2 + c) * slotLen;
                    uint64_t base = ((((uint64_t)n * t_.cin + ci) * t_.inD + id[a]) * t_.inH + ih[c]) * W;
                    DataCopy(rows[slot], xGm_[base], W);                          // x[j]
                    DataCopyPad(rows[slot + W], xGm_[base], shortRow, padLeft);   // x[j-1], 0 at j=0
                    DataCopyPad(rows[slot + 2 * W], xGm_[base + 1], shortRow, padRight); // x[j+1]
                }
            }
        }
        rowsQ_.EnQue(rows);
        rows = rowsQ_.DeQue<float>();

        for (uint32_t co = 0; co < t_.cout; ++co) {
            LoadWeights(co);
            LocalTensor<float> wl = wQ_.DeQue<float>();
            BuildRow(rows, wl, co, kd, id, kh, ih);
            wQ_.FreeTensor(wl);
            uint64_t dst = ((((uint64_t)n * t_.cout + co) * t_.outD + od) * t_.outH + oh) * t_.outW;
            LocalTensor<float> res = outQ_.DeQue<float>();
            DataCopy(outGm_[dst], res, rowLen_);
            outQ_.FreeTensor(res);
        }
        rowsQ_.FreeTensor(rows);
    }

    // weight[ci, co, :, :, :] for all ci -> UB [ci][64]
    __aicore__ inline void LoadWeights(uint32_t co)
    {
        LocalTensor<float> wl = wQ_.AllocTensor<float>();
        DataCopyParams p;
        p.blockCount = (uint16_t)t_.cin;
        p.blockLen = (uint16_t)(KVOL * sizeof(float) / 32);
        p.srcStride = (uint16_t)((t_.cout - 1) * KVOL * sizeof(float) / 32);
        p.dstStride = 0;
        DataCopy(wl, wGm_[(uint64_t)co * KVOL], p);
        wQ_.EnQue(wl);
    }

    __aicore__ inline void BuildRow(const LocalTensor<float> &rows, const LocalTensor<float> &wl, uint32_t co,
                                    const int32_t kd[2], const int32_t id[2], const int32_t kh[2],
                                    const int32_t ih[2])
    {
        const uint32_t W = t_.inW;
        const uint32_t slotLen = 3 * W;
        // weights are read by the scalar unit below
        event_t ms = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ms);
        WaitFlag<HardEvent::MTE2_S>(ms);

        LocalTensor<float> phase = phaseBuf_.Get<float>();
        LocalTensor<float> even = phase;
        LocalTensor<float> odd = phase[W];
        float bias = bGm_.GetValue(co);
        Duplicate(phase, bias, rowLen_);

        for (uint32_t ci = 0; ci < t_.cin; ++ci) {
            for (uint32_t a = 0; a < 2; ++a) {
                if (id[a] < 0) {
                    continue;
                }
                for (uint32_t c = 0; c < 2; ++c) {
                    if (ih[c] < 0) {
                        continue;
                    }
                    uint32_t slot = (ci * TAPS2D + a * 2 + c) * slotLen;
                    uint32_t wBase = ci * KVOL + (uint32_t)kd[a] * KS * KS + (uint32_t)kh[c] * KS;
                    float w0 = wl.GetValue(wBase + 0);
                    float w1 = wl.GetValue(wBase + 1);
                    float w2 = wl.GetValue(wBase + 2);
                    float w3 = wl.GetValue(wBase + 3);
                    LocalTensor<float> xc = rows[slot];
                    LocalTensor<float> xl = rows[slot + W];
                    LocalTensor<float> xr = rows[slot + 2 * W];
                    Axpy(even, xc, w1, W);
                    Axpy(even, xl, w3, W);
                    Axpy(odd, xr, w0, W);
                    Axpy(odd, xc, w2, W);
                }
            }
        }

        LocalTensor<float> row = outQ_.AllocTensor<float>();
        LocalTensor<uint32_t> g = gatherBuf_.Get<uint32_t>();
        Gather(row, phase, g, (uint32_t)0, rowLen_);
        NormGeluScale(row);
        outQ_.EnQue(row);
    }

    __aicore__ inline void NormGeluScale(LocalTensor<float> &row)
    {
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> sq = work;
        LocalTensor<float> erfv = work[rowLen_];
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> aff = affineBuf_.Get<float>();
        const float invLen = 1.0f / (float)rowLen_;

        ReduceSum<float>(red, row, sq, rowLen_);
        SyncVS();
        float mean = red.GetValue(0) * invLen;
        Adds(row, row, -mean, rowLen_);
        Mul(sq, row, row, rowLen_);
        ReduceSum<float>(red[8], sq, erfv, rowLen_);
        SyncVS();
        float var = red.GetValue(8) * invLen;
        Duplicate(red[16], var + t_.eps, 8);
        Rsqrt(red[16], red[16], 8);
        SyncVS();
        float rstd = red.GetValue(16);

        Muls(row, row, rstd, rowLen_);
        Mul(row, row, aff, rowLen_);
        Add(row, row, aff[rowLen_], rowLen_);

        // gelu(v) = 0.5 * v * (1 + erf(v / sqrt(2)))
        Muls(sq, row, INV_SQRT2, rowLen_);
        Erf(erfv, sq, rowLen_);
        Adds(erfv, erfv, 1.0f, rowLen_);
        Mul(row, row, erfv, rowLen_);
        Muls(row, row, 0.5f * t_.scale, rowLen_);
    }

    __aicore__ inline void SyncVS()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> rowsQ_;
    TQue<QuePosition::VECIN, 1> wQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> phaseBuf_, gatherBuf_, affineBuf_, workBuf_, redBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, gammaGm_, betaGm_, outGm_;
    VolumeUpsampleTiling t_;
    uint32_t rowLen_ = 0;
    uint32_t unitStart_ = 0;
    uint32_t unitCount_ = 0;
};

extern "C" __global__ __aicore__ void volume_upsample_rownorm_gelu(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                   GM_ADDR gamma, GM_ADDR beta, GM_ADDR out,
                                                                   GM_ADDR tiling)
{
    VolumeUpsampleTiling tl;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(VolumeUpsampleTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    VolumeUpsampleRowNormGelu op;
    op.Init(x, weight, bias, gamma, beta, out, tl);
    op.Process();
}
