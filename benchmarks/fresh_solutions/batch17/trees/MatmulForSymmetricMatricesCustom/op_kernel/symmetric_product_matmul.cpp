/*
 * SymmetricProductMatmul: C = A * B for square N x N operands where B is symmetric.
 *
 * The product itself is a dense GEMM on the cube unit (Matmul high-level API, one
 * (singleCoreM x singleCoreN) block of C per AIV/AIC pair). Symmetry is used on the
 * load side only: B == B^T, so B can be handed to the cube as a transposed operand
 * (tiling key 2). Then both A and "B^T" are read along K in contiguous rows.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T, bool B_TRANS>
class SymmetricProductMatmulKernel {
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, B_TRANS>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    __aicore__ inline SymmetricProductMatmulKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling *cube, uint32_t n)
    {
        n_ = n;
        cube_ = cube;
        uint64_t total = static_cast<uint64_t>(n) * n;
        aGm_.SetGlobalBuffer((__gm__ T *)a, total);
        bGm_.SetGlobalBuffer((__gm__ T *)b, total);
        cGm_.SetGlobalBuffer((__gm__ T *)c, total);
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm_, cube_);
        uint32_t blk = GetBlockIdx();
        if (blk >= static_cast<uint32_t>(cube_->usedCoreNum)) {
            return;
        }
        // block coordinates of this core inside C
        uint32_t blocksAlongM = (static_cast<uint32_t>(cube_->M) + cube_->singleCoreM - 1) / cube_->singleCoreM;
        uint32_t row0 = (blk % blocksAlongM) * cube_->singleCoreM;
        uint32_t col0 = (blk / blocksAlongM) * cube_->singleCoreN;
        if (row0 >= n_ || col0 >= n_) {
            return;
        }
        int32_t rows = static_cast<int32_t>(n_ - row0);
        int32_t cols = static_cast<int32_t>(n_ - col0);
        rows = rows < cube_->singleCoreM ? rows : cube_->singleCoreM;
        cols = cols < cube_->singleCoreN ? cols : cube_->singleCoreN;

        mm_.SetTensorA(aGm_[static_cast<uint64_t>(row0) * n_]);
        if constexpr (B_TRANS) {
            // rows col0.. of B are columns col0.. of B (symmetry), i.e. a K-contiguous B^T slice
            mm_.SetTensorB(bGm_[static_cast<uint64_t>(col0) * n_], true);
        } else {
            mm_.SetTensorB(bGm_[col0]);
        }
        mm_.SetTail(rows, cols);
        mm_.IterateAll(cGm_[static_cast<uint64_t>(row0) * n_ + col0]);
        mm_.End();
    }

private:
    Matmul<AType, BType, CType, BiasType> mm_;
    GlobalTensor<T> aGm_, bGm_, cGm_;
    const TCubeTiling *cube_ = nullptr;
    uint32_t n_ = 0;
};

extern "C" __global__ __aicore__ void symmetric_product_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    if (GetUserWorkspace(workspace) == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    if (TILING_KEY_IS(2)) {
        SymmetricProductMatmulKernel<DTYPE_A, true> op;
        op.Init(a, b, c, &td.cube, td.dim);
        op.Process(&pipe);
    } else if (TILING_KEY_IS(1)) {
        SymmetricProductMatmulKernel<DTYPE_A, false> op;
        op.Init(a, b, c, &td.cube, td.dim);
        op.Process(&pipe);
    }
}
