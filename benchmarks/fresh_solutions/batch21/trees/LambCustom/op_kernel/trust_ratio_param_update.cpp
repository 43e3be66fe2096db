/*
 * TrustRatioParamUpdate kernel
 *   r     = m / (sqrt(v) + eps)
 *   trust = ||p||_2 / (||r||_2 + eps)          (norms over the whole tensor)
 *   p'    = p - lr * trust * r
 * Pass 1 accumulates ||p||^2 and ||r||^2 per core; after SyncAll every core combines the
 * partials itself (cheap) and pass 2 recomputes r and applies the update.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
constexpr uint32_t SLOT = 16;   // floats per core slot: [0] = sum p^2, [8] = sum r^2
}

template <typename T>
class TrustRatioParamUpdateKernel {
public:
    __aicore__ inline TrustRatioParamUpdateKernel() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR m, GM_ADDR v, GM_ADDR out, GM_ADDR ws,
                                const TrustRatioParamUpdateTilingData &td)
    {
        lr_ = td.lr;
        eps_ = td.eps;
        tile_ = td.tileLen;
        cores_ = td.coreCount;
        uint64_t begin = static_cast<uint64_t>(GetBlockIdx()) * td.perCore;
        uint64_t end = begin + td.perCore;
        len_ = end > td.total ? td.total - begin : td.perCore;

        pGm_.SetGlobalBuffer((__gm__ T *)param + begin, len_);
        mGm_.SetGlobalBuffer((__gm__ T *)m + begin, len_);
        vGm_.SetGlobalBuffer((__gm__ T *)v + begin, len_);
        oGm_.SetGlobalBuffer((__gm__ T *)out + begin, len_);
        partGm_.SetGlobalBuffer((__gm__ float *)ws, cores_ * SLOT);

        pipe_.InitBuffer(pIn_, DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(mIn_, DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(vIn_, DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(oOut_, DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(pF_, tile_ * sizeof(float));
        pipe_.InitBuffer(rF_, tile_ * sizeof(float));
        pipe_.InitBuffer(tF_, tile_ * sizeof(float));
        pipe_.InitBuffer(accP_, tile_ * sizeof(float));
        pipe_.InitBuffer(accR_, tile_ * sizeof(float));
        pipe_.InitBuffer(part_, (cores_ > 1 ? cores_ : 1) * SLOT * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = static_cast<uint32_t>((len_ + tile_ - 1) / tile_);

        // ---- pass 1: squared norms of this core's chunk
        LocalTensor<float> aP = accP_.Get<float>();
        LocalTensor<float> aR = accR_.Get<float>();
        Duplicate(aP, 0.0f, tile_);
        Duplicate(aR, 0.0f, tile_);
        for (uint32_t i = 0; i < tiles; ++i) {
            uint32_t n = Count(i);
            Fetch(i, n);
            LocalTensor<float> p = pF_.Get<float>();
            LocalTensor<float> r = rF_.Get<float>();
            MakeRatio(p, r, n);
            MulAddDst(aP, p, p, n);
            MulAddDst(aR, r, r, n);
        }
        LocalTensor<float> slot = part_.Get<float>();
        LocalTensor<float> work = tF_.Get<float>();
        Duplicate(slot, 0.0f, SLOT);
        uint32_t red = tiles > 1 ? tile_ : static_cast<uint32_t>(len_);
        ReduceSum(slot, aP, work, red);
        ReduceSum(slot[8], aR, work, red);
        Barrier<HardEvent::V_MTE3>();
        DataCopy(partGm_[GetBlockIdx() * SLOT], slot, SLOT);
        Barrier<HardEvent::MTE3_MTE2>();

        SyncAll();

        // ---- global trust ratio
        LocalTensor<float> all = part_.Get<float>();
        DataCopy(all, partGm_, cores_ * SLOT);
        Barrier<HardEvent::MTE2_S>();
        float sp = 0.0f;
        float sr = 0.0f;
        for (uint32_t c = 0; c < cores_; ++c) {
            sp += all.GetValue(c * SLOT);
            sr += all.GetValue(c * SLOT + 8);
        }
        all.SetValue(0, sp);
        all.SetValue(8, sr);
        Barrier<HardEvent::S_V>();
        Sqrt(all, all, 1);
        Sqrt(all[8], all[8], 1);
        Barrier<HardEvent::V_S>();
        float trust = all.GetValue(0) / (all.GetValue(8) + eps_);
        float coef = -lr_ * trust;

        // ---- pass 2: p' = p + coef * r
        for (uint32_t i = 0; i < tiles; ++i) {
            uint32_t n = Count(i);
            Fetch(i, n);
            LocalTensor<float> p = pF_.Get<float>();
            LocalTensor<float> r = rF_.Get<float>();
            MakeRatio(p, r, n);
            Axpy(p, r, coef, n);
            LocalTensor<T> o = oOut_.AllocTensor<T>();
            if constexpr (sizeof(T) == sizeof(float)) {
                Adds(o, p, 0.0f, n);
            } else {
                Cast(o, p, RoundMode::CAST_ROUND, n);
            }
            oOut_.EnQue(o);
            o = oOut_.DeQue<T>();
            DataCopyPad(oGm_[static_cast<uint64_t>(i) * tile_], o,
                        DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
            oOut_.FreeTensor(o);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Barrier()
    {
        event_t id = static_cast<event_t>(pipe_.FetchEventID(E));
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    __aicore__ inline uint32_t Count(uint32_t i)
    {
        uint64_t rest = len_ - static_cast<uint64_t>(i) * tile_;
        return rest < tile_ ? static_cast<uint32_t>(rest) : tile_;
    }

    __aicore__ inline void Fetch(uint32_t i, uint32_t n)
    {
        uint64_t off = static_cast<uint64_t>(i) * tile_;
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> none{false, 0, 0, 0};
        LocalTensor<T> p = pIn_.AllocTensor<T>();
        LocalTensor<T> m = mIn_.AllocTensor<T>();
        LocalTensor<T> v = vIn_.AllocTensor<T>();
        DataCopyPad(p, pGm_[off], cp, none);
        DataCopyPad(m, mGm_[off], cp, none);
        DataCopyPad(v, vGm_[off], cp, none);
        pIn_.EnQue(p);
        mIn_.EnQue(m);
        vIn_.EnQue(v);
    }

    // dequeues the fetched tile: pf <- p (float), rf <- m / (sqrt(v) + eps)
    __aicore__ inline void MakeRatio(const LocalTensor<float> &pf, const LocalTensor<float> &rf, uint32_t n)
    {
        LocalTensor<T> p = pIn_.DeQue<T>();
        LocalTensor<T> m = mIn_.DeQue<T>();
        LocalTensor<T> v = vIn_.DeQue<T>();
        LocalTensor<float> t = tF_.Get<float>();
        if constexpr (sizeof(T) == sizeof(float)) {
            Adds(pf, p, 0.0f, n);
            Sqrt(t, v, n);
            Adds(t, t, eps_, n);
            Div(rf, m, t, n);
        } else {
            Cast(pf, p, RoundMode::CAST_NONE, n);
            Cast(t, v, RoundMode::CAST_NONE, n);
            Sqrt(t, t, n);
            Adds(t, t, eps_, n);
            Cast(rf, m, RoundMode::CAST_NONE, n);
            Div(rf, rf, t, n);
        }
        pIn_.FreeTensor(p);
        mIn_.FreeTensor(m);
        vIn_.FreeTensor(v);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, DEPTH> pIn_, mIn_, vIn_;
    TQue<QuePosition::VECOUT, DEPTH> oOut_;
    TBuf<TPosition::VECCALC> pF_, rF_, tF_, accP_, accR_, part_;
    GlobalTensor<T> pGm_, mGm_, vGm_, oGm_;
    GlobalTensor<float> partGm_;
    uint64_t len_ = 0;
    uint32_t tile_ = 0, cores_ = 1;
    float lr_ = 1e-3f, eps_ = 1e-6f;
};

extern "C" __global__ __aicore__ void trust_ratio_param_update(GM_ADDR param, GM_ADDR exp_avg, GM_ADDR exp_avg_sq,
                                                                GM_ADDR param_out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR ws = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(0)) {
        TrustRatioParamUpdateKernel<float> op;
        op.Init(param, exp_avg, exp_avg_sq, param_out, ws, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        TrustRatioParamUpdateKernel<half> op;
        op.Init(param, exp_avg, exp_avg_sq, param_out, ws, td);
        op.Process();
    }
}
