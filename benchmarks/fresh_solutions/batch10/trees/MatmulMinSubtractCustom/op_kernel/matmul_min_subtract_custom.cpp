#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t MinU32(uint32_t a, uint32_t b) { return a < b ? a : b; }

// y = min(x @ W^T + b, c) - c
// The cube unit produces baseM x baseN blocks of x @ W^T + b into UB; the vector
// unit applies the epilogue on each block before it is written back to GM.
class MatmulMinSubtractKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline MatmulMinSubtractKernel() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling& tiling, float constant, TPipe* pipeIn)
    {
        this->tiling = tiling;
        this->pipe = pipeIn;
        this->constant = constant;
        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx >= static_cast<uint32_t>(tiling.usedCoreNum)) {
            return false;
        }

        // which (M, N) tile of the output this core owns
        uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        uint32_t mIdx = blockIdx % mBlocks;
        uint32_t nIdx = blockIdx / mBlocks;
        rowStart = mIdx * tiling.singleCoreM;
        colStart = nIdx * tiling.singleCoreN;
        curM = MinU32(tiling.singleCoreM, tiling.M - rowStart);
        curN = MinU32(tiling.singleCoreN, tiling.N - colStart);

        xGm.SetGlobalBuffer((__gm__ float*)x + (uint64_t)rowStart * tiling.Ka);
        // weight is [N, K]; the transposed B view starts at row colStart
        wGm.SetGlobalBuffer((__gm__ float*)w + (uint64_t)colStart * tiling.Kb);
        biasGm.SetGlobalBuffer((__gm__ float*)bias + colStart);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe->InitBuffer(outQueue, 1, tiling.baseM * tiling.baseN * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTail(curM, curN, tiling.Ka);
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);

        uint32_t mRounds = CeilDiv(curM, tiling.baseM);
        uint32_t round = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> cLocal = outQueue.AllocTensor<float>();
            mm.template GetTensorC<true>(cLocal, false, true);

            // epilogue on the whole base block (padding lanes are ignored on store)
            uint32_t blockElems = tiling.baseM * tiling.baseN;
            Mins(cLocal, cLocal, constant, blockElems);
            Adds(cLocal, cLocal, -constant, blockElems);
            outQueue.EnQue(cLocal);

            CopyOut(round, mRounds);
            ++round;
        }
        mm.End();
    }

private:
    // default iterate order walks M first, then N
    __aicore__ inline void CopyOut(uint32_t round, uint32_t mRounds)
    {
        LocalTensor<float> cLocal = outQueue.DeQue<float>();
        uint32_t mOff = (round % mRounds) * tiling.baseM;
        uint32_t nOff = (round / mRounds) * tiling.baseN;
        uint32_t rows = MinU32(tiling.baseM, curM - mOff);
        uint32_t cols = MinU32(tiling.baseN, curN - nOff);

        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * sizeof(float);
        cp.srcStride = (tiling.baseN - cols) * sizeof(float) / 32;
        cp.dstStride = (tiling.N - cols) * sizeof(float);
        cp.rsv = 0;
        uint64_t dst = (uint64_t)(rowStart + mOff) * tiling.N + colStart + nOff;
        DataCopyPad(yGm[dst], cLocal, cp);
        outQueue.FreeTensor(cLocal);
    }

public:
    Matmul<AType, BType, CType, BiasType> mm;

private:
    TPipe* pipe = nullptr;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, wGm, biasGm, yGm;
    TCubeTiling tiling;
    float constant;
    uint32_t rowStart, colStart, curM, curN;
};

extern "C" __global__ __aicore__ void matmul_min_subtract_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MatmulMinSubtractKernel op;
    TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    if (!op.Init(x, weight, bias, y, tilingData.cubeTilingData, tilingData.constant, &pipe)) {
        return;
    }
    op.Process();
}
