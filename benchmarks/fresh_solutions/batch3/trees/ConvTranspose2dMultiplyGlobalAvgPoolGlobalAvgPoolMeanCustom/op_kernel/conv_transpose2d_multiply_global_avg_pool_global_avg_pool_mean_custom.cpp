#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t RES_CAP = 64;   // per-row results staged in UB before one flush to GM

// Each core owns a contiguous range of (n, c) rows of the conv-transpose output.
// For every row: stream H*W values through UB, accumulate element-wise into a
// tile-sized accumulator, then one ReduceSum and a scalar scale by multiplier/(H*W).
class KernelConvTMulGapGap {
public:
    __aicore__ inline KernelConvTMulGapGap() {}

    __aicore__ inline void Init(GM_ADDR y, GM_ADDR out,
                                const ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustomTilingData& td)
    {
        row_len_ = td.row_len;
        tile_len_ = td.tile_len;
        tile_cnt_ = td.tile_cnt;
        tail_len_ = td.tail_len;
        scale_ = td.scale;

        uint32_t bid = GetBlockIdx();
        row_cnt_ = td.rows_per_blk + (bid < td.rows_rem ? 1 : 0);
        row_beg_ = bid * td.rows_per_blk + (bid < td.rows_rem ? bid : td.rows_rem);

        y_gm_.SetGlobalBuffer((__gm__ float*)y);
        out_gm_.SetGlobalBuffer((__gm__ float*)out);

        pipe_.InitBuffer(in_q_, BUFFER_NUM, tile_len_ * sizeof(float));
        pipe_.InitBuffer(acc_buf_, tile_len_ * sizeof(float));
        pipe_.InitBuffer(work_buf_, tile_len_ * sizeof(float));
        pipe_.InitBuffer(sum_buf_, 8 * sizeof(float));
        pipe_.InitBuffer(res_buf_, RES_CAP * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> res = res_buf_.Get<float>();
        uint32_t staged = 0;
        uint32_t flush_beg = row_beg_;
        for (uint32_t r = 0; r < row_cnt_; ++r) {
            float v = reduce_row(row_beg_ + r);
            res.SetValue(staged, v);
            ++staged;
            if (staged == RES_CAP || r + 1 == row_cnt_) {
                flush(res, flush_beg, staged);
                flush_beg += staged;
                staged = 0;
            }
        }
    }

private:
    __aicore__ inline void copy_in(uint64_t gm_off, uint32_t len)
    {
        LocalTensor<float> x = in_q_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, y_gm_[gm_off], cp, pad);
        in_q_.EnQue(x);
    }

    __aicore__ inline void accumulate(uint32_t len)
    {
        LocalTensor<float> x = in_q_.DeQue<float>();
        LocalTensor<float> acc = acc_buf_.Get<float>();
        Add(acc, acc, x, len);
        in_q_.FreeTensor(x);
    }

    __aicore__ inline float reduce_row(uint32_t row)
    {
        LocalTensor<float> acc = acc_buf_.Get<float>();
        Duplicate(acc, 0.0f, tile_len_);

        uint64_t base = static_cast<uint64_t>(row) * row_len_;
        for (uint32_t t = 0; t < tile_cnt_; ++t) {
            copy_in(base + static_cast<uint64_t>(t) * tile_len_, tile_len_);
            accumulate(tile_len_);
        }
        if (tail_len_ > 0) {
            copy_in(base + static_cast<uint64_t>(tile_cnt_) * tile_len_, tail_len_);
            accumulate(tail_len_);
        }

        LocalTensor<float> work = work_buf_.Get<float>();
        LocalTensor<float> sum = sum_buf_.Get<float>();
        ReduceSum(sum, acc, work, tile_len_);

        // vector -> scalar handoff before reading the reduced value
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return sum.GetValue(0) * scale_;
    }

    __aicore__ inline void flush(LocalTensor<float>& res, uint32_t first_row, uint32_t cnt)
    {
        event_t ev_s = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev_s);
        WaitFlag<HardEvent::S_MTE3>(ev_s);

        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(out_gm_[first_row], res, cp);

        // do not overwrite the staging buffer until the copy has left UB
        event_t ev_m = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(ev_m);
        WaitFlag<HardEvent::MTE3_S>(ev_m);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q_;
    TBuf<TPosition::VECCALC> acc_buf_, work_buf_, sum_buf_, res_buf_;
    GlobalTensor<float> y_gm_, out_gm_;

    uint32_t row_len_ = 0;
    uint32_t tile_len_ = 0;
    uint32_t tile_cnt_ = 0;
    uint32_t tail_len_ = 0;
    uint32_t row_beg_ = 0;
    uint32_t row_cnt_ = 0;
    float scale_ = 1.0f;
};

extern "C" __global__ __aicore__ void conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom(
    GM_ADDR y, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConvTMulGapGap op;
    op.Init(y, out, td);
    op.Process();
}
