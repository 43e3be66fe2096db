#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUF_NUM = 2;

// GRU recurrence for one direction of one layer.
//   gi  : [T, B, 3H]  precomputed x W_ih^T + b_ih
//   wt  : [H, 3H]     W_hh transposed
//   bh  : [3H]        b_hh
//   h0  : [B, H]
// Batch rows are independent, so each core takes a few rows and runs the whole
// time loop without any cross-core synchronisation. gh = h W_hh^T + b_hh is
// accumulated row by row of wt (Axpy with the scalar h[k]), the wt rows are
// streamed from GM in chunks of k_blk rows and shared by all local batch rows.
class KernelGruDir {
public:
    __aicore__ inline KernelGruDir() {}

    __aicore__ inline void Init(GM_ADDR gi, GM_ADDR wt, GM_ADDR bh, GM_ADDR h0, GM_ADDR y, GM_ADDR hn,
                                const GruBidirectionalHiddenCustomTilingData &td)
    {
        t_len_ = td.t_len;
        bsz_ = td.bsz;
        hid_ = td.hid;
        g3_ = 3 * td.hid;
        k_blk_ = td.k_blk;
        reverse_ = td.reverse;

        uint32_t blk = GetBlockIdx();
        b_beg_ = blk * td.b_per_core;
        uint32_t b_end = b_beg_ + td.b_per_core;
        if (b_end > bsz_) {
            b_end = bsz_;
        }
        lb_ = b_end > b_beg_ ? b_end - b_beg_ : 0;

        gi_gm_.SetGlobalBuffer((__gm__ float *)gi);
        wt_gm_.SetGlobalBuffer((__gm__ float *)wt);
        bh_gm_.SetGlobalBuffer((__gm__ float *)bh);
        h0_gm_.SetGlobalBuffer((__gm__ float *)h0);
        y_gm_.SetGlobalBuffer((__gm__ float *)y);
        hn_gm_.SetGlobalBuffer((__gm__ float *)hn);

        uint32_t max_lb = td.b_per_core;
        pipe_.InitBuffer(w_q_, BUF_NUM, k_blk_ * g3_ * sizeof(float));
        pipe_.InitBuffer(gi_q_, 1, max_lb * g3_ * sizeof(float));
        pipe_.InitBuffer(y_q_, 1, max_lb * hid_ * sizeof(float));
        pipe_.InitBuffer(h_buf_, max_lb * hid_ * sizeof(float));
        pipe_.InitBuffer(gh_buf_, max_lb * g3_ * sizeof(float));
        pipe_.InitBuffer(bh_buf_, g3_ * sizeof(float));
        pipe_.InitBuffer(tmp_buf_, 2 * hid_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (lb_ == 0) {
            return;
        }
        load_state();
        for (uint32_t s = 0; s < t_len_; ++s) {
            uint32_t t = reverse_ ? (t_len_ - 1 - s) : s;
            hidden_proj();
            load_gi(t);
            gate_update();
            store_step(t);
        }
        store_last();
    }

private:
    __aicore__ inline void sync_mte2_v()
    {
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
    }

    __aicore__ inline void sync_v_s()
    {
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    __aicore__ inline void load_state()
    {
        LocalTensor<float> h = h_buf_.Get<float>();
        LocalTensor<float> bh = bh_buf_.Get<float>();
        DataCopy(h, h0_gm_[(uint64_t)b_beg_ * hid_], lb_ * hid_);
        DataCopy(bh, bh_gm_, g3_);
        sync_mte2_v();
    }

    // gh[b] = b_hh + sum_k h[b][k] * wt[k, :]
    __aicore__ inline void hidden_proj()
    {
        LocalTensor<float> h = h_buf_.Get<float>();
        LocalTensor<float> gh = gh_buf_.Get<float>();
        LocalTensor<float> bh = bh_buf_.Get<float>();
        for (uint32_t b = 0; b < lb_; ++b) {
            Adds(gh[b * g3_], bh, 0.0f, g3_);
        }
        PipeBarrier<PIPE_V>();
        sync_v_s();   // h is read by the scalar unit below

        for (uint32_t k0 = 0; k0 < hid_; k0 += k_blk_) {
            uint32_t kc = (hid_ - k0) < k_blk_ ? (hid_ - k0) : k_blk_;
            LocalTensor<float> wl = w_q_.AllocTensor<float>();
            DataCopy(wl, wt_gm_[(uint64_t)k0 * g3_], kc * g3_);
            w_q_.EnQue(wl);
            wl = w_q_.DeQue<float>();
            for (uint32_t b = 0; b < lb_; ++b) {
                for (uint32_t k = 0; k < kc; ++k) {
                    float hk = h.GetValue(b * hid_ + k0 + k);
                    Axpy(gh[b * g3_], wl[k * g3_], hk, g3_);
                    PipeBarrier<PIPE_V>();
                }
            }
            w_q_.FreeTensor(wl);
        }
    }

    __aicore__ inline void load_gi(uint32_t t)
    {
        LocalTensor<float> gl = gi_q_.AllocTensor<float>();
        DataCopy(gl, gi_gm_[((uint64_t)t * bsz_ + b_beg_) * g3_], lb_ * g3_);
        gi_q_.EnQue(gl);
    }

    // sigmoid(x) = 1 / (1 + exp(-x)), in place
    __aicore__ inline void sigmoid_ip(const LocalTensor<float> &v, uint32_t len)
    {
        Muls(v, v, -1.0f, len);
        PipeBarrier<PIPE_V>();
        Exp(v, v, len);
        PipeBarrier<PIPE_V>();
        Adds(v, v, 1.0f, len);
        PipeBarrier<PIPE_V>();
        Reciprocal(v, v, len);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void gate_update()
    {
        LocalTensor<float> gl = gi_q_.DeQue<float>();
        LocalTensor<float> gh = gh_buf_.Get<float>();
        LocalTensor<float> h = h_buf_.Get<float>();
        LocalTensor<float> tmp = tmp_buf_.Get<float>();
        LocalTensor<float> yl = y_q_.AllocTensor<float>();

        for (uint32_t b = 0; b < lb_; ++b) {
            LocalTensor<float> gi_b = gl[b * g3_];
            LocalTensor<float> gh_b = gh[b * g3_];
            LocalTensor<float> h_b = h[b * hid_];
            // r, z gates: gi[0:2H] + gh[0:2H] -> sigmoid
            Add(gi_b, gi_b, gh_b, 2 * hid_);
            PipeBarrier<PIPE_V>();
            sigmoid_ip(gi_b, 2 * hid_);
            LocalTensor<float> r = gi_b;
            LocalTensor<float> z = gi_b[hid_];
            LocalTensor<float> n = gi_b[2 * hid_];

            // n = tanh(gi_n + r * gh_n), tanh(x) = 2 * sigmoid(2x) - 1
            Mul(tmp, r, gh_b[2 * hid_], hid_);
            PipeBarrier<PIPE_V>();
            Add(n, n, tmp, hid_);
            PipeBarrier<PIPE_V>();
            Muls(n, n, 2.0f, hid_);
            PipeBarrier<PIPE_V>();
            sigmoid_ip(n, hid_);
            Muls(n, n, 2.0f, hid_);
            PipeBarrier<PIPE_V>();
            Adds(n, n, -1.0f, hid_);
            PipeBarrier<PIPE_V>();

            // h' = n + z * (h - n)
            Sub(tmp, h_b, n, hid_);
            PipeBarrier<PIPE_V>();
            Mul(tmp, tmp, z, hid_);
            PipeBarrier<PIPE_V>();
            Add(h_b, n, tmp, hid_);
            PipeBarrier<PIPE_V>();
            Adds(yl[b * hid_], h_b, 0.0f, hid_);
        }
        PipeBarrier<PIPE_V>();
        y_q_.EnQue(yl);
        gi_q_.FreeTensor(gl);
    }

    __aicore__ inline void store_step(uint32_t t)
    {
        LocalTensor<float> yl = y_q_.DeQue<float>();
        DataCopy(y_gm_[((uint64_t)t * bsz_ + b_beg_) * hid_], yl, lb_ * hid_);
        y_q_.FreeTensor(yl);
    }

    __aicore__ inline void store_last()
    {
        LocalTensor<float> h = h_buf_.Get<float>();
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(ev);
        WaitFlag<HardEvent::V_MTE3>(ev);
        DataCopy(hn_gm_[(uint64_t)b_beg_ * hid_], h, lb_ * hid_);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> w_q_;
    TQue<QuePosition::VECIN, 1> gi_q_;
    TQue<QuePosition::VECOUT, 1> y_q_;
    TBuf<QuePosition::VECCALC> h_buf_, gh_buf_, bh_buf_, tmp_buf_;
    GlobalTensor<float> gi_gm_, wt_gm_, bh_gm_, h0_gm_, y_gm_, hn_gm_;

    uint32_t t_len_, bsz_, hid_, g3_, k_blk_, reverse_;
    uint32_t b_beg_, lb_;
};

extern "C" __global__ __aicore__ void gru_bidirectional_hidden_custom(GM_ADDR gi, GM_ADDR w_hh_t, GM_ADDR b_hh,
                                                                     GM_ADDR h0, GM_ADDR y, GM_ADDR h_n,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelGruDir op;
    op.Init(gi, w_hh_t, b_hh, h0, y, h_n, td);
    op.Process();
}
