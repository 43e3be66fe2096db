#include "kernel_operator.h"

using namespace AscendC;

// For every batch b (layout B x K x D):
//   r[k, :]  = vlad[b, k, :] - a_sum[b, k] * c2t[k, :]
//   r[k, :] /= max(||r[k, :]||, eps)            (intra normalisation)
//   r       /= max(||r||_F, eps)                 (global normalisation)
// Two sweeps over the rows of a batch: the first only collects squared row norms,
// the second rebuilds the residual and applies the combined scale.

constexpr uint32_t BUF_NUM = 2;
constexpr uint32_t K_PAD = 128;   // upper bound on clusters (checked on host)

class NetVladNormKernel {
public:
    __aicore__ inline NetVladNormKernel() {}

    __aicore__ inline void init(GM_ADDR vlad, GM_ADDR a_sum, GM_ADDR c2t, GM_ADDR out,
                                uint32_t b_num, uint32_t k_num, uint32_t d_num,
                                uint32_t b_per, uint32_t k_blk, float eps)
    {
        k_num_ = k_num;
        d_num_ = d_num;
        k_blk_ = k_blk;
        eps_ = eps;

        uint32_t blk = GetBlockIdx();
        b_beg_ = blk * b_per;
        b_end_ = b_beg_ + b_per;
        if (b_end_ > b_num) {
            b_end_ = b_num;
        }

        uint64_t kd = static_cast<uint64_t>(k_num) * d_num;
        vlad_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(vlad), kd * b_num);
        out_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), kd * b_num);
        asum_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a_sum), static_cast<uint64_t>(b_num) * k_num);
        c2_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c2t), kd);

        uint32_t tile_bytes = k_blk * d_num * sizeof(float);
        pipe_.InitBuffer(in_q_, BUF_NUM, tile_bytes);
        pipe_.InitBuffer(out_q_, BUF_NUM, tile_bytes);
        pipe_.InitBuffer(c2_buf_, static_cast<uint32_t>(kd * sizeof(float)));
        pipe_.InitBuffer(sq_buf_, d_num * sizeof(float));
        pipe_.InitBuffer(red_buf_, 64 * sizeof(float));
        pipe_.InitBuffer(work_buf_, d_num * sizeof(float));
        pipe_.InitBuffer(asum_buf_, K_PAD * sizeof(float));
        pipe_.InitBuffer(ss_buf_, K_PAD * sizeof(float));
        pipe_.InitBuffer(scl_buf_, K_PAD * sizeof(float));
        pipe_.InitBuffer(tmp_buf_, K_PAD * sizeof(float));
    }

    __aicore__ inline void process()
    {
        if (b_beg_ >= b_end_) {
            return;
        }
        // cluster centres are shared by all batches: keep them resident
        LocalTensor<float> c2 = c2_buf_.Get<float>();
        DataCopy(c2, c2_gm_, k_num_ * d_num_);
        sync_mte2_v();

        for (uint32_t b = b_beg_; b < b_end_; ++b) {
            load_asum(b);
            collect_norms(b);
            make_scales();
            apply(b);
        }
    }

private:
    __aicore__ inline void sync_mte2_v()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
    }
    __aicore__ inline void sync_mte2_s()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }
    __aicore__ inline void sync_v_s()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void sync_s_v()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void load_asum(uint32_t b)
    {
        LocalTensor<float> as = asum_buf_.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(k_num_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(as, asum_gm_[static_cast<uint64_t>(b) * k_num_], cp, pad);
        sync_mte2_s();
        for (uint32_t k = 0; k < k_num_; ++k) {
            a_val_[k] = as.GetValue(k);
        }
    }

    __aicore__ inline void copy_tile_in(uint32_t b, uint32_t k0, uint32_t rows)
    {
        LocalTensor<float> t = in_q_.AllocTensor<float>();
        uint64_t off = (static_cast<uint64_t>(b) * k_num_ + k0) * d_num_;
        DataCopy(t, vlad_gm_[off], rows * d_num_);
        in_q_.EnQue(t);
    }

    // residual in place: row -= a_sum[k] * c2[k]
    __aicore__ inline void residual(LocalTensor<float> &t, uint32_t k0, uint32_t rows)
    {
        LocalTensor<float> c2 = c2_buf_.Get<float>();
        for (uint32_t r = 0; r < rows; ++r) {
            uint32_t k = k0 + r;
            Axpy(t[r * d_num_], c2[k * d_num_], -a_val_[k], d_num_);
        }
    }

    __aicore__ inline void collect_norms(uint32_t b)
    {
        LocalTensor<float> ss = ss_buf_.Get<float>();
        LocalTensor<float> sq = sq_buf_.Get<float>();
        LocalTensor<float> red = red_buf_.Get<float>();
        LocalTensor<float> work = work_buf_.Get<float>();
        for (uint32_t k0 = 0; k0 < k_num_; k0 += k_blk_) {
            uint32_t rows = (k_num_ - k0 < k_blk_) ? (k_num_ - k0) : k_blk_;
            copy_tile_in(b, k0, rows);
            LocalTensor<float> t = in_q_.DeQue<float>();
            residual(t, k0, rows);
            for (uint32_t r = 0; r < rows; ++r) {
                Mul(sq, t[r * d_num_], t[r * d_num_], d_num_);
                ReduceSum<float>(red, sq, work, d_num_);
                sync_v_s();
                ss.SetValue(k0 + r, red.GetValue(0));
            }
            in_q_.FreeTensor(t);
        }
        // zero the padding so the global sum ignores it
        for (uint32_t k = k_num_; k < K_PAD; ++k) {
            ss.SetValue(k, 0.0f);
        }
        sync_s_v();
    }

    // scl[k] = 1 / max(|r_k|, eps) / max(|R|, eps), with |R|^2 = sum_k (|r_k| / max(|r_k|, eps))^2
    __aicore__ inline void make_scales()
    {
        LocalTensor<float> ss = ss_buf_.Get<float>();
        LocalTensor<float> scl = scl_buf_.Get<float>();
        LocalTensor<float> tmp = tmp_buf_.Get<float>();
        LocalTensor<float> red = red_buf_.Get<float>();
        LocalTensor<float> work = work_buf_.Get<float>();

        Sqrt(tmp, ss, K_PAD);
        Maxs(tmp, tmp, eps_, K_PAD);
        Duplicate(scl, 1.0f, K_PAD);
        Div(scl, scl, tmp, K_PAD);            // row scale
        Mul(tmp, ss, scl, K_PAD);
        Mul(tmp, tmp, scl, K_PAD);            // squared norm after intra normalisation
        ReduceSum<float>(red, tmp, work, K_PAD);
        sync_v_s();
        float tot = red.GetValue(0);
        sync_s_v();
        Duplicate(tmp, tot, K_PAD);
        Sqrt(tmp, tmp, K_PAD);
        Maxs(tmp, tmp, eps_, K_PAD);
        Div(scl, scl, tmp, K_PAD);
        sync_v_s();
        for (uint32_t k = 0; k < k_num_; ++k) {
            f_scl_[k] = scl.GetValue(k);
        }
    }

    __aicore__ inline void apply(uint32_t b)
    {
        for (uint32_t k0 = 0; k0 < k_num_; k0 += k_blk_) {
            uint32_t rows = (k_num_ - k0 < k_blk_) ? (k_num_ - k0) : k_blk_;
            copy_tile_in(b, k0, rows);
            LocalTensor<float> t = in_q_.DeQue<float>();
            LocalTensor<float> o = out_q_.AllocTensor<float>();
            residual(t, k0, rows);
            for (uint32_t r = 0; r < rows; ++r) {
                Muls(o[r * d_num_], t[r * d_num_], f_scl_[k0 + r], d_num_);
            }
            out_q_.EnQue(o);
            in_q_.FreeTensor(t);

            LocalTensor<float> ov = out_q_.DeQue<float>();
            uint64_t off = (static_cast<uint64_t>(b) * k_num_ + k0) * d_num_;
            DataCopy(out_gm_[off], ov, rows * d_num_);
            out_q_.FreeTensor(ov);
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> in_q_;
    TQue<QuePosition::VECOUT, BUF_NUM> out_q_;
    TBuf<TPosition::VECCALC> c2_buf_, sq_buf_, red_buf_, work_buf_, asum_buf_, ss_buf_, scl_buf_, tmp_buf_;
    GlobalTensor<float> vlad_gm_, asum_gm_, c2_gm_, out_gm_;
    float a_val_[K_PAD];
    float f_scl_[K_PAD];
    uint32_t k_num_ = 0;
    uint32_t d_num_ = 0;
    uint32_t k_blk_ = 1;
    uint32_t b_beg_ = 0;
    uint32_t b_end_ = 0;
    float eps_ = 1e-12f;
};

extern "C" __global__ __aicore__ void net_vlad_with_ghost_clusters_custom(GM_ADDR vlad, GM_ADDR a_sum, GM_ADDR c2t,
                                                                          GM_ADDR out, GM_ADDR workspace,
                                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    NetVladNormKernel op;
    op.init(vlad, a_sum, c2t, out, td.b_num, td.k_num, td.d_num, td.b_per, td.k_blk, td.eps);
    op.process();
}
