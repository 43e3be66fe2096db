#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t GRP_ROWS = 64;   // must match host GRP_ROWS
constexpr uint32_t COL_TILE = 64;   // must match host COL_TILE
constexpr uint32_t TILE_ELEMS = GRP_ROWS * COL_TILE;

__aicore__ inline uint32_t align8(uint32_t v) { return (v + 7) / 8 * 8; }

// ---------------------------------------------------------------------------
// Key 0: scan along the contiguous last axis.
// A prefix product along a row needs lane-crossing, which the vector unit cannot
// do directly. So a GRP_ROWS x COL_TILE tile is transposed in UB with Gather;
// then column c of the original tile is a contiguous vector across the 64 rows
// and the scan is just COL_TILE dependent Mul's of 64 lanes. Gather transposes
// back and the tile goes out. The running product of each row lives in `acc`.
// ---------------------------------------------------------------------------
class KernelCumprodRow {
public:
    __aicore__ inline KernelCumprodRow() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CumprodCustomTilingData& td)
    {
        rows_ = td.outer;
        cols_ = td.scan_len;
        uint32_t bid = GetBlockIdx();
        grp_cnt_ = td.unit_per_blk + (bid < td.unit_rem ? 1 : 0);
        grp_beg_ = bid * td.unit_per_blk + (bid < td.unit_rem ? bid : td.unit_rem);

        x_gm_.SetGlobalBuffer((__gm__ float*)x);
        y_gm_.SetGlobalBuffer((__gm__ float*)y);

        pipe_.InitBuffer(in_q_, BUFFER_NUM, TILE_ELEMS * sizeof(float));
        pipe_.InitBuffer(out_q_, BUFFER_NUM, TILE_ELEMS * sizeof(float));
        pipe_.InitBuffer(tr_buf_, TILE_ELEMS * sizeof(float));
        pipe_.InitBuffer(off_fwd_buf_, TILE_ELEMS * sizeof(uint32_t));
        pipe_.InitBuffer(off_bwd_buf_, TILE_ELEMS * sizeof(uint32_t));
        pipe_.InitBuffer(acc_buf_, GRP_ROWS * sizeof(float));

        build_offsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t g = 0; g < grp_cnt_; ++g) {
            uint32_t r0 = (grp_beg_ + g) * GRP_ROWS;
            uint32_t rr = (rows_ - r0) < GRP_ROWS ? (rows_ - r0) : GRP_ROWS;

            LocalTensor<float> acc = acc_buf_.Get<float>();
            Duplicate(acc, 1.0f, GRP_ROWS);

            for (uint32_t c0 = 0; c0 < cols_; c0 += COL_TILE) {
                uint32_t cw = (cols_ - c0) < COL_TILE ? (cols_ - c0) : COL_TILE;
                uint64_t gm_off = static_cast<uint64_t>(r0) * cols_ + c0;
                copy_in(gm_off, rr, cw);
                compute(cw);
                copy_out(gm_off, rr, cw);
            }
        }
    }

private:
    __aicore__ inline void build_offsets()
    {
        // fwd: tr[c*R + r] = tile[r*C + c];  bwd: tile[r*C + c] = tr[c*R + r]   (byte offsets)
        LocalTensor<uint32_t> fwd = off_fwd_buf_.Get<uint32_t>();
        LocalTensor<uint32_t> bwd = off_bwd_buf_.Get<uint32_t>();
        for (uint32_t r = 0; r < GRP_ROWS; ++r) {
            for (uint32_t c = 0; c < COL_TILE; ++c) {
                fwd.SetValue(c * GRP_ROWS + r, (r * COL_TILE + c) * sizeof(float));
                bwd.SetValue(r * COL_TILE + c, (c * GRP_ROWS + r) * sizeof(float));
            }
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void copy_in(uint64_t gm_off, uint32_t rr, uint32_t cw)
    {
        LocalTensor<float> t = in_q_.AllocTensor<float>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rr);
        cp.blockLen = cw * sizeof(float);
        cp.srcStride = (cols_ - cw) * sizeof(float);          // bytes between GM rows
        cp.dstStride = (COL_TILE - align8(cw)) / 8;            // 32B blocks between UB rows
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, x_gm_[gm_off], cp, pad);
        in_q_.EnQue(t);
    }

    __aicore__ inline void compute(uint32_t cw)
    {
        LocalTensor<float> t = in_q_.DeQue<float>();
        LocalTensor<float> tr = tr_buf_.Get<float>();
        LocalTensor<float> acc = acc_buf_.Get<float>();
        LocalTensor<uint32_t> fwd = off_fwd_buf_.Get<uint32_t>();
        LocalTensor<uint32_t> bwd = off_bwd_buf_.Get<uint32_t>();

        Gather(tr, t, fwd, 0, TILE_ELEMS);
        in_q_.FreeTensor(t);
        PipeBarrier<PIPE_V>();

        // column 0 picks up the carry from the previous tile
        Mul(tr, tr, acc, GRP_ROWS);
        for (uint32_t c = 1; c < cw; ++c) {
            PipeBarrier<PIPE_V>();
            Mul(tr[c * GRP_ROWS], tr[c * GRP_ROWS], tr[(c - 1) * GRP_ROWS], GRP_ROWS);
        }
        PipeBarrier<PIPE_V>();
        Adds(acc, tr[(cw - 1) * GRP_ROWS], 0.0f, GRP_ROWS);

        LocalTensor<float> o = out_q_.AllocTensor<float>();
        Gather(o, tr, bwd, 0, TILE_ELEMS);
        out_q_.EnQue(o);
    }

    __aicore__ inline void copy_out(uint64_t gm_off, uint32_t rr, uint32_t cw)
    {
        LocalTensor<float> o = out_q_.DeQue<float>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rr);
        cp.blockLen = cw * sizeof(float);
        cp.srcStride = (COL_TILE - align8(cw)) / 8;
        cp.dstStride = (cols_ - cw) * sizeof(float);
        cp.rsv = 0;
        DataCopyPad(y_gm_[gm_off], o, cp);
        out_q_.FreeTensor(o);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> out_q_;
    TBuf<TPosition::VECCALC> tr_buf_, off_fwd_buf_, off_bwd_buf_, acc_buf_;
    GlobalTensor<float> x_gm_, y_gm_;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t grp_beg_ = 0;
    uint32_t grp_cnt_ = 0;
};

// ---------------------------------------------------------------------------
// Key 1: scan axis is not the innermost one. Consecutive scan positions are whole
// contiguous slices of `inner` elements, so the running product is a plain
// element-wise Mul of successive slices.
// ---------------------------------------------------------------------------
class KernelCumprodStrided {
public:
    __aicore__ inline KernelCumprodStrided() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CumprodCustomTilingData& td)
    {
        len_ = td.scan_len;
        inner_ = td.inner;
        in_tile_ = td.in_tile;
        slice_num_ = td.slice_num;
        uint32_t bid = GetBlockIdx();
        unit_cnt_ = td.unit_per_blk + (bid < td.unit_rem ? 1 : 0);
        unit_beg_ = bid * td.unit_per_blk + (bid < td.unit_rem ? bid : td.unit_rem);

        x_gm_.SetGlobalBuffer((__gm__ float*)x);
        y_gm_.SetGlobalBuffer((__gm__ float*)y);
        pipe_.InitBuffer(in_q_, BUFFER_NUM, in_tile_ * sizeof(float));
        pipe_.InitBuffer(out_q_, BUFFER_NUM, in_tile_ * sizeof(float));
        pipe_.InitBuffer(acc_buf_, in_tile_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unit_cnt_; ++u) {
            uint32_t unit = unit_beg_ + u;
            uint32_t o = unit / slice_num_;
            uint32_t s = unit % slice_num_;
            uint32_t i0 = s * in_tile_;
            uint32_t iw = (inner_ - i0) < in_tile_ ? (inner_ - i0) : in_tile_;

            LocalTensor<float> acc = acc_buf_.Get<float>();
            Duplicate(acc, 1.0f, in_tile_);
            uint64_t base = static_cast<uint64_t>(o) * len_ * inner_ + i0;
            for (uint32_t l = 0; l < len_; ++l) {
                uint64_t off = base + static_cast<uint64_t>(l) * inner_;
                copy_in(off, iw);
                step(iw);
                copy_out(off, iw);
            }
        }
    }

private:
    __aicore__ inline void copy_in(uint64_t off, uint32_t n)
    {
        LocalTensor<float> t = in_q_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, x_gm_[off], cp, pad);
        in_q_.EnQue(t);
    }

    __aicore__ inline void step(uint32_t n)
    {
        LocalTensor<float> t = in_q_.DeQue<float>();
        LocalTensor<float> acc = acc_buf_.Get<float>();
        LocalTensor<float> o = out_q_.AllocTensor<float>();
        Mul(acc, acc, t, n);
        PipeBarrier<PIPE_V>();
        Adds(o, acc, 0.0f, n);
        out_q_.EnQue(o);
        in_q_.FreeTensor(t);
    }

    __aicore__ inline void copy_out(uint64_t off, uint32_t n)
    {
        LocalTensor<float> o = out_q_.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(y_gm_[off], o, cp);
        out_q_.FreeTensor(o);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> out_q_;
    TBuf<TPosition::VECCALC> acc_buf_;
    GlobalTensor<float> x_gm_, y_gm_;
    uint32_t len_ = 0;
    uint32_t inner_ = 0;
    uint32_t in_tile_ = 0;
    uint32_t slice_num_ = 1;
    uint32_t unit_beg_ = 0;
    uint32_t unit_cnt_ = 0;
};

extern "C" __global__ __aicore__ void cumprod_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        KernelCumprodRow op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        KernelCumprodStrided op;
        op.Init(x, y, td);
        op.Process();
    }
}
