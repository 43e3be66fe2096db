#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// Split-K GEMM: core i computes A[:, k0:k1] @ B[k0:k1, :] and atomically adds
// the partial result into C (which the host zero-fills).
using a_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using b_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using c_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using bias_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class SplitKMatmul {
public:
    __aicore__ inline SplitKMatmul() {}

    __aicore__ inline void init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k,
                                uint32_t k_per, uint32_t k_tail, uint32_t blk_num)
    {
        m_ = m;
        n_ = n;
        k_ = k;
        blk_id_ = GetBlockIdx();
        active_ = blk_id_ < blk_num;
        k_start_ = blk_id_ * k_per;
        k_len_ = (blk_id_ == blk_num - 1) ? k_tail : k_per;

        a_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a), static_cast<uint64_t>(m) * k);
        b_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b), static_cast<uint64_t>(k) * n);
        c_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), static_cast<uint64_t>(m) * n);
    }

    template <typename MM>
    __aicore__ inline void run(MM &mm)
    {
        if (!active_ || k_len_ == 0) {
            return;
        }
        // A slice starts at column k_start_, B slice at row k_start_.
        mm.SetTensorA(a_gm_[k_start_]);
        mm.SetTensorB(b_gm_[static_cast<uint64_t>(k_start_) * n_]);
        mm.SetTail(m_, n_, k_len_);
        // enAtomic = 1 -> accumulate into C instead of overwriting it
        mm.IterateAll(c_gm_, 1);
        mm.End();
    }

    __aicore__ inline bool is_tail() const { return active_ && k_len_ != 0 && k_start_ + k_len_ == k_; }

private:
    GlobalTensor<float> a_gm_;
    GlobalTensor<float> b_gm_;
    GlobalTensor<float> c_gm_;
    uint32_t m_ = 0;
    uint32_t n_ = 0;
    uint32_t k_ = 0;
    uint32_t blk_id_ = 0;
    uint32_t k_start_ = 0;
    uint32_t k_len_ = 0;
    bool active_ = false;
};

extern "C" __global__ __aicore__ void matmul_with_large_k_dimension_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }

    TPipe pipe;
    SplitKMatmul op;
    op.init(a, b, c, td.m, td.n, td.k, td.k_per, td.k_tail, td.blk_num);

    Matmul<a_type, b_type, c_type, bias_type> mm;
    // the last core may own a shorter slice, which was tiled separately on the host
    if (op.is_tail() && td.k_tail != td.k_per) {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.mm_tiling_tail);
    } else {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.mm_tiling);
    }
    op.run(mm);
}
