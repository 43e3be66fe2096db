#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Streaming element-wise tanh: each core handles one contiguous chunk of the
// flattened tensor, double-buffered through UB.
class KernelTanh {
public:
    __aicore__ inline KernelTanh() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total_len, uint64_t blk_len,
                                uint32_t tile_len, uint32_t tmp_bytes)
    {
        uint64_t start = blk_len * GetBlockIdx();
        my_len_ = (start + blk_len <= total_len) ? blk_len : (total_len - start);
        tile_len_ = tile_len;

        x_gm_.SetGlobalBuffer((__gm__ float*)x + start, my_len_);
        y_gm_.SetGlobalBuffer((__gm__ float*)y + start, my_len_);

        pipe_.InitBuffer(in_q_, BUFFER_NUM, tile_len_ * sizeof(float));
        pipe_.InitBuffer(out_q_, BUFFER_NUM, tile_len_ * sizeof(float));
        pipe_.InitBuffer(tmp_buf_, tmp_bytes);
    }

    __aicore__ inline void Process()
    {
        uint64_t full = my_len_ / tile_len_;
        uint32_t tail = static_cast<uint32_t>(my_len_ - full * tile_len_);
        for (uint64_t i = 0; i < full; ++i) {
            copy_in(i * tile_len_, tile_len_);
            compute(tile_len_);
            copy_out(i * tile_len_, tile_len_);
        }
        if (tail > 0) {
            copy_in(full * tile_len_, tail);
            compute(tail);
            copy_out(full * tile_len_, tail);
        }
    }

private:
    __aicore__ inline void copy_in(uint64_t off, uint32_t len)
    {
        LocalTensor<float> x = in_q_.AllocTensor<float>();
        if (len % 8 == 0) {
            DataCopy(x, x_gm_[off], len);
        } else {
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(x, x_gm_[off], cp, pad);
        }
        in_q_.EnQue(x);
    }

    __aicore__ inline void compute(uint32_t len)
    {
        LocalTensor<float> x = in_q_.DeQue<float>();
        LocalTensor<float> y = out_q_.AllocTensor<float>();
        LocalTensor<uint8_t> tmp = tmp_buf_.Get<uint8_t>();
        Tanh<float, false>(y, x, tmp, len);
        out_q_.EnQue(y);
        in_q_.FreeTensor(x);
    }

    __aicore__ inline void copy_out(uint64_t off, uint32_t len)
    {
        LocalTensor<float> y = out_q_.DeQue<float>();
        if (len % 8 == 0) {
            DataCopy(y_gm_[off], y, len);
        } else {
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(y_gm_[off], y, cp);
        }
        out_q_.FreeTensor(y);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> out_q_;
    TBuf<TPosition::VECCALC> tmp_buf_;
    GlobalTensor<float> x_gm_, y_gm_;
    uint64_t my_len_ = 0;
    uint32_t tile_len_ = 0;
};

extern "C" __global__ __aicore__ void tanh_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelTanh op;
    op.Init(x, y, td.total_len, td.blk_len, td.tile_len, td.tmp_bytes);
    op.Process();
}
