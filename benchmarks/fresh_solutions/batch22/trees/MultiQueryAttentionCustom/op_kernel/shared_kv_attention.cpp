// SharedKvAttention: multi-head attention in which all query heads read one key/value head.
//
//   Q = x Wq^T + bq   [B*N, D]  (viewed as [B, N*H, dh])
//   K = x Wk^T + bk   [B*N, dh]
//   V = x Wv^T + bv   [B*N, dh]
//   P = softmax(Q_b K_b^T * 1/sqrt(dh))   row-wise over the N keys
//   C = P V_b                              -> [B*N, D] after undoing the head view
//   y = C Wo^T + bo
//
// Matmuls go through the cube Matmul API (mixed AIC/AIV kernel); softmax runs on the
// vector cores. Stages are separated by SyncAll since they exchange data through GM.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using GmA = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using GmBT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using GmB = MatmulType<TPosition::GM, CubeFormat::ND, float, false>;
using GmC = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using GmBias = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class SharedKvAttentionKernel {
public:
    __aicore__ inline SharedKvAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wq, GM_ADDR bq, GM_ADDR wk, GM_ADDR bk, GM_ADDR wv,
                                GM_ADDR bv, GM_ADDR wo, GM_ADDR bo, GM_ADDR y, GM_ADDR usr,
                                const SharedKvAttentionTilingData *td)
    {
        td_ = td;
        B_ = td->batch;
        N_ = td->seqLen;
        D_ = td->modelDim;
        H_ = td->numHeads;
        dh_ = td->headDim;
        tokens_ = B_ * N_;
        workers_ = td->workers;
        wid_ = GetBlockIdx();

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wqGm_.SetGlobalBuffer((__gm__ float *)wq);
        bqGm_.SetGlobalBuffer((__gm__ float *)bq);
        wkGm_.SetGlobalBuffer((__gm__ float *)wk);
        bkGm_.SetGlobalBuffer((__gm__ float *)bk);
        wvGm_.SetGlobalBuffer((__gm__ float *)wv);
        bvGm_.SetGlobalBuffer((__gm__ float *)bv);
        woGm_.SetGlobalBuffer((__gm__ float *)wo);
        boGm_.SetGlobalBuffer((__gm__ float *)bo);
        yGm_.SetGlobalBuffer((__gm__ float *)y);

        // carve user workspace
        __gm__ float *p = (__gm__ float *)usr;
        qGm_.SetGlobalBuffer(p);
        p += static_cast<uint64_t>(tokens_) * D_;
        kGm_.SetGlobalBuffer(p);
        p += static_cast<uint64_t>(tokens_) * dh_;
        vGm_.SetGlobalBuffer(p);
        p += static_cast<uint64_t>(tokens_) * dh_;
        ctxGm_.SetGlobalBuffer(p);
        p += static_cast<uint64_t>(tokens_) * D_;
        sGm_.SetGlobalBuffer(p + static_cast<uint64_t>(wid_) * td->qBlockRows * N_);

        chunk_ = td->softmaxChunk;
        pipe_.InitBuffer(inQ_, 2, chunk_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 2, chunk_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, chunk_ * sizeof(float));
        pipe_.InitBuffer(redBuf_, 64);
    }

    template <class MM>
    __aicore__ inline void LinearRows(MM &mm, GlobalTensor<float> &w, GlobalTensor<float> &bias,
                                      GlobalTensor<float> &src, GlobalTensor<float> &dst, uint32_t outDim)
    {
        uint32_t r0 = wid_ * td_->projRows;
        if (r0 >= tokens_) {
            return;
        }
        uint32_t rows = (tokens_ - r0 < td_->projRows) ? (tokens_ - r0) : td_->projRows;
        mm.SetOrgShape(tokens_, outDim, D_);
        mm.SetTail(rows, outDim, D_);
        mm.SetTensorA(src[static_cast<uint64_t>(r0) * D_]);
        mm.SetTensorB(w, true);
        mm.SetBias(bias);
        mm.IterateAll(dst[static_cast<uint64_t>(r0) * outDim]);
        mm.End();
    }

    template <class MMP, class MMK>
    __aicore__ inline void Projections(MMP &mmProj, MMK &mmKv)
    {
        LinearRows(mmProj, wqGm_, bqGm_, xGm_, qGm_, D_);
        LinearRows(mmKv, wkGm_, bkGm_, xGm_, kGm_, dh_);
        LinearRows(mmKv, wvGm_, bvGm_, xGm_, vGm_, dh_);
    }

    template <class MMS, class MMV>
    __aicore__ inline void Attention(MMS &mmScore, MMV &mmPv)
    {
        uint32_t rowsPerBatch = N_ * H_;
        uint32_t R = td_->qBlockRows;
        uint32_t units = B_ * td_->blocksPerBatch;
        for (uint32_t u = wid_; u < units; u += workers_) {
            uint32_t b = u / td_->blocksPerBatch;
            uint32_t r0 = (u % td_->blocksPerBatch) * R;
            uint32_t rows = (rowsPerBatch - r0 < R) ? (rowsPerBatch - r0) : R;
            // Q rows (token, head) for batch b are contiguous [rows, dh] slices
            uint64_t qOff = (static_cast<uint64_t>(b) * rowsPerBatch + r0) * dh_;
            uint64_t kvOff = static_cast<uint64_t>(b) * N_ * dh_;

            // S = Q_blk K_b^T
            mmScore.SetOrgShape(rows, N_, dh_);
            mmScore.SetTail(rows, N_, dh_);
            mmScore.SetTensorA(qGm_[qOff]);
            mmScore.SetTensorB(kGm_[kvOff], true);
            mmScore.IterateAll(sGm_);
            mmScore.End();

            for (uint32_t r = 0; r < rows; ++r) {
                SoftmaxRow(static_cast<uint64_t>(r) * N_);
            }

            // C_blk = P V_b, written straight into the [B*N, D] context layout
            mmPv.SetOrgShape(rows, dh_, N_);
            mmPv.SetTail(rows, dh_, N_);
            mmPv.SetTensorA(sGm_);
            mmPv.SetTensorB(vGm_[kvOff], false);
            mmPv.IterateAll(ctxGm_[qOff]);
            mmPv.End();
        }
    }

    template <class MMP>
    __aicore__ inline void OutputProjection(MMP &mmProj)
    {
        LinearRows(mmProj, woGm_, boGm_, ctxGm_, yGm_, D_);
    }

private:
    __aicore__ inline float ScalarOf(LocalTensor<float> &t)
    {
        event_t e = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return t.GetValue(0);
    }

    __aicore__ inline uint32_t ChunkLen(uint32_t c) { return (N_ - c < chunk_) ? (N_ - c) : chunk_; }

    __aicore__ inline LocalTensor<float> Fetch(uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = inQ_.AllocTensor<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(t, sGm_[off], cp, DataCopyPadExtParams<float>{false, 0, 0, 0});
        inQ_.EnQue(t);
        return inQ_.DeQue<float>();
    }

    // numerically stable softmax of one score row, scale folded into the exponent
    __aicore__ inline void SoftmaxRow(uint64_t rowOff)
    {
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        float scale = td_->scale;

        float mx = -3.4e38f;
        for (uint32_t c = 0; c < N_; c += chunk_) {
            uint32_t len = ChunkLen(c);
            LocalTensor<float> s = Fetch(rowOff + c, len);
            ReduceMax<float>(red, s, tmp, len, false);
            float m = ScalarOf(red);
            mx = (m > mx) ? m : mx;
            inQ_.FreeTensor(s);
        }

        float sum = 0.0f;
        for (uint32_t pass = 0; pass < 2; ++pass) {
            float inv = (pass == 1) ? 1.0f / sum : 1.0f;
            for (uint32_t c = 0; c < N_; c += chunk_) {
                uint32_t len = ChunkLen(c);
                LocalTensor<float> s = Fetch(rowOff + c, len);
                LocalTensor<float> o = outQ_.AllocTensor<float>();
                if (pass == 0) {
                    // exp(scale * (s - max))
                    Adds(o, s, -mx, len);
                    Muls(o, o, scale, len);
                    Exp(o, o, len);
                    ReduceSum<float>(red, o, tmp, len);
                    sum += ScalarOf(red);
                } else {
                    Muls(o, s, inv, len);
                }
                inQ_.FreeTensor(s);
                outQ_.EnQue(o);
                o = outQ_.DeQue<float>();
                DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
                DataCopyPad(sGm_[rowOff + c], o, cp);
                outQ_.FreeTensor(o);
                // next read of the same row must observe this write
                event_t e = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE3_MTE2));
                SetFlag<HardEvent::MTE3_MTE2>(e);
                WaitFlag<HardEvent::MTE3_MTE2>(e);
            }
        }
    }

public:
    TPipe pipe_;

private:
    const SharedKvAttentionTilingData *td_ = nullptr;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmpBuf_, redBuf_;
    GlobalTensor<float> xGm_, wqGm_, bqGm_, wkGm_, bkGm_, wvGm_, bvGm_, woGm_, boGm_, yGm_;
    GlobalTensor<float> qGm_, kGm_, vGm_, ctxGm_, sGm_;
    uint32_t B_ = 0, N_ = 0, D_ = 0, H_ = 0, dh_ = 0, tokens_ = 0;
    uint32_t workers_ = 1, wid_ = 0, chunk_ = 0;
};

extern "C" __global__ __aicore__ void shared_kv_attention(GM_ADDR x, GM_ADDR q_weight, GM_ADDR q_bias,
                                                          GM_ADDR k_weight, GM_ADDR k_bias, GM_ADDR v_weight,
                                                          GM_ADDR v_bias, GM_ADDR o_weight, GM_ADDR o_bias,
                                                          GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);

    Matmul<GmA, GmBT, GmC, GmBias> mmProj;
    Matmul<GmA, GmBT, GmC, GmBias> mmKv;
    Matmul<GmA, GmBT, GmC> mmScore;
    Matmul<GmA, GmB, GmC> mmPv;

    SharedKvAttentionKernel op;
    REGIST_MATMUL_OBJ(&op.pipe_, GetSysWorkSpacePtr(), mmProj, &td.projTiling, mmKv, &td.kvTiling,
                      mmScore, &td.scoreTiling, mmPv, &td.pvTiling);
    op.Init(x, q_weight, q_bias, k_weight, k_bias, v_weight, v_bias, o_weight, o_bias, y, usr, &td);

    op.Projections(mmProj, mmKv);
    SyncAll();
    op.Attention(mmScore, mmPv);
    SyncAll();
    op.OutputProjection(mmProj);
}
