/*
 * DenseScaledGelu: y = gelu_erf((x @ W^T + b) / divisor)
 * Each core owns a singleCoreM x singleCoreN block of y; the Matmul object hands back
 * baseM x baseN pieces in UB (Iterate/GetTensorC), which are finished on the vector unit
 *     t = v * invDivisor;   y = 0.5 * t * (1 + erf(t / sqrt(2)))
 * and written straight to GM - the raw product never goes to global memory.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr float INV_SQRT2 = 0.70710678118654752f;

template <typename T>
class DenseScaledGeluKernel {
public:
    using aT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using bT = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using cT = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using biasT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<aT, bT, cT, biasT> mm;

    __aicore__ inline DenseScaledGeluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const DenseScaledGeluTilingData &td, TPipe *p)
    {
        cube = td.mm;
        invDiv = td.invDivisor;
        pipe = p;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        bGm.SetGlobalBuffer((__gm__ T *)bias);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        const uint32_t blockElems = cube.baseM * cube.baseN;
        pipe->InitBuffer(cQue, 1, blockElems * sizeof(float));
        pipe->InitBuffer(yQue, 1, blockElems * sizeof(T));
        pipe->InitBuffer(erfBuf, blockElems * sizeof(float));
        pipe->InitBuffer(erfTmp, td.erfTmpBytes);
    }

    __aicore__ inline void Process()
    {
        const int32_t idx = static_cast<int32_t>(GetBlockIdx());
        if (idx >= cube.usedCoreNum) {
            return;
        }
        const int32_t mCores = (cube.M + cube.singleCoreM - 1) / cube.singleCoreM;
        const int32_t mPos = idx % mCores;
        const int32_t nPos = idx / mCores;
        int32_t curM = cube.M - mPos * cube.singleCoreM;
        int32_t curN = cube.N - nPos * cube.singleCoreN;
        if (curM <= 0 || curN <= 0) {
            return;
        }
        curM = curM > cube.singleCoreM ? cube.singleCoreM : curM;
        curN = curN > cube.singleCoreN ? cube.singleCoreN : curN;

        rowBase = static_cast<uint64_t>(mPos) * cube.singleCoreM;
        colBase = static_cast<uint64_t>(nPos) * cube.singleCoreN;
        mm.SetTail(curM, curN);
        mm.SetTensorA(xGm[rowBase * cube.Ka]);
        mm.SetTensorB(wGm[colBase * cube.Kb], true);
        mm.SetBias(bGm[colBase]);

        // Matmul walks base blocks M-first inside the core's block
        const uint32_t mSteps = (curM + cube.baseM - 1) / cube.baseM;
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> c = cQue.AllocTensor<float>();
            mm.template GetTensorC<true>(c, false, true);
            cQue.EnQue(c);

            uint32_t mi = step % mSteps;
            uint32_t ni = step / mSteps;
            uint32_t rows = curM - mi * cube.baseM;
            rows = rows > static_cast<uint32_t>(cube.baseM) ? cube.baseM : rows;
            uint32_t cols = curN - ni * cube.baseN;
            cols = cols > static_cast<uint32_t>(cube.baseN) ? cube.baseN : cols;
            Epilogue();
            StoreBlock(mi, ni, rows, cols);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void Epilogue()
    {
        const uint32_t cnt = cube.baseM * cube.baseN;
        LocalTensor<float> c = cQue.DeQue<float>();
        LocalTensor<float> e = erfBuf.Get<float>();
        LocalTensor<uint8_t> tmp = erfTmp.Get<uint8_t>();

        Muls(c, c, invDiv, cnt);            // t = v / divisor
        Muls(e, c, INV_SQRT2, cnt);         // t / sqrt(2)
        Erf(e, e, tmp, cnt);                // erf(t / sqrt(2))
        Adds(e, e, 1.0f, cnt);
        Mul(e, e, c, cnt);
        LocalTensor<T> y = yQue.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            Muls(y, e, 0.5f, cnt);
        } else {
            Muls(e, e, 0.5f, cnt);
            Cast(y, e, RoundMode::CAST_ROUND, cnt);
        }
        cQue.FreeTensor(c);
        yQue.EnQue(y);
    }

    __aicore__ inline void StoreBlock(uint32_t mi, uint32_t ni, uint32_t rows, uint32_t cols)
    {
        LocalTensor<T> y = yQue.DeQue<T>();
        uint64_t off = (rowBase + static_cast<uint64_t>(mi) * cube.baseM) * cube.N + colBase +
                       static_cast<uint64_t>(ni) * cube.baseN;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * sizeof(T);
        cp.srcStride = static_cast<uint32_t>((cube.baseN - cols) * sizeof(T) / 32);
        cp.dstStride = static_cast<uint32_t>((cube.N - cols) * sizeof(T));
        cp.rsv = 0;
        DataCopyPad(yGm[off], y, cp);
        yQue.FreeTensor(y);
    }

private:
    TPipe *pipe = nullptr;
    TCubeTiling cube;
    float invDiv = 1.0f;
    uint64_t rowBase = 0, colBase = 0;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    TQue<QuePosition::VECIN, 1> cQue;
    TQue<QuePosition::VECOUT, 1> yQue;
    TBuf<TPosition::VECCALC> erfBuf, erfTmp;
};

extern "C" __global__ __aicore__ void dense_scaled_gelu(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    if (TILING_KEY_IS(0)) {
        DenseScaledGeluKernel<float> op;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
        op.Init(x, weight, bias, y, td, &pipe);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        DenseScaledGeluKernel<half> op;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
        op.Init(x, weight, bias, y, td, &pipe);
        op.Process();
    }
}
