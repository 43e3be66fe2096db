#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// AlexNet classifier layer: y[M,N] = relu(x[M,K] @ W[N,K]^T + b[N])
// The cube unit produces baseM x baseN blocks of C; each block is pulled into UB,
// ReLU'd on the vector unit and written to its place in y.

using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // weight is [N, K]
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class FcReluKernel {
public:
    __aicore__ inline FcReluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling& t, uint32_t relu)
    {
        tiling = t;
        applyRelu = relu;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)tiling.M * tiling.Ka);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)tiling.N * tiling.Kb);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, tiling.N);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)tiling.M * tiling.N);
    }

    // Locate this core's [singleCoreM x singleCoreN] slice of C.
    __aicore__ inline bool Locate(uint32_t blockIdx)
    {
        if (blockIdx >= (uint32_t)tiling.usedCoreNum) {
            return false;
        }
        uint32_t mSlices = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
        uint32_t mIdx = blockIdx % mSlices;
        uint32_t nIdx = blockIdx / mSlices;

        mStart = mIdx * tiling.singleCoreM;
        nStart = nIdx * tiling.singleCoreN;
        if (mStart >= (uint32_t)tiling.M || nStart >= (uint32_t)tiling.N) {
            return false;
        }
        curM = tiling.M - mStart < tiling.singleCoreM ? tiling.M - mStart : tiling.singleCoreM;
        curN = tiling.N - nStart < tiling.singleCoreN ? tiling.N - nStart : tiling.singleCoreN;
        return true;
    }

    __aicore__ inline void Process(TPipe* pipe)
    {
        pipe->InitBuffer(outQue, 1, tiling.baseM * tiling.baseN * sizeof(float));

        mm.SetTail(curM, curN);
        mm.SetTensorA(xGm[(uint64_t)mStart * tiling.Ka]);
        mm.SetTensorB(wGm[(uint64_t)nStart * tiling.Kb], true);
        mm.SetBias(biasGm[nStart]);

        uint32_t mBlocks = (curM + tiling.baseM - 1) / tiling.baseM;
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> blk = outQue.AllocTensor<float>();
            mm.template GetTensorC<true>(blk, false, true);
            if (applyRelu) {
                Relu(blk, blk, tiling.baseM * tiling.baseN);
            }
            outQue.EnQue(blk);
            StoreBlock(step % mBlocks, step / mBlocks);
            ++step;
        }
        mm.End();
    }

    Matmul<AType, BType, CType, BiasType> mm;
    TCubeTiling tiling;

private:
    __aicore__ inline void StoreBlock(uint32_t mb, uint32_t nb)
    {
        LocalTensor<float> blk = outQue.DeQue<float>();
        uint32_t rowOff = mb * tiling.baseM;
        uint32_t colOff = nb * tiling.baseN;
        uint32_t rows = (curM - rowOff) < (uint32_t)tiling.baseM ? (curM - rowOff) : tiling.baseM;
        uint32_t cols = (curN - colOff) < (uint32_t)tiling.baseN ? (curN - colOff) : tiling.baseN;

        uint64_t dst = (uint64_t)(mStart + rowOff) * tiling.N + nStart + colOff;
        uint32_t colBytes = cols * sizeof(float);
        uint32_t srcGap = (tiling.baseN * sizeof(float) - (colBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{(uint16_t)rows, colBytes, srcGap, (uint32_t)((tiling.N - cols) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], blk, cp);
        outQue.FreeTensor(blk);
    }

    GlobalTensor<float> xGm, wGm, biasGm, yGm;
    TQue<QuePosition::VECIN, 1> outQue;
    uint32_t applyRelu = 1;
    uint32_t mStart = 0, nStart = 0, curM = 0, curN = 0;
};

extern "C" __global__ __aicore__ void alexnet_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    FcReluKernel op;
    op.Init(x, weight, bias, y, tilingData.cubeTiling, tilingData.applyRelu);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &op.tiling);
    if (!op.Locate(GetBlockIdx())) {
        return;
    }
    if (TILING_KEY_IS(1)) {
        op.Process(&pipe);
    }
}
