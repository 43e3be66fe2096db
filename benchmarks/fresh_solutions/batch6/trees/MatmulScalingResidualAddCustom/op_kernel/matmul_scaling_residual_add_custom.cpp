#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t MinU32(uint32_t a, uint32_t b) { return a < b ? a : b; }

// y = z * s + z, z = x @ W^T + b.
// The cube produces one baseM x baseN tile at a time straight into UB (VECIN), the vector unit
// applies the scale + residual on the tile and writes it out. This avoids a second pass over GM.
class KernelMatmulScaleResidual {
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline KernelMatmulScaleResidual() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling& t, float factor, TPipe* pipeIn)
    {
        pipe = pipeIn;
        tiling = t;
        scale = factor;
        uint32_t blockIdx = GetBlockIdx();
        uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        uint32_t nBlocks = CeilDiv(tiling.N, tiling.singleCoreN);
        if (blockIdx >= mBlocks * nBlocks) {
            return false;
        }
        uint32_t mIdx = blockIdx % mBlocks;
        uint32_t nIdx = blockIdx / mBlocks;
        curM = MinU32(tiling.singleCoreM, tiling.M - mIdx * tiling.singleCoreM);
        curN = MinU32(tiling.singleCoreN, tiling.N - nIdx * tiling.singleCoreN);

        uint64_t offA = (uint64_t)mIdx * tiling.singleCoreM * tiling.Ka;
        uint64_t offB = (uint64_t)nIdx * tiling.singleCoreN * tiling.Kb;   // W is [N, K]
        uint64_t offC = (uint64_t)mIdx * tiling.singleCoreM * tiling.N + (uint64_t)nIdx * tiling.singleCoreN;
        uint64_t offBias = (uint64_t)nIdx * tiling.singleCoreN;

        xGm.SetGlobalBuffer((__gm__ float*)x + offA);
        wGm.SetGlobalBuffer((__gm__ float*)w + offB);
        biasGm.SetGlobalBuffer((__gm__ float*)bias + offBias);
        yGm.SetGlobalBuffer((__gm__ float*)y + offC);

        pipe->InitBuffer(cQue, 1, tiling.baseM * tiling.baseN * sizeof(float));
        pipe->InitBuffer(tmpBuf, tiling.baseM * tiling.baseN * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(curM, curN);

        uint32_t roundM = CeilDiv(curM, tiling.baseM);
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> cLocal = cQue.AllocTensor<float>();
            mm.template GetTensorC<true>(cLocal, false, true);
            cQue.EnQue(cLocal);
            Epilogue(step, roundM);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void Epilogue(uint32_t step, uint32_t roundM)
    {
        // tile position inside this core's block (M direction iterates first)
        uint32_t mTile = step % roundM;
        uint32_t nTile = step / roundM;
        uint32_t rows = MinU32(tiling.baseM, curM - mTile * tiling.baseM);
        uint32_t cols = MinU32(tiling.baseN, curN - nTile * tiling.baseN);
        uint32_t tileLen = tiling.baseM * tiling.baseN;

        LocalTensor<float> cLocal = cQue.DeQue<float>();
        LocalTensor<float> scaled = tmpBuf.Get<float>();
        Muls(scaled, cLocal, scale, tileLen);
        Add(cLocal, cLocal, scaled, tileLen);     // x * s + original_x

        event_t evVToMte3 = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(evVToMte3);
        WaitFlag<HardEvent::V_MTE3>(evVToMte3);

        uint64_t dst = (uint64_t)mTile * tiling.baseM * tiling.N + (uint64_t)nTile * tiling.baseN;
        // tile rows are baseN wide in UB; copy only the valid columns of each row
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * sizeof(float);
        cp.srcStride = (tiling.baseN - cols) * sizeof(float) / 32;
        cp.dstStride = (tiling.N - cols) * sizeof(float);
        cp.rsv = 0;
        DataCopyPad(yGm[dst], cLocal, cp);

        event_t evMte3ToV = static_cast<event_t>(pipe->FetchEventID(HardEvent::MTE3_V));
        SetFlag<HardEvent::MTE3_V>(evMte3ToV);
        WaitFlag<HardEvent::MTE3_V>(evMte3ToV);
        cQue.FreeTensor(cLocal);
    }

private:
    TPipe* pipe = nullptr;
    TQue<QuePosition::VECIN, 1> cQue;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, wGm, biasGm, yGm;
    TCubeTiling tiling;
    float scale;
    uint32_t curM, curN;
};

extern "C" __global__ __aicore__ void matmul_scaling_residual_add_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    KernelMatmulScaleResidual op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    if (!op.Init(x, weight, bias, y, tilingData.cubeTilingData, tilingData.scalingFactor, &pipe)) {
        op.mm.End();
        return;
    }
    op.Process();
}
