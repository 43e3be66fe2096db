#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

using a_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using b_type = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // weight is [N, K]
using c_type = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using bias_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;

// Linear layer y = x * w^T + b with an optional ReLU epilogue. The cube unit
// produces baseM x baseN blocks, the vector unit applies ReLU on each block
// before it is written to GM.
class KernelLinearRelu {
public:
    __aicore__ inline KernelLinearRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, uint32_t with_relu,
                                const TCubeTiling &tl, TPipe *pipe)
    {
        tl_ = tl;
        relu_ = with_relu;
        x_gm_.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tl.M * tl.Ka);
        w_gm_.SetGlobalBuffer((__gm__ float *)w, (uint64_t)tl.N * tl.Kb);
        b_gm_.SetGlobalBuffer((__gm__ float *)b, tl.N);
        y_gm_.SetGlobalBuffer((__gm__ float *)y, (uint64_t)tl.M * tl.N);

        uint32_t blk = GetBlockIdx();
        if ASCEND_IS_AIV {
            blk = blk / GetTaskRation();
        }
        calc_offsets(blk);
        pipe->InitBuffer(blk_q_, 1, tl_.baseM * tl_.baseN * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (!valid_) {
            return;
        }
        mm.SetTensorA(x_gm_[off_a_]);
        mm.SetTensorB(w_gm_[off_b_], true);
        mm.SetBias(b_gm_[off_bias_]);
        mm.SetTail(tail_m_, tail_n_);

        uint32_t blk_m = ceil_div(tail_m_, tl_.baseM);
        uint32_t it = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> cl = blk_q_.AllocTensor<float>();
            mm.template GetTensorC<true>(cl, false, true);
            if (relu_) {
                Relu(cl, cl, tl_.baseM * tl_.baseN);
            }
            blk_q_.EnQue(cl);
            store_block(it, blk_m);
            ++it;
        }
        mm.End();
    }

    Matmul<a_type, b_type, c_type, bias_type> mm;

private:
    __aicore__ inline void calc_offsets(uint32_t blk)
    {
        uint32_t m_cnt = ceil_div(tl_.M, tl_.singleCoreM);
        uint32_t n_cnt = ceil_div(tl_.N, tl_.singleCoreN);
        uint32_t m_idx = blk % m_cnt;
        uint32_t n_idx = blk / m_cnt;
        valid_ = (n_idx < n_cnt);
        if (!valid_) {
            return;
        }
        m0_ = m_idx * tl_.singleCoreM;
        n0_ = n_idx * tl_.singleCoreN;
        off_a_ = (uint64_t)m0_ * tl_.Ka;
        off_b_ = (uint64_t)n0_ * tl_.Kb;
        off_bias_ = n0_;
        tail_m_ = min_u32(tl_.singleCoreM, tl_.M - m0_);
        tail_n_ = min_u32(tl_.singleCoreN, tl_.N - n0_);
    }

    // blocks come out M-major inside the single-core tile
    __aicore__ inline void store_block(uint32_t it, uint32_t blk_m)
    {
        LocalTensor<float> cl = blk_q_.DeQue<float>();
        uint32_t bm = it % blk_m;
        uint32_t bn = it / blk_m;
        uint32_t cur_m = min_u32(tl_.baseM, tail_m_ - bm * tl_.baseM);
        uint32_t cur_n = min_u32(tl_.baseN, tail_n_ - bn * tl_.baseN);
        uint64_t dst = (uint64_t)(m0_ + bm * tl_.baseM) * tl_.N + n0_ + bn * tl_.baseN;
        uint32_t cur_n_al = (cur_n + 7) / 8 * 8;
        DataCopyExtParams prm{(uint16_t)cur_m, (uint32_t)(cur_n * sizeof(float)),
                              (uint32_t)((tl_.baseN - cur_n_al) / 8),
                              (uint32_t)((tl_.N - cur_n) * sizeof(float)), 0};
        DataCopyPad(y_gm_[dst], cl, prm);
        blk_q_.FreeTensor(cl);
    }

private:
    TCubeTiling tl_;
    TQue<QuePosition::VECIN, 1> blk_q_;
    GlobalTensor<float> x_gm_, w_gm_, b_gm_, y_gm_;
    uint64_t off_a_ = 0, off_b_ = 0, off_bias_ = 0;
    uint32_t m0_ = 0, n0_ = 0, tail_m_ = 0, tail_n_ = 0;
    uint32_t relu_ = 0;
    bool valid_ = true;
};

extern "C" __global__ __aicore__ void mlp_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR user_ws = GetUserWorkspace(workspace);
    if (user_ws == nullptr) {
        return;
    }
    TPipe pipe;
    KernelLinearRelu op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
    op.Init(x, weight, bias, y, td.with_relu, td.cube, &pipe);
    op.Process();
}
