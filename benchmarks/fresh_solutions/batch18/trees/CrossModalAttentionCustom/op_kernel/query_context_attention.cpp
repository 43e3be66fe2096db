/**
 * QueryContextAttention (float32)
 *
 *   q0  = query   · Wqᵀ + bq                      [B, Lq, E]
 *   c0  = context · Wcᵀ + bc                      [B, Lk, E]
 *   Q   = q0 · Wiᵀ[0:E]   + bi[0:E]
 *   K   = c0 · Wiᵀ[E:2E]  + bi[E:2E]
 *   V   = c0 · Wiᵀ[2E:3E] + bi[2E:3E]
 *   ctx = concat_h softmax(Q_h K_hᵀ / sqrt(d)) V_h
 *   y   = ctx · Woᵀ + bo
 *
 * The kernel runs as four phases separated by all-core barriers; intermediates live in
 * the user workspace. Linear phases split row pairs over the cores, the attention phase
 * splits (batch, head) pairs. Everything is done on the vector unit: a linear row is a
 * series of Mul + ReduceSum dot products whose results land in 32B slots and are packed
 * with one Gather.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t MAX_FEAT = 1024;
constexpr uint32_t ROWS_PER_STEP = 2;
constexpr uint32_t WSTAGE_FLOATS = 12 * 1024;
constexpr uint32_t SLOT = 8;                 // floats per 32B result slot
constexpr uint32_t ARENA_BYTES = 160 * 1024;

template <HardEvent EVT>
__aicore__ inline void Fence()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
    SetFlag<EVT>(id);
    WaitFlag<EVT>(id);
}
} // namespace

class QueryContextAttentionKernel {
public:
    __aicore__ inline QueryContextAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR query, GM_ADDR context, GM_ADDR wq, GM_ADDR bq, GM_ADDR wc, GM_ADDR bc,
                                GM_ADDR win, GM_ADDR bin, GM_ADDR wo, GM_ADDR bo, GM_ADDR y, GM_ADDR usr,
                                const QueryContextAttentionTilingData &td)
    {
        B_ = td.batch;
        Lq_ = td.qLen;
        Lk_ = td.kvLen;
        Dq_ = td.qDim;
        Dc_ = td.ctxDim;
        E_ = td.embed;
        H_ = td.heads;
        hd_ = td.headDim;
        wRows_ = td.weightRowsPerLoad;
        cores_ = td.coreNum;
        scale_ = td.softmaxScale;
        blk_ = GetBlockIdx();

        queryGm_.SetGlobalBuffer((__gm__ float *)query);
        contextGm_.SetGlobalBuffer((__gm__ float *)context);
        wqGm_.SetGlobalBuffer((__gm__ float *)wq);
        bqGm_.SetGlobalBuffer((__gm__ float *)bq);
        wcGm_.SetGlobalBuffer((__gm__ float *)wc);
        bcGm_.SetGlobalBuffer((__gm__ float *)bc);
        winGm_.SetGlobalBuffer((__gm__ float *)win);
        binGm_.SetGlobalBuffer((__gm__ float *)bin);
        woGm_.SetGlobalBuffer((__gm__ float *)wo);
        boGm_.SetGlobalBuffer((__gm__ float *)bo);
        yGm_.SetGlobalBuffer((__gm__ float *)y);

        uint64_t qElems = (uint64_t)B_ * Lq_ * E_;
        uint64_t kElems = (uint64_t)B_ * Lk_ * E_;
        __gm__ float *ws = (__gm__ float *)usr;
        q0Gm_.SetGlobalBuffer(ws);
        qGm_.SetGlobalBuffer(ws + qElems);
        ctxGm_.SetGlobalBuffer(ws + 2 * qElems);
        c0Gm_.SetGlobalBuffer(ws + 3 * qElems);
        kGm_.SetGlobalBuffer(ws + 3 * qElems + kElems);
        vGm_.SetGlobalBuffer(ws + 3 * qElems + 2 * kElems);

        pipe_.InitBuffer(arena_, ARENA_BYTES);
    }

    __aicore__ inline void Process()
    {
        uint32_t qRows = B_ * Lq_;
        uint32_t kRows = B_ * Lk_;
        uint32_t qSteps = (qRows + ROWS_PER_STEP - 1) / ROWS_PER_STEP;
        uint32_t kSteps = (kRows + ROWS_PER_STEP - 1) / ROWS_PER_STEP;

        // phase 1: modality projections
        Linear(queryGm_, wqGm_, bqGm_, q0Gm_, qRows, Dq_, E_, 0);
        Linear(contextGm_, wcGm_, bcGm_, c0Gm_, kRows, Dc_, E_, qSteps);
        Barrier();

        // phase 2: attention input projections (packed in_proj weight)
        Linear(q0Gm_, winGm_, binGm_, qGm_, qRows, E_, E_, 0);
        Linear(c0Gm_, winGm_[(uint64_t)E_ * E_], binGm_[E_], kGm_, kRows, E_, E_, qSteps);
        Linear(c0Gm_, winGm_[2ULL * E_ * E_], binGm_[2 * E_], vGm_, kRows, E_, E_, qSteps + kSteps);
        Barrier();

        // phase 3: scaled dot-product attention per (batch, head)
        for (uint32_t t = blk_; t < B_ * H_; t += cores_) {
            AttendHead(t / H_, t % H_);
        }
        Barrier();

        // phase 4: output projection
        Linear(ctxGm_, woGm_, boGm_, yGm_, qRows, E_, E_, 0);
    }

private:
    __aicore__ inline void Barrier()
    {
        PipeBarrier<PIPE_ALL>();
        SyncAll();
    }

    // y[r, :] = x[r, :] · Wᵀ + b for the row pairs owned by this core
    __aicore__ inline void Linear(const GlobalTensor<float> &x, const GlobalTensor<float> &w,
                                  const GlobalTensor<float> &bias, const GlobalTensor<float> &y,
                                  uint32_t rows, uint32_t inD, uint32_t outD, uint32_t salt)
    {
        LocalTensor<float> base = arena_.Get<float>();
        LocalTensor<float> xL = base;
        LocalTensor<float> wL = base[ROWS_PER_STEP * MAX_FEAT];
        LocalTensor<float> slots = wL[WSTAGE_FLOATS];
        LocalTensor<float> prod = slots[ROWS_PER_STEP * MAX_FEAT * SLOT];
        LocalTensor<float> work = prod[MAX_FEAT];
        LocalTensor<float> yRow = work[MAX_FEAT];
        LocalTensor<float> bL = yRow[MAX_FEAT];
        LocalTensor<uint32_t> offs = bL[MAX_FEAT].ReinterpretCast<uint32_t>();

        uint32_t steps = (rows + ROWS_PER_STEP - 1) / ROWS_PER_STEP;
        bool any = false;
        for (uint32_t s = 0; s < steps; ++s) {
            if ((s + salt) % cores_ == blk_) {
                any = true;
                break;
            }
        }
        if (!any) {
            return;
        }

        // bias and slot offsets are shared by all rows of this linear
        Fence<HardEvent::V_MTE2>();
        DataCopy(bL, bias, outD);
        Fence<HardEvent::V_S>(); // previous users of offs are done
        for (uint32_t j = 0; j < outD; ++j) {
            offs.SetValue(j, j * SLOT * static_cast<uint32_t>(sizeof(float)));
        }
        Fence<HardEvent::S_V>();
        Fence<HardEvent::MTE2_V>();

        for (uint32_t s = 0; s < steps; ++s) {
            if ((s + salt) % cores_ != blk_) {
                continue;
            }
            uint32_t r0 = s * ROWS_PER_STEP;
            uint32_t rn = (rows - r0) < ROWS_PER_STEP ? (rows - r0) : ROWS_PER_STEP;

            Fence<HardEvent::V_MTE2>();
            DataCopy(xL, x[(uint64_t)r0 * inD], rn * inD);
            for (uint32_t w0 = 0; w0 < outD; w0 += wRows_) {
                uint32_t jn = (outD - w0) < wRows_ ? (outD - w0) : wRows_;
                Fence<HardEvent::V_MTE2>();
                DataCopy(wL, w[(uint64_t)w0 * inD], jn * inD);
                Fence<HardEvent::MTE2_V>();
                for (uint32_t r = 0; r < rn; ++r) {
                    for (uint32_t j = 0; j < jn; ++j) {
                        Mul(prod, xL[r * inD], wL[j * inD], inD);
                        ReduceSum(slots[(r * outD + w0 + j) * SLOT], prod, work, inD);
                    }
                }
            }
            for (uint32_t r = 0; r < rn; ++r) {
                Fence<HardEvent::MTE3_V>();
                Gather(yRow, slots[r * outD * SLOT], offs, 0u, outD);
                Add(yRow, yRow, bL, outD);
                Fence<HardEvent::V_MTE3>();
                DataCopy(y[(uint64_t)(r0 + r) * outD], yRow, outD);
            }
        }
        Fence<HardEvent::MTE3_V>();
    }

    __aicore__ inline void AttendHead(uint32_t b, uint32_t h)
    {
        LocalTensor<float> base = arena_.Get<float>();
        uint32_t kvFloats = Lk_ * hd_;
        uint32_t lkAligned = (Lk_ + 7) / 8 * 8;
        LocalTensor<float> kh = base;
        LocalTensor<float> vh = base[kvFloats];
        LocalTensor<float> slots = vh[kvFloats];
        LocalTensor<float> scores = slots[Lk_ * SLOT];
        LocalTensor<float> work = scores[lkAligned];
        LocalTensor<float> qL = work[lkAligned];
        LocalTensor<float> prod = qL[hd_];
        LocalTensor<float> acc = prod[hd_];
        LocalTensor<float> red = acc[hd_];
        LocalTensor<uint32_t> offs = red[SLOT].ReinterpretCast<uint32_t>();

        // head slices of K and V: Lk rows of hd floats, row pitch E in GM
        Fence<HardEvent::V_MTE2>();
        DataCopyExtParams cp{static_cast<uint16_t>(Lk_), hd_ * (uint32_t)sizeof(float),
                             (E_ - hd_) * (uint32_t)sizeof(float), 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        uint64_t kvBase = (uint64_t)b * Lk_ * E_ + (uint64_t)h * hd_;
        DataCopyPad(kh, kGm_[kvBase], cp, pd);
        DataCopyPad(vh, vGm_[kvBase], cp, pd);
        Fence<HardEvent::V_S>();
        for (uint32_t j = 0; j < Lk_; ++j) {
            offs.SetValue(j, j * SLOT * static_cast<uint32_t>(sizeof(float)));
        }
        Fence<HardEvent::S_V>();
        Fence<HardEvent::MTE2_V>();

        for (uint32_t i = 0; i < Lq_; ++i) {
            uint64_t rowOff = ((uint64_t)b * Lq_ + i) * E_ + (uint64_t)h * hd_;
            Fence<HardEvent::V_MTE2>();
            DataCopy(qL, qGm_[rowOff], hd_);
            Fence<HardEvent::MTE2_V>();
            Muls(qL, qL, scale_, hd_);

            // logits
            for (uint32_t j = 0; j < Lk_; ++j) {
                Mul(prod, kh[j * hd_], qL, hd_);
                ReduceSum(slots[j * SLOT], prod, work, hd_);
            }
            Gather(scores, slots, offs, 0u, Lk_);

            // numerically stable softmax
            ReduceMax(red, scores, work, Lk_);
            Fence<HardEvent::V_S>();
            float mx = red.GetValue(0);
            Fence<HardEvent::S_V>();
            Adds(scores, scores, -mx, Lk_);
            Exp(scores, scores, Lk_);
            ReduceSum(red, scores, work, Lk_);
            Fence<HardEvent::V_S>();
            float inv = 1.0f / red.GetValue(0);

            // weighted sum of values (normalisation folded into the weights)
            Fence<HardEvent::MTE3_V>();
            Duplicate(acc, 0.0f, hd_);
            for (uint32_t j = 0; j < Lk_; ++j) {
                Axpy(acc, vh[j * hd_], scores.GetValue(j) * inv, hd_);
            }
            Fence<HardEvent::V_MTE3>();
            DataCopy(ctxGm_[rowOff], acc, hd_);
        }
        Fence<HardEvent::MTE3_V>();
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> arena_;
    GlobalTensor<float> queryGm_, contextGm_, wqGm_, bqGm_, wcGm_, bcGm_, winGm_, binGm_, woGm_, boGm_, yGm_;
    GlobalTensor<float> q0Gm_, c0Gm_, qGm_, kGm_, vGm_, ctxGm_;
    uint32_t B_, Lq_, Lk_, Dq_, Dc_, E_, H_, hd_, wRows_, cores_, blk_;
    float scale_;
};

extern "C" __global__ __aicore__ void query_context_attention(GM_ADDR query, GM_ADDR context,
                                                              GM_ADDR query_weight, GM_ADDR query_bias,
                                                              GM_ADDR context_weight, GM_ADDR context_bias,
                                                              GM_ADDR in_proj_weight, GM_ADDR in_proj_bias,
                                                              GM_ADDR out_proj_weight, GM_ADDR out_proj_bias,
                                                              GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (usr == nullptr) {
        return;
    }
    QueryContextAttentionKernel op;
    op.Init(query, context, query_weight, query_bias, context_weight, context_bias, in_proj_weight, in_proj_bias,
            out_proj_weight, out_proj_bias, y, usr, td);
    op.Process();
}
