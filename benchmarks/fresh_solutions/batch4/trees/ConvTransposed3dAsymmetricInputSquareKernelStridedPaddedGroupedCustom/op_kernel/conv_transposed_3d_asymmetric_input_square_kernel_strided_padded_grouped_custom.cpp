#include "kernel_operator.h"

using namespace AscendC;

// Transposed 3-D convolution computed as a gather over the output:
//   y[n, co, od, oh, ow] = sum_{ci in group, kd, kh, kw} x[n, ci, id, ih, iw] * w[ci, co_l, kd, kh, kw]
//   with od = id * s - p + kd (same for h and w).
// Per output row (n, co, od, oh) the valid (kd, id) / (kh, ih) pairs are fixed, so the
// rows x[n, ci, id, ih, :] are accumulated with Axpy into one partial row per kw
// (still indexed by iw). The stride along W is then resolved with Gather, using a
// precomputed byte-offset table per kw that maps ow -> iw or to a zero slot.

constexpr int32_t BUF_NUM = 2;
constexpr uint32_t MAX_KS = 8;

class ConvT3dKernel {
public:
    __aicore__ inline ConvT3dKernel() {}

    __aicore__ inline void init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGroupedCustomTilingData &td)
    {
        n_num_ = td.n_num; c_in_ = td.c_in; c_out_ = td.c_out;
        d_in_ = td.d_in; h_in_ = td.h_in; w_in_ = td.w_in;
        d_out_ = td.d_out; h_out_ = td.h_out; w_out_ = td.w_out;
        ks_ = td.ks; st_ = td.stride; pad_ = td.pad; grp_ = td.grp;
        cin_g_ = td.cin_g; cout_g_ = td.cout_g; co_blk_ = td.co_blk;
        w_in_pad_ = td.w_in_pad; w_out_pad_ = td.w_out_pad;
        k3_ = ks_ * ks_ * ks_;
        wci_len_ = (co_blk_ * k3_ + 7) / 8 * 8;
        n_chunk_ = cout_g_ / co_blk_;
        uint32_t tap_max = ((ks_ + st_ - 1) / st_) * ((ks_ + st_ - 1) / st_);

        item_beg_ = GetBlockIdx() * td.item_per;
        item_end_ = item_beg_ + td.item_per;
        if (item_end_ > td.item_num) {
            item_end_ = td.item_num;
        }

        x_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x),
                              static_cast<uint64_t>(n_num_) * c_in_ * d_in_ * h_in_ * w_in_);
        w_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(w), static_cast<uint64_t>(c_in_) * cout_g_ * k3_);
        y_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y),
                              static_cast<uint64_t>(n_num_) * c_out_ * d_out_ * h_out_ * w_out_);

        pipe_.InitBuffer(x_q_, BUF_NUM, tap_max * w_in_pad_ * sizeof(float));
        pipe_.InitBuffer(y_q_, BUF_NUM, w_out_pad_ * sizeof(float));
        pipe_.InitBuffer(w_buf_, cin_g_ * wci_len_ * sizeof(float));
        pipe_.InitBuffer(part_buf_, co_blk_ * ks_ * w_in_pad_ * sizeof(float));
        pipe_.InitBuffer(off_buf_, ks_ * w_out_pad_ * sizeof(uint32_t));
        pipe_.InitBuffer(gat_buf_, w_out_pad_ * sizeof(float));

        build_offsets();
    }

    __aicore__ inline void process()
    {
        int64_t cached = -1;
        for (uint32_t it = item_beg_; it < item_end_; ++it) {
            uint32_t od = it % d_out_;
            uint32_t rest = it / d_out_;
            uint32_t chunk = rest % n_chunk_;
            rest /= n_chunk_;
            uint32_t g = rest % grp_;
            uint32_t n = rest / grp_;

            // consecutive items share (n, g, chunk): reload weights only when it changes
            int64_t key = static_cast<int64_t>(rest) * n_chunk_ + chunk;
            if (key != cached) {
                load_weights(g, chunk);
                cached = key;
            }
            do_plane(n, g, chunk, od);
        }
    }

private:
    // offsets[kw][ow] (bytes) into one co's partial block [kw][w_in_pad]
    __aicore__ inline void build_offsets()
    {
        LocalTensor<uint32_t> off = off_buf_.Get<uint32_t>();
        for (uint32_t kw = 0; kw < ks_; ++kw) {
            uint32_t zero_slot = kw * w_in_pad_ + w_in_;
            for (uint32_t ow = 0; ow < w_out_pad_; ++ow) {
                uint32_t idx = zero_slot;
                int32_t t = static_cast<int32_t>(ow) + static_cast<int32_t>(pad_) - static_cast<int32_t>(kw);
                if (ow < w_out_ && t >= 0 && (t % static_cast<int32_t>(st_)) == 0) {
                    uint32_t iw = static_cast<uint32_t>(t) / st_;
                    if (iw < w_in_) {
                        idx = kw * w_in_pad_ + iw;
                    }
                }
                off.SetValue(kw * w_out_pad_ + ow, idx * static_cast<uint32_t>(sizeof(float)));
            }
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void load_weights(uint32_t g, uint32_t chunk)
    {
        LocalTensor<float> wl = w_buf_.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(co_blk_ * k3_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t ci = 0; ci < cin_g_; ++ci) {
            uint64_t src = (static_cast<uint64_t>(g * cin_g_ + ci) * cout_g_ + chunk * co_blk_) * k3_;
            DataCopyPad(wl[ci * wci_len_], w_gm_[src], cp, pad);
        }
        // weights are consumed by scalar reads
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    // valid (k, in) pairs for one output coordinate along D or H
    __aicore__ inline uint32_t taps_for(uint32_t o, uint32_t in_len, uint32_t *k_out, uint32_t *i_out) const
    {
        uint32_t cnt = 0;
        for (uint32_t k = 0; k < ks_; ++k) {
            int32_t t = static_cast<int32_t>(o) + static_cast<int32_t>(pad_) - static_cast<int32_t>(k);
            if (t < 0 || (t % static_cast<int32_t>(st_)) != 0) {
                continue;
            }
            uint32_t i = static_cast<uint32_t>(t) / st_;
            if (i >= in_len) {
                continue;
            }
            k_out[cnt] = k;
            i_out[cnt] = i;
            ++cnt;
        }
        return cnt;
    }

    __aicore__ inline void do_plane(uint32_t n, uint32_t g, uint32_t chunk, uint32_t od)
    {
        uint32_t kd_l[MAX_KS], id_l[MAX_KS], kh_l[MAX_KS], ih_l[MAX_KS];
        uint32_t nd = taps_for(od, d_in_, kd_l, id_l);
        LocalTensor<float> part = part_buf_.Get<float>();
        LocalTensor<float> wl = w_buf_.Get<float>();

        for (uint32_t oh = 0; oh < h_out_; ++oh) {
            uint32_t nh = taps_for(oh, h_in_, kh_l, ih_l);
            uint32_t ntap = nd * nh;

            // clears partial rows and the zero slots used by the gather
            Duplicate(part, 0.0f, co_blk_ * ks_ * w_in_pad_);

            for (uint32_t ci = 0; ci < cin_g_ && ntap > 0; ++ci) {
                uint32_t c = g * cin_g_ + ci;
                LocalTensor<float> xr = x_q_.AllocTensor<float>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(w_in_ * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
                for (uint32_t a = 0; a < nd; ++a) {
                    for (uint32_t b = 0; b < nh; ++b) {
                        uint64_t src = ((static_cast<uint64_t>(n) * c_in_ + c) * d_in_ + id_l[a]) * h_in_ + ih_l[b];
                        DataCopyPad(xr[(a * nh + b) * w_in_pad_], x_gm_[src * w_in_], cp, pd);
                    }
                }
                x_q_.EnQue(xr);
                LocalTensor<float> xv = x_q_.DeQue<float>();

                for (uint32_t co = 0; co < co_blk_; ++co) {
                    uint32_t wbase = ci * wci_len_ + co * k3_;
                    for (uint32_t a = 0; a < nd; ++a) {
                        for (uint32_t b = 0; b < nh; ++b) {
                            uint32_t wk = wbase + (kd_l[a] * ks_ + kh_l[b]) * ks_;
                            LocalTensor<float> row = xv[(a * nh + b) * w_in_pad_];
                            for (uint32_t kw = 0; kw < ks_; ++kw) {
                                float wv = wl.GetValue(wk + kw);
                                Axpy(part[(co * ks_ + kw) * w_in_pad_], row, wv, w_in_);
                            }
                        }
                    }
                }
                x_q_.FreeTensor(xv);
            }

            for (uint32_t co = 0; co < co_blk_; ++co) {
                emit_row(n, g * cout_g_ + chunk * co_blk_ + co, od, oh, part[co * ks_ * w_in_pad_]);
            }
        }
    }

    // scatter the kw partial rows onto the strided output positions and sum them
    __aicore__ inline void emit_row(uint32_t n, uint32_t co, uint32_t od, uint32_t oh, const LocalTensor<float> &src)
    {
        LocalTensor<uint32_t> off = off_buf_.Get<uint32_t>();
        LocalTensor<float> tmp = gat_buf_.Get<float>();
        LocalTensor<float> o = y_q_.AllocTensor<float>();
        Gather(o, src, off, 0, w_out_);
        for (uint32_t kw = 1; kw < ks_; ++kw) {
            Gather(tmp, src, off[kw * w_out_pad_], 0, w_out_);
            Add(o, o, tmp, w_out_);
        }
        y_q_.EnQue(o);

        LocalTensor<float> ov = y_q_.DeQue<float>();
        uint64_t dst = (((static_cast<uint64_t>(n) * c_out_ + co) * d_out_ + od) * h_out_ + oh) * w_out_;
        DataCopyExtParams cp{1, static_cast<uint32_t>(w_out_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(y_gm_[dst], ov, cp);
        y_q_.FreeTensor(ov);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> x_q_;
    TQue<QuePosition::VECOUT, BUF_NUM> y_q_;
    TBuf<TPosition::VECCALC> w_buf_, part_buf_, off_buf_, gat_buf_;
    GlobalTensor<float> x_gm_, w_gm_, y_gm_;
    uint32_t n_num_ = 0, c_in_ = 0, c_out_ = 0;
    uint32_t d_in_ = 0, h_in_ = 0, w_in_ = 0;
    uint32_t d_out_ = 0, h_out_ = 0, w_out_ = 0;
    uint32_t ks_ = 1, st_ = 1, pad_ = 0, grp_ = 1;
    uint32_t cin_g_ = 0, cout_g_ = 0, co_blk_ = 1, n_chunk_ = 1;
    uint32_t w_in_pad_ = 0, w_out_pad_ = 0, k3_ = 1, wci_len_ = 0;
    uint32_t item_beg_ = 0, item_end_ = 0;
};

extern "C" __global__ __aicore__ void conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ConvT3dKernel op;
    op.init(x, weight, y, td);
    op.process();
}
