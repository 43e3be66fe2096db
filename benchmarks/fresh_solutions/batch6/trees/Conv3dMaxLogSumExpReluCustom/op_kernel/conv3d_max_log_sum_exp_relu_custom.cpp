#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUF_NUM = 2;
constexpr uint32_t SLABS = 4;          // (d, h) corners of the 2x2x2 window
constexpr uint32_t FP32_PER_REPEAT = 64;

// One task = one output row (n, od, oh). Channels are processed in chunks of
// ch_blk: the 4 input lines of each channel are max-reduced, then adjacent
// width pairs are reduced with two GatherMask passes (even / odd lanes). The
// pooled rows of all channels stay in UB until logsumexp + relu is applied.
class KernelPoolLseRelu {
public:
    __aicore__ inline KernelPoolLseRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Conv3dMaxLogSumExpReluCustomTilingData &td)
    {
        c_ = td.c;
        d_ = td.d;
        h_ = td.h;
        w_ = td.w;
        od_ = td.od;
        oh_ = td.oh;
        ow_ = td.ow;
        w_al_ = td.w_al;
        pw_ = td.w_al / 2;
        ch_blk_ = td.ch_blk;

        uint32_t blk = GetBlockIdx();
        task_beg_ = blk * td.task_per_core;
        uint32_t task_end = task_beg_ + td.task_per_core;
        if (task_end > td.task_total) {
            task_end = td.task_total;
        }
        task_cnt_ = task_end > task_beg_ ? task_end - task_beg_ : 0;

        x_gm_.SetGlobalBuffer((__gm__ float *)x);
        y_gm_.SetGlobalBuffer((__gm__ float *)y);

        uint32_t slab = ch_blk_ * w_al_;
        pipe_.InitBuffer(in_q_, BUF_NUM, SLABS * slab * sizeof(float));
        pipe_.InitBuffer(out_q_, BUF_NUM, pw_ * sizeof(float));
        pipe_.InitBuffer(pool_buf_, c_ * pw_ * sizeof(float));
        pipe_.InitBuffer(odd_buf_, slab / 2 * sizeof(float) + 256);
        pipe_.InitBuffer(red_buf_, 2 * pw_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t per_n = od_ * oh_;
        for (uint32_t t = 0; t < task_cnt_; ++t) {
            uint32_t task = task_beg_ + t;
            uint32_t n = task / per_n;
            uint32_t o_d = (task % per_n) / oh_;
            uint32_t o_h = task % oh_;
            for (uint32_t c0 = 0; c0 < c_; c0 += ch_blk_) {
                uint32_t cc = (c_ - c0) < ch_blk_ ? (c_ - c0) : ch_blk_;
                copy_in(n, c0, cc, o_d, o_h);
                pool_chunk(c0, cc);
            }
            lse_relu();
            copy_out(n, o_d, o_h);
        }
    }

private:
    __aicore__ inline void copy_in(uint32_t n, uint32_t c0, uint32_t cc, uint32_t o_d, uint32_t o_h)
    {
        LocalTensor<float> xin = in_q_.AllocTensor<float>();
        uint64_t ch_sz = (uint64_t)d_ * h_ * w_;
        uint32_t slab = ch_blk_ * w_al_;
        // DataCopyPad rounds each line to 8 floats; dstStride pads it further to w_al_
        uint32_t line_blk = (w_ + 7) / 8;
        DataCopyExtParams prm{(uint16_t)cc, (uint32_t)(w_ * sizeof(float)),
                              (uint32_t)((ch_sz - w_) * sizeof(float)), w_al_ / 8 - line_blk, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t s = 0; s < SLABS; ++s) {
            uint32_t id = o_d * 2 + (s >> 1);
            uint32_t ih = o_h * 2 + (s & 1);
            uint64_t src = ((uint64_t)n * c_ + c0) * ch_sz + ((uint64_t)id * h_ + ih) * w_;
            DataCopyPad(xin[s * slab], x_gm_[src], prm, pad);
        }
        in_q_.EnQue(xin);
    }

    __aicore__ inline void pool_chunk(uint32_t c0, uint32_t cc)
    {
        LocalTensor<float> xin = in_q_.DeQue<float>();
        LocalTensor<float> pooled = pool_buf_.Get<float>();
        LocalTensor<float> odd = odd_buf_.Get<float>();
        uint32_t slab = ch_blk_ * w_al_;
        uint32_t len = cc * w_al_;

        // depth/height reduction: slab0 = max(slab0..slab3)
        Max(xin, xin, xin[slab], len);
        Max(xin[2 * slab], xin[2 * slab], xin[3 * slab], len);
        PipeBarrier<PIPE_V>();
        Max(xin, xin, xin[2 * slab], len);
        PipeBarrier<PIPE_V>();

        // width reduction: even lanes straight into the pooled rows, odd lanes to scratch
        uint64_t rsvd = 0;
        uint8_t rep = (uint8_t)((len + FP32_PER_REPEAT - 1) / FP32_PER_REPEAT);
        GatherMaskParams gp{1, rep, 8, 0};
        LocalTensor<float> dst = pooled[c0 * pw_];
        GatherMask(dst, xin, (uint8_t)1, false, 0, gp, rsvd);
        GatherMask(odd, xin, (uint8_t)2, false, 0, gp, rsvd);
        PipeBarrier<PIPE_V>();
        Max(dst, dst, odd, cc * pw_);
        PipeBarrier<PIPE_V>();
        in_q_.FreeTensor(xin);
    }

    __aicore__ inline void lse_relu()
    {
        LocalTensor<float> pooled = pool_buf_.Get<float>();
        LocalTensor<float> red = red_buf_.Get<float>();
        LocalTensor<float> mx = red;
        LocalTensor<float> acc = red[pw_];
        LocalTensor<float> yl = out_q_.AllocTensor<float>();

        // max over channels
        Adds(mx, pooled, 0.0f, pw_);
        PipeBarrier<PIPE_V>();
        for (uint32_t ch = 1; ch < c_; ++ch) {
            Max(mx, mx, pooled[ch * pw_], pw_);
            PipeBarrier<PIPE_V>();
        }
        // sum exp(x - max)
        for (uint32_t ch = 0; ch < c_; ++ch) {
            Sub(pooled[ch * pw_], pooled[ch * pw_], mx, pw_);
        }
        PipeBarrier<PIPE_V>();
        Exp(pooled, pooled, c_ * pw_);
        PipeBarrier<PIPE_V>();
        Duplicate(acc, 0.0f, pw_);
        PipeBarrier<PIPE_V>();
        for (uint32_t ch = 0; ch < c_; ++ch) {
            Add(acc, acc, pooled[ch * pw_], pw_);
            PipeBarrier<PIPE_V>();
        }
        Ln(acc, acc, pw_);
        PipeBarrier<PIPE_V>();
        Add(yl, acc, mx, pw_);
        PipeBarrier<PIPE_V>();
        Relu(yl, yl, pw_);
        out_q_.EnQue(yl);
    }

    __aicore__ inline void copy_out(uint32_t n, uint32_t o_d, uint32_t o_h)
    {
        LocalTensor<float> yl = out_q_.DeQue<float>();
        uint64_t dst = ((uint64_t)n * od_ + o_d) * oh_ * ow_ + (uint64_t)o_h * ow_;
        DataCopyExtParams prm{1, (uint32_t)(ow_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(y_gm_[dst], yl, prm);
        out_q_.FreeTensor(yl);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> in_q_;
    TQue<QuePosition::VECOUT, BUF_NUM> out_q_;
    TBuf<QuePosition::VECCALC> pool_buf_, odd_buf_, red_buf_;
    GlobalTensor<float> x_gm_, y_gm_;

    uint32_t c_, d_, h_, w_;
    uint32_t od_, oh_, ow_;
    uint32_t w_al_, pw_, ch_blk_;
    uint32_t task_beg_, task_cnt_;
};

extern "C" __global__ __aicore__ void conv3d_max_log_sum_exp_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                         GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelPoolLseRelu op;
    op.Init(x, y, td);
    op.Process();
}
