// RmsPropUpdate kernel. Arithmetic is always done in fp32; fp16 tensors are cast on the way in/out.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class RmsPropUpdateKernel {
    static constexpr int32_t BUF = 2;
    static constexpr bool IS_HALF = sizeof(T) == 2;

public:
    __aicore__ inline RmsPropUpdateKernel() {}

    __aicore__ inline void Init(GM_ADDR p, GM_ADDR g, GM_ADDR v, GM_ADDR pOut, GM_ADDR vOut,
                                const RmsPropUpdateTilingData &td)
    {
        lr = td.lr;
        alpha = td.alpha;
        eps = td.eps;
        tile = td.tileNum;
        uint64_t start = td.perCoreNum * GetBlockIdx();
        count = 0;
        if (start < td.totalNum) {
            count = td.totalNum - start;
            if (count > td.perCoreNum) {
                count = td.perCoreNum;
            }
        }
        pGm.SetGlobalBuffer((__gm__ T *)p + start, count);
        gGm.SetGlobalBuffer((__gm__ T *)g + start, count);
        vGm.SetGlobalBuffer((__gm__ T *)v + start, count);
        pOutGm.SetGlobalBuffer((__gm__ T *)pOut + start, count);
        vOutGm.SetGlobalBuffer((__gm__ T *)vOut + start, count);

        pipe.InitBuffer(qp, BUF, tile * sizeof(T));
        pipe.InitBuffer(qg, BUF, tile * sizeof(T));
        pipe.InitBuffer(qv, BUF, tile * sizeof(T));
        pipe.InitBuffer(qpo, BUF, tile * sizeof(T));
        pipe.InitBuffer(qvo, BUF, tile * sizeof(T));
        // fp32 scratch: p, g, v, denominator
        pipe.InitBuffer(scratch, 4 * tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t done = 0;
        while (done < count) {
            uint32_t n = static_cast<uint32_t>((count - done) < tile ? (count - done) : tile);
            CopyIn(done, n);
            Compute(n);
            CopyOut(done, n);
            done += n;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> pl = qp.AllocTensor<T>();
        LocalTensor<T> gl = qg.AllocTensor<T>();
        LocalTensor<T> vl = qv.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(pl, pGm[off], cp, pad);
        DataCopyPad(gl, gGm[off], cp, pad);
        DataCopyPad(vl, vGm[off], cp, pad);
        qp.EnQue(pl);
        qg.EnQue(gl);
        qv.EnQue(vl);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> pl = qp.DeQue<T>();
        LocalTensor<T> gl = qg.DeQue<T>();
        LocalTensor<T> vl = qv.DeQue<T>();
        LocalTensor<T> po = qpo.AllocTensor<T>();
        LocalTensor<T> vo = qvo.AllocTensor<T>();

        LocalTensor<float> all = scratch.Get<float>();
        LocalTensor<float> pf = all;
        LocalTensor<float> gf = all[tile];
        LocalTensor<float> vf = all[2 * tile];
        LocalTensor<float> den = all[3 * tile];

        if constexpr (IS_HALF) {
            Cast(pf, pl, RoundMode::CAST_NONE, n);
            Cast(gf, gl, RoundMode::CAST_NONE, n);
            Cast(vf, vl, RoundMode::CAST_NONE, n);
        } else {
            DataCopy(pf, pl, (n + 7) / 8 * 8);
            DataCopy(gf, gl, (n + 7) / 8 * 8);
            DataCopy(vf, vl, (n + 7) / 8 * 8);
        }
        PipeBarrier<PIPE_V>();

        // v = alpha * v + (1 - alpha) * g^2
        Mul(den, gf, gf, n);
        Muls(vf, vf, alpha, n);
        PipeBarrier<PIPE_V>();
        Axpy(vf, den, 1.0f - alpha, n);
        PipeBarrier<PIPE_V>();
        // den = sqrt(v) + eps ; p -= lr * g / den
        Sqrt(den, vf, n);
        PipeBarrier<PIPE_V>();
        Adds(den, den, eps, n);
        PipeBarrier<PIPE_V>();
        Div(den, gf, den, n);
        PipeBarrier<PIPE_V>();
        Axpy(pf, den, -lr, n);
        PipeBarrier<PIPE_V>();

        if constexpr (IS_HALF) {
            Cast(po, pf, RoundMode::CAST_ROUND, n);
            Cast(vo, vf, RoundMode::CAST_ROUND, n);
        } else {
            DataCopy(po, pf, (n + 7) / 8 * 8);
            DataCopy(vo, vf, (n + 7) / 8 * 8);
        }

        qpo.EnQue(po);
        qvo.EnQue(vo);
        qp.FreeTensor(pl);
        qg.FreeTensor(gl);
        qv.FreeTensor(vl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> po = qpo.DeQue<T>();
        LocalTensor<T> vo = qvo.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(pOutGm[off], po, cp);
        DataCopyPad(vOutGm[off], vo, cp);
        qpo.FreeTensor(po);
        qvo.FreeTensor(vo);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUF> qp, qg, qv;
    TQue<QuePosition::VECOUT, BUF> qpo, qvo;
    TBuf<TPosition::VECCALC> scratch;
    GlobalTensor<T> pGm, gGm, vGm, pOutGm, vOutGm;
    float lr, alpha, eps;
    uint32_t tile;
    uint64_t count;
};

extern "C" __global__ __aicore__ void rms_prop_update(GM_ADDR param, GM_ADDR grad, GM_ADDR squareAvg,
                                                      GM_ADDR paramOut, GM_ADDR squareAvgOut,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RmsPropUpdateKernel<float> k;
        k.Init(param, grad, squareAvg, paramOut, squareAvgOut, td);
        k.Process();
    } else if (TILING_KEY_IS(1)) {
        RmsPropUpdateKernel<half> k;
        k.Init(param, grad, squareAvg, paramOut, squareAvgOut, td);
        k.Process();
    }
}
