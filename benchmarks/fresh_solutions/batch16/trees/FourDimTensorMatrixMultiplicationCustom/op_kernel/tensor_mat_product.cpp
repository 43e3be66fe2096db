// TensorMatProduct kernel: y[M, K] = x[M, L] @ w[L, K], leading axes of x flattened into M.
// Each core computes one singleCoreM x singleCoreN block of y with the Matmul API;
// edge blocks shrink through SetTail.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

template <typename T>
class TensorMatProductKernel {
    using XType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;
    using WType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;
    using YType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;

public:
    Matmul<XType, WType, YType> gemm;

    __aicore__ inline TensorMatProductKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const TensorMatProductTilingData &td)
    {
        cube_ = td.gemm;
        mBlocks_ = td.mBlocks;
        nBlocks_ = td.nBlocks;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), static_cast<uint64_t>(cube_.M) * cube_.Ka);
        wGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(w), static_cast<uint64_t>(cube_.Kb) * cube_.N);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), static_cast<uint64_t>(cube_.M) * cube_.N);
    }

    __aicore__ inline void Process(AscendC::TPipe *pipe)
    {
        (void)pipe;
        uint32_t total = mBlocks_ * nBlocks_;
        uint32_t stride = AscendC::GetBlockNum();
        for (uint32_t blk = AscendC::GetBlockIdx(); blk < total; blk += stride) {
            uint32_t mi = blk % mBlocks_;
            uint32_t ni = blk / mBlocks_;
            uint64_t row0 = static_cast<uint64_t>(mi) * cube_.singleCoreM;
            uint64_t col0 = static_cast<uint64_t>(ni) * cube_.singleCoreN;
            int32_t tailM = cube_.M - static_cast<int32_t>(row0);
            int32_t tailN = cube_.N - static_cast<int32_t>(col0);
            tailM = tailM < cube_.singleCoreM ? tailM : cube_.singleCoreM;
            tailN = tailN < cube_.singleCoreN ? tailN : cube_.singleCoreN;

            gemm.SetTensorA(xGm_[row0 * cube_.Ka]);
            gemm.SetTensorB(wGm_[col0]);
            gemm.SetTail(tailM, tailN);
            gemm.IterateAll(yGm_[row0 * cube_.N + col0]);
        }
        gemm.End();
    }

    TCubeTiling cube_;

private:
    AscendC::GlobalTensor<T> xGm_, wGm_, yGm_;
    uint32_t mBlocks_ = 1, nBlocks_ = 1;
};

extern "C" __global__ __aicore__ void tensor_mat_product(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR workspace,
                                                         GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (workspace == nullptr || GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    AscendC::TPipe pipe;
    TensorMatProductKernel<DTYPE_X> op;
    op.Init(x, w, y, td);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.gemm, &op.cube_);
    op.Process(&pipe);
}
