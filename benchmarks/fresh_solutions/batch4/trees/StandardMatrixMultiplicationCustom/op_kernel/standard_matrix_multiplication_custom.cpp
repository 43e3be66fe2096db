#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// Plain C = A @ B. The output is cut into singleCoreM x singleCoreN patches, one per
// core; inside a patch the matmul API walks baseM x baseN x baseK blocks through
// L1 / L0 and writes the finished patch straight back to GM.

__aicore__ inline uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

template <typename MM>
__aicore__ inline void run_patch(MM &mm, const TCubeTiling &t, uint32_t m_blks, uint32_t n_blks,
                                 GlobalTensor<float> &a_gm, GlobalTensor<float> &b_gm, GlobalTensor<float> &c_gm)
{
    uint32_t blk = GetBlockIdx();
    if (blk >= m_blks * n_blks) {
        return;
    }
    uint32_t mi = blk % m_blks;
    uint32_t ni = blk / m_blks;
    uint32_t row0 = mi * t.singleCoreM;
    uint32_t col0 = ni * t.singleCoreN;
    uint32_t rows = min_u32(t.singleCoreM, t.M - row0);
    uint32_t cols = min_u32(t.singleCoreN, t.N - col0);

    mm.SetTensorA(a_gm[static_cast<uint64_t>(row0) * t.Ka]);
    mm.SetTensorB(b_gm[col0]);
    if (rows != static_cast<uint32_t>(t.singleCoreM) || cols != static_cast<uint32_t>(t.singleCoreN)) {
        mm.SetTail(rows, cols);
    }
    mm.IterateAll(c_gm[static_cast<uint64_t>(row0) * t.N + col0]);
    mm.End();
}

extern "C" __global__ __aicore__ void standard_matrix_multiplication_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }

    const TCubeTiling &t = td.mm;
    GlobalTensor<float> a_gm, b_gm, c_gm;
    a_gm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a), static_cast<uint64_t>(t.M) * t.Ka);
    b_gm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b), static_cast<uint64_t>(t.Kb) * t.N);
    c_gm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), static_cast<uint64_t>(t.M) * t.N);

    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.mm);
    run_patch(mm, t, td.m_blks, td.n_blks, a_gm, b_gm, c_gm);
}
