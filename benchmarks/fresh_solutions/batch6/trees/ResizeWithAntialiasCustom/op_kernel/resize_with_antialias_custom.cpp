#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUF_NUM = 2;

// Antialiased bilinear resize, separable:
//   1) vertical: the input rows touched by output row oy are combined with the
//      triangle-filter weights into one row of length in_w (vector Muls/Axpy);
//   2) horizontal: for every tap k a Gather picks tmp[xmin[ox] + k] for all ox,
//      which is then multiplied by the per-column weight table and accumulated.
// Weight tables follow PyTorch's _upsample_bilinear2d_aa: support = scale for
// downsampling, weights normalised to sum to one.
class KernelAaResize {
public:
    __aicore__ inline KernelAaResize() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ResizeWithAntialiasCustomTilingData &td)
    {
        ih_ = td.ih;
        iw_ = td.iw;
        oh_ = td.oh;
        ow_ = td.ow;
        iw_al_ = td.iw_al;
        ow_al_ = td.ow_al;
        taps_h_ = td.taps_h;
        taps_w_ = td.taps_w;
        scale_h_ = td.scale_h;
        scale_w_ = td.scale_w;
        sup_h_ = td.sup_h;
        sup_w_ = td.sup_w;

        uint32_t blk = GetBlockIdx();
        row_beg_ = blk * td.rows_per_core;
        uint32_t row_end = row_beg_ + td.rows_per_core;
        if (row_end > td.row_total) {
            row_end = td.row_total;
        }
        row_num_ = row_end > row_beg_ ? row_end - row_beg_ : 0;

        x_gm_.SetGlobalBuffer((__gm__ float *)x);
        y_gm_.SetGlobalBuffer((__gm__ float *)y);

        pipe_.InitBuffer(in_q_, BUF_NUM, taps_h_ * iw_al_ * sizeof(float));
        pipe_.InitBuffer(out_q_, BUF_NUM, ow_al_ * sizeof(float));
        pipe_.InitBuffer(tmp_buf_, iw_al_ * sizeof(float));
        pipe_.InitBuffer(gat_buf_, ow_al_ * sizeof(float));
        pipe_.InitBuffer(wt_buf_, taps_w_ * ow_al_ * sizeof(float));
        pipe_.InitBuffer(off_buf_, taps_w_ * ow_al_ * sizeof(uint32_t));

        build_w_table();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < row_num_; ++r) {
            uint32_t row = row_beg_ + r;
            uint32_t plane = row / oh_;
            uint32_t oy = row % oh_;
            int32_t ymin;
            int32_t ysz;
            float wy[16];
            calc_taps(oy, scale_h_, sup_h_, ih_, ymin, ysz, wy);
            copy_in(plane, ymin, ysz);
            compute(ysz, wy);
            copy_out(plane, oy);
        }
    }

private:
    __aicore__ inline float tri_filter(float v)
    {
        if (v < 0.0f) {
            v = -v;
        }
        return v < 1.0f ? 1.0f - v : 0.0f;
    }

    // taps for one output coordinate (same formula for both axes)
    __aicore__ inline void calc_taps(uint32_t o, float scale, float support, uint32_t in_len,
                                     int32_t &lo, int32_t &cnt, float *wts)
    {
        float center = scale * ((float)o + 0.5f);
        float inv = scale >= 1.0f ? 1.0f / scale : 1.0f;
        lo = (int32_t)(center - support + 0.5f);
        if (lo < 0) {
            lo = 0;
        }
        int32_t hi = (int32_t)(center + support + 0.5f);
        if (hi > (int32_t)in_len) {
            hi = (int32_t)in_len;
        }
        cnt = hi - lo;
        float total = 0.0f;
        for (int32_t j = 0; j < cnt; ++j) {
            float wv = tri_filter(((float)(j + lo) - center + 0.5f) * inv);
            wts[j] = wv;
            total += wv;
        }
        float norm = total != 0.0f ? 1.0f / total : 0.0f;
        for (int32_t j = 0; j < cnt; ++j) {
            wts[j] *= norm;
        }
    }

    // per-column weights and byte offsets, laid out tap-major: [taps_w][ow_al]
    __aicore__ inline void build_w_table()
    {
        LocalTensor<float> wt = wt_buf_.Get<float>();
        LocalTensor<uint32_t> off = off_buf_.Get<uint32_t>();
        for (uint32_t ox = 0; ox < ow_al_; ++ox) {
            int32_t xmin = 0;
            int32_t xsz = 0;
            float wx[16];
            if (ox < ow_) {
                calc_taps(ox, scale_w_, sup_w_, iw_, xmin, xsz, wx);
            }
            for (uint32_t k = 0; k < taps_w_; ++k) {
                bool used = (int32_t)k < xsz;
                wt.SetValue(k * ow_al_ + ox, used ? wx[k] : 0.0f);
                uint32_t src = used ? (uint32_t)(xmin + (int32_t)k) : (uint32_t)xmin;
                off.SetValue(k * ow_al_ + ox, src * (uint32_t)sizeof(float));
            }
        }
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void copy_in(uint32_t plane, int32_t ymin, int32_t ysz)
    {
        LocalTensor<float> rows = in_q_.AllocTensor<float>();
        uint64_t base = ((uint64_t)plane * ih_ + (uint32_t)ymin) * iw_;
        DataCopyExtParams prm{(uint16_t)ysz, (uint32_t)(iw_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(iw_al_ - iw_), 0.0f};
        DataCopyPad(rows, x_gm_[base], prm, pad);
        in_q_.EnQue(rows);
    }

    __aicore__ inline void compute(int32_t ysz, const float *wy)
    {
        LocalTensor<float> rows = in_q_.DeQue<float>();
        LocalTensor<float> tmp = tmp_buf_.Get<float>();
        LocalTensor<float> gat = gat_buf_.Get<float>();
        LocalTensor<float> wt = wt_buf_.Get<float>();
        LocalTensor<uint32_t> off = off_buf_.Get<uint32_t>();
        LocalTensor<float> dst = out_q_.AllocTensor<float>();

        // vertical pass
        Muls(tmp, rows, wy[0], iw_al_);
        PipeBarrier<PIPE_V>();
        for (int32_t k = 1; k < ysz; ++k) {
            Axpy(tmp, rows[k * iw_al_], wy[k], iw_al_);
            PipeBarrier<PIPE_V>();
        }

        // horizontal pass
        Duplicate(dst, 0.0f, ow_al_);
        PipeBarrier<PIPE_V>();
        for (uint32_t k = 0; k < taps_w_; ++k) {
            Gather(gat, tmp, off[k * ow_al_], (uint32_t)0, ow_al_);
            PipeBarrier<PIPE_V>();
            Mul(gat, gat, wt[k * ow_al_], ow_al_);
            PipeBarrier<PIPE_V>();
            Add(dst, dst, gat, ow_al_);
            PipeBarrier<PIPE_V>();
        }
        out_q_.EnQue(dst);
        in_q_.FreeTensor(rows);
    }

    __aicore__ inline void copy_out(uint32_t plane, uint32_t oy)
    {
        LocalTensor<float> dst = out_q_.DeQue<float>();
        uint64_t base = ((uint64_t)plane * oh_ + oy) * ow_;
        DataCopyExtParams prm{1, (uint32_t)(ow_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(y_gm_[base], dst, prm);
        out_q_.FreeTensor(dst);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> in_q_;
    TQue<QuePosition::VECOUT, BUF_NUM> out_q_;
    TBuf<QuePosition::VECCALC> tmp_buf_, gat_buf_, wt_buf_, off_buf_;
    GlobalTensor<float> x_gm_, y_gm_;

    uint32_t ih_, iw_, oh_, ow_, iw_al_, ow_al_;
    uint32_t taps_h_, taps_w_;
    float scale_h_, scale_w_, sup_h_, sup_w_;
    uint32_t row_beg_, row_num_;
};

extern "C" __global__ __aicore__ void resize_with_antialias_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelAaResize op;
    op.Init(x, y, td);
    op.Process();
}
