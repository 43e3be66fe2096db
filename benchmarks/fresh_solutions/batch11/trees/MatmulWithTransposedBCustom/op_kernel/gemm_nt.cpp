#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// C[M, N] = A[M, K] * B[N, K]^T. Each core owns one singleCoreM x singleCoreN block of C.
template <typename T>
class GemmNtKernel {
public:
    using A_T = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using B_T = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using C_T = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<A_T, B_T, C_T, C_T> mm;

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &t, uint32_t used)
    {
        tiling = &t;
        usedCores = used;
        aGm.SetGlobalBuffer((__gm__ T *)a, (uint64_t)t.M * t.Ka);
        bGm.SetGlobalBuffer((__gm__ T *)b, (uint64_t)t.N * t.Kb);
        cGm.SetGlobalBuffer((__gm__ T *)c, (uint64_t)t.M * t.N);
    }

    __aicore__ inline void Process()
    {
        uint32_t idx = GetBlockIdx();
        if (idx >= usedCores) {
            return;
        }
        const uint32_t mBlocks = Ceil(tiling->M, tiling->singleCoreM);
        const uint32_t mIdx = idx % mBlocks;
        const uint32_t nIdx = idx / mBlocks;
        const int32_t mOff = mIdx * tiling->singleCoreM;
        const int32_t nOff = nIdx * tiling->singleCoreN;
        int32_t curM = tiling->M - mOff;
        int32_t curN = tiling->N - nOff;
        curM = curM < tiling->singleCoreM ? curM : tiling->singleCoreM;
        curN = curN < tiling->singleCoreN ? curN : tiling->singleCoreN;

        mm.SetTail(curM, curN);
        mm.SetTensorA(aGm[(uint64_t)mOff * tiling->Ka]);
        // B rows are output columns; the block for nOff starts at row nOff of B.
        mm.SetTensorB(bGm[(uint64_t)nOff * tiling->Kb], true);
        mm.IterateAll(cGm[(uint64_t)mOff * tiling->N + nOff]);
        mm.End();
    }

private:
    const TCubeTiling *tiling = nullptr;
    uint32_t usedCores = 0;
    GlobalTensor<T> aGm, bGm, cGm;
};

extern "C" __global__ __aicore__ void gemm_nt(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetUserWorkspace(workspace) == nullptr) {
        return;
    }
    TPipe pipe;
    if (TILING_KEY_IS(0)) {
        GemmNtKernel<float> op;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
        op.Init(a, b, c, td.cube, td.usedCoreNum);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        GemmNtKernel<half> op;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
        op.Init(a, b, c, td.cube, td.usedCoreNum);
        op.Process();
    }
}
