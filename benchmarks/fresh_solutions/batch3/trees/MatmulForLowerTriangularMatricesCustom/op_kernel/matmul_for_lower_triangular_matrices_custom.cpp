#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using a_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using b_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using c_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using bias_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;

// Block-triangular GEMM.
//   C[bi, bj] = sum_{k = bj*bs}^{(bi+1)*bs - 1} A[bi, k] * B[k, bj]     for bi >= bj
// A[i, k] vanishes for k > i and B[k, j] for k < j, so the K range of a block
// pair shrinks to the band between the two diagonals; roughly 1/6 of the dense
// FLOPs are issued in total. Lower-triangle blocks are dealt round-robin to the
// cube cores.
class KernelTrilMatmul {
public:
    __aicore__ inline KernelTrilMatmul() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t n, uint32_t bs, uint32_t nb,
                                uint32_t blk_num)
    {
        n_ = n;
        bs_ = bs;
        nb_ = nb;
        blk_num_ = blk_num;
        a_gm_.SetGlobalBuffer((__gm__ float*)a, static_cast<uint64_t>(n) * n);
        b_gm_.SetGlobalBuffer((__gm__ float*)b, static_cast<uint64_t>(n) * n);
        c_gm_.SetGlobalBuffer((__gm__ float*)c, static_cast<uint64_t>(n) * n);
    }

    __aicore__ inline void Process()
    {
        uint32_t me = GetBlockIdx();
        if (me >= blk_num_) {
            return;
        }
        uint32_t p = 0;
        // walk the lower triangle from the longest (bottom-left) blocks first so the
        // expensive pairs are spread across cores before the cheap diagonal ones
        for (uint32_t d = nb_; d-- > 0;) {           // d = bi - bj
            for (uint32_t bj = 0; bj + d < nb_; ++bj) {
                if (p % blk_num_ == me) {
                    one_block(bj + d, bj);
                }
                ++p;
            }
        }
        mm.End();
    }

private:
    __aicore__ inline void one_block(uint32_t bi, uint32_t bj)
    {
        uint32_t row0 = bi * bs_;
        uint32_t col0 = bj * bs_;
        uint32_t m_len = (n_ - row0) < bs_ ? (n_ - row0) : bs_;
        uint32_t n_len = (n_ - col0) < bs_ ? (n_ - col0) : bs_;
        uint32_t k0 = col0;
        uint32_t k1 = row0 + m_len;                   // exclusive
        uint32_t k_len = k1 - k0;

        mm.SetTensorA(a_gm_[static_cast<uint64_t>(row0) * n_ + k0]);
        mm.SetTensorB(b_gm_[static_cast<uint64_t>(k0) * n_ + col0]);
        mm.SetTail(m_len, n_len, k_len);
        mm.IterateAll(c_gm_[static_cast<uint64_t>(row0) * n_ + col0]);
    }

public:
    Matmul<a_type, b_type, c_type, bias_type> mm;

private:
    GlobalTensor<float> a_gm_, b_gm_, c_gm_;
    uint32_t n_ = 0, bs_ = 0, nb_ = 0, blk_num_ = 1;
};

extern "C" __global__ __aicore__ void matmul_for_lower_triangular_matrices_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    KernelTrilMatmul op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm_tiling);
    op.Init(a, b, c, td.n, td.bs, td.nb, td.blk_num);
    op.Process();
}
