/**
 * TransposedLhsGemm kernel: c[M, N] = a[K, M]^T * b[K, N]
 *
 * Each AI core owns one (singleCoreM x singleCoreN) block of c. The block is
 * computed by the cube Matmul high-level API with A flagged as transposed, so
 * the K-major left operand is consumed directly from GM.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

template <typename T>
class TransposedLhsGemmKernel {
public:
    using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T, true>;
    using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T, false>;
    using CType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline TransposedLhsGemmKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, const TCubeTiling &tiling)
    {
        cubeTiling_ = tiling;
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), static_cast<uint64_t>(tiling.M) * tiling.Ka);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), static_cast<uint64_t>(tiling.Kb) * tiling.N);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), static_cast<uint64_t>(tiling.M) * tiling.N);

        int32_t aOff = 0;
        int32_t bOff = 0;
        int32_t cOff = 0;
        LocateBlock(AscendC::GetBlockIdx(), aOff, bOff, cOff);
        aGm_ = aGm_[aOff];
        bGm_ = bGm_[bOff];
        cGm_ = cGm_[cOff];
    }

    __aicore__ inline void Process(AscendC::TPipe *pipe)
    {
        if (tailM_ <= 0 || tailN_ <= 0) {
            return;
        }
        mm.SetTensorA(aGm_, true);
        mm.SetTensorB(bGm_);
        mm.SetTail(tailM_, tailN_);
        mm.IterateAll(cGm_);
        mm.End();
    }

    Matmul<AType, BType, CType, BiasType> mm;

private:
    // Work out where this core's output block starts, and the GM offsets of
    // the matching slices of a ([K, M], so column offset) and b.
    __aicore__ inline void LocateBlock(int32_t blockIdx, int32_t &aOff, int32_t &bOff, int32_t &cOff)
    {
        const int32_t mBlocks = AscendC::Ceil(cubeTiling_.M, cubeTiling_.singleCoreM);
        const int32_t mIdx = blockIdx % mBlocks;
        const int32_t nIdx = blockIdx / mBlocks;
        const int32_t mStart = mIdx * cubeTiling_.singleCoreM;
        const int32_t nStart = nIdx * cubeTiling_.singleCoreN;

        // a is [K, M]: stepping in M is a column shift
        aOff = mStart;
        bOff = nStart;
        cOff = mStart * cubeTiling_.N + nStart;

        tailM_ = cubeTiling_.M - mStart;
        tailM_ = tailM_ < cubeTiling_.singleCoreM ? tailM_ : cubeTiling_.singleCoreM;
        tailN_ = cubeTiling_.N - nStart;
        tailN_ = tailN_ < cubeTiling_.singleCoreN ? tailN_ : cubeTiling_.singleCoreN;
    }

    AscendC::GlobalTensor<T> aGm_;
    AscendC::GlobalTensor<T> bGm_;
    AscendC::GlobalTensor<T> cGm_;
    TCubeTiling cubeTiling_;
    int32_t tailM_ = 0;
    int32_t tailN_ = 0;
};

template <typename T>
__aicore__ inline void RunTransposedLhsGemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                            const TransposedLhsGemmTilingData &td)
{
    AscendC::TPipe pipe;
    TransposedLhsGemmKernel<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cubeTiling);
    op.Init(a, b, c, workspace, td.cubeTiling);
    op.Process(&pipe);
}

extern "C" __global__ __aicore__ void transposed_lhs_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    if (TILING_KEY_IS(1)) {
        RunTransposedLhsGemm<half>(a, b, c, workspace, tilingData);
    } else if (TILING_KEY_IS(0)) {
        RunTransposedLhsGemm<float>(a, b, c, workspace, tilingData);
    }
}
