// PlainGemm kernel: C = op(A) * op(B) on the cube unit through the high level Matmul API.
// Each AI core owns one singleCoreM x singleCoreN block of C (tail blocks shrink via SetTail)
// and iterates over the full K dimension.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class PlainGemmKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline PlainGemmKernel() {}

    __aicore__ inline bool Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling, bool transA,
                                bool transB)
    {
        tl = &tiling;
        tA = transA;
        tB = transB;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), static_cast<uint64_t>(tiling.M) * tiling.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), static_cast<uint64_t>(tiling.Kb) * tiling.N);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), static_cast<uint64_t>(tiling.M) * tiling.N);

        const uint32_t mBlocks = CeilDivU(tiling.M, tiling.singleCoreM);
        const uint32_t nBlocks = CeilDivU(tiling.N, tiling.singleCoreN);
        const uint32_t blk = GetBlockIdx();
        if (blk >= mBlocks * nBlocks) {
            return false;     // more cores launched than blocks
        }
        const uint32_t mIdx = blk % mBlocks;
        const uint32_t nIdx = blk / mBlocks;
        const uint64_t m0 = static_cast<uint64_t>(mIdx) * tiling.singleCoreM;
        const uint64_t n0 = static_cast<uint64_t>(nIdx) * tiling.singleCoreN;

        // A is (M, K) row-major, or (K, M) when transposed; likewise for B.
        offA = tA ? m0 : m0 * tiling.Ka;
        offB = tB ? n0 * tiling.Kb : n0;
        offC = m0 * tiling.N + n0;

        tailM = tiling.M - static_cast<int32_t>(m0);
        tailM = tailM < tiling.singleCoreM ? tailM : tiling.singleCoreM;
        tailN = tiling.N - static_cast<int32_t>(n0);
        tailN = tailN < tiling.singleCoreN ? tailN : tiling.singleCoreN;
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(aGm[offA], tA);
        mm.SetTensorB(bGm[offB], tB);
        mm.SetTail(tailM, tailN);
        mm.IterateAll(cGm[offC]);
        mm.End();
    }

    Matmul<AType, BType, CType, BiasType> mm;

private:
    __aicore__ inline uint32_t CeilDivU(int32_t a, int32_t b) { return static_cast<uint32_t>((a + b - 1) / b); }

    const TCubeTiling *tl = nullptr;
    GlobalTensor<T> aGm, bGm, cGm;
    uint64_t offA = 0, offB = 0, offC = 0;
    int32_t tailM = 0, tailN = 0;
    bool tA = false, tB = false;
};

extern "C" __global__ __aicore__ void plain_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    TPipe pipe;
    PlainGemmKernel<DTYPE_A> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mmTiling);
    if (!op.Init(a, b, c, td.mmTiling, td.transA != 0, td.transB != 0)) {
        return;
    }
    op.Process();
}
