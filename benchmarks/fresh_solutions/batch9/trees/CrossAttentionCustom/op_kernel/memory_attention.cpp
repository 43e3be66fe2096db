// Multi-head attention of a query sequence over a separate memory sequence.
//
//   Qp  = query  @ Wq^T + bq                       (cube)
//   KVp = memory @ [Wk; Wv]^T + [bk; bv]           (cube, one GEMM for K and V)
//   ctx_h = softmax(Qp_h Kp_h^T / sqrt(dh)) Vp_h   (vector, per batch/head)
//   out = ctx @ Wo^T + bo                          (cube)
//
// Intermediates live in the user workspace. Stages are separated by SyncAll.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BTypeT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using LinearMM = matmul::Matmul<AType, BTypeT, CType, BiasType>;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t RoundUp8(uint32_t a) { return (a + 7) / 8 * 8; }

// C[M,N] = A[M,K] * B[N,K]^T + bias; output blocks are dealt round-robin to vector cores.
__aicore__ inline void RunLinear(LinearMM &mm, const TCubeTiling &t, GlobalTensor<float> a, GlobalTensor<float> b,
                                 GlobalTensor<float> bias, GlobalTensor<float> c, uint32_t workers)
{
    uint32_t M = t.M, N = t.N, K = t.Ka;
    uint32_t mBlk = CeilDiv(M, t.singleCoreM);
    uint32_t nBlk = CeilDiv(N, t.singleCoreN);
    for (uint32_t blk = GetBlockIdx(); blk < mBlk * nBlk; blk += workers) {
        uint32_t mi = blk % mBlk;
        uint32_t ni = blk / mBlk;
        uint32_t mOff = mi * t.singleCoreM;
        uint32_t nOff = ni * t.singleCoreN;
        uint32_t tm = (M - mOff) < static_cast<uint32_t>(t.singleCoreM) ? (M - mOff) : t.singleCoreM;
        uint32_t tn = (N - nOff) < static_cast<uint32_t>(t.singleCoreN) ? (N - nOff) : t.singleCoreN;
        mm.SetTail(tm, tn);
        mm.SetTensorA(a[static_cast<uint64_t>(mOff) * K]);
        mm.SetTensorB(b[static_cast<uint64_t>(nOff) * K], true);
        mm.SetBias(bias[nOff]);
        mm.IterateAll(c[static_cast<uint64_t>(mOff) * N + nOff]);
    }
    mm.End();
}

class MemoryAttentionKernel {
public:
    __aicore__ inline MemoryAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR mem, GM_ADDR wIn, GM_ADDR bIn, GM_ADDR wOut, GM_ADDR bOut,
                                GM_ADDR out, GM_ADDR usr, const MemoryAttentionTilingData &td)
    {
        B = td.batch; Lq = td.queryLen; Lm = td.memLen; E = td.embed;
        nh = td.heads; hd = td.headDim; scale = td.scale; workers = td.vecWorkers;

        qGm.SetGlobalBuffer((__gm__ float *)q);
        memGm.SetGlobalBuffer((__gm__ float *)mem);
        wInGm.SetGlobalBuffer((__gm__ float *)wIn);
        bInGm.SetGlobalBuffer((__gm__ float *)bIn);
        wOutGm.SetGlobalBuffer((__gm__ float *)wOut);
        bOutGm.SetGlobalBuffer((__gm__ float *)bOut);
        outGm.SetGlobalBuffer((__gm__ float *)out);

        uint64_t qElems = static_cast<uint64_t>(B) * Lq * E;
        uint64_t kvElems = static_cast<uint64_t>(B) * Lm * E * 2;
        qpGm.SetGlobalBuffer((__gm__ float *)usr);
        kvpGm.SetGlobalBuffer((__gm__ float *)usr + qElems);
        ctxGm.SetGlobalBuffer((__gm__ float *)usr + qElems + kvElems);
    }

    __aicore__ inline void Project(LinearMM &mmQ, LinearMM &mmKV, const MemoryAttentionTilingData &td)
    {
        RunLinear(mmQ, td.qProj, qGm, wInGm, bInGm, qpGm, workers);
        RunLinear(mmKV, td.kvProj, memGm, wInGm[static_cast<uint64_t>(E) * E], bInGm[E], kvpGm, workers);
    }

    __aicore__ inline void Attend()
    {
        pipe.InitBuffer(kRawQ, 1, RoundUp8(Lm * hd) * sizeof(float));
        pipe.InitBuffer(vQ, 1, RoundUp8(Lm * hd) * sizeof(float));
        pipe.InitBuffer(qRowQ, 2, RoundUp8(hd) * sizeof(float));
        pipe.InitBuffer(ctxRowQ, 2, RoundUp8(hd) * sizeof(float));
        pipe.InitBuffer(ktBuf, RoundUp8(Lm * hd) * sizeof(float));
        pipe.InitBuffer(scoreBuf, RoundUp8(Lm) * sizeof(float));
        pipe.InitBuffer(redBuf, (RoundUp8(Lm) + 64) * sizeof(float));

        uint32_t units = B * nh;
        for (uint32_t u = GetBlockIdx(); u < units; u += workers) {
            uint32_t b = u / nh;
            uint32_t h = u % nh;
            LoadHeadMemory(b, h);
            for (uint32_t i = 0; i < Lq; ++i) {
                AttendRow(b, h, i);
            }
            kRawQ.FreeTensor(kRaw);
            vQ.FreeTensor(vH);
        }
    }

    __aicore__ inline void OutProject(LinearMM &mmO, const MemoryAttentionTilingData &td)
    {
        RunLinear(mmO, td.outProj, ctxGm, wOutGm, bOutGm, outGm, workers);
    }

private:
    // K_h and V_h for one (batch, head): Lm rows of hd floats with a row pitch of 2E
    __aicore__ inline void LoadHeadMemory(uint32_t b, uint32_t h)
    {
        uint64_t base = static_cast<uint64_t>(b) * Lm * 2 * E + h * hd;
        DataCopyExtParams cp{static_cast<uint16_t>(Lm), static_cast<uint32_t>(hd * sizeof(float)),
                             static_cast<uint32_t>((2 * E - hd) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};

        kRaw = kRawQ.AllocTensor<float>();
        DataCopyPad(kRaw, kvpGm[base], cp, noPad);
        kRawQ.EnQue(kRaw);
        vH = vQ.AllocTensor<float>();
        DataCopyPad(vH, kvpGm[base + E], cp, noPad);
        vQ.EnQue(vH);

        kRaw = kRawQ.DeQue<float>();
        vH = vQ.DeQue<float>();
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);

        // K_h^T so that the score row is a sum of hd contiguous Axpy updates
        LocalTensor<float> kt = ktBuf.Get<float>();
        for (uint32_t j = 0; j < Lm; ++j) {
            for (uint32_t d = 0; d < hd; ++d) {
                kt.SetValue(d * Lm + j, kRaw.GetValue(j * hd + d));
            }
        }
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
    }

    __aicore__ inline void AttendRow(uint32_t b, uint32_t h, uint32_t i)
    {
        uint64_t rowOff = (static_cast<uint64_t>(b) * Lq + i) * E + h * hd;
        LocalTensor<float> qr = qRowQ.AllocTensor<float>();
        DataCopyPad(qr, qpGm[rowOff], {1, static_cast<uint32_t>(hd * sizeof(float)), 0, 0, 0},
                    {false, 0, 0, 0.0f});
        qRowQ.EnQue(qr);
        qr = qRowQ.DeQue<float>();
        WaitFlagPair<HardEvent::MTE2_S>();

        // scores[j] = scale * sum_d q[d] * K[j, d]   (the K bias cancels inside softmax,
        // but it is already part of KVp anyway)
        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> kt = ktBuf.Get<float>();
        Duplicate(sc, 0.0f, Lm);
        for (uint32_t d = 0; d < hd; ++d) {
            float qv = qr.GetValue(d) * scale;
            Axpy(sc, kt[d * Lm], qv, Lm);
        }
        qRowQ.FreeTensor(qr);

        // numerically stable softmax over the memory axis
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = red[64];
        ReduceMax<float>(red, sc, work, Lm, false);
        WaitFlagPair<HardEvent::V_S>();
        float mx = red.GetValue(0);
        Adds(sc, sc, -mx, Lm);
        Exp(sc, sc, Lm);
        ReduceSum<float>(red, sc, work, Lm);
        WaitFlagPair<HardEvent::V_S>();
        float inv = 1.0f / red.GetValue(0);
        Muls(sc, sc, inv, Lm);
        WaitFlagPair<HardEvent::V_S>();

        // ctx = sum_j p[j] * V[j, :]
        LocalTensor<float> cr = ctxRowQ.AllocTensor<float>();
        Duplicate(cr, 0.0f, hd);
        for (uint32_t j = 0; j < Lm; ++j) {
            Axpy(cr, vH[j * hd], sc.GetValue(j), hd);
        }
        ctxRowQ.EnQue(cr);
        cr = ctxRowQ.DeQue<float>();
        DataCopyPad(ctxGm[rowOff], cr, {1, static_cast<uint32_t>(hd * sizeof(float)), 0, 0, 0});
        ctxRowQ.FreeTensor(cr);
    }

    template <HardEvent EV>
    __aicore__ inline void WaitFlagPair()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
        SetFlag<EV>(ev);
        WaitFlag<EV>(ev);
    }

public:
    TPipe pipe;

private:
    TQue<QuePosition::VECIN, 1> kRawQ, vQ;
    TQue<QuePosition::VECIN, 2> qRowQ;
    TQue<QuePosition::VECOUT, 2> ctxRowQ;
    TBuf<TPosition::VECCALC> ktBuf, scoreBuf, redBuf;
    LocalTensor<float> kRaw, vH;

    GlobalTensor<float> qGm, memGm, wInGm, bInGm, wOutGm, bOutGm, outGm;
    GlobalTensor<float> qpGm, kvpGm, ctxGm;
    uint32_t B, Lq, Lm, E, nh, hd, workers;
    float scale;
};

extern "C" __global__ __aicore__ void memory_attention(GM_ADDR query, GM_ADDR memory, GM_ADDR in_proj_weight,
                                                       GM_ADDR in_proj_bias, GM_ADDR out_proj_weight,
                                                       GM_ADDR out_proj_bias, GM_ADDR out, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);

    MemoryAttentionKernel op;
    LinearMM mmQ, mmKV, mmO;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), mmQ, &td.qProj, mmKV, &td.kvProj, mmO, &td.outProj);

    op.Init(query, memory, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, out, usr, td);
    op.Project(mmQ, mmKV, td);
    SyncAll();
    op.Attend();
    SyncAll();
    op.OutProject(mmO, td);
}
