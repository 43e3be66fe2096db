// DenseSwishTanhGeluClip kernel (mix: cube matmul + vector epilogue).
//
// The cube computes x[M,K] @ W[N,K]^T + b in baseM x baseN fragments; each fragment is pulled into
// UB (fp32) with GetTensorC and finished on the vector unit:
//   z = acc + shift[col]
//   s = z * sigmoid(z)            sigmoid via 1 / (1 + exp(-z))
//   t = tanh(s)                   1 - 2 / (exp(2s) + 1)
//   g = 0.5 * t * (1 + erf(t/sqrt2))   |t/sqrt2| <= 0.71, odd Taylor series to v^11 (err < 2e-6)
//   y = clamp(g, clipMin, clipMax)
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class DenseSwishTanhGeluClipKernel {
public:
    __aicore__ inline DenseSwishTanhGeluClipKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR shift, GM_ADDR y,
                                const DenseSwishTanhGeluClipTilingData &td, TPipe *p)
    {
        pipe = p;
        cube = td.mm;
        M = td.m; N = td.n; K = td.k;
        lo = td.clipMin; hi = td.clipMax;

        xGm.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(M) * K);
        wGm.SetGlobalBuffer((__gm__ T *)w, static_cast<uint64_t>(N) * K);
        bGm.SetGlobalBuffer((__gm__ T *)b, N);
        sGm.SetGlobalBuffer((__gm__ T *)shift, N);
        yGm.SetGlobalBuffer((__gm__ T *)y, static_cast<uint64_t>(M) * N);

        uint32_t frag = cube.baseM * cube.baseN;
        pipe->InitBuffer(accQ, 1, frag * sizeof(float));
        pipe->InitBuffer(outQ, 1, frag * sizeof(T));
        pipe->InitBuffer(shiftQ, 1, cube.baseN * sizeof(T));
        pipe->InitBuffer(tmpA, frag * sizeof(float));
        pipe->InitBuffer(tmpB, frag * sizeof(float));
        pipe->InitBuffer(shiftF, cube.baseN * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t mBlocks = (M + cube.singleCoreM - 1) / cube.singleCoreM;
        uint32_t blk = GetBlockIdx();
        uint32_t mb = blk % mBlocks;
        uint32_t nb = blk / mBlocks;
        uint32_t m0 = mb * cube.singleCoreM;
        uint32_t n0 = nb * cube.singleCoreN;
        if (m0 >= M || n0 >= N) {
            return;
        }
        uint32_t curM = (M - m0) < cube.singleCoreM ? (M - m0) : cube.singleCoreM;
        uint32_t curN = (N - n0) < cube.singleCoreN ? (N - n0) : cube.singleCoreN;

        mm.SetTensorA(xGm[static_cast<uint64_t>(m0) * K]);
        mm.SetTensorB(wGm[static_cast<uint64_t>(n0) * K], true);
        mm.SetBias(bGm[n0]);
        mm.SetTail(curM, curN);

        uint32_t mIter = (curM + cube.baseM - 1) / cube.baseM;
        uint32_t nIter = (curN + cube.baseN - 1) / cube.baseN;
        uint32_t idx = 0;
        while (mm.template Iterate<true>()) {
            uint32_t fm, fn;
            if (cube.iterateOrder == 0) {   // M advances first
                fm = idx % mIter; fn = idx / mIter;
            } else {
                fn = idx % nIter; fm = idx / nIter;
            }
            ++idx;
            LocalTensor<float> acc = accQ.AllocTensor<float>();
            mm.template GetTensorC<true>(acc, false, true);
            accQ.EnQue(acc);

            uint32_t rowOff = m0 + fm * cube.baseM;
            uint32_t colOff = n0 + fn * cube.baseN;
            uint32_t rows = (m0 + curM - rowOff) < cube.baseM ? (m0 + curM - rowOff) : cube.baseM;
            uint32_t cols = (n0 + curN - colOff) < cube.baseN ? (n0 + curN - colOff) : cube.baseN;
            Epilogue(rowOff, colOff, rows, cols);
        }
        mm.End();
    }

private:
    __aicore__ inline void Epilogue(uint32_t rowOff, uint32_t colOff, uint32_t rows, uint32_t cols)
    {
        const uint32_t bn = cube.baseN;
        const uint32_t len = cube.baseM * bn;

        // per-column shift for this fragment
        LocalTensor<T> sh = shiftQ.AllocTensor<T>();
        DataCopyPad(sh, sGm[colOff], DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        shiftQ.EnQue(sh);
        sh = shiftQ.DeQue<T>();
        LocalTensor<float> shf = shiftF.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(shf, sh, bn);
        } else {
            Cast(shf, sh, RoundMode::CAST_NONE, bn);
        }
        shiftQ.FreeTensor(sh);
        PipeBarrier<PIPE_V>();

        LocalTensor<float> z = accQ.DeQue<float>();
        LocalTensor<float> a = tmpA.Get<float>();
        LocalTensor<float> c = tmpB.Get<float>();
        for (uint32_t r = 0; r < rows; ++r) {
            Add(z[r * bn], z[r * bn], shf, bn);
        }
        PipeBarrier<PIPE_V>();

        // swish: z / (1 + exp(-z))
        Muls(a, z, -1.0f, len);
        PipeBarrier<PIPE_V>();
        Exp(a, a, len);
        PipeBarrier<PIPE_V>();
        Adds(a, a, 1.0f, len);
        PipeBarrier<PIPE_V>();
        Div(z, z, a, len);
        PipeBarrier<PIPE_V>();

        // tanh: 1 - 2 / (exp(2z) + 1)
        Muls(a, z, 2.0f, len);
        PipeBarrier<PIPE_V>();
        Exp(a, a, len);
        PipeBarrier<PIPE_V>();
        Adds(a, a, 1.0f, len);
        PipeBarrier<PIPE_V>();
        Duplicate(c, -2.0f, len);
        PipeBarrier<PIPE_V>();
        Div(a, c, a, len);
        PipeBarrier<PIPE_V>();
        Adds(z, a, 1.0f, len);          // z = tanh
        PipeBarrier<PIPE_V>();

        // erf(v), v = z / sqrt(2): v * (c0 + v2*(c1 + v2*(c2 + v2*(c3 + v2*(c4 + v2*c5)))))
        constexpr float kInvSqrt2 = 0.70710678f;
        constexpr float kTwoOverSqrtPi = 1.12837917f;
        Muls(a, z, kInvSqrt2, len);     // a = v
        PipeBarrier<PIPE_V>();
        Mul(c, a, a, len);              // c = v^2
        PipeBarrier<PIPE_V>();
        LocalTensor<float> p = accQ.AllocTensor<float>();   // reuse a fresh buffer slot as poly accumulator
        Muls(p, c, -kTwoOverSqrtPi / 1320.0f, len);
        const float coef[5] = {kTwoOverSqrtPi / 216.0f, -kTwoOverSqrtPi / 42.0f, kTwoOverSqrtPi / 10.0f,
                               -kTwoOverSqrtPi / 3.0f, kTwoOverSqrtPi};
        for (int i = 0; i < 5; ++i) {
            PipeBarrier<PIPE_V>();
            Adds(p, p, coef[i], len);
            if (i < 4) {
                PipeBarrier<PIPE_V>();
                Mul(p, p, c, len);
            }
        }
        PipeBarrier<PIPE_V>();
        Mul(p, p, a, len);              // p = erf(v)
        PipeBarrier<PIPE_V>();
        Adds(p, p, 1.0f, len);
        PipeBarrier<PIPE_V>();
        Mul(p, p, z, len);
        PipeBarrier<PIPE_V>();
        Muls(p, p, 0.5f, len);          // gelu
        PipeBarrier<PIPE_V>();
        Maxs(p, p, lo, len);
        PipeBarrier<PIPE_V>();
        Mins(p, p, hi, len);
        PipeBarrier<PIPE_V>();

        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(o, p, len);
        } else {
            Cast(o, p, RoundMode::CAST_ROUND, len);
        }
        accQ.FreeTensor(z);
        accQ.FreeTensor(p);
        outQ.EnQue(o);
        o = outQ.DeQue<T>();
        uint32_t srcGap = (bn - cols) * sizeof(T) / 32;   // baseN*sizeof(T) is a multiple of 32
        DataCopyPad(yGm[static_cast<uint64_t>(rowOff) * N + colOff], o,
                    DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), srcGap,
                                      static_cast<uint32_t>((N - cols) * sizeof(T)), 0});
        outQ.FreeTensor(o);
    }

public:
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, T>, MatmulType<TPosition::GM, CubeFormat::ND, T, true>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, T>>
        mm;
    TCubeTiling cube;

private:
    TPipe *pipe;
    TQue<QuePosition::VECIN, 2> accQ;
    TQue<QuePosition::VECIN, 1> shiftQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpA, tmpB, shiftF;
    GlobalTensor<T> xGm, wGm, bGm, sGm, yGm;
    uint32_t M, N, K;
    float lo, hi;
};

extern "C" __global__ __aicore__ void dense_swish_tanh_gelu_clip(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                 GM_ADDR shift, GM_ADDR y, GM_ADDR workspace,
                                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR user = GetUserWorkspace(workspace);
    (void)user;
    TPipe pipe;
    DenseSwishTanhGeluClipKernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkspacePtr(), op.mm, &td.mm);
    op.Init(x, weight, bias, shift, y, td, &pipe);
    op.Process();
}
