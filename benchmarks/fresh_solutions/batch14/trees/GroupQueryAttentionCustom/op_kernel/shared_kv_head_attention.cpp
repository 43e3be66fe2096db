/**
 * SharedKvHeadAttention: multi-head self-attention where groups of query heads share one
 * key/value head, with input and output projections.
 *
 * Phase 1 (token parallel): Q = xWq+bq, K = xWk+bk, V = xWv+bv  -> workspace
 * Phase 2 ((batch, head) parallel): ctx = softmax(Q_h K_kv^T * scale) V_kv -> workspace
 * Phase 3 (token parallel): y = ctx Wo + bo
 * Phases are separated by a full-core barrier.
 */
#include "kernel_operator.h"

using namespace AscendC;

class SharedKvHeadAttentionKernel {
public:
    __aicore__ inline SharedKvHeadAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wq, GM_ADDR bq, GM_ADDR wk, GM_ADDR bk, GM_ADDR wv,
                                GM_ADDR bv, GM_ADDR wo, GM_ADDR bo, GM_ADDR y, GM_ADDR ws,
                                const SharedKvHeadAttentionTiling &t)
    {
        t_ = t;
        tokens = t.batch * t.seqLen;
        xG.SetGlobalBuffer((__gm__ float *)x);
        wqG.SetGlobalBuffer((__gm__ float *)wq); bqG.SetGlobalBuffer((__gm__ float *)bq);
        wkG.SetGlobalBuffer((__gm__ float *)wk); bkG.SetGlobalBuffer((__gm__ float *)bk);
        wvG.SetGlobalBuffer((__gm__ float *)wv); bvG.SetGlobalBuffer((__gm__ float *)bv);
        woG.SetGlobalBuffer((__gm__ float *)wo); boG.SetGlobalBuffer((__gm__ float *)bo);
        yG.SetGlobalBuffer((__gm__ float *)y);

        __gm__ float *w = (__gm__ float *)ws;
        qG.SetGlobalBuffer(w);
        w += static_cast<uint64_t>(tokens) * t.model;
        kG.SetGlobalBuffer(w);
        w += static_cast<uint64_t>(tokens) * t.kvModel;
        vG.SetGlobalBuffer(w);
        w += static_cast<uint64_t>(tokens) * t.kvModel;
        ctxG.SetGlobalBuffer(w);

        dPad = Pad8(t.model);
        pipe.InitBuffer(slabQ, 2, t.slabElems * sizeof(float));
        pipe.InitBuffer(rowBuf, dPad * sizeof(float));
        pipe.InitBuffer(projBuf, dPad * sizeof(float));
        pipe.InitBuffer(kBuf, t.seqPad * t.headDim * sizeof(float));
        pipe.InitBuffer(vBuf, t.seqPad * t.headDim * sizeof(float));
        pipe.InitBuffer(prodBuf, t.seqPad * 64 * sizeof(float));
        pipe.InitBuffer(scoreBuf, t.seqPad * sizeof(float));
        pipe.InitBuffer(partBuf, t.seqPad * sizeof(float));
        pipe.InitBuffer(workBuf, t.seqPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t core = GetBlockIdx(), cores = GetBlockNum();
        for (uint32_t r = core; r < tokens; r += cores) {
            ProjectToken(r);
        }
        SyncAll();
        for (uint32_t task = core; task < t_.batch * t_.heads; task += cores) {
            AttendHead(task / t_.heads, task % t_.heads);
        }
        SyncAll();
        for (uint32_t r = core; r < tokens; r += cores) {
            OutputToken(r);
        }
    }

private:
    __aicore__ inline uint32_t Pad8(uint32_t v) const { return (v + 7) / 8 * 8; }

    template <HardEvent E>
    __aicore__ inline void Fence()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    __aicore__ inline void Load(const LocalTensor<float> &dst, const GlobalTensor<float> &src, uint32_t n)
    {
        DataCopyPad(dst, src, DataCopyExtParams{1, n * 4u, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
    }

    __aicore__ inline void Store(const GlobalTensor<float> &dst, const LocalTensor<float> &src, uint32_t n)
    {
        DataCopyPad(dst, src, DataCopyExtParams{1, n * 4u, 0, 0, 0});
    }

    // out[0:N] = bias + in[0:K] * W[K, N]; `in` must be visible to the scalar unit
    __aicore__ inline void Dense(const LocalTensor<float> &out, const LocalTensor<float> &in,
                                 const GlobalTensor<float> &w, const GlobalTensor<float> &bias,
                                 uint32_t K, uint32_t N)
    {
        Load(out, bias, N);
        Fence<HardEvent::MTE2_V>();
        const uint32_t nPad = Pad8(N);
        const uint32_t rowsPerSlab = t_.slabElems / nPad;
        for (uint32_t k0 = 0; k0 < K; k0 += rowsPerSlab) {
            const uint32_t rows = (K - k0) < rowsPerSlab ? (K - k0) : rowsPerSlab;
            LocalTensor<float> slab = slabQ.AllocTensor<float>();
            DataCopyPad(slab, w[static_cast<uint64_t>(k0) * N],
                        DataCopyExtParams{static_cast<uint16_t>(rows), N * 4u, 0, 0, 0},
                        DataCopyPadExtParams<float>{false, 0, 0, 0});
            slabQ.EnQue(slab);
            slab = slabQ.DeQue<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                Axpy(out, slab[r * nPad], in.GetValue(k0 + r), N);
            }
            slabQ.FreeTensor(slab);
        }
        Fence<HardEvent::V_MTE3>();
    }

    __aicore__ inline void ProjectToken(uint32_t r)
    {
        LocalTensor<float> xr = rowBuf.Get<float>();
        LocalTensor<float> pr = projBuf.Get<float>();
        Load(xr, xG[static_cast<uint64_t>(r) * t_.model], t_.model);
        Fence<HardEvent::MTE2_S>();

        Dense(pr, xr, wqG, bqG, t_.model, t_.model);
        Store(qG[static_cast<uint64_t>(r) * t_.model], pr, t_.model);
        Fence<HardEvent::MTE3_MTE2>();
        Dense(pr, xr, wkG, bkG, t_.model, t_.kvModel);
        Store(kG[static_cast<uint64_t>(r) * t_.kvModel], pr, t_.kvModel);
        Fence<HardEvent::MTE3_MTE2>();
        Dense(pr, xr, wvG, bvG, t_.model, t_.kvModel);
        Store(vG[static_cast<uint64_t>(r) * t_.kvModel], pr, t_.kvModel);
        Fence<HardEvent::MTE3_MTE2>();
    }

    __aicore__ inline void AttendHead(uint32_t b, uint32_t h)
    {
        const uint32_t L = t_.seqLen, hd = t_.headDim;
        const uint32_t kvh = h / (t_.heads / t_.kvHeads);   // shared key/value head
        LocalTensor<float> kl = kBuf.Get<float>();
        LocalTensor<float> vl = vBuf.Get<float>();
        LocalTensor<float> q = rowBuf.Get<float>();
        LocalTensor<float> ctx = projBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> score = scoreBuf.Get<float>();
        LocalTensor<float> part = partBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();

        // K_kv, V_kv: L rows of hd floats, strided by kvModel in GM
        const uint64_t kvBase = static_cast<uint64_t>(b) * L * t_.kvModel + kvh * hd;
        DataCopyExtParams kvCp{static_cast<uint16_t>(L), hd * 4u, (t_.kvModel - hd) * 4u, 0, 0};
        DataCopyPad(kl, kG[kvBase], kvCp, DataCopyPadExtParams<float>{false, 0, 0, 0});
        DataCopyPad(vl, vG[kvBase], kvCp, DataCopyPadExtParams<float>{false, 0, 0, 0});

        const uint32_t lane = hd < 64 ? hd : 64;
        const uint8_t rowBlocks = static_cast<uint8_t>(hd / 8);
        for (uint32_t i = 0; i < L; ++i) {
            const uint64_t qOff = (static_cast<uint64_t>(b) * L + i) * t_.model + h * hd;
            Load(q, qG[qOff], hd);
            Fence<HardEvent::MTE2_V>();

            // score[j] = sum_d q[d] * K[j, d], in 64-wide slices of the head dimension
            for (uint32_t d0 = 0; d0 < hd; d0 += 64) {
                for (uint32_t j0 = 0; j0 < L; j0 += 248) {  // 248: keeps score[j0] 32B aligned
                    const uint32_t reps = (L - j0) < 248 ? (L - j0) : 248;
                    Mul(prod[j0 * 64], kl[j0 * hd + d0], q[d0], static_cast<uint64_t>(lane),
                        static_cast<uint8_t>(reps), BinaryRepeatParams(1, 1, 1, 8, rowBlocks, 0));
                    WholeReduceSum(d0 == 0 ? score[j0] : part[j0], prod[j0 * 64], static_cast<int32_t>(lane),
                                   static_cast<int32_t>(reps), 1, 1, 8);
                }
                if (d0 != 0) {
                    Add(score, score, part, L);
                }
            }
            Muls(score, score, t_.softmaxScale, L);

            // numerically stable softmax over the L keys
            ReduceMax(work, score, part, L);
            Fence<HardEvent::V_S>();
            const float mx = work.GetValue(0);
            Adds(score, score, -mx, L);
            Exp(score, score, L);
            ReduceSum(work, score, part, L);
            Fence<HardEvent::V_S>();
            const float inv = 1.0f / work.GetValue(0);

            // ctx = sum_j p_j V[j, :]
            Duplicate(ctx, 0.0f, hd);
            for (uint32_t j = 0; j < L; ++j) {
                Axpy(ctx, vl[j * hd], score.GetValue(j) * inv, hd);
            }
            Fence<HardEvent::V_MTE3>();
            Store(ctxG[qOff], ctx, hd);
            Fence<HardEvent::MTE3_MTE2>();
            Fence<HardEvent::MTE3_V>();
        }
    }

    __aicore__ inline void OutputToken(uint32_t r)
    {
        LocalTensor<float> cr = rowBuf.Get<float>();
        LocalTensor<float> yr = projBuf.Get<float>();
        Load(cr, ctxG[static_cast<uint64_t>(r) * t_.model], t_.model);
        Fence<HardEvent::MTE2_S>();
        Dense(yr, cr, woG, boG, t_.model, t_.model);
        Store(yG[static_cast<uint64_t>(r) * t_.model], yr, t_.model);
        Fence<HardEvent::MTE3_MTE2>();
    }

    SharedKvHeadAttentionTiling t_;
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> slabQ;
    TBuf<TPosition::VECCALC> rowBuf, projBuf, kBuf, vBuf, prodBuf, scoreBuf, partBuf, workBuf;
    GlobalTensor<float> xG, wqG, bqG, wkG, bkG, wvG, bvG, woG, boG, yG;
    GlobalTensor<float> qG, kG, vG, ctxG;
    uint32_t tokens = 0, dPad = 0;
};

extern "C" __global__ __aicore__ void shared_kv_head_attention(GM_ADDR x, GM_ADDR w_q, GM_ADDR b_q, GM_ADDR w_k,
                                                               GM_ADDR b_k, GM_ADDR w_v, GM_ADDR b_v, GM_ADDR w_o,
                                                               GM_ADDR b_o, GM_ADDR y, GM_ADDR workspace,
                                                               GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(t, tiling);
    SharedKvHeadAttentionKernel op;
    op.Init(x, w_q, b_q, w_k, b_k, w_v, b_v, w_o, b_o, y, AscendC::GetUserWorkspace(workspace), t);
    op.Process();
}
