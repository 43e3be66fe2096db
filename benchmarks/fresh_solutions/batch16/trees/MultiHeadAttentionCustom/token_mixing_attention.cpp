/*
 * token_mixing_attention.cpp
 *
 * Self attention with E = heads * headDim, input x (B, S, E):
 *   qkv = x @ Win^T + bin                   (token_mixing_linear,   cube)
 *   ctx = softmax(Q K^T / sqrt(d)) V  per head (token_mixing_attention, vector)
 *   y   = ctx @ Wout^T + bout               (token_mixing_linear,   cube)
 *
 * The host launches the three stages in sequence on one stream.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

// ------------------------------------------------------------------------------------------
// stage 1 / 3 : y = x @ W^T + b on the cube unit
// ------------------------------------------------------------------------------------------
struct TokenMixingLinearTiling {
    TCubeTiling cube;
};

using LinA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using LinB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using LinC = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using LinBias = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void token_mixing_linear(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    TokenMixingLinearTiling tl;
    {
        auto src = reinterpret_cast<__gm__ int32_t *>(tiling);
        auto dst = reinterpret_cast<int32_t *>(&tl);
        for (uint32_t i = 0; i < sizeof(tl) / sizeof(int32_t); ++i) {
            dst[i] = src[i];
        }
    }
    const TCubeTiling &c = tl.cube;
    TPipe pipe;
    matmul::Matmul<LinA, LinB, LinC, LinBias> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl.cube);

    uint32_t nSplit = (c.N + c.singleCoreN - 1) / c.singleCoreN;
    uint32_t mIdx = GetBlockIdx() / nSplit;
    uint32_t nIdx = GetBlockIdx() % nSplit;
    int32_t mOff = mIdx * c.singleCoreM;
    int32_t nOff = nIdx * c.singleCoreN;
    if (mOff >= c.M || nOff >= c.N) {
        return;
    }
    int32_t curM = c.M - mOff < c.singleCoreM ? c.M - mOff : c.singleCoreM;
    int32_t curN = c.N - nOff < c.singleCoreN ? c.N - nOff : c.singleCoreN;

    GlobalTensor<float> xGm, wGm, bGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + (uint64_t)mOff * c.Ka);
    wGm.SetGlobalBuffer((__gm__ float *)w + (uint64_t)nOff * c.Kb);   // W stored (N, K)
    bGm.SetGlobalBuffer((__gm__ float *)b + nOff);
    yGm.SetGlobalBuffer((__gm__ float *)y + (uint64_t)mOff * c.N + nOff);

    mm.SetTensorA(xGm);
    mm.SetTensorB(wGm, true);
    mm.SetBias(bGm);
    mm.SetTail(curM, curN);
    mm.IterateAll(yGm);
    mm.End();
}

// ------------------------------------------------------------------------------------------
// stage 2 : per (batch, head) scaled dot product attention on the vector unit
// ------------------------------------------------------------------------------------------
struct TokenMixingAttentionTiling {
    uint32_t batch;
    uint32_t seqLen;
    uint32_t embed;
    uint32_t heads;
    uint32_t headDim;
    uint32_t pairTotal;     // batch * heads
    uint32_t pairPerCore;
    uint32_t kChunk;        // key rows staged per transpose step
    uint32_t qBlock;        // query rows per load
    float scale;            // 1 / sqrt(headDim)
};

class HeadAttention {
public:
    __aicore__ inline HeadAttention() {}

    __aicore__ inline void Init(GM_ADDR qkv, GM_ADDR ctx, const TokenMixingAttentionTiling &tiling)
    {
        tl = tiling;
        rowStride = 3 * tl.embed;
        qkvGm.SetGlobalBuffer((__gm__ float *)qkv);
        ctxGm.SetGlobalBuffer((__gm__ float *)ctx);

        pairBeg = GetBlockIdx() * tl.pairPerCore;
        pairEnd = pairBeg + tl.pairPerCore;
        if (pairEnd > tl.pairTotal) {
            pairEnd = tl.pairTotal;
        }

        uint32_t S = tl.seqLen, D = tl.headDim;
        pipe.InitBuffer(kStageQ, 1, tl.kChunk * D * sizeof(float));
        pipe.InitBuffer(qQ, 2, tl.qBlock * D * sizeof(float));
        pipe.InitBuffer(vQ, 1, S * D * sizeof(float));
        pipe.InitBuffer(oQ, 2, D * sizeof(float));
        pipe.InitBuffer(ktBuf, D * S * sizeof(float));
        pipe.InitBuffer(scoreBuf, S * sizeof(float));
        pipe.InitBuffer(redBuf, S * sizeof(float));
        pipe.InitBuffer(valBuf, 32);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = pairBeg; p < pairEnd; ++p) {
            uint32_t b = p / tl.heads;
            uint32_t h = p % tl.heads;
            BuildKeyTranspose(b, h);
            LocalTensor<float> v = LoadHeadRows(vQ, b, 0, tl.seqLen, 2 * tl.embed + h * tl.headDim);
            for (uint32_t q0 = 0; q0 < tl.seqLen; q0 += tl.qBlock) {
                LocalTensor<float> qBlk = LoadHeadRows(qQ, b, q0, tl.qBlock, h * tl.headDim);
                for (uint32_t i = 0; i < tl.qBlock; ++i) {
                    AttendOne(qBlk[i * tl.headDim], v, b, h, q0 + i);
                }
                qQ.FreeTensor(qBlk);
            }
            vQ.FreeTensor(v);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Wait()
    {
        event_t id = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    // rows [row0, row0+rows) of batch b, columns [col, col+headDim) of the packed qkv matrix
    template <typename Q>
    __aicore__ inline LocalTensor<float> LoadHeadRows(Q &que, uint32_t b, uint32_t row0, uint32_t rows, uint32_t col)
    {
        LocalTensor<float> dst = que.template AllocTensor<float>();
        DataCopyParams cp;
        cp.blockCount = rows;
        cp.blockLen = tl.headDim * sizeof(float) / 32;
        cp.srcStride = (rowStride - tl.headDim) * sizeof(float) / 32;
        cp.dstStride = 0;
        DataCopy(dst, qkvGm[((uint64_t)b * tl.seqLen + row0) * rowStride + col], cp);
        que.EnQue(dst);
        return que.template DeQue<float>();
    }

    // kt[d][j] = K[j][d] for the current head
    __aicore__ inline void BuildKeyTranspose(uint32_t b, uint32_t h)
    {
        LocalTensor<float> kt = ktBuf.Get<float>();
        Wait<HardEvent::V_S>();   // previous head's score Axpys are done with kt
        for (uint32_t j0 = 0; j0 < tl.seqLen; j0 += tl.kChunk) {
            LocalTensor<float> kc = LoadHeadRows(kStageQ, b, j0, tl.kChunk, tl.embed + h * tl.headDim);
            for (uint32_t j = 0; j < tl.kChunk; ++j) {
                for (uint32_t d = 0; d < tl.headDim; ++d) {
                    kt.SetValue(d * tl.seqLen + j0 + j, kc.GetValue(j * tl.headDim + d));
                }
            }
            kStageQ.FreeTensor(kc);
        }
        Wait<HardEvent::S_V>();
    }

    __aicore__ inline void AttendOne(const LocalTensor<float> &q, const LocalTensor<float> &v,
                                     uint32_t b, uint32_t h, uint32_t qi)
    {
        const uint32_t S = tl.seqLen, D = tl.headDim;
        LocalTensor<float> kt = ktBuf.Get<float>();
        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> val = valBuf.Get<float>();

        // scores = q . K^T, as a sum over d of q[d] * kt[d, :]
        Wait<HardEvent::V_S>();
        Duplicate(sc, 0.0f, S);
        for (uint32_t d = 0; d < D; ++d) {
            float qd = q.GetValue(d) * tl.scale;
            Axpy(sc, kt[d * S], qd, S);
        }

        // softmax over the S keys
        ReduceMax(val, sc, red, S, false);
        Wait<HardEvent::V_S>();
        float mx = val.GetValue(0);
        Wait<HardEvent::S_V>();
        Adds(sc, sc, -mx, S);
        Exp(sc, sc, S);
        ReduceSum(val, sc, red, S);
        Wait<HardEvent::V_S>();
        float inv = 1.0f / val.GetValue(0);
        Wait<HardEvent::S_V>();
        Muls(sc, sc, inv, S);
        Wait<HardEvent::V_S>();

        // out = sum_j p[j] * V[j, :]
        LocalTensor<float> o = oQ.AllocTensor<float>();
        Duplicate(o, 0.0f, D);
        for (uint32_t j = 0; j < S; ++j) {
            Axpy(o, v[j * D], sc.GetValue(j), D);
        }
        oQ.EnQue(o);
        o = oQ.DeQue<float>();
        DataCopy(ctxGm[((uint64_t)b * S + qi) * tl.embed + h * D], o, D);
        oQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> kStageQ, vQ;
    TQue<QuePosition::VECIN, 2> qQ;
    TQue<QuePosition::VECOUT, 2> oQ;
    TBuf<TPosition::VECCALC> ktBuf, scoreBuf, redBuf, valBuf;
    GlobalTensor<float> qkvGm, ctxGm;
    TokenMixingAttentionTiling tl;
    uint32_t rowStride = 0;
    uint32_t pairBeg = 0, pairEnd = 0;
};

extern "C" __global__ __aicore__ void token_mixing_attention(GM_ADDR qkv, GM_ADDR ctx, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TokenMixingAttentionTiling tl;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(tl) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    HeadAttention op;
    op.Init(qkv, ctx, tl);
    op.Process();
}
