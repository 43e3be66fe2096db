#include "kernel_operator.h"

using namespace AscendC;

// For one sample n and channel c (S = D*H*W elements):
//   z      = m_c * y
//   zn     = (z - mean(z)) / sqrt(var(z) + eps)        = y * a_c + b_c
//            with a_c = m_c / sqrt(m_c^2 var(y) + eps), b_c = -mean(y) * a_c
//   out[n] = max_c( clamp(zn, lo, hi) * m_c )
// Sweep 1 gets mean/var of y per channel, sweep 2 walks the spatial tiles once and
// folds all channels into a running max.

constexpr int32_t BUF_NUM = 2;
constexpr uint32_t C_MAX = 64;

class InstNormClampMaxKernel {
public:
    __aicore__ inline InstNormClampMaxKernel() {}

    __aicore__ inline void init(GM_ADDR y, GM_ADDR mul, GM_ADDR out,
                                const Conv3dMultiplyInstanceNormClampMultiplyMaxCustomTilingData &td)
    {
        n_num_ = td.n_num;
        c_num_ = td.c_num;
        sp_ = td.sp;
        tile_len_ = td.tile_len;
        tile_num_ = td.tile_num;
        tail_len_ = td.tail_len;
        lo_ = td.lo;
        hi_ = td.hi;
        eps_ = td.eps;

        n_beg_ = GetBlockIdx() * td.n_per;
        n_end_ = n_beg_ + td.n_per;
        if (n_end_ > n_num_) {
            n_end_ = n_num_;
        }

        y_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), static_cast<uint64_t>(n_num_) * c_num_ * sp_);
        m_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(mul), c_num_);
        o_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), static_cast<uint64_t>(n_num_) * sp_);

        uint32_t bytes = tile_len_ * sizeof(float);
        pipe_.InitBuffer(in_q_, BUF_NUM, bytes);
        pipe_.InitBuffer(out_q_, BUF_NUM, bytes);
        pipe_.InitBuffer(acc_buf_, bytes);
        pipe_.InitBuffer(acc2_buf_, bytes);
        pipe_.InitBuffer(work_buf_, bytes);
        pipe_.InitBuffer(ch_buf_, C_MAX * sizeof(float));
        pipe_.InitBuffer(red_buf_, 64 * sizeof(float));

        for (uint32_t c = 0; c < c_num_; ++c) {
            m_val_[c] = m_gm_.GetValue(c);
        }
    }

    __aicore__ inline void process()
    {
        for (uint32_t n = n_beg_; n < n_end_; ++n) {
            for (uint32_t c = 0; c < c_num_; ++c) {
                stats(n, c, mean_[c], var_[c]);
            }
            make_factors();
            fuse(n);
        }
    }

private:
    __aicore__ inline uint32_t len_of(uint32_t t) const { return t == tile_num_ - 1 ? tail_len_ : tile_len_; }

    __aicore__ inline void v_to_s()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void s_to_v()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void fetch(uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = in_q_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, y_gm_[off], cp, pad);
        in_q_.EnQue(t);
    }

    __aicore__ inline void stats(uint32_t n, uint32_t c, float &mean, float &var)
    {
        LocalTensor<float> s = acc_buf_.Get<float>();
        LocalTensor<float> q = acc2_buf_.Get<float>();
        LocalTensor<float> w = work_buf_.Get<float>();
        Duplicate(s, 0.0f, tile_len_);
        Duplicate(q, 0.0f, tile_len_);
        uint64_t base = (static_cast<uint64_t>(n) * c_num_ + c) * sp_;
        for (uint32_t t = 0; t < tile_num_; ++t) {
            uint32_t len = len_of(t);
            fetch(base + static_cast<uint64_t>(t) * tile_len_, len);
            LocalTensor<float> x = in_q_.DeQue<float>();
            Add(s, s, x, len);
            Mul(w, x, x, len);
            Add(q, q, w, len);
            in_q_.FreeTensor(x);
        }
        LocalTensor<float> red = red_buf_.Get<float>();
        ReduceSum<float>(red, s, w, tile_len_);
        ReduceSum<float>(red[8], q, w, tile_len_);
        v_to_s();
        float inv = 1.0f / static_cast<float>(sp_);
        mean = red.GetValue(0) * inv;
        var = red.GetValue(8) * inv - mean * mean;
        if (var < 0.0f) {
            var = 0.0f;
        }
        s_to_v();
    }

    // a_c, b_c for all channels at once (vector sqrt on a small buffer)
    __aicore__ inline void make_factors()
    {
        LocalTensor<float> v = ch_buf_.Get<float>();
        for (uint32_t c = 0; c < C_MAX; ++c) {
            float val = 1.0f;
            if (c < c_num_) {
                val = m_val_[c] * m_val_[c] * var_[c] + eps_;
            }
            v.SetValue(c, val);
        }
        s_to_v();
        Sqrt(v, v, C_MAX);
        v_to_s();
        for (uint32_t c = 0; c < c_num_; ++c) {
            a_[c] = m_val_[c] / v.GetValue(c);
            b_[c] = -mean_[c] * a_[c];
        }
    }

    __aicore__ inline void fuse(uint32_t n)
    {
        LocalTensor<float> z = work_buf_.Get<float>();
        for (uint32_t t = 0; t < tile_num_; ++t) {
            uint32_t len = len_of(t);
            uint64_t sp_off = static_cast<uint64_t>(t) * tile_len_;
            LocalTensor<float> best = out_q_.AllocTensor<float>();
            for (uint32_t c = 0; c < c_num_; ++c) {
                fetch((static_cast<uint64_t>(n) * c_num_ + c) * sp_ + sp_off, len);
                LocalTensor<float> x = in_q_.DeQue<float>();
                Muls(z, x, a_[c], len);
                Adds(z, z, b_[c], len);
                Maxs(z, z, lo_, len);
                Mins(z, z, hi_, len);
                if (c == 0) {
                    Muls(best, z, m_val_[c], len);
                } else {
                    Muls(z, z, m_val_[c], len);
                    Max(best, best, z, len);
                }
                in_q_.FreeTensor(x);
            }
            out_q_.EnQue(best);

            LocalTensor<float> ov = out_q_.DeQue<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(o_gm_[static_cast<uint64_t>(n) * sp_ + sp_off], ov, cp);
            out_q_.FreeTensor(ov);
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> in_q_;
    TQue<QuePosition::VECOUT, BUF_NUM> out_q_;
    TBuf<TPosition::VECCALC> acc_buf_, acc2_buf_, work_buf_, ch_buf_, red_buf_;
    GlobalTensor<float> y_gm_, m_gm_, o_gm_;
    float m_val_[C_MAX];
    float mean_[C_MAX];
    float var_[C_MAX];
    float a_[C_MAX];
    float b_[C_MAX];
    uint32_t n_num_ = 0, c_num_ = 0, sp_ = 0;
    uint32_t tile_len_ = 0, tile_num_ = 0, tail_len_ = 0;
    uint32_t n_beg_ = 0, n_end_ = 0;
    float lo_ = -1.0f, hi_ = 1.0f, eps_ = 1e-5f;
};

extern "C" __global__ __aicore__ void conv3d_multiply_instance_norm_clamp_multiply_max_custom(
    GM_ADDR y, GM_ADDR multiplier, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    InstNormClampMaxKernel op;
    op.init(y, multiplier, out, td);
    op.process();
}
