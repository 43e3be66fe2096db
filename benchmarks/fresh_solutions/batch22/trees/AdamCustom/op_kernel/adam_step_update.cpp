/**
 * AdamStepUpdate: one Adam step, returning the updated parameter.
 *   m' = b1*m + (1-b1)*g
 *   v' = b2*v + (1-b2)*g^2
 *   p' = p - stepSize * m' / (sqrt(v' * invBias2) + eps)
 * stepSize = lr/(1-b1^t) and invBias2 = 1/(1-b2^t) come precomputed in the tiling data.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class AdamStepUpdateKernel {
    static constexpr int32_t NBUF = 2;

public:
    __aicore__ inline AdamStepUpdateKernel() {}

    __aicore__ inline void Init(GM_ADDR p, GM_ADDR g, GM_ADDR m, GM_ADDR v, GM_ADDR out,
                                const AdamStepUpdateTilingData &td)
    {
        cfg = td;
        uint32_t begin = td.coreLen * GetBlockIdx();
        myLen = (td.totalLen - begin < td.coreLen) ? td.totalLen - begin : td.coreLen;
        pGm.SetGlobalBuffer((__gm__ T *)p + begin, myLen);
        gGm.SetGlobalBuffer((__gm__ T *)g + begin, myLen);
        mGm.SetGlobalBuffer((__gm__ T *)m + begin, myLen);
        vGm.SetGlobalBuffer((__gm__ T *)v + begin, myLen);
        oGm.SetGlobalBuffer((__gm__ T *)out + begin, myLen);

        uint32_t bytes = td.tileLen * sizeof(T);
        pipe.InitBuffer(inP, NBUF, bytes);
        pipe.InitBuffer(inG, NBUF, bytes);
        pipe.InitBuffer(inM, NBUF, bytes);
        pipe.InitBuffer(inV, NBUF, bytes);
        pipe.InitBuffer(outP, NBUF, bytes);
        for (int i = 0; i < 5; ++i) {
            pipe.InitBuffer(f32[i], td.tileLen * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint32_t tl = cfg.tileLen;
        for (uint32_t off = 0; off < myLen; off += tl) {
            uint32_t n = (myLen - off < tl) ? (myLen - off) : tl;
            Load(off, n);
            Update(n);
            Store(off, n);
        }
    }

private:
    __aicore__ inline void Load(uint32_t off, uint32_t n)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        LocalTensor<T> a = inP.AllocTensor<T>();
        LocalTensor<T> b = inG.AllocTensor<T>();
        LocalTensor<T> c = inM.AllocTensor<T>();
        LocalTensor<T> d = inV.AllocTensor<T>();
        DataCopyPad(a, pGm[off], cp, pad);
        DataCopyPad(b, gGm[off], cp, pad);
        DataCopyPad(c, mGm[off], cp, pad);
        DataCopyPad(d, vGm[off], cp, pad);
        inP.EnQue(a);
        inG.EnQue(b);
        inM.EnQue(c);
        inV.EnQue(d);
    }

    // bring a queued tile to fp32 (fp16 path casts, fp32 path copies)
    __aicore__ inline void ToF32(LocalTensor<float> &dst, LocalTensor<T> &src, uint32_t n)
    {
        if constexpr (std::is_same<T, half>::value) {
            Cast(dst, src, RoundMode::CAST_NONE, n);
        } else {
            Adds(dst, src, 0.0f, n);
        }
    }

    __aicore__ inline void Update(uint32_t n)
    {
        LocalTensor<T> p = inP.DeQue<T>();
        LocalTensor<T> g = inG.DeQue<T>();
        LocalTensor<T> m = inM.DeQue<T>();
        LocalTensor<T> v = inV.DeQue<T>();
        LocalTensor<float> fp = f32[0].Get<float>();
        LocalTensor<float> fg = f32[1].Get<float>();
        LocalTensor<float> fm = f32[2].Get<float>();
        LocalTensor<float> fv = f32[3].Get<float>();
        LocalTensor<float> tmp = f32[4].Get<float>();
        ToF32(fp, p, n);
        ToF32(fg, g, n);
        ToF32(fm, m, n);
        ToF32(fv, v, n);
        inP.FreeTensor(p);
        inG.FreeTensor(g);
        inM.FreeTensor(m);
        inV.FreeTensor(v);

        // first moment
        Muls(fm, fm, cfg.beta1, n);
        Axpy(fm, fg, cfg.oneMinusBeta1, n);
        // second moment
        Mul(tmp, fg, fg, n);
        Muls(fv, fv, cfg.beta2, n);
        Axpy(fv, tmp, cfg.oneMinusBeta2, n);
        // denominator sqrt(v_hat) + eps
        Muls(fv, fv, cfg.invBias2, n);
        Sqrt(fv, fv, n);
        Adds(fv, fv, cfg.eps, n);
        // p - stepSize * m / denom
        Div(tmp, fm, fv, n);
        Axpy(fp, tmp, -cfg.stepSize, n);

        LocalTensor<T> o = outP.AllocTensor<T>();
        if constexpr (std::is_same<T, half>::value) {
            Cast(o, fp, RoundMode::CAST_ROUND, n);
        } else {
            Adds(o, fp, 0.0f, n);
        }
        outP.EnQue(o);
    }

    __aicore__ inline void Store(uint32_t off, uint32_t n)
    {
        LocalTensor<T> o = outP.DeQue<T>();
        DataCopyPad(oGm[off], o, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        outP.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, NBUF> inP, inG, inM, inV;
    TQue<QuePosition::VECOUT, NBUF> outP;
    TBuf<TPosition::VECCALC> f32[5];
    GlobalTensor<T> pGm, gGm, mGm, vGm, oGm;
    AdamStepUpdateTilingData cfg;
    uint32_t myLen = 0;
};

extern "C" __global__ __aicore__ void adam_step_update(GM_ADDR param, GM_ADDR grad, GM_ADDR exp_avg,
                                                       GM_ADDR exp_avg_sq, GM_ADDR param_out,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        AdamStepUpdateKernel<float> k;
        k.Init(param, grad, exp_avg, exp_avg_sq, param_out, td);
        k.Process();
    } else if (TILING_KEY_IS(1)) {
        AdamStepUpdateKernel<half> k;
        k.Init(param, grad, exp_avg, exp_avg_sq, param_out, td);
        k.Process();
    }
}
