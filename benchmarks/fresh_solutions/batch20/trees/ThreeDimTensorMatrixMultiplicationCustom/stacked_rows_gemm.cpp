/**
 * stacked_rows_gemm.cpp
 *
 * C[b, m, :] = A[b, m, :] @ W  for a 3-D A of shape [B, M, K] and a shared 2-D W [K, L].
 *
 * Because W is shared by every batch entry and A is contiguous, the batch dim folds
 * straight into the row dim: the problem is one GEMM of (B*M) x K times K x L.
 * The cube unit does the work through the high-level Matmul API; each core owns
 * one singleCoreM x singleCoreN block of C, with a tail fix-up on the last row/col.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

struct StackedRowsGemmTiling {
    uint32_t batch;        // B
    uint32_t rowsPerBatch; // M
    uint32_t usedCores;    // blocks that own a piece of C
    uint32_t reserved;
    TCubeTiling cube;      // produced on the host by MultiCoreMatmulTiling
};

__aicore__ inline void LoadTiling(StackedRowsGemmTiling *dst, GM_ADDR src)
{
    auto d = reinterpret_cast<uint32_t *>(dst);
    auto s = reinterpret_cast<__gm__ uint32_t *>(src);
    for (uint32_t i = 0; i < sizeof(StackedRowsGemmTiling) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

template <typename T>
class StackedRowsGemm {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    Matmul<AType, BType, CType, BiasType> mm;
    TCubeTiling cube;

    __aicore__ inline StackedRowsGemm() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR w, GM_ADDR c, const StackedRowsGemmTiling &t)
    {
        cube = t.cube;
        usedCores = t.usedCores;
        // M here is already B * rowsPerBatch (set that way on the host)
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), (uint64_t)cube.M * cube.Ka);
        wGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(w), (uint64_t)cube.Kb * cube.N);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), (uint64_t)cube.M * cube.N);
    }

    __aicore__ inline void Process()
    {
        uint32_t blk = GetBlockIdx();
        if (blk >= usedCores) {
            return;
        }
        uint32_t mBlocks = CeilDivU(cube.M, cube.singleCoreM);
        uint32_t mIdx = blk % mBlocks;
        uint32_t nIdx = blk / mBlocks;

        uint64_t rowStart = (uint64_t)mIdx * cube.singleCoreM;
        uint64_t colStart = (uint64_t)nIdx * cube.singleCoreN;
        if (rowStart >= (uint64_t)cube.M || colStart >= (uint64_t)cube.N) {
            return;
        }

        int32_t rows = cube.M - rowStart < (uint64_t)cube.singleCoreM ? (int32_t)(cube.M - rowStart) : cube.singleCoreM;
        int32_t cols = cube.N - colStart < (uint64_t)cube.singleCoreN ? (int32_t)(cube.N - colStart) : cube.singleCoreN;

        mm.SetTensorA(aGm[rowStart * cube.Ka]);
        mm.SetTensorB(wGm[colStart]);
        if (rows != cube.singleCoreM || cols != cube.singleCoreN) {
            mm.SetTail(rows, cols);
        }
        mm.IterateAll(cGm[rowStart * cube.N + colStart]);
        mm.End();
    }

private:
    GlobalTensor<T> aGm;
    GlobalTensor<T> wGm;
    GlobalTensor<float> cGm;
    uint32_t usedCores = 0;
};

extern "C" __global__ __aicore__ void stacked_rows_gemm(GM_ADDR a, GM_ADDR w, GM_ADDR c, GM_ADDR workspace,
                                                        GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    StackedRowsGemmTiling t;
    LoadTiling(&t, tiling);

    StackedRowsGemm<float> op;
    op.Init(a, w, c, t);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &op.cube);
    op.Process();
}
