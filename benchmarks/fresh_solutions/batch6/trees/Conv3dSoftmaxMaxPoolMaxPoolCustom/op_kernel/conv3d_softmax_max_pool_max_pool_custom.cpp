#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUF_NUM = 2;
constexpr float NEG_BIG = -3.402823e38f;

// Each task is one output row (n, od, oh). For that row we walk the pk x pk
// (depth, height) window; every input line is loaded for all channels at once
// (C rows of W), softmax is taken across the channel rows element-wise, and the
// result is max-accumulated. Width pooling is done last on the accumulator.
class KernelSoftmaxDoublePool {
public:
    __aicore__ inline KernelSoftmaxDoublePool() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Conv3dSoftmaxMaxPoolMaxPoolCustomTilingData &td)
    {
        c_ = td.c;
        d_ = td.d;
        h_ = td.h;
        w_ = td.w;
        od_ = td.od;
        oh_ = td.oh;
        ow_ = td.ow;
        pk_ = td.pk;
        w_al_ = td.w_al;
        ow_al_ = td.ow_al;

        uint32_t blk = GetBlockIdx();
        row_start_ = blk * td.rows_per_core;
        uint32_t row_end = row_start_ + td.rows_per_core;
        if (row_end > td.row_total) {
            row_end = td.row_total;
        }
        row_cnt_ = row_end > row_start_ ? row_end - row_start_ : 0;

        x_gm_.SetGlobalBuffer((__gm__ float *)x);
        y_gm_.SetGlobalBuffer((__gm__ float *)y);

        pipe_.InitBuffer(in_q_, BUF_NUM, c_ * w_al_ * sizeof(float));
        pipe_.InitBuffer(out_q_, 1, c_ * ow_al_ * sizeof(float));
        pipe_.InitBuffer(acc_buf_, c_ * w_al_ * sizeof(float));
        pipe_.InitBuffer(mx_buf_, w_al_ * sizeof(float));
        pipe_.InitBuffer(sum_buf_, w_al_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t plane = od_ * oh_;
        for (uint32_t r = 0; r < row_cnt_; ++r) {
            uint32_t row = row_start_ + r;
            uint32_t n = row / plane;
            uint32_t rem = row % plane;
            process_row(n, rem / oh_, rem % oh_);
        }
    }

private:
    __aicore__ inline void process_row(uint32_t n, uint32_t o_d, uint32_t o_h)
    {
        LocalTensor<float> acc = acc_buf_.Get<float>();
        Duplicate(acc, NEG_BIG, c_ * w_al_);
        PipeBarrier<PIPE_V>();

        for (uint32_t kd = 0; kd < pk_; ++kd) {
            for (uint32_t kh = 0; kh < pk_; ++kh) {
                copy_in(n, o_d * pk_ + kd, o_h * pk_ + kh);
                softmax_acc(acc);
            }
        }
        pool_width(acc);
        copy_out(n, o_d, o_h);
    }

    __aicore__ inline void copy_in(uint32_t n, uint32_t id, uint32_t ih)
    {
        LocalTensor<float> xl = in_q_.AllocTensor<float>();
        uint64_t ch_stride = (uint64_t)d_ * h_ * w_;
        uint64_t base = (uint64_t)n * c_ * ch_stride + ((uint64_t)id * h_ + ih) * w_;
        // C lines of W elements, one per channel; each line lands on a 32B aligned slot of w_al_
        DataCopyExtParams prm{(uint16_t)c_, (uint32_t)(w_ * sizeof(float)),
                              (uint32_t)((ch_stride - w_) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(w_al_ - w_), 0.0f};
        DataCopyPad(xl, x_gm_[base], prm, pad);
        in_q_.EnQue(xl);
    }

    __aicore__ inline void softmax_acc(LocalTensor<float> &acc)
    {
        LocalTensor<float> xl = in_q_.DeQue<float>();
        LocalTensor<float> mx = mx_buf_.Get<float>();
        LocalTensor<float> sm = sum_buf_.Get<float>();

        // channel-wise max for numerical stability
        Adds(mx, xl, 0.0f, w_al_);
        PipeBarrier<PIPE_V>();
        for (uint32_t ch = 1; ch < c_; ++ch) {
            Max(mx, mx, xl[ch * w_al_], w_al_);
            PipeBarrier<PIPE_V>();
        }
        for (uint32_t ch = 0; ch < c_; ++ch) {
            Sub(xl[ch * w_al_], xl[ch * w_al_], mx, w_al_);
        }
        PipeBarrier<PIPE_V>();
        Exp(xl, xl, c_ * w_al_);
        PipeBarrier<PIPE_V>();

        Duplicate(sm, 0.0f, w_al_);
        PipeBarrier<PIPE_V>();
        for (uint32_t ch = 0; ch < c_; ++ch) {
            Add(sm, sm, xl[ch * w_al_], w_al_);
            PipeBarrier<PIPE_V>();
        }
        for (uint32_t ch = 0; ch < c_; ++ch) {
            Div(xl[ch * w_al_], xl[ch * w_al_], sm, w_al_);
        }
        PipeBarrier<PIPE_V>();
        // running max over the depth/height part of the pooling window
        Max(acc, acc, xl, c_ * w_al_);
        PipeBarrier<PIPE_V>();
        in_q_.FreeTensor(xl);
    }

    __aicore__ inline void pool_width(LocalTensor<float> &acc)
    {
        LocalTensor<float> yl = out_q_.AllocTensor<float>();
        event_t ev_vs = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev_vs);
        WaitFlag<HardEvent::V_S>(ev_vs);
        for (uint32_t ch = 0; ch < c_; ++ch) {
            uint32_t src = ch * w_al_;
            uint32_t dst = ch * ow_al_;
            for (uint32_t o = 0; o < ow_; ++o) {
                uint32_t p = src + o * pk_;
                float v = acc.GetValue(p);
                for (uint32_t k = 1; k < pk_; ++k) {
                    float t = acc.GetValue(p + k);
                    v = t > v ? t : v;
                }
                yl.SetValue(dst + o, v);
            }
        }
        event_t ev_sm = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev_sm);
        WaitFlag<HardEvent::S_MTE3>(ev_sm);
        out_q_.EnQue(yl);
    }

    __aicore__ inline void copy_out(uint32_t n, uint32_t o_d, uint32_t o_h)
    {
        LocalTensor<float> yl = out_q_.DeQue<float>();
        uint64_t o_ch = (uint64_t)od_ * oh_ * ow_;
        uint64_t base = (uint64_t)n * c_ * o_ch + ((uint64_t)o_d * oh_ + o_h) * ow_;
        DataCopyExtParams prm{(uint16_t)c_, (uint32_t)(ow_ * sizeof(float)), 0,
                              (uint32_t)((o_ch - ow_) * sizeof(float)), 0};
        DataCopyPad(y_gm_[base], yl, prm);
        out_q_.FreeTensor(yl);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> in_q_;
    TQue<QuePosition::VECOUT, 1> out_q_;
    TBuf<QuePosition::VECCALC> acc_buf_, mx_buf_, sum_buf_;
    GlobalTensor<float> x_gm_, y_gm_;

    uint32_t c_, d_, h_, w_;
    uint32_t od_, oh_, ow_, pk_;
    uint32_t w_al_, ow_al_;
    uint32_t row_start_, row_cnt_;
};

extern "C" __global__ __aicore__ void conv3d_softmax_max_pool_max_pool_custom(GM_ADDR x, GM_ADDR y,
                                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelSoftmaxDoublePool op;
    op.Init(x, y, td);
    op.Process();
}
