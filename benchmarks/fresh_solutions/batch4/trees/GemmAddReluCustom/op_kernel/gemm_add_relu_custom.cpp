#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// y = relu(x @ W^T + b)
// The cube unit produces baseM x baseN blocks (bias already added by the matmul API);
// every block is pulled into UB, passed through ReLU and written to GM.

template <typename T>
__aicore__ inline T ceil_div(T a, T b)
{
    return (a + b - 1) / b;
}

class GemmAddReluKernel {
public:
    using x_t = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using w_t = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using y_t = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using b_t = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<x_t, w_t, y_t, b_t> mm;

    __aicore__ inline GemmAddReluKernel() {}

    __aicore__ inline void init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const TCubeTiling &t,
                                TPipe *pipe)
    {
        tl_ = t;
        uint32_t m = t.M, n = t.N, k = t.Ka;
        x_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), static_cast<uint64_t>(m) * k);
        w_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(w), static_cast<uint64_t>(n) * k);
        b_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), n);
        y_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), static_cast<uint64_t>(m) * n);

        // which (m, n) patch of the output belongs to this core
        uint32_t blk = GetBlockIdx();
        uint32_t m_blks = ceil_div<uint32_t>(m, t.singleCoreM);
        uint32_t m_idx = blk % m_blks;
        uint32_t n_idx = blk / m_blks;
        row0_ = m_idx * t.singleCoreM;
        col0_ = n_idx * t.singleCoreN;

        cur_m_ = (m - row0_ < static_cast<uint32_t>(t.singleCoreM)) ? (m - row0_) : t.singleCoreM;
        cur_n_ = (n - col0_ < static_cast<uint32_t>(t.singleCoreN)) ? (n - col0_) : t.singleCoreN;

        x_off_ = static_cast<uint64_t>(row0_) * k;
        w_off_ = static_cast<uint64_t>(col0_) * k;   // rows of W = columns of y
        y_off_ = static_cast<uint64_t>(row0_) * n + col0_;

        uint32_t blk_bytes = static_cast<uint32_t>(t.baseM * t.baseN) * sizeof(float);
        pipe->InitBuffer(in_q_, 1, blk_bytes);
        pipe->InitBuffer(out_q_, 1, blk_bytes);
    }

    __aicore__ inline void process()
    {
        if (row0_ >= static_cast<uint32_t>(tl_.M) || col0_ >= static_cast<uint32_t>(tl_.N)) {
            return;
        }
        mm.SetTensorA(x_gm_[x_off_]);
        mm.SetTensorB(w_gm_[w_off_], true);
        mm.SetBias(b_gm_[col0_]);
        mm.SetTail(cur_m_, cur_n_);

        uint32_t m_rounds = ceil_div<uint32_t>(cur_m_, tl_.baseM);
        uint32_t cnt = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> c_blk = in_q_.AllocTensor<float>();
            mm.template GetTensorC<true>(c_blk, false, true);
            in_q_.EnQue(c_blk);
            relu_block();
            // default iterate order walks along M first
            uint32_t bm = cnt % m_rounds;
            uint32_t bn = cnt / m_rounds;
            store_block(bm, bn);
            cnt++;
        }
        mm.End();
    }

private:
    __aicore__ inline void relu_block()
    {
        LocalTensor<float> src = in_q_.DeQue<float>();
        LocalTensor<float> dst = out_q_.AllocTensor<float>();
        Relu(dst, src, static_cast<int32_t>(tl_.baseM * tl_.baseN));
        out_q_.EnQue(dst);
        in_q_.FreeTensor(src);
    }

    __aicore__ inline void store_block(uint32_t bm, uint32_t bn)
    {
        LocalTensor<float> blk = out_q_.DeQue<float>();
        uint32_t r0 = bm * tl_.baseM;
        uint32_t c0 = bn * tl_.baseN;
        uint32_t rows = (cur_m_ - r0 < static_cast<uint32_t>(tl_.baseM)) ? (cur_m_ - r0) : tl_.baseM;
        uint32_t cols = (cur_n_ - c0 < static_cast<uint32_t>(tl_.baseN)) ? (cur_n_ - c0) : tl_.baseN;

        // rows of the block are baseN apart in UB and N apart in GM
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * sizeof(float);
        cp.srcStride = (tl_.baseN - cols) * sizeof(float) / 32;
        cp.dstStride = (tl_.N - cols) * sizeof(float);
        DataCopyPad(y_gm_[y_off_ + static_cast<uint64_t>(r0) * tl_.N + c0], blk, cp);
        out_q_.FreeTensor(blk);
    }

    TCubeTiling tl_;
    TQue<QuePosition::VECIN, 1> in_q_;
    TQue<QuePosition::VECOUT, 1> out_q_;
    GlobalTensor<float> x_gm_;
    GlobalTensor<float> w_gm_;
    GlobalTensor<float> b_gm_;
    GlobalTensor<float> y_gm_;
    uint32_t row0_ = 0;
    uint32_t col0_ = 0;
    uint32_t cur_m_ = 0;
    uint32_t cur_n_ = 0;
    uint64_t x_off_ = 0;
    uint64_t w_off_ = 0;
    uint64_t y_off_ = 0;
};

extern "C" __global__ __aicore__ void gemm_add_relu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    GemmAddReluKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
    op.init(x, weight, bias, y, td.cube, &pipe);
    op.process();
}
