#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// y = swish(x @ W^T + b) * scale,   swish(z) = z * sigmoid(z)
// The cube produces baseM x baseN blocks into UB (VECIN); the vector unit applies the
// epilogue on each block and writes it back, so the pre-activation never touches GM.
class MatmulSwishScalingKernel {
public:
    __aicore__ inline MatmulSwishScalingKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const MatmulSwishScalingCustomTilingData &td, TPipe *pipe)
    {
        tiling = td.cubeTilingData;
        scale = td.scalingFactor;
        usedCores = td.usedCoreNum;
        blockIdx = GetBlockIdx();

        xGm.SetGlobalBuffer((__gm__ float *)x, tiling.M * tiling.Ka);
        wGm.SetGlobalBuffer((__gm__ float *)w, tiling.N * tiling.Kb);
        biasGm.SetGlobalBuffer((__gm__ float *)bias, tiling.N);
        yGm.SetGlobalBuffer((__gm__ float *)y, tiling.M * tiling.N);

        blockElems = tiling.baseM * tiling.baseN;
        pipe->InitBuffer(cQue, 1, blockElems * sizeof(float));
        pipe->InitBuffer(outQue, 2, blockElems * sizeof(float));
        pipe->InitBuffer(sigBuf, blockElems * sizeof(float));
        pipe->InitBuffer(tmpBuf, td.sigmoidTmpSize);

        if (blockIdx >= usedCores) {
            return;
        }
        // locate this core's singleCoreM x singleCoreN tile
        uint32_t mCores = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
        mIdx = blockIdx % mCores;
        nIdx = blockIdx / mCores;
        int32_t remM = tiling.M - (int32_t)(mIdx * tiling.singleCoreM);
        int32_t remN = tiling.N - (int32_t)(nIdx * tiling.singleCoreN);
        coreM = remM < tiling.singleCoreM ? remM : tiling.singleCoreM;
        coreN = remN < tiling.singleCoreN ? remN : tiling.singleCoreN;
    }

    __aicore__ inline void Process()
    {
        if (blockIdx >= usedCores) {
            return;
        }
        uint64_t aOff = (uint64_t)mIdx * tiling.singleCoreM * tiling.Ka;
        uint64_t bOff = (uint64_t)nIdx * tiling.singleCoreN * tiling.Kb;
        matmulObj.SetTensorA(xGm[aOff], false);
        matmulObj.SetTensorB(wGm[bOff], true);
        matmulObj.SetBias(biasGm[nIdx * tiling.singleCoreN]);
        matmulObj.SetTail(coreM, coreN);

        uint32_t mBlocks = (coreM + tiling.baseM - 1) / tiling.baseM;
        uint32_t iter = 0;
        while (matmulObj.template Iterate<true>()) {
            LocalTensor<float> cLocal = cQue.AllocTensor<float>();
            matmulObj.template GetTensorC<true>(cLocal, false, true);
            cQue.EnQue(cLocal);

            // default iterate order walks M first inside the core tile
            uint32_t bm = iter % mBlocks;
            uint32_t bn = iter / mBlocks;
            Epilogue();
            CopyOut(bm, bn);
            ++iter;
        }
        matmulObj.End();
    }

    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float, true>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> matmulObj;

private:
    __aicore__ inline void Epilogue()
    {
        LocalTensor<float> cLocal = cQue.DeQue<float>();
        LocalTensor<float> outLocal = outQue.AllocTensor<float>();
        LocalTensor<float> sig = sigBuf.Get<float>();
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();

        Sigmoid<float, false>(sig, cLocal, tmp, blockElems);
        Mul(outLocal, cLocal, sig, blockElems);
        Muls(outLocal, outLocal, scale, blockElems);

        outQue.EnQue(outLocal);
        cQue.FreeTensor(cLocal);
    }

    __aicore__ inline void CopyOut(uint32_t bm, uint32_t bn)
    {
        LocalTensor<float> outLocal = outQue.DeQue<float>();
        uint32_t rowBase = bm * tiling.baseM;
        uint32_t colBase = bn * tiling.baseN;
        uint32_t rows = (coreM - rowBase) < (uint32_t)tiling.baseM ? (coreM - rowBase) : tiling.baseM;
        uint32_t cols = (coreN - colBase) < (uint32_t)tiling.baseN ? (coreN - colBase) : tiling.baseN;

        uint64_t gmOff = ((uint64_t)mIdx * tiling.singleCoreM + rowBase) * tiling.N +
                         (uint64_t)nIdx * tiling.singleCoreN + colBase;
        DataCopyExtParams p;
        p.blockCount = static_cast<uint16_t>(rows);
        p.blockLen = cols * sizeof(float);
        p.srcStride = (tiling.baseN - cols) * sizeof(float) / 32;   // UB stride in 32B blocks
        p.dstStride = (tiling.N - cols) * sizeof(float);            // GM stride in bytes
        p.rsv = 0;
        DataCopyPad(yGm[gmOff], outLocal, p);
        outQue.FreeTensor(outLocal);
    }

private:
    TCubeTiling tiling;
    GlobalTensor<float> xGm, wGm, biasGm, yGm;
    TQue<QuePosition::VECIN, 1> cQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> sigBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    float scale = 1.0f;
    uint32_t usedCores = 0;
    uint32_t blockIdx = 0;
    uint32_t blockElems = 0;
    uint32_t mIdx = 0, nIdx = 0;
    uint32_t coreM = 0, coreN = 0;
};

extern "C" __global__ __aicore__ void matmul_swish_scaling_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                  GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    MatmulSwishScalingKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.matmulObj, &tilingData.cubeTilingData);
    op.Init(x, weight, bias, y, tilingData, &pipe);
    op.Process();
}
