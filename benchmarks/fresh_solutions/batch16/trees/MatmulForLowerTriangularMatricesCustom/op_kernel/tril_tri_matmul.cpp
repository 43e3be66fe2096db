/*!
 * \file tril_tri_matmul.cpp
 * \brief kernel of TrilTriMatmul: c = tril(a @ b), a and b lower triangular.
 *
 * Work items are output blocks (I, J), enumerated row by row and dealt round-robin to the
 * vector workers that drive the cube through the Matmul API.
 *   J >  I : written with zeros (vector DataCopyPad from a zero tile).
 *   J <= I : GEMM restricted to the contributing k-range.
 *   J == I : after the GEMM the strictly upper part of the block is cleared row by row.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class TrilTriMatmulKernel {
public:
    using MT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<MT, MT, MT> mm;
    TPipe pipe;

    __aicore__ inline TrilTriMatmulKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TrilTriMatmulTilingData &td)
    {
        n_ = td.n;
        blk_ = td.blk;
        blkNum_ = td.blkNum;
        workers_ = GetBlockNum() * GetTaskRation();
        self_ = GetBlockIdx();
        aGm.SetGlobalBuffer((__gm__ T *)a);
        bGm.SetGlobalBuffer((__gm__ T *)b);
        cGm.SetGlobalBuffer((__gm__ T *)c);

        // one block of zeros, reused for every zero write
        pipe.InitBuffer(zeroBuf, blk_ * blk_ * sizeof(T));
        LocalTensor<T> z = zeroBuf.Get<T>();
        Duplicate(z, static_cast<T>(0), blk_ * blk_);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(ev);
        WaitFlag<HardEvent::V_MTE3>(ev);
    }

    __aicore__ inline void Process()
    {
        uint32_t items = blkNum_ * blkNum_;
        for (uint32_t it = self_; it < items; it += workers_) {
            uint32_t bi = it / blkNum_;
            uint32_t bj = it % blkNum_;
            uint32_t r0 = bi * blk_;
            uint32_t c0 = bj * blk_;
            uint32_t rows = (n_ - r0) < blk_ ? (n_ - r0) : blk_;
            uint32_t cols = (n_ - c0) < blk_ ? (n_ - c0) : blk_;
            if (bj > bi) {
                ZeroBlock(r0, c0, rows, cols);
                continue;
            }
            uint32_t kBeg = c0;
            uint32_t kEnd = r0 + rows;
            mm.SetTensorA(aGm[static_cast<uint64_t>(r0) * n_ + kBeg]);
            mm.SetTensorB(bGm[static_cast<uint64_t>(kBeg) * n_ + c0]);
            mm.SetTail(rows, cols, kEnd - kBeg);
            mm.IterateAll(cGm[static_cast<uint64_t>(r0) * n_ + c0]);
            if (bi == bj) {
                ClearUpper(r0, rows, cols);
            }
        }
        mm.End();
    }

private:
    __aicore__ inline void ZeroBlock(uint32_t r0, uint32_t c0, uint32_t rows, uint32_t cols)
    {
        LocalTensor<T> z = zeroBuf.Get<T>();
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0,
                             static_cast<uint32_t>((n_ - cols) * sizeof(T)), 0};
        DataCopyPad(cGm[static_cast<uint64_t>(r0) * n_ + c0], z, cp);
    }

    // block on the diagonal: row r of the block keeps columns 0..r
    __aicore__ inline void ClearUpper(uint32_t r0, uint32_t rows, uint32_t cols)
    {
        LocalTensor<T> z = zeroBuf.Get<T>();
        for (uint32_t r = 0; r < rows; ++r) {
            uint32_t keep = r + 1;
            if (keep >= cols) {
                break;
            }
            DataCopyExtParams cp{1, static_cast<uint32_t>((cols - keep) * sizeof(T)), 0, 0, 0};
            DataCopyPad(cGm[static_cast<uint64_t>(r0 + r) * n_ + r0 + keep], z, cp);
        }
    }

    TBuf<TPosition::VECCALC> zeroBuf;
    GlobalTensor<T> aGm, bGm, cGm;
    uint32_t n_ = 0, blk_ = 0, blkNum_ = 0, workers_ = 1, self_ = 0;
};

extern "C" __global__ __aicore__ void tril_tri_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TrilTriMatmulKernel<DTYPE_A> op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(a, b, c, td);
    op.Process();
}
