#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

// A: (M, K) row major, B: (N, K) row major used as B^T, C: (M, N).
template <typename T>
class MatmulTransBKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;

    __aicore__ inline MatmulTransBKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling)
    {
        cubeTiling = tiling;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), static_cast<uint64_t>(tiling.M) * tiling.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), static_cast<uint64_t>(tiling.N) * tiling.Kb);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), static_cast<uint64_t>(tiling.M) * tiling.N);

        // Work out which (m, n) block of C this core owns.
        uint32_t blockIdx = GetBlockIdx();
        uint32_t mBlocks = CeilDivU(tiling.M, tiling.singleCoreM);
        uint32_t mIdx = blockIdx % mBlocks;
        uint32_t nIdx = blockIdx / mBlocks;

        uint64_t offsetA = static_cast<uint64_t>(mIdx) * tiling.singleCoreM * tiling.Ka;
        // B is stored (N, K): moving singleCoreN rows of B moves singleCoreN columns of B^T.
        uint64_t offsetB = static_cast<uint64_t>(nIdx) * tiling.singleCoreN * tiling.Kb;
        uint64_t offsetC = static_cast<uint64_t>(mIdx) * tiling.singleCoreM * tiling.N +
                           static_cast<uint64_t>(nIdx) * tiling.singleCoreN;

        int32_t remainM = tiling.M - static_cast<int32_t>(mIdx * tiling.singleCoreM);
        int32_t remainN = tiling.N - static_cast<int32_t>(nIdx * tiling.singleCoreN);
        tailM = remainM < tiling.singleCoreM ? remainM : tiling.singleCoreM;
        tailN = remainN < tiling.singleCoreN ? remainN : tiling.singleCoreN;

        aBlock = aGm[offsetA];
        bBlock = bGm[offsetB];
        cBlock = cGm[offsetC];
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        if (tailM <= 0 || tailN <= 0) {
            return;
        }
        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm, &cubeTiling);
        mm.SetTensorA(aBlock);
        mm.SetTensorB(bBlock, true);
        mm.SetTail(tailM, tailN);
        mm.IterateAll(cBlock);
        mm.End();
    }

private:
    Matmul<AType, BType, CType, BiasType> mm;
    TCubeTiling cubeTiling;
    GlobalTensor<T> aGm, bGm, cGm;
    GlobalTensor<T> aBlock, bBlock, cBlock;
    int32_t tailM = 0;
    int32_t tailN = 0;
};

extern "C" __global__ __aicore__ void matmul_with_transposed_b_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() >= tilingData.usedCoreNum) {
        return;
    }
    TPipe pipe;
    MatmulTransBKernel<float> op;
    op.Init(a, b, c, tilingData.cubeTilingData);
    op.Process(&pipe);
}
