// kernel: C[b] = A[b] @ B[b], batches (and N halves) spread over cores
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class KBmm {
public:
    Matmul<AType, BType, CType, BiasType> mm;
    __aicore__ inline KBmm() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t batch_, uint32_t workers_, uint32_t split_,
                                const TCubeTiling &tl)
    {
        batch = batch_;
        workers = workers_;
        split = split_;
        M = tl.M;
        N = tl.N;
        K = tl.Ka;
        sn = tl.singleCoreN;
        ag.SetGlobalBuffer((__gm__ float *)a);
        bg.SetGlobalBuffer((__gm__ float *)b);
        cg.SetGlobalBuffer((__gm__ float *)c);
    }
    __aicore__ inline void Process()
    {
        uint32_t id = GetBlockIdx();
        uint32_t jobs = batch * split;
        uint64_t sa = (uint64_t)M * K, sb = (uint64_t)K * N, sc = (uint64_t)M * N;
        if (id < workers) {
            for (uint32_t j = id; j < jobs; j += workers) {
                uint32_t bi = j / split, ni = j % split;
                uint32_t n0 = ni * sn;
                uint32_t tn = (N - n0) < sn ? (N - n0) : sn;
                mm.SetTensorA(ag[bi * sa]);
                mm.SetTensorB(bg[bi * sb + n0]);
                mm.SetTail(M, tn, K);
                mm.IterateAll(cg[bi * sc + n0]);
            }
        }
        mm.End();
    }

private:
    GlobalTensor<float> ag, bg, cg;
    uint32_t batch, workers, split, M, N, K, sn;
};

extern "C" __global__ __aicore__ void batched_matrix_multiplication_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    KBmm op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
    op.Init(a, b, c, td.batch, td.workers, td.splitN, td.cube);
    op.Process();
}
