#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y[r, c] = min(max(x[r, c], lo[c]), hi[c])
// Cores split the rows. For each column tile the bound vectors are loaded once,
// then the core's rows stream through in groups of rows_ld.
class KernelClampBcast {
public:
    __aicore__ inline KernelClampBcast() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR lo, GM_ADDR hi, GM_ADDR y,
                                const ClampBroadcastCustomTilingData& td)
    {
        cols_ = td.cols;
        col_tile_ = td.col_tile;
        rows_ld_ = td.rows_ld;
        uint32_t bid = GetBlockIdx();
        row_cnt_ = td.rows_per_blk + (bid < td.rows_rem ? 1 : 0);
        row_beg_ = bid * td.rows_per_blk + (bid < td.rows_rem ? bid : td.rows_rem);

        x_gm_.SetGlobalBuffer((__gm__ float*)x);
        lo_gm_.SetGlobalBuffer((__gm__ float*)lo);
        hi_gm_.SetGlobalBuffer((__gm__ float*)hi);
        y_gm_.SetGlobalBuffer((__gm__ float*)y);

        pipe_.InitBuffer(x_q_, BUFFER_NUM, rows_ld_ * col_tile_ * sizeof(float));
        pipe_.InitBuffer(y_q_, BUFFER_NUM, rows_ld_ * col_tile_ * sizeof(float));
        pipe_.InitBuffer(bnd_q_, 1, 2 * col_tile_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c0 = 0; c0 < cols_; c0 += col_tile_) {
            uint32_t cw = (cols_ - c0) < col_tile_ ? (cols_ - c0) : col_tile_;
            LocalTensor<float> bnd = load_bounds(c0, cw);
            for (uint32_t r = 0; r < row_cnt_; r += rows_ld_) {
                uint32_t nr = (row_cnt_ - r) < rows_ld_ ? (row_cnt_ - r) : rows_ld_;
                uint64_t off = static_cast<uint64_t>(row_beg_ + r) * cols_ + c0;
                copy_in(off, nr, cw);
                compute(bnd, nr, cw);
                copy_out(off, nr, cw);
            }
            bnd_q_.FreeTensor(bnd);
        }
    }

private:
    __aicore__ inline DataCopyExtParams row_params(uint32_t nr, uint32_t cw, bool to_gm)
    {
        DataCopyExtParams p;
        p.blockCount = static_cast<uint16_t>(nr);
        p.blockLen = cw * sizeof(float);
        uint32_t gm_gap = (cols_ - cw) * sizeof(float);          // bytes
        uint32_t ub_gap = (col_tile_ - (cw + 7) / 8 * 8) / 8;     // 32B blocks
        p.srcStride = to_gm ? ub_gap : gm_gap;
        p.dstStride = to_gm ? gm_gap : ub_gap;
        p.rsv = 0;
        return p;
    }

    __aicore__ inline LocalTensor<float> load_bounds(uint32_t c0, uint32_t cw)
    {
        LocalTensor<float> bnd = bnd_q_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cw * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(bnd, lo_gm_[c0], cp, pad);
        DataCopyPad(bnd[col_tile_], hi_gm_[c0], cp, pad);
        bnd_q_.EnQue(bnd);
        return bnd_q_.DeQue<float>();
    }

    __aicore__ inline void copy_in(uint64_t off, uint32_t nr, uint32_t cw)
    {
        LocalTensor<float> x = x_q_.AllocTensor<float>();
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, x_gm_[off], row_params(nr, cw, false), pad);
        x_q_.EnQue(x);
    }

    __aicore__ inline void compute(LocalTensor<float>& bnd, uint32_t nr, uint32_t cw)
    {
        LocalTensor<float> x = x_q_.DeQue<float>();
        LocalTensor<float> y = y_q_.AllocTensor<float>();
        LocalTensor<float> lo = bnd;
        LocalTensor<float> hi = bnd[col_tile_];
        for (uint32_t i = 0; i < nr; ++i) {
            uint32_t o = i * col_tile_;
            Max(y[o], x[o], lo, cw);
            PipeBarrier<PIPE_V>();
            Min(y[o], y[o], hi, cw);
        }
        y_q_.EnQue(y);
        x_q_.FreeTensor(x);
    }

    __aicore__ inline void copy_out(uint64_t off, uint32_t nr, uint32_t cw)
    {
        LocalTensor<float> y = y_q_.DeQue<float>();
        DataCopyPad(y_gm_[off], y, row_params(nr, cw, true));
        y_q_.FreeTensor(y);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> x_q_;
    TQue<QuePosition::VECIN, 1> bnd_q_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> y_q_;
    GlobalTensor<float> x_gm_, lo_gm_, hi_gm_, y_gm_;
    uint32_t cols_ = 0, col_tile_ = 0, rows_ld_ = 1;
    uint32_t row_beg_ = 0, row_cnt_ = 0;
};

extern "C" __global__ __aicore__ void clamp_broadcast_custom(GM_ADDR x, GM_ADDR min_val, GM_ADDR max_val, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelClampBcast op;
    op.Init(x, min_val, max_val, y, td);
    op.Process();
}
