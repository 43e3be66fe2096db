/*
 * GemmBothTransposed: c = a^T * b^T
 *   a : (K, M), b : (N, K), c : (M, N), row-major ND.
 * The output is cut into singleCoreM x singleCoreN slabs, one per core; every core
 * drives the cube unit through the Matmul high-level API and lets IterateAll write the
 * slab straight to GM. The transposes cost nothing extra: the matmul engine reads the operands
 * transposed while moving them into L1 (isTrans flags).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class GemmBothTransposedKernel {
public:
    using A_T = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using B_T = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using C_T = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using Bias_T = MatmulType<TPosition::GM, CubeFormat::ND, T>;

    __aicore__ inline GemmBothTransposedKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const GemmBothTransposedTilingData &td)
    {
        tile = td.cube;
        mBlocks = td.mBlocks;
        nBlocks = td.nBlocks;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), static_cast<uint64_t>(tile.M) * tile.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), static_cast<uint64_t>(tile.Kb) * tile.N);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), static_cast<uint64_t>(tile.M) * tile.N);
    }

    __aicore__ inline void Process()
    {
        uint32_t idx = GetBlockIdx();
        if (idx >= mBlocks * nBlocks) {
            return;   // more cores than output slabs
        }
        uint32_t mIdx = idx % mBlocks;
        uint32_t nIdx = idx / mBlocks;

        int32_t tailM = tile.M - static_cast<int32_t>(mIdx) * tile.singleCoreM;
        int32_t tailN = tile.N - static_cast<int32_t>(nIdx) * tile.singleCoreN;
        tailM = tailM < tile.singleCoreM ? tailM : tile.singleCoreM;
        tailN = tailN < tile.singleCoreN ? tailN : tile.singleCoreN;

        // slab origins inside the stored (possibly transposed) operands
        uint64_t offA = mIdx * tile.singleCoreM;
        uint64_t offB = static_cast<uint64_t>(nIdx) * tile.singleCoreN * tile.Kb;
        uint64_t offC = static_cast<uint64_t>(mIdx) * tile.singleCoreM * tile.N +
                        static_cast<uint64_t>(nIdx) * tile.singleCoreN;

        mm.SetTensorA(aGm[offA], true);
        mm.SetTensorB(bGm[offB], true);
        mm.SetTail(tailM, tailN);
        mm.IterateAll(cGm[offC]);
        mm.End();
    }

    Matmul<A_T, B_T, C_T, Bias_T> mm;

private:
    GlobalTensor<T> aGm, bGm, cGm;
    TCubeTiling tile;
    uint32_t mBlocks = 0, nBlocks = 0;
};

extern "C" __global__ __aicore__ void gemm_both_transposed(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    GemmBothTransposedKernel<DTYPE_A> kernel;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), kernel.mm, &tilingData.cube);
    kernel.Init(a, b, c, tilingData);
    kernel.Process();
}
