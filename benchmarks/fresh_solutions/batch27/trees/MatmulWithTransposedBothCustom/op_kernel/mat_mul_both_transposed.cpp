/**
 * @file mat_mul_both_transposed.cpp
 * @brief Kernel of MatMulBothTransposed: c[M, N] = a[K, M]^T x b[N, K]^T on the Cube unit.
 *
 * The Matmul high-level API is configured with isTrans = true for both operands, so the MTE
 * path loads a and b straight from their stored layouts and the cube sees A = a^T, B = b^T.
 * Each AIV block owns a singleCoreM x singleCoreN tile of c; accumulation is done in fp32 in
 * L0C and the result is written back once per tile.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename InT, typename OutT>
class MatMulBothTransposedKernel {
public:
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, InT, true>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, InT, true>;
    using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, OutT>;
    using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline MatMulBothTransposedKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& tiling)
    {
        tiling_ = tiling;
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ InT*>(a), static_cast<uint64_t>(tiling.Ka) * tiling.M);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ InT*>(b), static_cast<uint64_t>(tiling.N) * tiling.Kb);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ OutT*>(c), static_cast<uint64_t>(tiling.M) * tiling.N);
    }

    __aicore__ inline void Process()
    {
        const int32_t blockIdx = static_cast<int32_t>(GetBlockIdx());
        if (blockIdx >= tiling_.usedCoreNum) {
            return;
        }
        const int32_t mBlocks = CeilDiv(tiling_.M, tiling_.singleCoreM);
        const int32_t mIdx = blockIdx % mBlocks;
        const int32_t nIdx = blockIdx / mBlocks;
        const int32_t mStart = mIdx * tiling_.singleCoreM;
        const int32_t nStart = nIdx * tiling_.singleCoreN;
        if (mStart >= tiling_.M || nStart >= tiling_.N) {
            return;
        }
        const int32_t tailM = Min(tiling_.M - mStart, tiling_.singleCoreM);
        const int32_t tailN = Min(tiling_.N - nStart, tiling_.singleCoreN);

        // a is stored [K, M]: rows of A = columns of a -> the tile starts at column mStart.
        const uint64_t aOffset = static_cast<uint64_t>(mStart);
        // b is stored [N, K]: columns of B = rows of b -> the tile starts at row nStart.
        const uint64_t bOffset = static_cast<uint64_t>(nStart) * tiling_.Kb;
        const uint64_t cOffset = static_cast<uint64_t>(mStart) * tiling_.N + nStart;

        mm.SetTensorA(aGm_[aOffset], true);
        mm.SetTensorB(bGm_[bOffset], true);
        mm.SetTail(tailM, tailN, tiling_.Ka);
        mm.IterateAll(cGm_[cOffset]);
        mm.End();
    }

    matmul::Matmul<AType, BType, CType, BiasType> mm;

private:
    __aicore__ inline int32_t CeilDiv(int32_t a, int32_t b) const { return (a + b - 1) / b; }
    __aicore__ inline int32_t Min(int32_t a, int32_t b) const { return a < b ? a : b; }

    TCubeTiling tiling_;
    GlobalTensor<InT> aGm_;
    GlobalTensor<InT> bGm_;
    GlobalTensor<OutT> cGm_;
};

extern "C" __global__ __aicore__ void mat_mul_both_transposed(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                              GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (workspace == nullptr) {
        return;
    }
    SetSysWorkspace(workspace);
    TPipe pipe;
    MatMulBothTransposedKernel<DTYPE_A, DTYPE_C> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTiling);
    op.Init(a, b, c, tilingData.cubeTiling);
    op.Process();
}
