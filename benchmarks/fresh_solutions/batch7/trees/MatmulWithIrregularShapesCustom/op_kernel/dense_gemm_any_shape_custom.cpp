#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
__aicore__ inline T MinOf(T a, T b)
{
    return a < b ? a : b;
}

// Each AI cube core computes one (singleCoreM x singleCoreN) block of C.
// Blocks on the bottom / right border are shorter; SetTail tells the matmul
// engine the real extent so no padding of the operands is required.
class DenseGemmAnyShape {
public:
    using A_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using B_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using C_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline DenseGemmAnyShape() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const DenseGemmAnyShapeTilingData &td)
    {
        cube_ = td.cube;
        mBlocks_ = td.mBlocks;
        nBlocks_ = td.nBlocks;
        const uint64_t M = cube_.M;
        const uint64_t N = cube_.N;
        const uint64_t K = cube_.Ka;
        aGm_.SetGlobalBuffer((__gm__ float *)a, M * K);
        bGm_.SetGlobalBuffer((__gm__ float *)b, K * N);
        cGm_.SetGlobalBuffer((__gm__ float *)c, M * N);
    }

    __aicore__ inline void Process()
    {
        const uint32_t totalBlocks = mBlocks_ * nBlocks_;
        for (uint32_t blk = GetBlockIdx(); blk < totalBlocks; blk += GetBlockNum()) {
            RunBlock(blk);
        }
        mm.End();
    }

private:
    __aicore__ inline void RunBlock(uint32_t blk)
    {
        const uint32_t mIdx = blk % mBlocks_;
        const uint32_t nIdx = blk / mBlocks_;
        const uint32_t scM = cube_.singleCoreM;
        const uint32_t scN = cube_.singleCoreN;
        const uint32_t M = cube_.M;
        const uint32_t N = cube_.N;
        const uint32_t K = cube_.Ka;

        const uint32_t rowBegin = mIdx * scM;
        const uint32_t colBegin = nIdx * scN;
        const int32_t tailM = static_cast<int32_t>(MinOf(scM, M - rowBegin));
        const int32_t tailN = static_cast<int32_t>(MinOf(scN, N - colBegin));

        // A is row-major [M, K]: block starts at row rowBegin
        // B is row-major [K, N]: block starts at column colBegin
        // C is row-major [M, N]
        uint64_t offA = static_cast<uint64_t>(rowBegin) * K;
        uint64_t offB = colBegin;
        uint64_t offC = static_cast<uint64_t>(rowBegin) * N + colBegin;

        mm.SetTensorA(aGm_[offA]);
        mm.SetTensorB(bGm_[offB]);
        mm.SetTail(tailM, tailN, static_cast<int32_t>(K));
        mm.IterateAll(cGm_[offC]);
    }

public:
    Matmul<A_T, B_T, C_T> mm;

private:
    TCubeTiling cube_;
    GlobalTensor<float> aGm_, bGm_, cGm_;
    uint32_t mBlocks_ = 0;
    uint32_t nBlocks_ = 0;
};

extern "C" __global__ __aicore__ void dense_gemm_any_shape_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    DenseGemmAnyShape op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
    op.Init(a, b, c, td);
    op.Process();
}
