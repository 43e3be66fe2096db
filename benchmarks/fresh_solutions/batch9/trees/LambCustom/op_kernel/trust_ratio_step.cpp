// Layer-wise trust-ratio parameter step (LAMB style):
//   r     = m / (sqrt(v) + eps)
//   trust = ||param||_2 / (||r||_2 + eps)
//   out   = param - lr * trust * r
// Pass 1 computes per-core partial squared norms and publishes them to the workspace;
// after SyncAll every core folds all partials and applies the update to its own slice.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;
constexpr uint32_t SLOT = 8;

template <typename T>
class TrustRatioStepKernel {
public:
    __aicore__ inline TrustRatioStepKernel() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR m, GM_ADDR v, GM_ADDR out, GM_ADDR partial,
                                const TrustRatioStepTilingData &td)
    {
        tile = td.tileLen;
        lr = td.lr;
        eps = td.eps;
        nCores = td.usedCores;
        uint64_t start = td.perCore * GetBlockIdx();
        myLen = start >= td.totalNum ? 0 : (td.totalNum - start < td.perCore ? td.totalNum - start : td.perCore);

        pGm.SetGlobalBuffer((__gm__ T *)param + start);
        mGm.SetGlobalBuffer((__gm__ T *)m + start);
        vGm.SetGlobalBuffer((__gm__ T *)v + start);
        oGm.SetGlobalBuffer((__gm__ T *)out + start);
        partGm.SetGlobalBuffer((__gm__ float *)partial);

        pipe.InitBuffer(inP, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(inM, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(inV, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(outQ, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(fP, tile * sizeof(float));
        pipe.InitBuffer(fR, tile * sizeof(float));
        pipe.InitBuffer(fTmp, tile * sizeof(float));
        pipe.InitBuffer(accP, tile * sizeof(float));
        pipe.InitBuffer(accR, tile * sizeof(float));
        pipe.InitBuffer(small, 64 * sizeof(float));
    }

    __aicore__ inline void Run()
    {
        NormPass();
        SyncAll();
        float trust = FoldTrust();
        UpdatePass(lr * trust);
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t n, bool withParam)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        if (withParam) {
            LocalTensor<T> p = inP.AllocTensor<T>();
            DataCopyPad(p, pGm[off], cp, pad);
            inP.EnQue(p);
        }
        LocalTensor<T> a = inM.AllocTensor<T>();
        LocalTensor<T> b = inV.AllocTensor<T>();
        DataCopyPad(a, mGm[off], cp, pad);
        DataCopyPad(b, vGm[off], cp, pad);
        inM.EnQue(a);
        inV.EnQue(b);
    }

    __aicore__ inline void ToFloat(const LocalTensor<float> &dst, const LocalTensor<T> &src, uint32_t n)
    {
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(dst, src, (n + 7) / 8 * 8);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, n);
        }
    }

    // r = m / (sqrt(v) + eps) into fR
    __aicore__ inline void MakeR(uint32_t n)
    {
        LocalTensor<T> a = inM.DeQue<T>();
        LocalTensor<T> b = inV.DeQue<T>();
        LocalTensor<float> r = fR.Get<float>();
        LocalTensor<float> t = fTmp.Get<float>();
        ToFloat(r, a, n);
        ToFloat(t, b, n);
        Sqrt(t, t, n);
        Adds(t, t, eps, n);
        Div(r, r, t, n);
        inM.FreeTensor(a);
        inV.FreeTensor(b);
    }

    __aicore__ inline void NormPass()
    {
        LocalTensor<float> sp = accP.Get<float>();
        LocalTensor<float> sr = accR.Get<float>();
        Duplicate(sp, 0.0f, tile);
        Duplicate(sr, 0.0f, tile);
        for (uint64_t off = 0; off < myLen; off += tile) {
            uint32_t n = static_cast<uint32_t>(myLen - off < tile ? myLen - off : tile);
            Load(off, n, true);
            LocalTensor<T> p = inP.DeQue<T>();
            LocalTensor<float> pf = fP.Get<float>();
            ToFloat(pf, p, n);
            inP.FreeTensor(p);
            MakeR(n);
            LocalTensor<float> r = fR.Get<float>();
            // elementwise squares accumulated lane-wise; tail lanes beyond n are never touched
            Mul(pf, pf, pf, n);
            Add(sp, sp, pf, n);
            Mul(r, r, r, n);
            Add(sr, sr, r, n);
        }
        LocalTensor<float> s = small.Get<float>();
        LocalTensor<float> work = fTmp.Get<float>();
        ReduceSum<float>(s, sp, work, tile);
        ReduceSum<float>(s[SLOT], sr, work, tile);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        s.SetValue(1, s.GetValue(SLOT));
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev2);
        WaitFlag<HardEvent::S_MTE3>(ev2);
        DataCopy(partGm[GetBlockIdx() * SLOT], s, SLOT);
    }

    __aicore__ inline float FoldTrust()
    {
        LocalTensor<float> all = fTmp.Get<float>();
        DataCopy(all, partGm, nCores * SLOT);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
        float pSq = 0.0f;
        float rSq = 0.0f;
        for (uint32_t c = 0; c < nCores; ++c) {
            pSq += all.GetValue(c * SLOT);
            rSq += all.GetValue(c * SLOT + 1);
        }
        // square roots on the vector unit
        LocalTensor<float> s = small.Get<float>();
        s.SetValue(0, pSq);
        s.SetValue(1, rSq);
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
        Sqrt(s, s, SLOT);
        event_t ev3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev3);
        WaitFlag<HardEvent::V_S>(ev3);
        return s.GetValue(0) / (s.GetValue(1) + eps);
    }

    __aicore__ inline void UpdatePass(float step)
    {
        for (uint64_t off = 0; off < myLen; off += tile) {
            uint32_t n = static_cast<uint32_t>(myLen - off < tile ? myLen - off : tile);
            Load(off, n, true);
            MakeR(n);
            LocalTensor<T> p = inP.DeQue<T>();
            LocalTensor<float> pf = fP.Get<float>();
            LocalTensor<float> r = fR.Get<float>();
            ToFloat(pf, p, n);
            inP.FreeTensor(p);
            Axpy(pf, r, -step, n);  // param - lr * trust * r
            LocalTensor<T> o = outQ.AllocTensor<T>();
            if constexpr (sizeof(T) == sizeof(float)) {
                DataCopy(o, pf, (n + 7) / 8 * 8);
            } else {
                Cast(o, pf, RoundMode::CAST_ROUND, n);
            }
            outQ.EnQue(o);
            o = outQ.DeQue<T>();
            DataCopyPad(oGm[off], o, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
            outQ.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> inP, inM, inV;
    TQue<QuePosition::VECOUT, DEPTH> outQ;
    TBuf<TPosition::VECCALC> fP, fR, fTmp, accP, accR, small;
    GlobalTensor<T> pGm, mGm, vGm, oGm;
    GlobalTensor<float> partGm;
    uint64_t myLen = 0;
    uint32_t tile = 0, nCores = 1;
    float lr = 0.0f, eps = 0.0f;
};

extern "C" __global__ __aicore__ void trust_ratio_step(GM_ADDR param, GM_ADDR exp_avg, GM_ADDR exp_avg_sq,
                                                       GM_ADDR param_out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR partial = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(0)) {
        TrustRatioStepKernel<float> op;
        op.Init(param, exp_avg, exp_avg_sq, param_out, partial, td);
        op.Run();
    } else if (TILING_KEY_IS(1)) {
        TrustRatioStepKernel<half> op;
        op.Init(param, exp_avg, exp_avg_sq, param_out, partial, td);
        op.Run();
    }
}
