// kernel: C = A * B^T via Matmul high-level API, one C block per core
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using aT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using bT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using cT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using biasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class KernelMmTb {
public:
    __aicore__ inline KernelMmTb() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& tl)
    {
        tiling = tl;
        aG.SetGlobalBuffer((__gm__ float*)a, (uint64_t)tl.M * tl.Ka);
        bG.SetGlobalBuffer((__gm__ float*)b, (uint64_t)tl.N * tl.Kb);
        cG.SetGlobalBuffer((__gm__ float*)c, (uint64_t)tl.M * tl.N);
        uint32_t bi = GetBlockIdx();
        uint32_t mb = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
        uint32_t mi = bi % mb;
        uint32_t ni = bi / mb;
        uint64_t offA = (uint64_t)mi * tl.singleCoreM * tl.Ka;
        uint64_t offB = (uint64_t)ni * tl.singleCoreN * tl.Kb;
        uint64_t offC = (uint64_t)mi * tl.singleCoreM * tl.N + (uint64_t)ni * tl.singleCoreN;
        int32_t rm = tl.M - (int32_t)(mi * tl.singleCoreM);
        int32_t rn = tl.N - (int32_t)(ni * tl.singleCoreN);
        tm = rm < tl.singleCoreM ? rm : tl.singleCoreM;
        tn = rn < tl.singleCoreN ? rn : tl.singleCoreN;
        aG = aG[offA];
        bG = bG[offB];
        cG = cG[offC];
    }
    template <class MM>
    __aicore__ inline void Process(MM& mm)
    {
        if (tm <= 0 || tn <= 0) return;
        mm.SetTail(tm, tn);
        mm.SetTensorA(aG);
        mm.SetTensorB(bG, true);
        mm.IterateAll(cG);
        mm.End();
    }

    TPipe pipe;
    TCubeTiling tiling;

private:
    GlobalTensor<float> aG, bG, cG;
    int32_t tm, tn;
};

extern "C" __global__ __aicore__ void matmul_with_transposed_b_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetBlockIdx() >= td.usedCores) return;
    KernelMmTb op;
    Matmul<aT, bT, cT, biasT> mm;
    op.Init(a, b, c, td.cube);
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), mm, &op.tiling);
    op.Process(mm);
}
