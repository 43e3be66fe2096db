// y = min(x @ W^T + b, c) - c     (c read from a one-element tensor)
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class LinearCeilingOffsetKernel {
    using A_T = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using B_T = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using C_T = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BIAS_T = MatmulType<TPosition::GM, CubeFormat::ND, T>;

public:
    Matmul<A_T, B_T, C_T, BIAS_T> mm;

    __aicore__ inline LinearCeilingOffsetKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR thr, GM_ADDR y,
                                const LinearCeilingOffsetTilingData &td)
    {
        tiling = td.gemm;
        ldc = td.outCols;
        vecLen = td.vecLen;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        biasGm.SetGlobalBuffer((__gm__ T *)bias);
        thrGm.SetGlobalBuffer((__gm__ T *)thr, 1);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        int32_t blocksM = Ceil(tiling.M, tiling.singleCoreM);
        int32_t bid = static_cast<int32_t>(GetBlockIdx());
        int32_t mi = bid % blocksM;
        int32_t ni = bid / blocksM;
        m0 = mi * tiling.singleCoreM;
        n0 = ni * tiling.singleCoreN;
        mLen = tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM;
        nLen = tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN;
        active = (m0 < tiling.M) && (n0 < tiling.N);

        pipe.InitBuffer(qIn, 2, vecLen * sizeof(T));
        pipe.InitBuffer(qOut, 2, vecLen * sizeof(T));
    }

    __aicore__ inline TPipe *Pipe() { return &pipe; }

    __aicore__ inline void Process()
    {
        if (!active) {
            return;
        }
        // --- cube stage ---
        mm.SetTensorA(xGm[static_cast<uint64_t>(m0) * tiling.Ka]);
        mm.SetTensorB(wGm[static_cast<uint64_t>(n0) * tiling.Kb], true);
        mm.SetBias(biasGm[n0]);
        mm.SetTail(mLen, nLen);
        mm.IterateAll(yGm[static_cast<uint64_t>(m0) * ldc + n0]);
        mm.End();

        // --- vector stage: clamp from above and shift down ---
        T c = thrGm.GetValue(0);
        T negC = static_cast<T>(-static_cast<float>(c));
        for (int32_t r = 0; r < mLen; ++r) {
            uint64_t rowOff = static_cast<uint64_t>(m0 + r) * ldc + n0;
            for (int32_t j = 0; j < nLen; j += static_cast<int32_t>(vecLen)) {
                uint32_t cnt = static_cast<uint32_t>(nLen - j) < vecLen ? static_cast<uint32_t>(nLen - j) : vecLen;
                DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};

                LocalTensor<T> a = qIn.AllocTensor<T>();
                DataCopyPad(a, yGm[rowOff + j], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
                qIn.EnQue(a);

                a = qIn.DeQue<T>();
                LocalTensor<T> b = qOut.AllocTensor<T>();
                Mins(b, a, c, cnt);
                Adds(b, b, negC, cnt);
                qIn.FreeTensor(a);
                qOut.EnQue(b);

                b = qOut.DeQue<T>();
                DataCopyPad(yGm[rowOff + j], b, cp);
                qOut.FreeTensor(b);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qIn;
    TQue<QuePosition::VECOUT, 2> qOut;
    GlobalTensor<T> xGm, wGm, biasGm, thrGm, yGm;
    TCubeTiling tiling;
    uint32_t ldc = 0;
    uint32_t vecLen = 0;
    int32_t m0 = 0, n0 = 0, mLen = 0, nLen = 0;
    bool active = false;
};

extern "C" __global__ __aicore__ void linear_ceiling_offset(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR threshold,
                                                            GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        LinearCeilingOffsetKernel<float> op;
        REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), op.mm, &td.gemm);
        op.Init(x, weight, bias, threshold, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        LinearCeilingOffsetKernel<half> op;
        REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), op.mm, &td.gemm);
        op.Init(x, weight, bias, threshold, y, td);
        op.Process();
    }
}
