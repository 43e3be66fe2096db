#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// C[M, N] = A[M, K] * B[K, N]; everything lives in GM and the Matmul high
// level API moves tiles through L1/L0 itself. Each AI core owns one
// singleCoreM x singleCoreN tile of C.
template <typename T>
class KernelSquareMatmul {
public:
    using mat_a = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using mat_b = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using mat_c = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using mat_bias = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline KernelSquareMatmul() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tl)
    {
        tl_ = tl;
        a_gm_.SetGlobalBuffer((__gm__ T *)a, (uint64_t)tl.M * tl.Ka);
        b_gm_.SetGlobalBuffer((__gm__ T *)b, (uint64_t)tl.Kb * tl.N);
        c_gm_.SetGlobalBuffer((__gm__ float *)c, (uint64_t)tl.M * tl.N);

        uint32_t m_tiles = ceil_div(tl.M, tl.singleCoreM);
        uint32_t n_tiles = ceil_div(tl.N, tl.singleCoreN);
        uint32_t blk = GetBlockIdx();
        uint32_t mi = blk % m_tiles;
        uint32_t ni = blk / m_tiles;
        active_ = (ni < n_tiles) && (blk < (uint32_t)tl.usedCoreNum);
        if (!active_) {
            return;
        }
        uint32_t row0 = mi * tl.singleCoreM;
        uint32_t col0 = ni * tl.singleCoreN;
        a_off_ = (uint64_t)row0 * tl.Ka;          // rows of A
        b_off_ = col0;                              // columns of B
        c_off_ = (uint64_t)row0 * tl.N + col0;
        // edge tiles may be smaller than singleCore sizes
        tail_m_ = (tl.M - row0) < (uint32_t)tl.singleCoreM ? (tl.M - row0) : tl.singleCoreM;
        tail_n_ = (tl.N - col0) < (uint32_t)tl.singleCoreN ? (tl.N - col0) : tl.singleCoreN;
    }

    __aicore__ inline void Process()
    {
        if (!active_) {
            return;
        }
        mm.SetTensorA(a_gm_[a_off_]);
        mm.SetTensorB(b_gm_[b_off_]);
        if (tail_m_ != (uint32_t)tl_.singleCoreM || tail_n_ != (uint32_t)tl_.singleCoreN) {
            mm.SetTail(tail_m_, tail_n_);
        }
        mm.IterateAll(c_gm_[c_off_]);
        mm.End();
    }

    Matmul<mat_a, mat_b, mat_c, mat_bias> mm;

private:
    TCubeTiling tl_;
    GlobalTensor<T> a_gm_, b_gm_;
    GlobalTensor<float> c_gm_;
    uint64_t a_off_ = 0, b_off_ = 0, c_off_ = 0;
    uint32_t tail_m_ = 0, tail_n_ = 0;
    bool active_ = true;
};

extern "C" __global__ __aicore__ void square_matrix_multiplication_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetUserWorkspace(workspace) == nullptr) {
        return;
    }
    TPipe pipe;
    KernelSquareMatmul<float> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
    op.Init(a, b, c, td.cube);
    op.Process();
}
