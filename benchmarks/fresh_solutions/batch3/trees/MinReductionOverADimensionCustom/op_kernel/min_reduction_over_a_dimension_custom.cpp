#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t STAGE_CAP = 64;

__aicore__ inline uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

// Key 0: x viewed as [outer, red, inner], inner > 1.
// Work unit = (o, slice of inner). Several reduced rows of the slice are pulled in
// by one strided DMA, then folded into the running minimum with element-wise Min.
class KernelMinCols {
public:
    __aicore__ inline KernelMinCols() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MinReductionOverADimensionCustomTilingData& td)
    {
        red_ = td.red;
        inner_ = td.inner;
        in_tile_ = td.in_tile;
        slice_num_ = td.slice_num;
        rows_ld_ = td.rows_ld;
        uint32_t bid = GetBlockIdx();
        u_cnt_ = td.unit_per_blk + (bid < td.unit_rem ? 1 : 0);
        u_beg_ = bid * td.unit_per_blk + min_u32(bid, td.unit_rem);

        x_gm_.SetGlobalBuffer((__gm__ float*)x);
        y_gm_.SetGlobalBuffer((__gm__ float*)y);
        pipe_.InitBuffer(in_q_, BUFFER_NUM, rows_ld_ * in_tile_ * sizeof(float));
        pipe_.InitBuffer(out_q_, 1, in_tile_ * sizeof(float));
        pipe_.InitBuffer(acc_buf_, in_tile_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < u_cnt_; ++u) {
            uint32_t unit = u_beg_ + u;
            uint32_t o = unit / slice_num_;
            uint32_t i0 = (unit % slice_num_) * in_tile_;
            uint32_t iw = min_u32(in_tile_, inner_ - i0);
            uint64_t base = static_cast<uint64_t>(o) * red_ * inner_ + i0;

            bool first = true;
            for (uint32_t r = 0; r < red_; r += rows_ld_) {
                uint32_t nr = min_u32(rows_ld_, red_ - r);
                load_rows(base + static_cast<uint64_t>(r) * inner_, nr, iw);
                fold(nr, iw, first);
                first = false;
            }
            store(static_cast<uint64_t>(o) * inner_ + i0, iw);
        }
    }

private:
    __aicore__ inline void load_rows(uint64_t off, uint32_t nr, uint32_t iw)
    {
        LocalTensor<float> t = in_q_.AllocTensor<float>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(nr);
        cp.blockLen = iw * sizeof(float);
        cp.srcStride = (inner_ - iw) * sizeof(float);
        cp.dstStride = (in_tile_ - (iw + 7) / 8 * 8) / 8;
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, x_gm_[off], cp, pad);
        in_q_.EnQue(t);
    }

    __aicore__ inline void fold(uint32_t nr, uint32_t iw, bool first)
    {
        LocalTensor<float> t = in_q_.DeQue<float>();
        LocalTensor<float> acc = acc_buf_.Get<float>();
        uint32_t j = 0;
        if (first) {
            Adds(acc, t, 0.0f, iw);
            j = 1;
        }
        for (; j < nr; ++j) {
            PipeBarrier<PIPE_V>();
            Min(acc, acc, t[j * in_tile_], iw);
        }
        in_q_.FreeTensor(t);
    }

    __aicore__ inline void store(uint64_t off, uint32_t iw)
    {
        LocalTensor<float> acc = acc_buf_.Get<float>();
        LocalTensor<float> o = out_q_.AllocTensor<float>();
        Adds(o, acc, 0.0f, iw);
        out_q_.EnQue(o);
        o = out_q_.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(iw * sizeof(float)), 0, 0, 0};
        DataCopyPad(y_gm_[off], o, cp);
        out_q_.FreeTensor(o);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q_;
    TQue<QuePosition::VECOUT, 1> out_q_;
    TBuf<TPosition::VECCALC> acc_buf_;
    GlobalTensor<float> x_gm_, y_gm_;
    uint32_t red_ = 0, inner_ = 0, in_tile_ = 0, slice_num_ = 1, rows_ld_ = 1;
    uint32_t u_beg_ = 0, u_cnt_ = 0;
};

// Key 1: reduce the innermost axis; each output is the minimum of one contiguous row.
class KernelMinRows {
public:
    __aicore__ inline KernelMinRows() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MinReductionOverADimensionCustomTilingData& td)
    {
        red_ = td.red;
        tile_ = td.in_tile;
        uint32_t bid = GetBlockIdx();
        r_cnt_ = td.unit_per_blk + (bid < td.unit_rem ? 1 : 0);
        r_beg_ = bid * td.unit_per_blk + min_u32(bid, td.unit_rem);

        x_gm_.SetGlobalBuffer((__gm__ float*)x);
        y_gm_.SetGlobalBuffer((__gm__ float*)y);
        pipe_.InitBuffer(in_q_, BUFFER_NUM, tile_ * sizeof(float));
        pipe_.InitBuffer(acc_buf_, tile_ * sizeof(float));
        pipe_.InitBuffer(work_buf_, tile_ * sizeof(float));
        pipe_.InitBuffer(red_buf_, 8 * sizeof(float));
        pipe_.InitBuffer(stage_buf_, STAGE_CAP * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> stage = stage_buf_.Get<float>();
        uint32_t n = 0;
        uint32_t flush_row = r_beg_;
        for (uint32_t i = 0; i < r_cnt_; ++i) {
            stage.SetValue(n++, row_min(r_beg_ + i));
            if (n == STAGE_CAP || i + 1 == r_cnt_) {
                event_t e0 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
                SetFlag<HardEvent::S_MTE3>(e0);
                WaitFlag<HardEvent::S_MTE3>(e0);
                DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
                DataCopyPad(y_gm_[flush_row], stage, cp);
                event_t e1 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
                SetFlag<HardEvent::MTE3_S>(e1);
                WaitFlag<HardEvent::MTE3_S>(e1);
                flush_row += n;
                n = 0;
            }
        }
    }

private:
    __aicore__ inline float row_min(uint32_t row)
    {
        LocalTensor<float> acc = acc_buf_.Get<float>();
        uint64_t base = static_cast<uint64_t>(row) * red_;
        uint32_t first_len = min_u32(tile_, red_);
        for (uint32_t k = 0; k < red_; k += tile_) {
            uint32_t len = min_u32(tile_, red_ - k);
            LocalTensor<float> t = in_q_.AllocTensor<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(t, x_gm_[base + k], cp, pad);
            in_q_.EnQue(t);
            t = in_q_.DeQue<float>();
            if (k == 0) {
                Adds(acc, t, 0.0f, len);
            } else {
                Min(acc, acc, t, len);
            }
            in_q_.FreeTensor(t);
        }
        LocalTensor<float> work = work_buf_.Get<float>();
        LocalTensor<float> r = red_buf_.Get<float>();
        ReduceMin(r, acc, work, first_len, false);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return r.GetValue(0);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q_;
    TBuf<TPosition::VECCALC> acc_buf_, work_buf_, red_buf_, stage_buf_;
    GlobalTensor<float> x_gm_, y_gm_;
    uint32_t red_ = 0, tile_ = 0;
    uint32_t r_beg_ = 0, r_cnt_ = 0;
};

extern "C" __global__ __aicore__ void min_reduction_over_a_dimension_custom(GM_ADDR x, GM_ADDR y,
                                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        KernelMinCols op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        KernelMinRows op;
        op.Init(x, y, td);
        op.Process();
    }
}
