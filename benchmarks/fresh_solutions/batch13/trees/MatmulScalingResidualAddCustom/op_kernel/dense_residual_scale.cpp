// y = (x @ W^T + b) * s + (x @ W^T + b)  ==  (x @ W^T + b) * (1 + s)
// Cube unit does the GEMM (+bias); each baseM x baseN result block is pulled into UB,
// scaled on the vector unit and written out.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

template <typename T>
class DenseResidualScaleKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T, false>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;

    __aicore__ inline DenseResidualScaleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling &tiling, float outScale, TPipe *tpipe)
    {
        pipe = tpipe;
        tl = tiling;
        scale = outScale;
        xGm.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(tl.M) * tl.Ka);
        wGm.SetGlobalBuffer((__gm__ T *)w, static_cast<uint64_t>(tl.N) * tl.Kb);
        biasGm.SetGlobalBuffer((__gm__ T *)bias, tl.N);
        yGm.SetGlobalBuffer((__gm__ T *)y, static_cast<uint64_t>(tl.M) * tl.N);
        pipe->InitBuffer(resQ, 1, tl.baseM * tl.baseN * sizeof(T));
        pipe->InitBuffer(outQ, 1, tl.baseM * tl.baseN * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint32_t mBlocks = CeilDiv(tl.M, tl.singleCoreM);
        uint32_t nBlocks = CeilDiv(tl.N, tl.singleCoreN);
        uint32_t blk = GetBlockIdx();
        if (blk >= mBlocks * nBlocks) {
            return;
        }
        uint32_t mIdx = blk % mBlocks;
        uint32_t nIdx = blk / mBlocks;
        rowBase = mIdx * tl.singleCoreM;
        colBase = nIdx * tl.singleCoreN;
        rowsHere = (tl.M - rowBase) < static_cast<uint32_t>(tl.singleCoreM) ? (tl.M - rowBase) : tl.singleCoreM;
        colsHere = (tl.N - colBase) < static_cast<uint32_t>(tl.singleCoreN) ? (tl.N - colBase) : tl.singleCoreN;

        mm.SetTensorA(xGm[static_cast<uint64_t>(rowBase) * tl.Ka]);
        mm.SetTensorB(wGm[static_cast<uint64_t>(colBase) * tl.Kb], true);
        mm.SetBias(biasGm[colBase]);
        mm.SetTail(rowsHere, colsHere);

        // iteration order follows the tiling (M first by default)
        uint32_t mIter = CeilDiv(rowsHere, tl.baseM);
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<T> res = resQ.AllocTensor<T>();
            mm.template GetTensorC<true>(res, false, true);
            resQ.EnQue(res);
            ScaleAndStore(step % mIter, step / mIter);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void ScaleAndStore(uint32_t mi, uint32_t ni)
    {
        LocalTensor<T> res = resQ.DeQue<T>();
        LocalTensor<T> out = outQ.AllocTensor<T>();
        Muls(out, res, static_cast<T>(scale), tl.baseM * tl.baseN);
        resQ.FreeTensor(res);
        outQ.EnQue(out);

        out = outQ.DeQue<T>();
        uint32_t r0 = mi * tl.baseM;
        uint32_t c0 = ni * tl.baseN;
        uint32_t rows = (rowsHere - r0) < static_cast<uint32_t>(tl.baseM) ? (rowsHere - r0) : tl.baseM;
        uint32_t cols = (colsHere - c0) < static_cast<uint32_t>(tl.baseN) ? (colsHere - c0) : tl.baseN;
        // UB block is baseM x baseN; copy the valid part row by row into y
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * sizeof(T);
        cp.srcStride = (tl.baseN - cols) * sizeof(T) / 32;
        cp.dstStride = (tl.N - cols) * sizeof(T);
        cp.rsv = 0;
        DataCopyPad(yGm[static_cast<uint64_t>(rowBase + r0) * tl.N + colBase + c0], out, cp);
        outQ.FreeTensor(out);
    }

public:
    Matmul<AType, BType, CType, BiasType> mm;

private:
    TPipe *pipe = nullptr;
    TQue<QuePosition::VECIN, 1> resQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    GlobalTensor<T> xGm, wGm, biasGm, yGm;
    TCubeTiling tl;
    float scale = 1.0f;
    uint32_t rowBase = 0, colBase = 0, rowsHere = 0, colsHere = 0;
};

extern "C" __global__ __aicore__ void dense_residual_scale(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    DenseResidualScaleKernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(x, weight, bias, y, td.mm, td.outScale, &pipe);
    op.Process();
}
