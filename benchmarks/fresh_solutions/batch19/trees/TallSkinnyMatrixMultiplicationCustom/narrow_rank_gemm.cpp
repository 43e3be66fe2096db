// narrow_rank_gemm.cpp
//
// C[M, N] = A[M, K] * B[K, N] where the inner dimension K is tiny (32) and M, N are large.
// The product is therefore a low-rank, output-bound GEMM: almost all time is spent writing C.
// The cube unit does the math via the high-level Matmul API; the output is tiled across
// cores in a 2-D grid of (singleCoreM x singleCoreN) blocks computed on the host.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

struct NarrowRankGemmTiling {
    uint32_t M;
    uint32_t N;
    uint32_t K;
    uint32_t reserved;      // keeps the cube tiling 8-byte aligned
    TCubeTiling cube;       // produced by MultiCoreMatmulTiling on the host
};

__aicore__ inline void LoadTiling(NarrowRankGemmTiling &dst, GM_ADDR src)
{
    auto *from = reinterpret_cast<__gm__ uint32_t *>(src);
    auto *to = reinterpret_cast<uint32_t *>(&dst);
    for (uint32_t i = 0; i < sizeof(NarrowRankGemmTiling) / sizeof(uint32_t); ++i) {
        to[i] = from[i];
    }
}

template <typename T>
class NarrowRankGemm {
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    __aicore__ inline NarrowRankGemm() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const NarrowRankGemmTiling &t)
    {
        cube = t.cube;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), (uint64_t)t.M * t.K);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), (uint64_t)t.K * t.N);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), (uint64_t)t.M * t.N);
        PlaceBlock(GetBlockIdx());
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        if (!active) {
            return;
        }
        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm, &cube);
        mm.SetTail(tailM, tailN);
        mm.SetTensorA(aGm[offA]);
        mm.SetTensorB(bGm[offB]);
        // K = 32 fits in one step, IterateAll walks the baseM x baseN fractals of this block
        mm.IterateAll(cGm[offC]);
        mm.End();
    }

private:
    // Locate this core's output block in the (mBlocks x nBlocks) grid.
    __aicore__ inline void PlaceBlock(uint32_t blk)
    {
        uint32_t mBlocks = (cube.M + cube.singleCoreM - 1) / cube.singleCoreM;
        uint32_t nBlocks = (cube.N + cube.singleCoreN - 1) / cube.singleCoreN;
        if (blk >= mBlocks * nBlocks) {
            active = false;
            return;
        }
        uint32_t mi = blk % mBlocks;
        uint32_t ni = blk / mBlocks;
        uint32_t row0 = mi * cube.singleCoreM;
        uint32_t col0 = ni * cube.singleCoreN;

        offA = (uint64_t)row0 * cube.Ka;
        offB = (uint64_t)col0;                       // B is K x N row-major
        offC = (uint64_t)row0 * cube.N + col0;

        tailM = cube.M - row0;
        if (tailM > (uint32_t)cube.singleCoreM) tailM = cube.singleCoreM;
        tailN = cube.N - col0;
        if (tailN > (uint32_t)cube.singleCoreN) tailN = cube.singleCoreN;
        active = true;
    }

    Matmul<AType, BType, CType, BiasType> mm;
    TCubeTiling cube;
    GlobalTensor<T> aGm;
    GlobalTensor<T> bGm;
    GlobalTensor<float> cGm;
    uint64_t offA = 0, offB = 0, offC = 0;
    int32_t tailM = 0, tailN = 0;
    bool active = false;
};

extern "C" __global__ __aicore__ void narrow_rank_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    NarrowRankGemmTiling t;
    LoadTiling(t, tiling);

    TPipe pipe;
    NarrowRankGemm<float> op;
    op.Init(a, b, c, t);
    op.Process(&pipe);
}
