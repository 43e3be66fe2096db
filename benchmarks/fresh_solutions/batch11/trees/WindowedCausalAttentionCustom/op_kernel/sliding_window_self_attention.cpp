/**
 * SlidingWindowSelfAttention kernel (fp32).
 *
 *   Q = x Wq^T + bq, K = x Wk^T + bk, V = x Wv^T + bv      (cube)
 *   for every head h and token i:
 *       keys j in [max(0, i - window), i]
 *       o_i = softmax(q_i . k_j * scale) v_j                 (vector)
 *   y = O Wo^T + bo                                          (cube)
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FP32_PER_REPEAT = 64;   // 256B vector repeat
constexpr uint32_t FP32_PER_BLOCK = 8;     // 32B data block

using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;  // nn.Linear weight, read transposed
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using ProjMatmul = Matmul<AType, BType, CType, BiasType>;
} // namespace

class SlidingWindowSelfAttentionKernel {
public:
    __aicore__ inline SlidingWindowSelfAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wq, GM_ADDR bq, GM_ADDR wk, GM_ADDR bk, GM_ADDR wv, GM_ADDR bv,
                                GM_ADDR wo, GM_ADDR bo, GM_ADDR y, GM_ADDR usrWs,
                                const SlidingWindowSelfAttentionTilingData &td)
    {
        t_ = &td;
        const uint64_t plane = static_cast<uint64_t>(td.batch) * td.seqLen * td.hidden;
        const uint64_t wSize = static_cast<uint64_t>(td.hidden) * td.hidden;
        xGm_.SetGlobalBuffer((__gm__ float *)x, plane);
        wGm_[0].SetGlobalBuffer((__gm__ float *)wq, wSize);
        wGm_[1].SetGlobalBuffer((__gm__ float *)wk, wSize);
        wGm_[2].SetGlobalBuffer((__gm__ float *)wv, wSize);
        wGm_[3].SetGlobalBuffer((__gm__ float *)wo, wSize);
        bGm_[0].SetGlobalBuffer((__gm__ float *)bq, td.hidden);
        bGm_[1].SetGlobalBuffer((__gm__ float *)bk, td.hidden);
        bGm_[2].SetGlobalBuffer((__gm__ float *)bv, td.hidden);
        bGm_[3].SetGlobalBuffer((__gm__ float *)bo, td.hidden);
        yGm_.SetGlobalBuffer((__gm__ float *)y, plane);

        __gm__ float *ws = (__gm__ float *)usrWs;
        qGm_.SetGlobalBuffer(ws, plane);
        kGm_.SetGlobalBuffer(ws + plane, plane);
        vGm_.SetGlobalBuffer(ws + 2 * plane, plane);
        oGm_.SetGlobalBuffer(ws + 3 * plane, plane);
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        // Phase 1: projections.
        Linear(xGm_, 0, qGm_);
        Linear(xGm_, 1, kGm_);
        Linear(xGm_, 2, vGm_);
        SyncAll();

        // Phase 2: banded attention on the vector cores.
        InitAttentionBuffers(pipe);
        AttendRows();
        SyncAll();

        // Phase 3: output projection.
        Linear(oGm_, 3, yGm_);
    }

    ProjMatmul mm;

private:
    __aicore__ inline void Linear(GlobalTensor<float> &src, uint32_t which, GlobalTensor<float> &dst)
    {
        const TCubeTiling &ct = t_->projTiling;
        const uint32_t idx = GetBlockIdx();
        if (idx >= t_->mmCoreNum) {
            return;
        }
        const uint32_t mBlocks = Ceil(ct.M, ct.singleCoreM);
        const uint32_t mIdx = idx % mBlocks;
        const uint32_t nIdx = idx / mBlocks;
        const int32_t mOff = mIdx * ct.singleCoreM;
        const int32_t nOff = nIdx * ct.singleCoreN;
        const int32_t tailM = (ct.M - mOff) < ct.singleCoreM ? (ct.M - mOff) : ct.singleCoreM;
        const int32_t tailN = (ct.N - nOff) < ct.singleCoreN ? (ct.N - nOff) : ct.singleCoreN;

        mm.SetTail(tailM, tailN);
        mm.SetTensorA(src[static_cast<uint64_t>(mOff) * ct.Ka]);
        mm.SetTensorB(wGm_[which][static_cast<uint64_t>(nOff) * ct.Kb], true);
        mm.SetBias(bGm_[which][nOff]);
        mm.IterateAll(dst[static_cast<uint64_t>(mOff) * ct.N + nOff]);
        mm.End();
    }

    __aicore__ inline void InitAttentionBuffers(TPipe *pipe)
    {
        const uint32_t hd = t_->headDim;
        pipe->InitBuffer(qBuf_, hd * sizeof(float));
        pipe->InitBuffer(kvQue_, BUFFER_NUM, t_->kvChunkRows * hd * sizeof(float));
        pipe->InitBuffer(prodBuf_, t_->kvChunkRows * hd * sizeof(float));
        pipe->InitBuffer(scoreBuf_, t_->scoreLenAlign * sizeof(float));
        pipe->InitBuffer(workBuf_, t_->scoreLenAlign * sizeof(float) + 64);
        pipe->InitBuffer(outQue_, BUFFER_NUM, hd * sizeof(float));
    }

    // Work item r enumerates (b, i, h) with h fastest, matching the [B, N, H, hd] layout.
    __aicore__ inline void AttendRows()
    {
        const uint32_t begin = GetBlockIdx() * t_->rowsPerCore;
        uint32_t end = begin + t_->rowsPerCore;
        if (end > t_->totalRows) {
            end = t_->totalRows;
        }
        for (uint32_t r = begin; r < end; ++r) {
            const uint32_t h = r % t_->numHeads;
            const uint32_t tok = (r / t_->numHeads) % t_->seqLen;
            const uint32_t b = r / (t_->numHeads * t_->seqLen);
            AttendOne(b, tok, h);
        }
    }

    __aicore__ inline void CopyKvChunk(GlobalTensor<float> &src, uint64_t rowBase, uint32_t rows)
    {
        const uint32_t hd = t_->headDim;
        LocalTensor<float> buf = kvQue_.AllocTensor<float>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(rows);
        p.blockLen = static_cast<uint16_t>(hd / FP32_PER_BLOCK);
        p.srcStride = static_cast<uint16_t>((t_->hidden - hd) / FP32_PER_BLOCK);
        p.dstStride = 0;
        DataCopy(buf, src[rowBase], p);
        kvQue_.EnQue(buf);
    }

    __aicore__ inline void AttendOne(uint32_t b, uint32_t tok, uint32_t h)
    {
        const uint32_t hd = t_->headDim;
        const uint32_t D = t_->hidden;
        const uint32_t first = tok > t_->window ? tok - t_->window : 0;
        const uint32_t span = tok - first + 1;
        const uint64_t seqBase = static_cast<uint64_t>(b) * t_->seqLen * D + h * hd;
        const uint8_t rowRep = static_cast<uint8_t>(hd / FP32_PER_BLOCK);

        LocalTensor<float> q = qBuf_.Get<float>();
        LocalTensor<float> prod = prodBuf_.Get<float>();
        LocalTensor<float> score = scoreBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();

        DataCopy(q, qGm_[seqBase + static_cast<uint64_t>(tok) * D], hd);
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evt);
        WaitFlag<HardEvent::MTE2_V>(evt);
        Muls(q, q, t_->scale, hd);   // fold 1/sqrt(d) into q once

        // ---- scores = q . k_j for every visible key, chunk by chunk ----
        for (uint32_t c0 = 0; c0 < span; c0 += t_->kvChunkRows) {
            const uint32_t rows = (span - c0) < t_->kvChunkRows ? (span - c0) : t_->kvChunkRows;
            CopyKvChunk(kGm_, seqBase + static_cast<uint64_t>(first + c0) * D, rows);
            LocalTensor<float> k = kvQue_.DeQue<float>();
            // prod[j, :] = k[j, :] * q  (q broadcast through src1RepStride = 0)
            for (uint32_t col = 0; col < hd; col += FP32_PER_REPEAT) {
                const uint64_t mask = (hd - col) < FP32_PER_REPEAT ? (hd - col) : FP32_PER_REPEAT;
                Mul(prod[col], k[col], q[col], mask, static_cast<uint8_t>(rows),
                    {1, 1, 1, rowRep, rowRep, 0});
            }
            if (hd > FP32_PER_REPEAT) {
                Add(prod, prod, prod[FP32_PER_REPEAT], hd - FP32_PER_REPEAT, static_cast<uint8_t>(rows),
                    {1, 1, 1, rowRep, rowRep, rowRep});
            }
            const int32_t redMask = hd < FP32_PER_REPEAT ? hd : FP32_PER_REPEAT;
            WholeReduceSum<float>(score[c0], prod, redMask, rows, 1, 1, rowRep);
            kvQue_.FreeTensor(k);
        }

        // ---- numerically stable softmax over span entries ----
        ReduceMax<float>(work, score, work[8], span, false);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        const float rowMax = work.GetValue(0);
        Adds(score, score, -rowMax, span);
        Exp(score, score, span);
        ReduceSum<float>(work, score, work[8], span);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        const float inv = 1.0f / work.GetValue(0);
        Muls(score, score, inv, span);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);

        // ---- o = sum_j p_j v_j ----
        LocalTensor<float> o = outQue_.AllocTensor<float>();
        Duplicate(o, 0.0f, hd);
        for (uint32_t c0 = 0; c0 < span; c0 += t_->kvChunkRows) {
            const uint32_t rows = (span - c0) < t_->kvChunkRows ? (span - c0) : t_->kvChunkRows;
            CopyKvChunk(vGm_, seqBase + static_cast<uint64_t>(first + c0) * D, rows);
            LocalTensor<float> v = kvQue_.DeQue<float>();
            for (uint32_t j = 0; j < rows; ++j) {
                Axpy(o, v[j * hd], score.GetValue(c0 + j), hd);
            }
            kvQue_.FreeTensor(v);
        }
        outQue_.EnQue(o);
        o = outQue_.DeQue<float>();
        DataCopy(oGm_[seqBase + static_cast<uint64_t>(tok) * D], o, hd);
        outQue_.FreeTensor(o);
    }

private:
    const SlidingWindowSelfAttentionTilingData *t_ = nullptr;
    GlobalTensor<float> xGm_, yGm_, qGm_, kGm_, vGm_, oGm_;
    GlobalTensor<float> wGm_[4];
    GlobalTensor<float> bGm_[4];
    TQue<QuePosition::VECIN, BUFFER_NUM> kvQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    TBuf<TPosition::VECCALC> qBuf_, prodBuf_, scoreBuf_, workBuf_;
};

extern "C" __global__ __aicore__ void sliding_window_self_attention(
    GM_ADDR x, GM_ADDR q_weight, GM_ADDR q_bias, GM_ADDR k_weight, GM_ADDR k_bias, GM_ADDR v_weight,
    GM_ADDR v_bias, GM_ADDR out_weight, GM_ADDR out_bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    TPipe pipe;
    SlidingWindowSelfAttentionKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.projTiling);
    op.Init(x, q_weight, q_bias, k_weight, k_bias, v_weight, v_bias, out_weight, out_bias, y, usrWs, td);
    op.Process(&pipe);
}
