/*
 * Deconv3dRowNormPoolGelu
 *
 *   z  = conv_transpose3d(x, weight, bias) + offset
 *   z' = layer_norm(z) over the innermost (W) axis, affine gamma/beta
 *   p  = avg_pool3d(z', window = stride = pool)
 *   y  = gelu(p)
 *
 * One work unit produces one pooled output row (n, co, pd, ph, :). It computes the
 * pool*pool full-resolution deconv rows it depends on, normalises each of them,
 * sums them, then folds neighbouring W positions with a Gather table.
 * Deconv rows are accumulated per kernel column ("lanes") so all Axpy calls work
 * on 32-byte aligned rows; a second Gather table scatters lanes to the strided
 * output positions.
 */
#include "kernel_operator.h"

using namespace AscendC;

class Deconv3dRowNormPoolGeluOp {
public:
    __aicore__ inline Deconv3dRowNormPoolGeluOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR off, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR y, const Deconv3dRowNormPoolGeluTiling& t)
    {
        t_ = t;
        kkk_ = t.kd * t.kh * t.kw;
        kkkAlign_ = (kkk_ + 7) / 8 * 8;
        maxPairs_ = ((t.kd + t.sd - 1) / t.sd) * ((t.kh + t.sh - 1) / t.sh);
        singleChunk_ = t.ciChunk >= t.cin;

        uint32_t start = GetBlockIdx() * t.unitsPerCore;
        uBegin_ = start;
        uEnd_ = start + t.unitsPerCore < t.totalUnits ? start + t.unitsPerCore : t.totalUnits;

        xGm_.SetGlobalBuffer((__gm__ float*)x);
        wGm_.SetGlobalBuffer((__gm__ float*)w);
        bGm_.SetGlobalBuffer((__gm__ float*)b);
        offGm_.SetGlobalBuffer((__gm__ float*)off);
        gGm_.SetGlobalBuffer((__gm__ float*)gamma);
        betaGm_.SetGlobalBuffer((__gm__ float*)beta);
        yGm_.SetGlobalBuffer((__gm__ float*)y);

        pipe_.InitBuffer(xIn_, 1, maxPairs_ * t.ciChunk * t.iwAlign * sizeof(float));
        pipe_.InitBuffer(wIn_, 1, t.ciChunk * kkkAlign_ * sizeof(float));
        pipe_.InitBuffer(yOut_, 2, t.poolWAlign * sizeof(float));
        pipe_.InitBuffer(lanes_, (t.kw * t.iwAlign + 8) * sizeof(float));
        pipe_.InitBuffer(row_, t.owAlign * sizeof(float));
        pipe_.InitBuffer(sumRows_, t.owAlign * sizeof(float));
        pipe_.InitBuffer(gammaB_, t.owAlign * sizeof(float));
        pipe_.InitBuffer(betaB_, t.owAlign * sizeof(float));
        pipe_.InitBuffer(scratch_, t.owAlign * sizeof(float));
        pipe_.InitBuffer(scratch2_, t.owAlign * sizeof(float));
        pipe_.InitBuffer(foldTab_, t.kw * t.owAlign * sizeof(uint32_t));
        pipe_.InitBuffer(poolTab_, t.pool * t.poolWAlign * sizeof(uint32_t));
        pipe_.InitBuffer(small_, 256 * sizeof(float));

        LoadConstants();
        BuildTables();
    }

    __aicore__ inline void Process()
    {
        int64_t cachedCo = -1;
        for (uint32_t u = uBegin_; u < uEnd_; ++u) {
            uint32_t phI = u % t_.poolH;
            uint32_t rest = u / t_.poolH;
            uint32_t pdI = rest % t_.poolD;
            rest /= t_.poolD;
            uint32_t co = rest % t_.cout;
            uint32_t n = rest / t_.cout;

            if (singleChunk_ && static_cast<int64_t>(co) != cachedCo) {
                if (cachedCo >= 0) wIn_.FreeTensor(wCur_);
                LoadWeights(co, 0, t_.cin);
                cachedCo = co;
            }

            LocalTensor<float> acc = sumRows_.Get<float>();
            Duplicate(acc, 0.0f, t_.owAlign);
            for (uint32_t dz = 0; dz < t_.pool; ++dz) {
                for (uint32_t dy = 0; dy < t_.pool; ++dy) {
                    DeconvRow(n, co, pdI * t_.pool + dz, phI * t_.pool + dy);
                    NormaliseAndAccumulate(co);
                }
            }
            PoolGeluStore(n, co, pdI, phI);
        }
        if (singleChunk_ && cachedCo >= 0) wIn_.FreeTensor(wCur_);
    }

private:
    __aicore__ inline void SyncMte2ToScalar()
    {
        event_t e = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }
    __aicore__ inline void SyncVecToScalar()
    {
        event_t e = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }

    __aicore__ inline void LoadConstants()
    {
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyExtParams rowP{1, static_cast<uint32_t>(t_.ow * sizeof(float)), 0, 0, 0};
        DataCopyPad(gammaB_.Get<float>(), gGm_, rowP, np);
        DataCopyPad(betaB_.Get<float>(), betaGm_, rowP, np);
        LocalTensor<float> s = small_.Get<float>();
        DataCopyExtParams oneP{1, sizeof(float), 0, 0, 0};
        DataCopyPad(s, offGm_, oneP, np);
        SyncMte2ToScalar();
        offset_ = s.GetValue(0);
        biasBase_ = 0.0f;
        event_t e = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
    }

    __aicore__ inline void BuildTables()
    {
        LocalTensor<uint32_t> fold = foldTab_.Get<uint32_t>();
        const uint32_t zero = t_.kw * t_.iwAlign * sizeof(float);
        for (uint32_t k = 0; k < t_.kw; ++k) {
            for (uint32_t o = 0; o < t_.ow; ++o) {
                int32_t q = static_cast<int32_t>(o + t_.pw) - static_cast<int32_t>(k);
                uint32_t v = zero;
                if (q >= 0 && q % static_cast<int32_t>(t_.sw) == 0 && static_cast<uint32_t>(q) / t_.sw < t_.iw) {
                    v = (k * t_.iwAlign + static_cast<uint32_t>(q) / t_.sw) * sizeof(float);
                }
                fold.SetValue(k * t_.owAlign + o, v);
            }
        }
        LocalTensor<uint32_t> pt = poolTab_.Get<uint32_t>();
        for (uint32_t p = 0; p < t_.pool; ++p) {
            for (uint32_t j = 0; j < t_.poolW; ++j) {
                pt.SetValue(p * t_.poolWAlign + j, (j * t_.pool + p) * sizeof(float));
            }
        }
    }

    __aicore__ inline void LoadWeights(uint32_t co, uint32_t c0, uint32_t cc)
    {
        LocalTensor<float> wl = wIn_.AllocTensor<float>();
        DataCopyExtParams p{static_cast<uint16_t>(cc), static_cast<uint32_t>(kkk_ * sizeof(float)),
                            static_cast<uint32_t>((t_.cout - 1) * kkk_ * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm_[(static_cast<uint64_t>(c0) * t_.cout + co) * kkk_], p, np);
        wIn_.EnQue(wl);
        wCur_ = wIn_.DeQue<float>();
        SyncMte2ToScalar();
    }

    // full-resolution deconv row (n, co, od, oh, :) -> row_
    __aicore__ inline void DeconvRow(uint32_t n, uint32_t co, uint32_t od, uint32_t oh)
    {
        uint32_t pairKd[16], pairKh[16], pairId[16], pairIh[16];
        uint32_t np = 0;
        for (uint32_t a = 0; a < t_.kd; ++a) {
            int32_t qd = static_cast<int32_t>(od + t_.pd) - static_cast<int32_t>(a);
            if (qd < 0 || qd % static_cast<int32_t>(t_.sd) != 0 || static_cast<uint32_t>(qd) / t_.sd >= t_.id) continue;
            for (uint32_t c = 0; c < t_.kh; ++c) {
                int32_t qh = static_cast<int32_t>(oh + t_.ph) - static_cast<int32_t>(c);
                if (qh < 0 || qh % static_cast<int32_t>(t_.sh) != 0 || static_cast<uint32_t>(qh) / t_.sh >= t_.ih) continue;
                if (np >= 16) break;
                pairKd[np] = a; pairKh[np] = c;
                pairId[np] = static_cast<uint32_t>(qd) / t_.sd;
                pairIh[np] = static_cast<uint32_t>(qh) / t_.sh;
                ++np;
            }
        }

        LocalTensor<float> ln = lanes_.Get<float>();
        Duplicate(ln, 0.0f, t_.kw * t_.iwAlign + 8);

        const uint64_t plane = static_cast<uint64_t>(t_.id) * t_.ih * t_.iw;
        for (uint32_t c0 = 0; c0 < t_.cin && np > 0; c0 += t_.ciChunk) {
            uint32_t cc = t_.cin - c0 < t_.ciChunk ? t_.cin - c0 : t_.ciChunk;
            if (!singleChunk_) LoadWeights(co, c0, cc);

            LocalTensor<float> xl = xIn_.AllocTensor<float>();
            DataCopyPadExtParams<float> pz{false, 0, 0, 0.0f};
            for (uint32_t p = 0; p < np; ++p) {
                uint64_t src = (static_cast<uint64_t>(n) * t_.cin + c0) * plane +
                               (static_cast<uint64_t>(pairId[p]) * t_.ih + pairIh[p]) * t_.iw;
                DataCopyExtParams cp{static_cast<uint16_t>(cc), static_cast<uint32_t>(t_.iw * sizeof(float)),
                                     static_cast<uint32_t>((plane - t_.iw) * sizeof(float)), 0, 0};
                DataCopyPad(xl[p * t_.ciChunk * t_.iwAlign], xGm_[src], cp, pz);
            }
            xIn_.EnQue(xl);
            xl = xIn_.DeQue<float>();

            for (uint32_t p = 0; p < np; ++p) {
                uint32_t wBase = (pairKd[p] * t_.kh + pairKh[p]) * t_.kw;
                for (uint32_t ci = 0; ci < cc; ++ci) {
                    LocalTensor<float> xr = xl[(p * t_.ciChunk + ci) * t_.iwAlign];
                    for (uint32_t k = 0; k < t_.kw; ++k) {
                        float wv = wCur_.GetValue(ci * kkkAlign_ + wBase + k);
                        Axpy(ln[k * t_.iwAlign], xr, wv, static_cast<int32_t>(t_.iw));
                    }
                }
            }
            xIn_.FreeTensor(xl);
            if (!singleChunk_) wIn_.FreeTensor(wCur_);
        }

        // scatter lanes to output columns
        LocalTensor<float> r = row_.Get<float>();
        LocalTensor<float> g = scratch_.Get<float>();
        LocalTensor<uint32_t> fold = foldTab_.Get<uint32_t>();
        Gather(r, ln, fold, 0U, t_.ow);
        for (uint32_t k = 1; k < t_.kw; ++k) {
            Gather(g, ln, fold[k * t_.owAlign], 0U, t_.ow);
            Add(r, r, g, static_cast<int32_t>(t_.ow));
        }
    }

    __aicore__ inline void NormaliseAndAccumulate(uint32_t co)
    {
        const int32_t len = static_cast<int32_t>(t_.ow);
        const float invW = 1.0f / static_cast<float>(t_.ow);
        LocalTensor<float> r = row_.Get<float>();
        LocalTensor<float> sq = scratch_.Get<float>();
        LocalTensor<float> work = scratch2_.Get<float>();
        LocalTensor<float> s = small_.Get<float>();

        float shift = bGm_.GetValue(co) + offset_;
        Adds(r, r, shift, len);

        ReduceSum<float>(s, r, work, len);
        SyncVecToScalar();
        float mean = s.GetValue(0) * invW;
        Adds(r, r, -mean, len);

        Mul(sq, r, r, len);
        ReduceSum<float>(s, sq, work, len);
        SyncVecToScalar();
        float var = s.GetValue(0) * invW;

        // 1/sqrt(var + eps) on the vector unit
        LocalTensor<float> v = s[64];
        Duplicate(v, var + t_.eps, 8);
        Sqrt(v, v, 8);
        Duplicate(s[128], 1.0f, 8);
        Div(v, s[128], v, 8);
        SyncVecToScalar();
        float rstd = v.GetValue(0);

        Muls(r, r, rstd, len);
        Mul(r, r, gammaB_.Get<float>(), len);
        Add(r, r, betaB_.Get<float>(), len);
        LocalTensor<float> acc = sumRows_.Get<float>();
        Add(acc, acc, r, len);
    }

    __aicore__ inline void PoolGeluStore(uint32_t n, uint32_t co, uint32_t pdI, uint32_t phI)
    {
        const int32_t len = static_cast<int32_t>(t_.poolW);
        LocalTensor<float> acc = sumRows_.Get<float>();
        LocalTensor<uint32_t> pt = poolTab_.Get<uint32_t>();
        LocalTensor<float> g = scratch_.Get<float>();
        LocalTensor<float> e = scratch2_.Get<float>();
        LocalTensor<float> out = yOut_.AllocTensor<float>();

        Gather(out, acc, pt, 0U, t_.poolW);
        for (uint32_t p = 1; p < t_.pool; ++p) {
            Gather(g, acc, pt[p * t_.poolWAlign], 0U, t_.poolW);
            Add(out, out, g, len);
        }
        float inv = 1.0f / static_cast<float>(t_.pool * t_.pool * t_.pool);
        Muls(out, out, inv, len);

        // gelu(v) ~= v * sigmoid(1.5957691 * (v + 0.044715 v^3))
        Mul(e, out, out, len);
        Muls(e, e, 0.044715f, len);
        Adds(e, e, 1.0f, len);
        Mul(e, e, out, len);
        Muls(e, e, -1.5957691f, len);
        Exp(e, e, len);
        Adds(e, e, 1.0f, len);
        Div(out, out, e, len);

        yOut_.EnQue(out);
        out = yOut_.DeQue<float>();
        uint64_t dst = (((static_cast<uint64_t>(n) * t_.cout + co) * t_.poolD + pdI) * t_.poolH + phI) * t_.poolW;
        DataCopyExtParams op{1, static_cast<uint32_t>(t_.poolW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[dst], out, op);
        yOut_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> xIn_, wIn_;
    TQue<QuePosition::VECOUT, 2> yOut_;
    TBuf<TPosition::VECCALC> lanes_, row_, sumRows_, gammaB_, betaB_, scratch_, scratch2_;
    TBuf<TPosition::VECCALC> foldTab_, poolTab_, small_;
    GlobalTensor<float> xGm_, wGm_, bGm_, offGm_, gGm_, betaGm_, yGm_;
    LocalTensor<float> wCur_;

    Deconv3dRowNormPoolGeluTiling t_;
    uint32_t kkk_, kkkAlign_, maxPairs_;
    uint32_t uBegin_, uEnd_;
    bool singleChunk_;
    float offset_, biasBase_;
};

extern "C" __global__ __aicore__ void deconv3d_rownorm_pool_gelu(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                 GM_ADDR offset, GM_ADDR gamma, GM_ADDR beta,
                                                                 GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    Deconv3dRowNormPoolGeluOp op;
    op.Init(x, weight, bias, offset, gamma, beta, y, t);
    op.Process();
}
