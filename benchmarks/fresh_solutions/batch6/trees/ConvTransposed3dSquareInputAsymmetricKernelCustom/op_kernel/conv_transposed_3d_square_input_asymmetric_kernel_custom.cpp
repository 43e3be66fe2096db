#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUF_NUM = 2;

// Transposed 3D convolution, stride 1, no padding, written in gather form:
//   y[n, co, od, oh, ow] = sum_{ci, kd, kh, kw} x[n, ci, od-kd, oh-kh, ow-kw] * w[ci, co, kd, kh, kw]
// A task is one output line (n, od, oh) for a chunk of output channels. For
// every (ci, kd, kh) the matching input line is brought in kw_n times, each
// copy shifted right by kw through DataCopyPad's left padding (zeros), so the
// contribution becomes a plain Axpy over aligned vectors:
//   acc[co][0:len] += w[ci, co, kd, kh, kw] * xs_kw[0:len]
class KernelConvT3d {
public:
    __aicore__ inline KernelConvT3d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed3dSquareInputAsymmetricKernelCustomTilingData &td)
    {
        c_in_ = td.c_in;
        c_out_ = td.c_out;
        id_ = td.id;
        ih_ = td.ih;
        iw_ = td.iw;
        kd_ = td.kd;
        kh_ = td.kh;
        kw_ = td.kw;
        od_ = td.od;
        oh_ = td.oh;
        ow_ = td.ow;
        ow_al_ = td.ow_al;
        co_blk_ = td.co_blk;
        k_vol_ = kd_ * kh_ * kw_;

        uint32_t blk = GetBlockIdx();
        row_beg_ = blk * td.rows_per_core;
        uint32_t row_end = row_beg_ + td.rows_per_core;
        if (row_end > td.row_total) {
            row_end = td.row_total;
        }
        row_num_ = row_end > row_beg_ ? row_end - row_beg_ : 0;

        x_gm_.SetGlobalBuffer((__gm__ float *)x);
        w_gm_.SetGlobalBuffer((__gm__ float *)w);
        y_gm_.SetGlobalBuffer((__gm__ float *)y);

        pipe_.InitBuffer(x_q_, BUF_NUM, kw_ * ow_al_ * sizeof(float));
        pipe_.InitBuffer(w_q_, 1, ((co_blk_ * k_vol_ + 7) / 8 * 8) * sizeof(float));
        pipe_.InitBuffer(y_q_, 1, co_blk_ * ow_al_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t per_n = od_ * oh_;
        for (uint32_t r = 0; r < row_num_; ++r) {
            uint32_t row = row_beg_ + r;
            uint32_t n = row / per_n;
            uint32_t o_d = (row % per_n) / oh_;
            uint32_t o_h = row % oh_;
            for (uint32_t co0 = 0; co0 < c_out_; co0 += co_blk_) {
                uint32_t cc = (c_out_ - co0) < co_blk_ ? (c_out_ - co0) : co_blk_;
                compute_line(n, o_d, o_h, co0, cc);
            }
        }
    }

private:
    __aicore__ inline void compute_line(uint32_t n, uint32_t o_d, uint32_t o_h, uint32_t co0, uint32_t cc)
    {
        LocalTensor<float> acc = y_q_.AllocTensor<float>();
        Duplicate(acc, 0.0f, cc * ow_al_);
        PipeBarrier<PIPE_V>();

        for (uint32_t ci = 0; ci < c_in_; ++ci) {
            LocalTensor<float> wl = load_weights(ci, co0, cc);
            for (uint32_t a = 0; a < kd_; ++a) {
                if (o_d < a || o_d - a >= id_) {
                    continue;
                }
                uint32_t i_d = o_d - a;
                for (uint32_t b = 0; b < kh_; ++b) {
                    if (o_h < b || o_h - b >= ih_) {
                        continue;
                    }
                    uint32_t i_h = o_h - b;
                    load_shifted(n, ci, i_d, i_h);
                    accumulate(acc, wl, a, b, cc);
                }
            }
            w_q_.FreeTensor(wl);
        }
        y_q_.EnQue(acc);
        store_line(n, o_d, o_h, co0, cc);
    }

    // w[ci, co0:co0+cc, :, :, :] is contiguous in GM
    __aicore__ inline LocalTensor<float> load_weights(uint32_t ci, uint32_t co0, uint32_t cc)
    {
        LocalTensor<float> wl = w_q_.AllocTensor<float>();
        uint64_t src = ((uint64_t)ci * c_out_ + co0) * k_vol_;
        DataCopyExtParams prm{1, (uint32_t)(cc * k_vol_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, w_gm_[src], prm, pad);
        w_q_.EnQue(wl);
        wl = w_q_.DeQue<float>();
        // weights are read as scalars below
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
        return wl;
    }

    // slot s holds x line shifted by s: xs_s[j] = x[j - s], zero for j < s
    __aicore__ inline void load_shifted(uint32_t n, uint32_t ci, uint32_t i_d, uint32_t i_h)
    {
        LocalTensor<float> xs = x_q_.AllocTensor<float>();
        uint64_t src = (((uint64_t)n * c_in_ + ci) * id_ + i_d) * ih_ * iw_ + (uint64_t)i_h * iw_;
        DataCopyExtParams prm{1, (uint32_t)(iw_ * sizeof(float)), 0, 0, 0};
        for (uint32_t s = 0; s < kw_; ++s) {
            uint32_t len = (s + iw_ + 7) / 8 * 8;
            uint8_t r_pad = (uint8_t)(len - s - iw_);
            DataCopyPadExtParams<float> pad{true, (uint8_t)s, r_pad, 0.0f};
            DataCopyPad(xs[s * ow_al_], x_gm_[src], prm, pad);
        }
        x_q_.EnQue(xs);
    }

    __aicore__ inline void accumulate(LocalTensor<float> &acc, LocalTensor<float> &wl, uint32_t a, uint32_t b,
                                      uint32_t cc)
    {
        LocalTensor<float> xs = x_q_.DeQue<float>();
        for (uint32_t co = 0; co < cc; ++co) {
            uint32_t wbase = co * k_vol_ + (a * kh_ + b) * kw_;
            for (uint32_t s = 0; s < kw_; ++s) {
                uint32_t len = (s + iw_ + 7) / 8 * 8;
                float wv = wl.GetValue(wbase + s);
                Axpy(acc[co * ow_al_], xs[s * ow_al_], wv, len);
                PipeBarrier<PIPE_V>();
            }
        }
        x_q_.FreeTensor(xs);
    }

    __aicore__ inline void store_line(uint32_t n, uint32_t o_d, uint32_t o_h, uint32_t co0, uint32_t cc)
    {
        LocalTensor<float> acc = y_q_.DeQue<float>();
        uint64_t ch_sz = (uint64_t)od_ * oh_ * ow_;
        uint64_t dst = ((uint64_t)n * c_out_ + co0) * ch_sz + ((uint64_t)o_d * oh_ + o_h) * ow_;
        DataCopyExtParams prm{(uint16_t)cc, (uint32_t)(ow_ * sizeof(float)), 0,
                              (uint32_t)((ch_sz - ow_) * sizeof(float)), 0};
        DataCopyPad(y_gm_[dst], acc, prm);
        y_q_.FreeTensor(acc);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> x_q_;
    TQue<QuePosition::VECIN, 1> w_q_;
    TQue<QuePosition::VECOUT, 1> y_q_;
    GlobalTensor<float> x_gm_, w_gm_, y_gm_;

    uint32_t c_in_, c_out_, id_, ih_, iw_;
    uint32_t kd_, kh_, kw_, k_vol_;
    uint32_t od_, oh_, ow_, ow_al_, co_blk_;
    uint32_t row_beg_, row_num_;
};

extern "C" __global__ __aicore__ void conv_transposed_3d_square_input_asymmetric_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConvT3d op;
    op.Init(x, weight, y, td);
    op.Process();
}
