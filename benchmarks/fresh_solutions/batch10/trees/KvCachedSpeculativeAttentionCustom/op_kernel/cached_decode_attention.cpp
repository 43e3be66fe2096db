/*
 * CachedDecodeAttention
 *
 *   out[b, i, :] = softmax(scale * q[b, i, :] . K[b, :, :]^T) @ V[b, :, :]
 *
 * Decode-time attention has very few query rows (q_len is tiny) and a long
 * cache, so the kv axis is split into `kvSplit` chunks (flash-decoding):
 *
 *   phase 1: every (query row, kv chunk) pair is an independent work item.
 *            It runs an online softmax over its chunk and stores an
 *            un-normalised partial  {acc[Dv], running max m, running sum l}
 *            into the workspace.
 *   phase 2: after a cross-core barrier, every query row merges its chunk
 *            partials with the usual log-sum-exp rescaling.
 *
 * Dot products are done on the vector unit (Mul + ReduceSum); K/V rows are
 * streamed through double-buffered queues.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t STREAM_DEPTH = 2;
constexpr uint32_t MAX_SPLIT = 64;
constexpr float NEG_INF = -3.402823466e+38f;

__aicore__ inline uint32_t RoundUp8(uint32_t v) { return (v + 7) / 8 * 8; }

template <HardEvent EVT>
__aicore__ inline void WaitPipe()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
    SetFlag<EVT>(id);
    WaitFlag<EVT>(id);
}
}  // namespace

class CachedDecodeAttentionKernel {
public:
    __aicore__ inline CachedDecodeAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out, GM_ADDR usrWs,
                                const CachedDecodeAttentionTiling &t)
    {
        B_ = t.batch;
        Sq_ = t.qLen;
        Skv_ = t.kvLen;
        D_ = t.headDim;
        Dv_ = t.valueDim;
        kvSplit_ = t.kvSplit;
        kvPerSplit_ = t.kvPerSplit;
        kvTile_ = t.kvTile;
        partStride_ = t.partStride;
        scale_ = t.scale;

        qGm_.SetGlobalBuffer((__gm__ float *)q, (uint64_t)B_ * Sq_ * D_);
        kGm_.SetGlobalBuffer((__gm__ float *)k, (uint64_t)B_ * Skv_ * D_);
        vGm_.SetGlobalBuffer((__gm__ float *)v, (uint64_t)B_ * Skv_ * Dv_);
        oGm_.SetGlobalBuffer((__gm__ float *)out, (uint64_t)B_ * Sq_ * Dv_);
        partGm_.SetGlobalBuffer((__gm__ float *)usrWs, (uint64_t)B_ * Sq_ * kvSplit_ * partStride_);

        uint32_t dPad = RoundUp8(D_);
        uint32_t dvPad = RoundUp8(Dv_);
        pipe_.InitBuffer(qQue_, 1, dPad * sizeof(float));
        pipe_.InitBuffer(kQue_, STREAM_DEPTH, dPad * sizeof(float));
        pipe_.InitBuffer(vQue_, STREAM_DEPTH, dvPad * sizeof(float));
        pipe_.InitBuffer(prodBuf_, dPad * sizeof(float));
        pipe_.InitBuffer(accBuf_, dvPad * sizeof(float));
        pipe_.InitBuffer(scoreBuf_, RoundUp8(kvTile_) * sizeof(float));
        pipe_.InitBuffer(redBuf_, kvTile_ * 8 * sizeof(float));
        pipe_.InitBuffer(workBuf_, (RoundUp8(D_ / 8) + 64) * sizeof(float));
        pipe_.InitBuffer(miscBuf_, MAX_SPLIT * 8 * sizeof(float));
        pipe_.InitBuffer(expBuf_, MAX_SPLIT * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t rows = B_ * Sq_;
        uint32_t items = rows * kvSplit_;
        uint32_t nCores = GetBlockNum();
        uint32_t me = GetBlockIdx();

        for (uint32_t w = me; w < items; w += nCores) {
            PartialAttention(w / kvSplit_, w % kvSplit_);
        }
        if (kvSplit_ == 1) {
            return;  // phase 1 already wrote normalised rows
        }
        SyncAll();
        for (uint32_t r = me; r < rows; r += nCores) {
            MergeRow(r);
        }
    }

private:
    __aicore__ inline void FetchK(uint64_t rowIdx)
    {
        LocalTensor<float> kt = kQue_.AllocTensor<float>();
        DataCopyExtParams p{1, D_ * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(kt, kGm_[rowIdx * D_], p, DataCopyPadExtParams<float>{false, 0, 0, 0});
        kQue_.EnQue(kt);
    }

    __aicore__ inline void FetchV(uint64_t rowIdx)
    {
        LocalTensor<float> vt = vQue_.AllocTensor<float>();
        DataCopyExtParams p{1, Dv_ * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(vt, vGm_[rowIdx * Dv_], p, DataCopyPadExtParams<float>{false, 0, 0, 0});
        vQue_.EnQue(vt);
    }

    // Online softmax of query row `row` over kv chunk `split`.
    __aicore__ inline void PartialAttention(uint32_t row, uint32_t split)
    {
        uint32_t b = row / Sq_;
        uint32_t kvBeg = split * kvPerSplit_;
        uint32_t kvEnd = kvBeg + kvPerSplit_;
        if (kvEnd > Skv_) {
            kvEnd = Skv_;
        }
        uint64_t kvBase = (uint64_t)b * Skv_;

        LocalTensor<float> qt = qQue_.AllocTensor<float>();
        DataCopyExtParams qp{1, D_ * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(qt, qGm_[(uint64_t)row * D_], qp, DataCopyPadExtParams<float>{false, 0, 0, 0});
        qQue_.EnQue(qt);
        qt = qQue_.DeQue<float>();

        LocalTensor<float> prod = prodBuf_.Get<float>();
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> score = scoreBuf_.Get<float>();
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> misc = miscBuf_.Get<float>();

        Duplicate(acc, 0.0f, Dv_);
        float runMax = NEG_INF;
        float runSum = 0.0f;
        bool first = true;

        for (uint32_t t0 = kvBeg; t0 < kvEnd; t0 += kvTile_) {
            uint32_t n = (kvEnd - t0) < kvTile_ ? (kvEnd - t0) : kvTile_;

            // ---- scores for n cached keys ----
            FetchK(kvBase + t0);
            for (uint32_t j = 0; j < n; ++j) {
                if (j + 1 < n) {
                    FetchK(kvBase + t0 + j + 1);  // prefetch next row while this one is consumed
                }
                LocalTensor<float> kt = kQue_.DeQue<float>();
                Mul(prod, qt, kt, D_);
                kQue_.FreeTensor(kt);
                ReduceSum(red[j * 8], prod, work, D_);
            }
            WaitPipe<HardEvent::V_S>();

            float tileMax = NEG_INF;
            for (uint32_t j = 0; j < n; ++j) {
                float s = red.GetValue(j * 8) * scale_;
                score.SetValue(j, s);
                tileMax = s > tileMax ? s : tileMax;
            }
            float newMax = (first || tileMax > runMax) ? tileMax : runMax;
            WaitPipe<HardEvent::S_V>();

            // p_j = exp(s_j - newMax), correction = exp(oldMax - newMax)
            Adds(score, score, -newMax, n);
            Exp(score, score, n);
            Duplicate(misc, first ? 0.0f : (runMax - newMax), 8);
            Exp(misc, misc, 8);
            WaitPipe<HardEvent::V_S>();
            float corr = first ? 0.0f : misc.GetValue(0);

            if (!first) {
                Muls(acc, acc, corr, Dv_);
            }
            float tileSum = 0.0f;

            // ---- acc += sum_j p_j * v_j ----
            FetchV(kvBase + t0);
            for (uint32_t j = 0; j < n; ++j) {
                if (j + 1 < n) {
                    FetchV(kvBase + t0 + j + 1);
                }
                float pj = score.GetValue(j);
                tileSum += pj;
                LocalTensor<float> vt = vQue_.DeQue<float>();
                Axpy(acc, vt, pj, Dv_);
                vQue_.FreeTensor(vt);
            }
            runSum = runSum * corr + tileSum;
            runMax = newMax;
            first = false;
        }
        qQue_.FreeTensor(qt);

        if (kvSplit_ == 1) {
            // single chunk: finish here
            Muls(acc, acc, 1.0f / runSum, Dv_);
            WaitPipe<HardEvent::V_MTE3>();
            DataCopyExtParams op{1, Dv_ * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPad(oGm_[(uint64_t)row * Dv_], acc, op);
            WaitPipe<HardEvent::MTE3_V>();
            return;
        }

        // store the partial record: [acc (Dv padded) | m | l | pad]
        uint64_t rec = ((uint64_t)row * kvSplit_ + split) * partStride_;
        WaitPipe<HardEvent::V_MTE3>();
        DataCopyExtParams ap{1, Dv_ * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(partGm_[rec], acc, ap);
        misc.SetValue(0, runMax);
        misc.SetValue(1, runSum);
        WaitPipe<HardEvent::S_MTE3>();
        DataCopy(partGm_[rec + partStride_ - 8], misc, 8);
        WaitPipe<HardEvent::MTE3_V>();
        WaitPipe<HardEvent::MTE3_S>();
    }

    // Combine kvSplit_ partial results of one query row.
    __aicore__ inline void MergeRow(uint32_t row)
    {
        LocalTensor<float> misc = miscBuf_.Get<float>();
        LocalTensor<float> ex = expBuf_.Get<float>();
        LocalTensor<float> acc = accBuf_.Get<float>();
        uint64_t base = (uint64_t)row * kvSplit_ * partStride_;

        // gather (m, l) of every chunk: chunk s lands at misc[s * 8]
        DataCopyParams mp{static_cast<uint16_t>(kvSplit_), 1,
                          static_cast<uint16_t>((partStride_ - 8) / 8), 0};
        DataCopy(misc, partGm_[base + partStride_ - 8], mp);
        WaitPipe<HardEvent::MTE2_S>();

        float gMax = NEG_INF;
        for (uint32_t s = 0; s < kvSplit_; ++s) {
            float m = misc.GetValue(s * 8);
            gMax = m > gMax ? m : gMax;
        }
        for (uint32_t s = 0; s < kvSplit_; ++s) {
            ex.SetValue(s, misc.GetValue(s * 8) - gMax);
        }
        WaitPipe<HardEvent::S_V>();
        Exp(ex, ex, kvSplit_);
        WaitPipe<HardEvent::V_S>();

        float total = 0.0f;
        for (uint32_t s = 0; s < kvSplit_; ++s) {
            total += ex.GetValue(s) * misc.GetValue(s * 8 + 1);
        }
        float inv = 1.0f / total;

        Duplicate(acc, 0.0f, Dv_);
        FetchPart(base);
        for (uint32_t s = 0; s < kvSplit_; ++s) {
            if (s + 1 < kvSplit_) {
                FetchPart(base + (uint64_t)(s + 1) * partStride_);
            }
            LocalTensor<float> pt = vQue_.DeQue<float>();
            Axpy(acc, pt, ex.GetValue(s) * inv, Dv_);
            vQue_.FreeTensor(pt);
        }
        WaitPipe<HardEvent::V_MTE3>();
        DataCopyExtParams op{1, Dv_ * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(oGm_[(uint64_t)row * Dv_], acc, op);
        WaitPipe<HardEvent::MTE3_V>();
        WaitPipe<HardEvent::MTE3_MTE2>();
    }

    __aicore__ inline void FetchPart(uint64_t off)
    {
        LocalTensor<float> pt = vQue_.AllocTensor<float>();
        DataCopy(pt, partGm_[off], RoundUp8(Dv_));
        vQue_.EnQue(pt);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> qQue_;
    TQue<QuePosition::VECIN, STREAM_DEPTH> kQue_, vQue_;
    TBuf<TPosition::VECCALC> prodBuf_, accBuf_, scoreBuf_, redBuf_, workBuf_, miscBuf_, expBuf_;
    GlobalTensor<float> qGm_, kGm_, vGm_, oGm_, partGm_;

    uint32_t B_ = 0, Sq_ = 0, Skv_ = 0, D_ = 0, Dv_ = 0;
    uint32_t kvSplit_ = 1, kvPerSplit_ = 0, kvTile_ = 0, partStride_ = 0;
    float scale_ = 1.0f;
};

extern "C" __global__ __aicore__ void cached_decode_attention(GM_ADDR query, GM_ADDR keyCache, GM_ADDR valueCache,
                                                              GM_ADDR attnOut, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    CachedDecodeAttentionKernel op;
    op.Init(query, keyCache, valueCache, attnOut, usrWs, t);
    op.Process();
}
