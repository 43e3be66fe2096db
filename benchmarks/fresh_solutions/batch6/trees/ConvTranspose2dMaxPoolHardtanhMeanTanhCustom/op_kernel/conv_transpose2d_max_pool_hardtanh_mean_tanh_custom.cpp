#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUF_NUM = 2;
constexpr uint32_t LANES_PER_REPEAT = 64;   // fp32 lanes in one 256B repeat

// Every (n, c) plane collapses to one value, so a core takes a contiguous run
// of planes. Inside a plane, rows are streamed in groups of pr_blk row pairs:
//   vertical 2->1 max, horizontal 2->1 max via GatherMask (even / odd lanes),
//   clamp to [ht_min, ht_max], then added into a running row accumulator.
// At the end of a plane the accumulator is summed, scaled by 1/(oh*ow) and
// later passed through tanh together with the other planes of the core.
class KernelPoolClampMeanTanh {
public:
    __aicore__ inline KernelPoolClampMeanTanh() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y,
                                const ConvTranspose2dMaxPoolHardtanhMeanTanhCustomTilingData &td)
    {
        h_ = td.h;
        w_ = td.w;
        oh_ = td.oh;
        ow_ = td.ow;
        w_al_ = td.w_al;
        pw_ = td.w_al / 2;
        pr_blk_ = td.pr_blk;
        lo_ = td.ht_min;
        hi_ = td.ht_max;
        inv_cnt_ = 1.0f / (float)(td.oh * td.ow);

        uint32_t blk = GetBlockIdx();
        p_beg_ = blk * td.planes_per_core;
        uint32_t p_end = p_beg_ + td.planes_per_core;
        if (p_end > td.plane_total) {
            p_end = td.plane_total;
        }
        p_cnt_ = p_end > p_beg_ ? p_end - p_beg_ : 0;
        res_al_ = (td.planes_per_core + 7) / 8 * 8;

        x_gm_.SetGlobalBuffer((__gm__ float *)x);
        y_gm_.SetGlobalBuffer((__gm__ float *)y);

        pipe_.InitBuffer(in_q_, BUF_NUM, 2 * pr_blk_ * w_al_ * sizeof(float));
        pipe_.InitBuffer(vmax_buf_, pr_blk_ * w_al_ * sizeof(float));
        pipe_.InitBuffer(even_buf_, pr_blk_ * pw_ * sizeof(float) + 256);
        pipe_.InitBuffer(odd_buf_, pr_blk_ * pw_ * sizeof(float) + 256);
        pipe_.InitBuffer(acc_buf_, pw_ * sizeof(float));
        pipe_.InitBuffer(work_buf_, (pw_ + LANES_PER_REPEAT) * sizeof(float));
        pipe_.InitBuffer(sum_buf_, 8 * sizeof(float));
        pipe_.InitBuffer(res_buf_, res_al_ * sizeof(float));
        pipe_.InitBuffer(tmp_buf_, res_al_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (p_cnt_ == 0) {
            return;
        }
        LocalTensor<float> res = res_buf_.Get<float>();
        for (uint32_t i = 0; i < p_cnt_; ++i) {
            float mean_v = plane_mean(p_beg_ + i);
            res.SetValue(i, mean_v);
        }
        finish(res);
    }

private:
    __aicore__ inline float plane_mean(uint32_t plane)
    {
        LocalTensor<float> acc = acc_buf_.Get<float>();
        Duplicate(acc, 0.0f, pw_);
        PipeBarrier<PIPE_V>();
        for (uint32_t r0 = 0; r0 < oh_; r0 += pr_blk_) {
            uint32_t pc = (oh_ - r0) < pr_blk_ ? (oh_ - r0) : pr_blk_;
            load_rows(plane, r0, pc);
            reduce_rows(pc, acc);
        }
        // horizontal sum over the valid ow lanes only
        LocalTensor<float> sm = sum_buf_.Get<float>();
        LocalTensor<float> work = work_buf_.Get<float>();
        ReduceSum<float>(sm, acc, work, ow_);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return sm.GetValue(0) * inv_cnt_;
    }

    __aicore__ inline void load_rows(uint32_t plane, uint32_t r0, uint32_t pc)
    {
        LocalTensor<float> xl = in_q_.AllocTensor<float>();
        uint64_t src = ((uint64_t)plane * h_ + 2 * r0) * w_;
        uint32_t line_blk = (w_ + 7) / 8;
        DataCopyExtParams prm{(uint16_t)(2 * pc), (uint32_t)(w_ * sizeof(float)), 0,
                              w_al_ / 8 - line_blk, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, x_gm_[src], prm, pad);
        in_q_.EnQue(xl);
    }

    __aicore__ inline void reduce_rows(uint32_t pc, LocalTensor<float> &acc)
    {
        LocalTensor<float> xl = in_q_.DeQue<float>();
        LocalTensor<float> vmax = vmax_buf_.Get<float>();
        LocalTensor<float> ev = even_buf_.Get<float>();
        LocalTensor<float> od = odd_buf_.Get<float>();

        for (uint32_t p = 0; p < pc; ++p) {
            Max(vmax[p * w_al_], xl[2 * p * w_al_], xl[(2 * p + 1) * w_al_], w_al_);
        }
        PipeBarrier<PIPE_V>();
        in_q_.FreeTensor(xl);

        uint32_t len = pc * w_al_;
        uint64_t rsvd = 0;
        GatherMaskParams gp{1, (uint16_t)((len + LANES_PER_REPEAT - 1) / LANES_PER_REPEAT), 8, 0};
        GatherMask(ev, vmax, (uint8_t)1, false, 0, gp, rsvd);
        GatherMask(od, vmax, (uint8_t)2, false, 0, gp, rsvd);
        PipeBarrier<PIPE_V>();

        uint32_t plen = pc * pw_;
        Max(ev, ev, od, plen);
        PipeBarrier<PIPE_V>();
        // hardtanh
        Maxs(ev, ev, lo_, plen);
        PipeBarrier<PIPE_V>();
        Mins(ev, ev, hi_, plen);
        PipeBarrier<PIPE_V>();
        for (uint32_t p = 0; p < pc; ++p) {
            Add(acc, acc, ev[p * pw_], pw_);
            PipeBarrier<PIPE_V>();
        }
    }

    // tanh(m) = 1 - 2 / (exp(2m) + 1), applied to all plane means of this core
    __aicore__ inline void finish(LocalTensor<float> &res)
    {
        LocalTensor<float> tmp = tmp_buf_.Get<float>();
        event_t ev_sv = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev_sv);
        WaitFlag<HardEvent::S_V>(ev_sv);

        Muls(tmp, res, 2.0f, res_al_);
        PipeBarrier<PIPE_V>();
        Exp(tmp, tmp, res_al_);
        PipeBarrier<PIPE_V>();
        Adds(tmp, tmp, 1.0f, res_al_);
        PipeBarrier<PIPE_V>();
        Duplicate(res, 2.0f, res_al_);
        PipeBarrier<PIPE_V>();
        Div(tmp, res, tmp, res_al_);
        PipeBarrier<PIPE_V>();
        Duplicate(res, 1.0f, res_al_);
        PipeBarrier<PIPE_V>();
        Sub(res, res, tmp, res_al_);

        event_t ev_vm = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(ev_vm);
        WaitFlag<HardEvent::V_MTE3>(ev_vm);
        DataCopyExtParams prm{1, (uint32_t)(p_cnt_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(y_gm_[p_beg_], res, prm);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> in_q_;
    TBuf<QuePosition::VECCALC> vmax_buf_, even_buf_, odd_buf_, acc_buf_, work_buf_, sum_buf_, res_buf_, tmp_buf_;
    GlobalTensor<float> x_gm_, y_gm_;

    uint32_t h_, w_, oh_, ow_, w_al_, pw_, pr_blk_;
    float lo_, hi_, inv_cnt_;
    uint32_t p_beg_, p_cnt_, res_al_;
};

extern "C" __global__ __aicore__ void conv_transpose2d_max_pool_hardtanh_mean_tanh_custom(GM_ADDR x, GM_ADDR y,
                                                                                          GM_ADDR workspace,
                                                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelPoolClampMeanTanh op;
    op.Init(x, y, td);
    op.Process();
}
