/*
 * stacked_gemm.cpp
 *
 * C[b] = A[b] x B[b] for a stack of independent row-major matrices
 *   A: [batch, M, K], B: [batch, K, N], C: [batch, M, N]  (float32)
 *
 * The output is cut into work units of (batch index, M block, N block),
 * every unit being one singleCoreM x singleCoreN block computed with the
 * cube Matmul API. Cores walk the unit list with a stride of blockDim, so
 * load stays balanced even when batch is not a multiple of the core count.
 * Pure cube kernel: no vector epilogue.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct StackedGemmTiling {
    uint32_t batch;
    uint32_t mBlocks;   // M / singleCoreM
    uint32_t nBlocks;   // N / singleCoreN
    uint32_t reserved;
    TCubeTiling mm;     // single-core tiling of one unit, org shape = full matrix
};

using MatA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MatB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MatC = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MatBias = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

class StackedGemm {
public:
    __aicore__ inline StackedGemm() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const StackedGemmTiling &t)
    {
        tiling = t;
        aGm.SetGlobalBuffer((__gm__ float *)a);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        cGm.SetGlobalBuffer((__gm__ float *)c);
        const TCubeTiling &mt = tiling.mm;
        strideA = static_cast<uint64_t>(mt.M) * mt.Ka;
        strideB = static_cast<uint64_t>(mt.Kb) * mt.N;
        strideC = static_cast<uint64_t>(mt.M) * mt.N;
    }

    __aicore__ inline void Process(matmul::Matmul<MatA, MatB, MatC, MatBias> &mm)
    {
        const TCubeTiling &mt = tiling.mm;
        uint32_t perBatch = tiling.mBlocks * tiling.nBlocks;
        uint32_t units = tiling.batch * perBatch;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t bi = u / perBatch;
            uint32_t rem = u % perBatch;
            uint32_t mb = rem / tiling.nBlocks;
            uint32_t nb = rem % tiling.nBlocks;

            uint64_t offA = bi * strideA + static_cast<uint64_t>(mb) * mt.singleCoreM * mt.Ka;
            uint64_t offB = bi * strideB + static_cast<uint64_t>(nb) * mt.singleCoreN;
            uint64_t offC = bi * strideC + static_cast<uint64_t>(mb) * mt.singleCoreM * mt.N +
                            static_cast<uint64_t>(nb) * mt.singleCoreN;

            mm.SetTensorA(aGm[offA]);
            mm.SetTensorB(bGm[offB]);
            mm.IterateAll(cGm[offC]);
            mm.End();
        }
    }

private:
    StackedGemmTiling tiling;
    uint64_t strideA = 0, strideB = 0, strideC = 0;
    GlobalTensor<float> aGm, bGm, cGm;
};

extern "C" __global__ __aicore__ void stacked_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                   GM_ADDR tilingGm)
{
    SetSysWorkspace(workspace);
    StackedGemmTiling t;
    {
        auto src = reinterpret_cast<__gm__ int32_t *>(tilingGm);
        auto dst = reinterpret_cast<int32_t *>(&t);
        for (uint32_t i = 0; i < sizeof(StackedGemmTiling) / sizeof(int32_t); ++i) {
            dst[i] = src[i];
        }
    }
    TPipe pipe;
    matmul::Matmul<MatA, MatB, MatC, MatBias> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.mm);

    StackedGemm op;
    op.Init(a, b, c, t);
    op.Process(mm);
}
