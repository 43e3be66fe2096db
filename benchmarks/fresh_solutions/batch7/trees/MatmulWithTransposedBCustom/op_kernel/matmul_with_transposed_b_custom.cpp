#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

// C(M, N) = A(M, K) * B(N, K)^T, float in / float out.
// Each AIV owns one singleCoreM x singleCoreN block of C and drives the cube through the Matmul API.
template <typename aType, typename bType, typename cType>
class MatmulTransBKernel {
public:
    __aicore__ inline MatmulTransBKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling, uint32_t usedCoreNum)
    {
        this->tiling = tiling;
        this->usedCoreNum = usedCoreNum;
        aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ aType *>(a), tiling.M * tiling.Ka);
        bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ bType *>(b), tiling.N * tiling.Kb);
        cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ cType *>(c), tiling.M * tiling.N);

        blockIdx = AscendC::GetBlockIdx();
        if (blockIdx >= usedCoreNum) {
            return;
        }
        ComputeOffsets(blockIdx);
        aGlobal = aGlobal[offsetA];
        bGlobal = bGlobal[offsetB];
        cGlobal = cGlobal[offsetC];
    }

    __aicore__ inline void Process(AscendC::TPipe *pipe)
    {
        if (blockIdx >= usedCoreNum) {
            return;
        }
        matmulObj.SetTensorA(aGlobal, false);
        matmulObj.SetTensorB(bGlobal, true);   // B is (N, K) in GM -> transposed read
        matmulObj.SetTail(tailM, tailN);
        matmulObj.IterateAll(cGlobal);
        matmulObj.End();
    }

    Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, aType>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, bType, true>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, cType>> matmulObj;

private:
    __aicore__ inline void ComputeOffsets(uint32_t idx)
    {
        uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        uint32_t mIdx = idx % mBlocks;
        uint32_t nIdx = idx / mBlocks;

        offsetA = mIdx * tiling.Ka * tiling.singleCoreM;
        // rows of B correspond to columns of C
        offsetB = nIdx * tiling.Kb * tiling.singleCoreN;
        offsetC = mIdx * tiling.N * tiling.singleCoreM + nIdx * tiling.singleCoreN;

        int32_t restM = tiling.M - mIdx * tiling.singleCoreM;
        int32_t restN = tiling.N - nIdx * tiling.singleCoreN;
        tailM = restM < tiling.singleCoreM ? restM : tiling.singleCoreM;
        tailN = restN < tiling.singleCoreN ? restN : tiling.singleCoreN;
    }

    AscendC::GlobalTensor<aType> aGlobal;
    AscendC::GlobalTensor<bType> bGlobal;
    AscendC::GlobalTensor<cType> cGlobal;
    TCubeTiling tiling;
    uint32_t usedCoreNum = 0;
    uint32_t blockIdx = 0;
    uint64_t offsetA = 0;
    uint64_t offsetB = 0;
    uint64_t offsetC = 0;
    int32_t tailM = 0;
    int32_t tailN = 0;
};

extern "C" __global__ __aicore__ void matmul_with_transposed_b_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    MatmulTransBKernel<float, float, float> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.matmulObj, &tilingData.cubeTilingData);
    op.Init(a, b, c, tilingData.cubeTilingData, tilingData.usedCoreNum);
    op.Process(&pipe);
}
