/**
 * dense_scaled_gelu.cpp
 *
 * y = gelu((x @ W^T + b) * invDiv)
 *
 * The GEMM runs on the cube unit through the high level Matmul API. Each
 * base block (baseM x baseN) produced by Iterate() is pulled into UB, where
 * the vector unit applies the scaling and the exact (erf based) GELU before
 * the block is written back to GM.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

struct DenseScaledGeluTiling {
    float invDiv;        // 1 / divisor
    uint32_t reserved;
    TCubeTiling cube;    // filled on host by matmul_tiling::MultiCoreMatmulTiling
};

__aicore__ inline void CopyTiling(DenseScaledGeluTiling *tiling, GM_ADDR tilingGm)
{
    uint32_t *dst = reinterpret_cast<uint32_t *>(tiling);
    auto src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    for (uint32_t i = 0; i < sizeof(DenseScaledGeluTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
}

// single tile, matmul output goes directly to VECIN so the vector unit can consume it
using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;  // weight is (N, K): transposed
using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class DenseScaledGelu {
public:
    __aicore__ inline DenseScaledGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                const DenseScaledGeluTiling &t, TPipe *pipePtr)
    {
        tiling = t;
        pipe = pipePtr;
        const TCubeTiling &c = tiling.cube;

        // locate this core's sub block in the (M, N) output grid
        uint32_t blocksAlongN = (c.N + c.singleCoreN - 1) / c.singleCoreN;
        uint32_t coreIdx = GetBlockIdx();
        uint32_t mIdx = coreIdx / blocksAlongN;
        uint32_t nIdx = coreIdx % blocksAlongN;
        mOffset = mIdx * c.singleCoreM;
        nOffset = nIdx * c.singleCoreN;
        tailM = c.M - mOffset < (uint32_t)c.singleCoreM ? c.M - mOffset : c.singleCoreM;
        tailN = c.N - nOffset < (uint32_t)c.singleCoreN ? c.N - nOffset : c.singleCoreN;
        valid = (mOffset < (uint32_t)c.M) && (nOffset < (uint32_t)c.N);

        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + mOffset * c.Ka);
        // W is (N, K) row major: rows nOffset.. belong to this core
        wGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(w) + nOffset * c.Kb);
        biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias) + nOffset);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + mOffset * c.N + nOffset);

        uint32_t blockElems = c.baseM * c.baseN;
        pipe->InitBuffer(mmOutQueue, 1, blockElems * sizeof(float));
        pipe->InitBuffer(actOutQueue, 1, blockElems * sizeof(float));
        pipe->InitBuffer(erfTmp, blockElems * sizeof(float));
    }

    template <typename MM>
    __aicore__ inline void Process(MM &mm)
    {
        if (!valid) {
            return;
        }
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(tailM, tailN);

        uint32_t iter = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> blk = mmOutQueue.AllocTensor<float>();
            mm.template GetTensorC<true>(blk, false, true);
            mmOutQueue.EnQue(blk);
            Activate();
            WriteBlock(iter);
            ++iter;
        }
        mm.End();
    }

private:
    __aicore__ inline void Activate()
    {
        const TCubeTiling &c = tiling.cube;
        uint32_t cnt = c.baseM * c.baseN;
        LocalTensor<float> v = mmOutQueue.DeQue<float>();
        LocalTensor<float> out = actOutQueue.AllocTensor<float>();
        LocalTensor<float> e = erfTmp.Get<float>();

        // v <- v / divisor
        Muls(v, v, tiling.invDiv, cnt);
        // e <- erf(v / sqrt(2))
        Muls(e, v, 0.70710678118654752f, cnt);
        Erf(e, e, cnt);
        // out <- 0.5 * v * (1 + e)
        Adds(e, e, 1.0f, cnt);
        Mul(out, v, e, cnt);
        Muls(out, out, 0.5f, cnt);

        actOutQueue.EnQue(out);
        mmOutQueue.FreeTensor(v);
    }

    __aicore__ inline void WriteBlock(uint32_t iter)
    {
        const TCubeTiling &c = tiling.cube;
        // iteration order of the Matmul API is row major over base blocks (iterateOrder = 0)
        uint32_t nBlocks = (tailN + c.baseN - 1) / c.baseN;
        uint32_t rowBlk = iter / nBlocks;
        uint32_t colBlk = iter % nBlocks;
        uint32_t rows = tailM - rowBlk * c.baseM;
        rows = rows > (uint32_t)c.baseM ? c.baseM : rows;
        uint32_t cols = tailN - colBlk * c.baseN;
        cols = cols > (uint32_t)c.baseN ? c.baseN : cols;

        LocalTensor<float> out = actOutQueue.DeQue<float>();
        DataCopyExtParams cp;
        cp.blockCount = rows;
        cp.blockLen = cols * sizeof(float);
        cp.srcStride = (c.baseN - cols) * sizeof(float) / 32;
        cp.dstStride = (c.N - cols) * sizeof(float);
        DataCopyPad(yGm[rowBlk * c.baseM * c.N + colBlk * c.baseN], out, cp);
        actOutQueue.FreeTensor(out);
    }

private:
    TPipe *pipe = nullptr;
    DenseScaledGeluTiling tiling;
    TQue<QuePosition::VECIN, 1> mmOutQueue;
    TQue<QuePosition::VECOUT, 1> actOutQueue;
    TBuf<TPosition::VECCALC> erfTmp;
    GlobalTensor<float> xGm, wGm, biasGm, yGm;
    uint32_t mOffset = 0, nOffset = 0, tailM = 0, tailN = 0;
    bool valid = true;
};

extern "C" __global__ __aicore__ void dense_scaled_gelu(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    DenseScaledGeluTiling t;
    CopyTiling(&t, tiling);

    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.cube);

    DenseScaledGelu op;
    op.Init(x, w, bias, y, workspace, t, &pipe);
    op.Process(mm);
}
