#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using a_t = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using b_t = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;     // weight is [N, K]
using c_t = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;        // C blocks land in UB
using bias_t = MatmulType<TPosition::GM, CubeFormat::ND, float>;

__aicore__ inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t min_u(uint32_t a, uint32_t b) { return a < b ? a : b; }

// Each vector core owns a singleCoreM x singleCoreN tile of y. The cube produces
// it baseM x baseN at a time straight into UB, where the whole activation chain
// runs before the block is written to GM once:
//   s = x / (1 + exp(-x))        (swish)
//   s = clamp(s * 0.5, -1, 1)
//   y = clamp(tanh(s), -1, 1)
class KernelGemmSwishTanh {
public:
    __aicore__ inline KernelGemmSwishTanh() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const TCubeTiling& tl,
                                uint32_t tanh_tmp, TPipe* pipe)
    {
        tl_ = tl;
        uint32_t idx = GetBlockIdx();
        active_ = idx < static_cast<uint32_t>(tl.usedCoreNum);

        uint32_t m_blocks = ceil_div(tl.M, tl.singleCoreM);
        uint32_t m_idx = idx % m_blocks;
        uint32_t n_idx = idx / m_blocks;
        row0_ = m_idx * tl.singleCoreM;
        col0_ = n_idx * tl.singleCoreN;
        if (active_) {
            cur_m_ = min_u(tl.singleCoreM, tl.M - row0_);
            cur_n_ = min_u(tl.singleCoreN, tl.N - col0_);
        }

        x_gm_.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(row0_) * tl.Ka);
        w_gm_.SetGlobalBuffer((__gm__ float*)w + static_cast<uint64_t>(col0_) * tl.Kb);
        bias_gm_.SetGlobalBuffer((__gm__ float*)bias + col0_);
        y_gm_.SetGlobalBuffer((__gm__ float*)y);

        uint32_t blk = tl.baseM * tl.baseN;
        pipe->InitBuffer(c_q_, 1, blk * sizeof(float));
        pipe->InitBuffer(y_q_, 1, blk * sizeof(float));
        pipe->InitBuffer(t_buf_, blk * sizeof(float));
        pipe->InitBuffer(tanh_buf_, tanh_tmp);
    }

    __aicore__ inline void Process()
    {
        if (!active_) {
            return;
        }
        mm.SetTensorA(x_gm_);
        mm.SetTensorB(w_gm_, true);
        mm.SetBias(bias_gm_);
        if (cur_m_ != static_cast<uint32_t>(tl_.singleCoreM) || cur_n_ != static_cast<uint32_t>(tl_.singleCoreN)) {
            mm.SetTail(cur_m_, cur_n_);
        }

        uint32_t m_iters = ceil_div(cur_m_, tl_.baseM);
        uint32_t it = 0;
        while (mm.Iterate()) {
            LocalTensor<float> c = c_q_.AllocTensor<float>();
            mm.GetTensorC(c, false, true);
            c_q_.EnQue(c);

            // FIRSTM traversal: M advances fastest
            uint32_t mi = it % m_iters;
            uint32_t ni = it / m_iters;
            uint32_t rows = min_u(tl_.baseM, cur_m_ - mi * tl_.baseM);
            uint32_t cols = min_u(tl_.baseN, cur_n_ - ni * tl_.baseN);

            epilogue(rows * tl_.baseN);
            store(row0_ + mi * tl_.baseM, col0_ + ni * tl_.baseN, rows, cols);
            ++it;
        }
        mm.End();
    }

private:
    __aicore__ inline void epilogue(uint32_t cnt)
    {
        LocalTensor<float> c = c_q_.DeQue<float>();
        LocalTensor<float> t = t_buf_.Get<float>();
        LocalTensor<float> y = y_q_.AllocTensor<float>();
        LocalTensor<uint8_t> tmp = tanh_buf_.Get<uint8_t>();

        // swish: c / (1 + exp(-c))
        Muls(t, c, -1.0f, cnt);
        PipeBarrier<PIPE_V>();
        Exp(t, t, cnt);
        PipeBarrier<PIPE_V>();
        Adds(t, t, 1.0f, cnt);
        PipeBarrier<PIPE_V>();
        Div(t, c, t, cnt);
        PipeBarrier<PIPE_V>();
        // / 2.0 then clamp to [-1, 1]
        Muls(t, t, 0.5f, cnt);
        PipeBarrier<PIPE_V>();
        Maxs(t, t, -1.0f, cnt);
        PipeBarrier<PIPE_V>();
        Mins(t, t, 1.0f, cnt);
        PipeBarrier<PIPE_V>();
        // tanh then the final clamp (kept for exact parity with the reference)
        Tanh<float, false>(y, t, tmp, cnt);
        PipeBarrier<PIPE_V>();
        Maxs(y, y, -1.0f, cnt);
        PipeBarrier<PIPE_V>();
        Mins(y, y, 1.0f, cnt);

        y_q_.EnQue(y);
        c_q_.FreeTensor(c);
    }

    __aicore__ inline void store(uint32_t r0, uint32_t c0, uint32_t rows, uint32_t cols)
    {
        LocalTensor<float> y = y_q_.DeQue<float>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * sizeof(float);
        cp.srcStride = (tl_.baseN - (cols + 7) / 8 * 8) / 8;          // UB gap, 32B blocks
        cp.dstStride = (tl_.N - cols) * sizeof(float);                  // GM gap, bytes
        cp.rsv = 0;
        DataCopyPad(y_gm_[static_cast<uint64_t>(r0) * tl_.N + c0], y, cp);
        y_q_.FreeTensor(y);
    }

public:
    Matmul<a_t, b_t, c_t, bias_t> mm;
    TCubeTiling tl_;

private:
    TQue<QuePosition::VECIN, 1> c_q_;
    TQue<QuePosition::VECOUT, 1> y_q_;
    TBuf<TPosition::VECCALC> t_buf_, tanh_buf_;
    GlobalTensor<float> x_gm_, w_gm_, bias_gm_, y_gm_;
    uint32_t row0_ = 0, col0_ = 0, cur_m_ = 0, cur_n_ = 0;
    bool active_ = false;
};

extern "C" __global__ __aicore__ void gemm_swish_divide_clamp_tanh_clamp_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                                GM_ADDR y, GM_ADDR workspace,
                                                                                GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    KernelGemmSwishTanh op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm_tiling);
    op.Init(x, weight, bias, y, td.mm_tiling, td.tanh_tmp, &pipe);
    op.Process();
}
