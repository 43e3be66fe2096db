// ApplyAdagradDense: one dense Adagrad step.
//   accum_out = accum + grad^2
//   var_out   = var - lr * grad / (sqrt(accum_out) + epsilon)
// fp16 tensors are widened to fp32 for the update and narrowed back on the way out.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
}

template <typename T>
class AdagradStep {
public:
    __aicore__ inline AdagradStep() {}

    __aicore__ inline void Init(GM_ADDR var, GM_ADDR grad, GM_ADDR accum, GM_ADDR varOut, GM_ADDR accumOut,
                                const ApplyAdagradDenseTilingData &td)
    {
        lr = td.lr;
        eps = td.epsilon;
        tile = td.tileNum;

        const uint32_t core = GetBlockIdx();
        uint64_t start;
        uint64_t len;
        if (core < td.bigCores) {
            start = core * td.perCoreNum;
            len = td.perCoreNum;
        } else {
            const uint64_t small = td.perCoreNum - td.alignNum;
            start = td.bigCores * td.perCoreNum + (core - td.bigCores) * small;
            len = small;
        }
        if (start >= td.totalNum) {
            len = 0;
        } else if (start + len > td.totalNum) {
            len = td.totalNum - start;   // ragged end of the tensor
        }
        count = len;

        varGm.SetGlobalBuffer((__gm__ T *)var + start, len);
        gradGm.SetGlobalBuffer((__gm__ T *)grad + start, len);
        accGm.SetGlobalBuffer((__gm__ T *)accum + start, len);
        varOutGm.SetGlobalBuffer((__gm__ T *)varOut + start, len);
        accOutGm.SetGlobalBuffer((__gm__ T *)accumOut + start, len);

        pipe.InitBuffer(qVar, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(qGrad, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(qAcc, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(qVarOut, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(qAccOut, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(scratch, tile * sizeof(float));
        if constexpr (sizeof(T) == 2) {
            pipe.InitBuffer(f32Var, tile * sizeof(float));
            pipe.InitBuffer(f32Grad, tile * sizeof(float));
            pipe.InitBuffer(f32Acc, tile * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint64_t done = 0;
        while (done < count) {
            uint32_t n = (count - done) > tile ? tile : static_cast<uint32_t>(count - done);
            CopyIn(done, n);
            Compute(n);
            CopyOut(done, n);
            done += n;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> v = qVar.AllocTensor<T>();
        LocalTensor<T> g = qGrad.AllocTensor<T>();
        LocalTensor<T> a = qAcc.AllocTensor<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(v, varGm[off], p, pad);
        DataCopyPad(g, gradGm[off], p, pad);
        DataCopyPad(a, accGm[off], p, pad);
        qVar.EnQue(v);
        qGrad.EnQue(g);
        qAcc.EnQue(a);
    }

    // core update on fp32 views; writes accum_new into acc and var_new into var
    __aicore__ inline void Update(const LocalTensor<float> &var, const LocalTensor<float> &grad,
                                  const LocalTensor<float> &acc, uint32_t n)
    {
        LocalTensor<float> tmp = scratch.Get<float>();
        Mul(tmp, grad, grad, n);
        Add(acc, acc, tmp, n);          // accum += g^2
        Sqrt(tmp, acc, n);
        Adds(tmp, tmp, eps, n);         // sqrt(accum) + eps
        Div(tmp, grad, tmp, n);
        Muls(tmp, tmp, -lr, n);
        Add(var, var, tmp, n);          // var -= lr * g / denom
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> v = qVar.DeQue<T>();
        LocalTensor<T> g = qGrad.DeQue<T>();
        LocalTensor<T> a = qAcc.DeQue<T>();
        LocalTensor<T> vo = qVarOut.AllocTensor<T>();
        LocalTensor<T> ao = qAccOut.AllocTensor<T>();

        if constexpr (sizeof(T) == 2) {
            LocalTensor<float> v32 = f32Var.Get<float>();
            LocalTensor<float> g32 = f32Grad.Get<float>();
            LocalTensor<float> a32 = f32Acc.Get<float>();
            Cast(v32, v, RoundMode::CAST_NONE, n);
            Cast(g32, g, RoundMode::CAST_NONE, n);
            Cast(a32, a, RoundMode::CAST_NONE, n);
            Update(v32, g32, a32, n);
            Cast(vo, v32, RoundMode::CAST_ROUND, n);
            Cast(ao, a32, RoundMode::CAST_ROUND, n);
        } else {
            Update(v, g, a, n);
            DataCopy(vo, v, (n + 7) / 8 * 8);
            DataCopy(ao, a, (n + 7) / 8 * 8);
        }

        qVarOut.EnQue(vo);
        qAccOut.EnQue(ao);
        qVar.FreeTensor(v);
        qGrad.FreeTensor(g);
        qAcc.FreeTensor(a);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> vo = qVarOut.DeQue<T>();
        LocalTensor<T> ao = qAccOut.DeQue<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(varOutGm[off], vo, p);
        DataCopyPad(accOutGm[off], ao, p);
        qVarOut.FreeTensor(vo);
        qAccOut.FreeTensor(ao);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> qVar, qGrad, qAcc;
    TQue<QuePosition::VECOUT, DEPTH> qVarOut, qAccOut;
    TBuf<TPosition::VECCALC> scratch, f32Var, f32Grad, f32Acc;
    GlobalTensor<T> varGm, gradGm, accGm, varOutGm, accOutGm;
    float lr = 0.01f;
    float eps = 1e-10f;
    uint32_t tile = 0;
    uint64_t count = 0;
};

extern "C" __global__ __aicore__ void apply_adagrad_dense(GM_ADDR var, GM_ADDR grad, GM_ADDR accum, GM_ADDR var_out,
                                                          GM_ADDR accum_out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        AdagradStep<half> op;
        op.Init(var, grad, accum, var_out, accum_out, td);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        AdagradStep<float> op;
        op.Init(var, grad, accum, var_out, accum_out, td);
        op.Process();
    }
}
