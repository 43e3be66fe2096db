// ThinInnerGemm kernel: plain C = A * B through the cube Matmul high-level API.
// Each cube core owns one singleCoreM x singleCoreN block of C. Because K is small, the whole
// reduction fits in one L1 load per block and the cost is dominated by streaming C out.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class ThinInnerGemmKernel {
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    __aicore__ inline ThinInnerGemmKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &t)
    {
        tiling_ = t;
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), static_cast<uint64_t>(t.M) * t.Ka);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), static_cast<uint64_t>(t.Kb) * t.N);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), static_cast<uint64_t>(t.M) * t.N);
        LocateBlock();
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        if (tailM_ <= 0 || tailN_ <= 0) {
            return;
        }
        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm_, &tiling_);
        mm_.SetTensorA(aGm_[offA_]);
        mm_.SetTensorB(bGm_[offB_]);
        mm_.SetTail(tailM_, tailN_);
        mm_.IterateAll(cGm_[offC_]);
        mm_.End();
    }

private:
    __aicore__ inline void LocateBlock()
    {
        const uint32_t blk = GetBlockIdx();
        const uint32_t mBlocks = (tiling_.M + tiling_.singleCoreM - 1) / tiling_.singleCoreM;
        const uint32_t mIdx = blk % mBlocks;
        const uint32_t nIdx = blk / mBlocks;

        offA_ = static_cast<uint64_t>(mIdx) * tiling_.singleCoreM * tiling_.Ka;
        offB_ = static_cast<uint64_t>(nIdx) * tiling_.singleCoreN;
        offC_ = static_cast<uint64_t>(mIdx) * tiling_.singleCoreM * tiling_.N +
                static_cast<uint64_t>(nIdx) * tiling_.singleCoreN;

        // last row/column blocks may be partial
        tailM_ = tiling_.M - static_cast<int32_t>(mIdx) * tiling_.singleCoreM;
        tailM_ = tailM_ < tiling_.singleCoreM ? tailM_ : tiling_.singleCoreM;
        tailN_ = tiling_.N - static_cast<int32_t>(nIdx) * tiling_.singleCoreN;
        tailN_ = tailN_ < tiling_.singleCoreN ? tailN_ : tiling_.singleCoreN;
    }

    Matmul<AType, BType, CType, BiasType> mm_;
    TCubeTiling tiling_;
    GlobalTensor<T> aGm_, bGm_, cGm_;
    uint64_t offA_ = 0, offB_ = 0, offC_ = 0;
    int32_t tailM_ = 0, tailN_ = 0;
};

extern "C" __global__ __aicore__ void thin_inner_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    ThinInnerGemmKernel<DTYPE_A> op;
    op.Init(a, b, c, td.mmTiling);
    op.Process(&pipe);
}
