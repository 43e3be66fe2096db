// NarrowKMatmul kernel: C = A * B with a short reduction axis.
// Runs on the cube cores only; each core owns one singleCoreM x singleCoreN slab of C
// and streams it with IterateAll. K fits in a single base block, so every output block
// is one L0A/L0B load + one mmad + one fixpipe write.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
template <typename T>
struct NarrowKGemm {
    using AT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    matmul::Matmul<AT, BT, CT> mm;
    GlobalTensor<T> aGm, bGm, cGm;

    __aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR c, const NarrowKMatmulTilingData &td, TPipe *pipe)
    {
        const TCubeTiling &t = td.mm;
        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm, &t);

        const uint32_t blk = GetBlockIdx();
        if (blk >= td.mBlocks * td.nBlocks) {
            return;
        }
        const uint32_t mIdx = blk % td.mBlocks;
        const uint32_t nIdx = blk / td.mBlocks;
        const uint64_t M = t.M, N = t.N, K = t.Ka;
        const uint64_t m0 = static_cast<uint64_t>(mIdx) * t.singleCoreM;
        const uint64_t n0 = static_cast<uint64_t>(nIdx) * t.singleCoreN;

        aGm.SetGlobalBuffer((__gm__ T *)a, M * K);
        bGm.SetGlobalBuffer((__gm__ T *)b, K * N);
        cGm.SetGlobalBuffer((__gm__ T *)c, M * N);

        // edge slabs are shorter
        const int32_t mLen = (M - m0) < static_cast<uint64_t>(t.singleCoreM) ? static_cast<int32_t>(M - m0) : t.singleCoreM;
        const int32_t nLen = (N - n0) < static_cast<uint64_t>(t.singleCoreN) ? static_cast<int32_t>(N - n0) : t.singleCoreN;

        mm.SetTensorA(aGm[m0 * K]);
        mm.SetTensorB(bGm[n0]);
        if (mLen != t.singleCoreM || nLen != t.singleCoreN) {
            mm.SetTail(mLen, nLen);
        }
        mm.IterateAll(cGm[m0 * N + n0]);
        mm.End();
    }
};
}  // namespace

extern "C" __global__ __aicore__ void narrow_k_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(td, tiling);
    SetSysWorkspace(workspace);
    TPipe pipe;
    NarrowKGemm<DTYPE_A> gemm;
    gemm.Run(a, b, c, td, &pipe);
}
