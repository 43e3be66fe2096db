#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// One core runs the full recurrence for one batch row (rows are strided over cores).
//
// Per time step:
//   acc  = xp[t, b, :]                         (input projection + bias, from GM)
//   acc += sum_k h[k] * WhT[k, :]              (Axpy per row of W_hh^T, streamed in chunks)
//   h    = tanh(acc)  -> written to hs[t, b, :] and kept in UB for step t+1
class KernelVanillaRnn {
public:
    __aicore__ inline KernelVanillaRnn() {}

    __aicore__ inline void Init(GM_ADDR xp, GM_ADDR h0, GM_ADDR wh_t, GM_ADDR hs,
                                uint32_t seq_len, uint32_t batch, uint32_t hid,
                                uint32_t k_chunk, uint32_t chunk_cnt, uint32_t blk_num)
    {
        seq_len_ = seq_len;
        batch_ = batch;
        hid_ = hid;
        k_chunk_ = k_chunk;
        chunk_cnt_ = chunk_cnt;
        blk_num_ = blk_num;
        last_rows_ = hid - (chunk_cnt - 1) * k_chunk;

        xp_gm_.SetGlobalBuffer((__gm__ float*)xp);
        h0_gm_.SetGlobalBuffer((__gm__ float*)h0);
        w_gm_.SetGlobalBuffer((__gm__ float*)wh_t);
        hs_gm_.SetGlobalBuffer((__gm__ float*)hs);

        pipe_.InitBuffer(xp_q_, BUFFER_NUM, hid_ * sizeof(float));
        pipe_.InitBuffer(w_q_, BUFFER_NUM, k_chunk_ * hid_ * sizeof(float));
        pipe_.InitBuffer(out_q_, BUFFER_NUM, hid_ * sizeof(float));
        pipe_.InitBuffer(h_buf_, hid_ * sizeof(float));
        pipe_.InitBuffer(acc_buf_, hid_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t b = GetBlockIdx(); b < batch_; b += blk_num_) {
            load_h0(b);
            for (uint32_t t = 0; t < seq_len_; ++t) {
                step(t, b);
            }
        }
    }

private:
    __aicore__ inline void load_h0(uint32_t b)
    {
        LocalTensor<float> h0 = xp_q_.AllocTensor<float>();
        DataCopy(h0, h0_gm_[static_cast<uint64_t>(b) * hid_], hid_);
        xp_q_.EnQue(h0);
        h0 = xp_q_.DeQue<float>();
        LocalTensor<float> h = h_buf_.Get<float>();
        Adds(h, h0, 0.0f, hid_);
        xp_q_.FreeTensor(h0);
    }

    __aicore__ inline void step(uint32_t t, uint32_t b)
    {
        uint64_t row_off = (static_cast<uint64_t>(t) * batch_ + b) * hid_;

        // start the accumulator from the precomputed input projection
        LocalTensor<float> xin = xp_q_.AllocTensor<float>();
        DataCopy(xin, xp_gm_[row_off], hid_);
        xp_q_.EnQue(xin);
        xin = xp_q_.DeQue<float>();
        LocalTensor<float> acc = acc_buf_.Get<float>();
        Adds(acc, xin, 0.0f, hid_);
        xp_q_.FreeTensor(xin);

        // h was produced by the vector unit in the previous step; the scalar
        // unit reads it element by element below
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);

        LocalTensor<float> h = h_buf_.Get<float>();
        for (uint32_t c = 0; c < chunk_cnt_; ++c) {
            uint32_t rows = (c + 1 == chunk_cnt_) ? last_rows_ : k_chunk_;
            uint32_t k0 = c * k_chunk_;

            LocalTensor<float> w = w_q_.AllocTensor<float>();
            DataCopy(w, w_gm_[static_cast<uint64_t>(k0) * hid_], rows * hid_);
            w_q_.EnQue(w);
            w = w_q_.DeQue<float>();

            for (uint32_t k = 0; k < rows; ++k) {
                float hk = h.GetValue(k0 + k);
                Axpy(acc, w[k * hid_], hk, hid_);
            }
            w_q_.FreeTensor(w);
        }

        // h_t = tanh(acc)
        LocalTensor<float> y = out_q_.AllocTensor<float>();
        Tanh(y, acc, hid_);
        PipeBarrier<PIPE_V>();
        Adds(h, y, 0.0f, hid_);
        out_q_.EnQue(y);

        y = out_q_.DeQue<float>();
        DataCopy(hs_gm_[row_off], y, hid_);
        out_q_.FreeTensor(y);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> xp_q_, w_q_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> out_q_;
    TBuf<TPosition::VECCALC> h_buf_, acc_buf_;
    GlobalTensor<float> xp_gm_, h0_gm_, w_gm_, hs_gm_;

    uint32_t seq_len_ = 0;
    uint32_t batch_ = 0;
    uint32_t hid_ = 0;
    uint32_t k_chunk_ = 0;
    uint32_t chunk_cnt_ = 0;
    uint32_t last_rows_ = 0;
    uint32_t blk_num_ = 1;
};

extern "C" __global__ __aicore__ void vanilla_rnn_hidden_custom(GM_ADDR xp, GM_ADDR h0, GM_ADDR wh_t, GM_ADDR hs,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelVanillaRnn op;
    op.Init(xp, h0, wh_t, hs, td.seq_len, td.batch, td.hid, td.k_chunk, td.chunk_cnt, td.blk_num);
    op.Process();
}
