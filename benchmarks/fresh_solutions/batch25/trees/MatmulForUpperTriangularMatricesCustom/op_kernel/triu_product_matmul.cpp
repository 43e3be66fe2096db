/*
 * C = triu(A @ B) for upper-triangular A, B (n x n).
 *
 * The output is cut into tile x tile blocks. Block (I, J) with rows [i0, i1) and columns
 * [j0, j1):
 *   - if every column lies left of every row (j1 - 1 < i0) the block is zero and is only
 *     cleared;
 *   - otherwise only k in [i0, j1) can contribute (A[i, k] = 0 for k < i, B[k, j] = 0 for k > j),
 *     so the cube multiplies A[i0:i1, i0:j1] by B[i0:j1, j0:j1] - on average a third of the
 *     dense work.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class TriuProductKernel {
public:
    using AT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<AT, BT, CT, CT> mm;

    __aicore__ inline TriuProductKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TriuProductMatmulTilingData &td, TPipe *pipe)
    {
        n_ = td.n;
        tile_ = td.tile;
        side_ = td.tilesPerSide;
        workers_ = td.workers;
        uint64_t total = static_cast<uint64_t>(n_) * n_;
        aGm_.SetGlobalBuffer((__gm__ T *)a, total);
        bGm_.SetGlobalBuffer((__gm__ T *)b, total);
        cGm_.SetGlobalBuffer((__gm__ T *)c, total);
        pipe->InitBuffer(zeroBuf_, ((tile_ * sizeof(T) + 31) / 32) * 32);
    }

    __aicore__ inline void Process()
    {
        LocalTensor<T> zeros = zeroBuf_.Get<T>();
        Duplicate(zeros, static_cast<T>(0), tile_);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e);
        WaitFlag<HardEvent::V_MTE3>(e);

        uint32_t tiles = side_ * side_;
        bool issued = false;
        // walk blocks from the top-right corner (largest K ranges) so round robin balances better
        for (uint32_t task = GetBlockIdx(); task < tiles; task += workers_) {
            uint32_t bi = task / side_;
            uint32_t bj = side_ - 1 - task % side_;
            uint32_t i0 = bi * tile_;
            uint32_t j0 = bj * tile_;
            uint32_t rows = (n_ - i0) < tile_ ? (n_ - i0) : tile_;
            uint32_t cols = (n_ - j0) < tile_ ? (n_ - j0) : tile_;

            if (j0 + cols <= i0) {
                ClearBlock(zeros, i0, j0, rows, cols);
                continue;
            }
            uint32_t kBeg = i0;
            uint32_t kLen = j0 + cols - kBeg;
            mm.SetSingleShape(rows, cols, kLen);
            mm.SetTensorA(aGm_[static_cast<uint64_t>(i0) * n_ + kBeg]);
            mm.SetTensorB(bGm_[static_cast<uint64_t>(kBeg) * n_ + j0]);
            mm.IterateAll(cGm_[static_cast<uint64_t>(i0) * n_ + j0]);
            issued = true;
        }
        if (issued) {
            mm.End();
        }
    }

private:
    __aicore__ inline void ClearBlock(const LocalTensor<T> &zeros, uint32_t i0, uint32_t j0,
                                      uint32_t rows, uint32_t cols)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        for (uint32_t r = 0; r < rows; ++r) {
            DataCopyPad(cGm_[static_cast<uint64_t>(i0 + r) * n_ + j0], zeros, cp);
        }
    }

    TBuf<TPosition::VECCALC> zeroBuf_;
    GlobalTensor<T> aGm_, bGm_, cGm_;
    uint32_t n_ = 0, tile_ = 0, side_ = 0, workers_ = 1;
};

template <typename T>
__aicore__ inline void RunTriuProduct(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TriuProductMatmulTilingData &td)
{
    TPipe pipe;
    TriuProductKernel<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(a, b, c, td, &pipe);
    op.Process();
}

extern "C" __global__ __aicore__ void triu_product_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        RunTriuProduct<half>(a, b, c, td);
    } else if (TILING_KEY_IS(0)) {
        RunTriuProduct<float>(a, b, c, td);
    }
}
