// TensorDotLastAxis: C[..., n] = sum_k A[..., k] * B[k, n]
// All leading axes of A are contiguous, so A is a row-major (M x K) matrix and
// the op is a single GEMM.  Each cube core owns one singleCoreM x singleCoreN
// tile of C and lets the Matmul high-level API stream K.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class TensorDotLastAxisKernel {
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    __aicore__ inline TensorDotLastAxisKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling)
    {
        tiling_ = tiling;
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), static_cast<uint64_t>(tiling.M) * tiling.Ka);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), static_cast<uint64_t>(tiling.Kb) * tiling.N);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), static_cast<uint64_t>(tiling.M) * tiling.N);
    }

    template <class MM>
    __aicore__ inline void Process(MM &mm)
    {
        uint32_t mTiles = Ceil(tiling_.M, tiling_.singleCoreM);
        uint32_t nTiles = Ceil(tiling_.N, tiling_.singleCoreN);
        uint32_t tiles = mTiles * nTiles;
        // more tiles than cores is possible when the API chose smaller tiles
        for (uint32_t tile = GetBlockIdx(); tile < tiles; tile += GetBlockNum()) {
            uint32_t mi = tile % mTiles;
            uint32_t ni = tile / mTiles;
            uint32_t rowBase = mi * tiling_.singleCoreM;
            uint32_t colBase = ni * tiling_.singleCoreN;
            int32_t curM = tiling_.M - rowBase < static_cast<uint32_t>(tiling_.singleCoreM)
                               ? tiling_.M - rowBase : tiling_.singleCoreM;
            int32_t curN = tiling_.N - colBase < static_cast<uint32_t>(tiling_.singleCoreN)
                               ? tiling_.N - colBase : tiling_.singleCoreN;

            mm.SetTensorA(aGm_[static_cast<uint64_t>(rowBase) * tiling_.Ka]);
            mm.SetTensorB(bGm_[colBase]);
            mm.SetTail(curM, curN);
            mm.IterateAll(cGm_[static_cast<uint64_t>(rowBase) * tiling_.N + colBase]);
        }
        mm.End();
    }

    using Mm = Matmul<AType, BType, CType, BiasType>;

private:
    __aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

    TCubeTiling tiling_;
    GlobalTensor<T> aGm_, bGm_, cGm_;
};

extern "C" __global__ __aicore__ void tensor_dot_last_axis(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                           GM_ADDR tilingGm)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(tilingData, tilingGm);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    TPipe pipe;
    TensorDotLastAxisKernel<DTYPE_A> op;
    typename TensorDotLastAxisKernel<DTYPE_A>::Mm mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tilingData.mm);
    op.Init(a, b, c, tilingData.mm);
    op.Process(mm);
}
