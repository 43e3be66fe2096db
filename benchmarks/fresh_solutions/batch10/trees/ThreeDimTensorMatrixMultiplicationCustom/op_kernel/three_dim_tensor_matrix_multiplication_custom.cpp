#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using A_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using B_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using C_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BIAS_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

// Plain GEMM: C[R, L] = A[R, K] * B[K, L], R = N * M.
// Each core computes one singleCoreM x singleCoreN tile of C with IterateAll.
template <typename T>
class TensorMatrixMatmul {
public:
    __aicore__ inline TensorMatrixMatmul() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& t)
    {
        tiling = t;
        uint32_t idx = GetBlockIdx();
        uint32_t mTiles = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
        uint32_t mIdx = idx % mTiles;
        uint32_t nIdx = idx / mTiles;

        uint32_t m0 = mIdx * tiling.singleCoreM;
        uint32_t n0 = nIdx * tiling.singleCoreN;
        tailM = tiling.M - m0;
        tailN = tiling.N - n0;
        if (tailM > static_cast<uint32_t>(tiling.singleCoreM)) tailM = tiling.singleCoreM;
        if (tailN > static_cast<uint32_t>(tiling.singleCoreN)) tailN = tiling.singleCoreN;

        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a) + (uint64_t)m0 * tiling.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b) + n0);                      // column block of B
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(c) + (uint64_t)m0 * tiling.N + n0);
    }

    __aicore__ inline void Process()
    {
        gemm.SetTail(tailM, tailN, tiling.Ka);
        gemm.SetTensorA(aGm);
        gemm.SetTensorB(bGm);
        gemm.IterateAll(cGm);
        gemm.End();
    }

    matmul::Matmul<A_T, B_T, C_T, BIAS_T> gemm;

private:
    GlobalTensor<T> aGm, bGm, cGm;
    TCubeTiling tiling;
    uint32_t tailM = 0;
    uint32_t tailN = 0;
};

extern "C" __global__ __aicore__ void three_dim_tensor_matrix_multiplication_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if (GetBlockIdx() >= static_cast<uint32_t>(tilingData.mm.usedCoreNum)) {
        return;
    }
    TPipe pipe;
    TensorMatrixMatmul<float> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.gemm, &tilingData.mm);
    op.Init(a, b, c, tilingData.mm);
    op.Process();
}
