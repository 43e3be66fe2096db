// DenseActivationChain
//   z = x @ W^T + bias + shift
//   z = z * sigmoid(z)          (swish)
//   z = tanh(z)
//   z = 0.5 * z * (1 + erf(z / sqrt(2)))   (exact GELU)
//   y = clamp(z, clip_min, clip_max)
// The product is produced by the cube Matmul API into an fp32 workspace tile owned by the core,
// then the same core streams that tile through UB for the element-wise chain.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
constexpr float INV_SQRT2 = 0.70710678118654752f;
}

template <typename T>
class DenseActivationChainKernel {
    using A_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using B_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using C_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BIAS_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    matmul::Matmul<A_T, B_T, C_T, BIAS_T> mm;

    __aicore__ inline DenseActivationChainKernel() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR shift, GM_ADDR y, GM_ADDR ws,
                                const DenseActivationChainTilingData &td, TPipe *pipe)
    {
        M = td.M; N = td.N; K = td.K;
        epiCols = td.epiCols;
        lo = td.clipLow; hi = td.clipHigh;
        const TCubeTiling &ct = td.mm;

        uint32_t mBlocks = (M + ct.singleCoreM - 1) / ct.singleCoreM;
        uint32_t nBlocks = (N + ct.singleCoreN - 1) / ct.singleCoreN;
        uint32_t bid = GetBlockIdx();
        if (bid >= mBlocks * nBlocks) {
            return false;
        }
        uint32_t mi = bid % mBlocks;
        uint32_t ni = bid / mBlocks;
        row0 = mi * ct.singleCoreM;
        col0 = ni * ct.singleCoreN;
        rows = (M - row0) < static_cast<uint32_t>(ct.singleCoreM) ? (M - row0) : ct.singleCoreM;
        cols = (N - col0) < static_cast<uint32_t>(ct.singleCoreN) ? (N - col0) : ct.singleCoreN;

        xGm.SetGlobalBuffer((__gm__ T *)x + static_cast<uint64_t>(row0) * K);
        wGm.SetGlobalBuffer((__gm__ T *)w + static_cast<uint64_t>(col0) * K);
        biasGm.SetGlobalBuffer((__gm__ float *)bias + col0);
        shiftGm.SetGlobalBuffer((__gm__ float *)shift + col0);
        accGm.SetGlobalBuffer((__gm__ float *)ws);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe->InitBuffer(inQ, 2, epiCols * sizeof(float));
        pipe->InitBuffer(outQ, 2, epiCols * sizeof(T));
        pipe->InitBuffer(shiftBuf, epiCols * sizeof(float));
        pipe->InitBuffer(tmpA, epiCols * sizeof(float));
        pipe->InitBuffer(tmpB, epiCols * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        uint64_t cOff = static_cast<uint64_t>(row0) * N + col0;
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(rows, cols);
        mm.IterateAll(accGm[cOff]);
        mm.End();
        PipeBarrier<PIPE_ALL>();

        for (uint32_t c = 0; c < cols; c += epiCols) {
            uint32_t len = (cols - c) < epiCols ? (cols - c) : epiCols;
            LoadShift(c, len);
            for (uint32_t r = 0; r < rows; ++r) {
                uint64_t off = static_cast<uint64_t>(row0 + r) * N + col0 + c;
                CopyIn(off, len);
                Activate(len);
                CopyOut(off, len);
            }
        }
    }

private:
    __aicore__ inline void LoadShift(uint32_t c, uint32_t len)
    {
        LocalTensor<float> s = shiftBuf.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(s, shiftGm[c], cp, pad);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
    }

    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> v = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(v, accGm[off], cp, pad);
        inQ.EnQue(v);
    }

    __aicore__ inline void Activate(uint32_t len)
    {
        LocalTensor<float> v = inQ.DeQue<float>();
        LocalTensor<float> s = shiftBuf.Get<float>();
        LocalTensor<float> a = tmpA.Get<float>();
        LocalTensor<float> b = tmpB.Get<float>();

        Add(v, v, s, len);

        // swish: v / (1 + e^-v)
        Muls(a, v, -1.0f, len);
        Exp(a, a, len);
        Adds(a, a, 1.0f, len);
        Div(v, v, a, len);

        // tanh: 1 - 2 / (e^{2v} + 1)   (saturates cleanly to +-1)
        Muls(a, v, 2.0f, len);
        Exp(a, a, len);
        Adds(a, a, 1.0f, len);
        Duplicate(b, -2.0f, len);
        Div(a, b, a, len);
        Adds(v, a, 1.0f, len);

        // exact gelu
        Muls(a, v, INV_SQRT2, len);
        Erf(b, a, len);
        Adds(b, b, 1.0f, len);
        Mul(b, b, v, len);
        Muls(v, b, 0.5f, len);

        // hard clip
        Maxs(v, v, lo, len);
        Mins(v, v, hi, len);

        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(o, v, (len + 7) / 8 * 8);
        } else {
            Cast(o, v, RoundMode::CAST_ROUND, len);
        }
        inQ.FreeTensor(v);
        outQ.EnQue(o);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<T> o = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], o, cp);
        outQ.FreeTensor(o);
    }

private:
    uint32_t M, N, K, epiCols;
    uint32_t row0, col0, rows, cols;
    float lo, hi;
    GlobalTensor<T> xGm, wGm, yGm;
    GlobalTensor<float> biasGm, shiftGm, accGm;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> shiftBuf, tmpA, tmpB;
};

template <typename T>
__aicore__ inline void RunChain(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR shift, GM_ADDR y, GM_ADDR usr,
                                const DenseActivationChainTilingData &td)
{
    TPipe pipe;
    DenseActivationChainKernel<T> k;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), k.mm, &td.mm);
    if (k.Init(x, w, bias, shift, y, usr, td, &pipe)) {
        k.Process();
    }
}

extern "C" __global__ __aicore__ void dense_activation_chain(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                             GM_ADDR shift, GM_ADDR y, GM_ADDR workspace,
                                                             GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(1)) {
        RunChain<half>(x, weight, bias, shift, y, usr, td);
    } else if (TILING_KEY_IS(0)) {
        RunChain<float>(x, weight, bias, shift, y, usr, td);
    }
}
