/**
 * pixel_token_attn.cpp
 *
 * Self-attention over the pixels of a feature map, followed by residual + LayerNorm.
 * The feature map x is (B, E, L) with L = H * W; working in this "channel-major"
 * layout the whole block needs no explicit permute:
 *
 *   kernel pixel_token_attn_gemm   (cube, Matmul API), used twice:
 *       QKV^T[b] = Win  (3E, E) @ x[b]   (E, L)          -> (B, 3E, L)
 *       Y^T[b]   = Wout (E, E)  @ O[b]^T (O[b] is (L, E)) -> (B, E, L)
 *   kernel pixel_token_attn_core   (vector): softmax(Q K^T / sqrt(d)) V per head -> O (B, L, E)
 *   kernel pixel_token_attn        (vector): Z = Y^T + bout + x ; LayerNorm over E per
 *                                            pixel column -> y (B, E, L)
 *
 * Projection biases: the key bias adds a per-query constant to every score and
 * cancels in the softmax; the value bias is added once to O because the softmax
 * weights sum to 1; the query bias is added while scalars q are formed.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// ------------------------------------------------------------------------------------------
// 1. batched GEMM  C[b] = A[b] @ op(B[b]),  op = identity or transpose
// ------------------------------------------------------------------------------------------
struct PixelTokenAttnGemmArgs {
    uint32_t batch;
    uint32_t transB;
    uint32_t strideA;   // elements between batches (0: shared operand)
    uint32_t strideB;
    uint32_t strideC;
    uint32_t reserved;
    TCubeTiling cube;
};

extern "C" __global__ __aicore__ void pixel_token_attn_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                           GM_ADDR args)
{
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    PixelTokenAttnGemmArgs ga;
    {
        __gm__ uint32_t *src = (__gm__ uint32_t *)args;
        uint32_t *dst = (uint32_t *)&ga;
        for (uint32_t i = 0; i < sizeof(ga) / sizeof(uint32_t); ++i) dst[i] = src[i];
    }
    TPipe pipe;
    using A_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using B_T = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using C_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<A_T, B_T, C_T, C_T> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &ga.cube);

    const TCubeTiling &t = ga.cube;
    uint32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    uint32_t mIdx = GetBlockIdx() % mBlocks;
    uint32_t nIdx = GetBlockIdx() / mBlocks;
    uint32_t m0 = mIdx * t.singleCoreM;
    uint32_t n0 = nIdx * t.singleCoreN;
    if (m0 >= (uint32_t)t.M || n0 >= (uint32_t)t.N) {
        return;
    }
    int32_t tm = (uint32_t)t.M - m0 < (uint32_t)t.singleCoreM ? t.M - m0 : t.singleCoreM;
    int32_t tn = (uint32_t)t.N - n0 < (uint32_t)t.singleCoreN ? t.N - n0 : t.singleCoreN;
    // B is (K, N) when not transposed, (N, K) when transposed
    uint64_t bOff = ga.transB ? (uint64_t)n0 * t.Kb : (uint64_t)n0;

    GlobalTensor<float> aG, bG, cG;
    for (uint32_t bi = 0; bi < ga.batch; ++bi) {
        aG.SetGlobalBuffer((__gm__ float *)a + (uint64_t)bi * ga.strideA + (uint64_t)m0 * t.Ka);
        bG.SetGlobalBuffer((__gm__ float *)b + (uint64_t)bi * ga.strideB + bOff);
        cG.SetGlobalBuffer((__gm__ float *)c + (uint64_t)bi * ga.strideC + (uint64_t)m0 * t.N + n0);
        mm.SetTensorA(aG);
        mm.SetTensorB(bG, ga.transB != 0);
        mm.SetTail(tm, tn);
        mm.IterateAll(cG);
    }
    mm.End();
}

// ------------------------------------------------------------------------------------------
// 2. attention core on vector units
// ------------------------------------------------------------------------------------------
struct PixelTokenAttnCoreTiling {
    uint32_t batch;
    uint32_t embed;      // E
    uint32_t seq;        // L
    uint32_t heads;
    uint32_t headDim;    // d
    uint32_t qRows;      // query rows per task (<= 8)
    uint32_t kChunk;     // key columns per streamed chunk
    uint32_t tasks;      // batch * heads * seq / qRows
    float scale;         // 1 / sqrt(d)
};

constexpr uint32_t MAX_Q = 8;
constexpr uint32_t MAX_D = 64;

class AttnCore {
public:
    __aicore__ inline AttnCore() {}

    __aicore__ inline void Init(GM_ADDR qkvT, GM_ADDR inBias, GM_ADDR o, const PixelTokenAttnCoreTiling &t)
    {
        tl = t;
        qkvG.SetGlobalBuffer((__gm__ float *)qkvT);
        biasG.SetGlobalBuffer((__gm__ float *)inBias);
        oG.SetGlobalBuffer((__gm__ float *)o);

        pipe.InitBuffer(qQ, 1, tl.headDim * 8 * sizeof(float));
        pipe.InitBuffer(kvQ, 2, tl.headDim * tl.kChunk * sizeof(float));
        pipe.InitBuffer(outQ, 1, tl.qRows * MAX_D * sizeof(float));
        pipe.InitBuffer(scoreBuf, tl.qRows * tl.seq * sizeof(float));
        pipe.InitBuffer(prodBuf, tl.kChunk * sizeof(float));
        pipe.InitBuffer(workBuf, tl.seq * sizeof(float));
        pipe.InitBuffer(dotBuf, tl.qRows * tl.headDim * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t blocksPerHead = tl.seq / tl.qRows;
        for (uint32_t task = GetBlockIdx(); task < tl.tasks; task += GetBlockNum()) {
            uint32_t i0 = (task % blocksPerHead) * tl.qRows;
            uint32_t h = (task / blocksPerHead) % tl.heads;
            uint32_t b = task / (blocksPerHead * tl.heads);
            RunBlock(b, h, i0);
        }
    }

private:
    // (d rows, cols [col0, col0 + cols)) of the (3E, L) slab of batch b starting at row0
    __aicore__ inline void LoadStrip(TQue<QuePosition::VECIN, 2> &que, uint64_t base, uint32_t cols, uint32_t pitch)
    {
        LocalTensor<float> dst = que.AllocTensor<float>();
        DataCopyExtParams p;
        p.blockCount = (uint16_t)tl.headDim;
        p.blockLen = cols * sizeof(float);
        p.srcStride = (tl.seq - cols) * sizeof(float);
        p.dstStride = (pitch - cols) * sizeof(float) / 32;
        p.rsv = 0;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(dst, qkvG[base], p, pad);
        que.EnQue(dst);
    }

    __aicore__ inline void SyncVS()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }

    __aicore__ inline void RunBlock(uint32_t b, uint32_t h, uint32_t i0)
    {
        const uint32_t d = tl.headDim, L = tl.seq, E = tl.embed, R = tl.qRows;
        uint64_t slab = (uint64_t)b * 3 * E * L;
        uint64_t qRow = slab + (uint64_t)(h * d) * L;
        uint64_t kRow = slab + (uint64_t)(E + h * d) * L;
        uint64_t vRow = slab + (uint64_t)(2 * E + h * d) * L;

        // ---- scaled query scalars --------------------------------------------------------
        {
            LocalTensor<float> qt = qQ.AllocTensor<float>();
            DataCopyExtParams p;
            p.blockCount = (uint16_t)d;
            p.blockLen = R * sizeof(float);
            p.srcStride = (L - R) * sizeof(float);
            p.dstStride = 0;
            p.rsv = 0;
            DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(8 - R), 0.0f};
            DataCopyPad(qt, qkvG[qRow + i0], p, pad);
            qQ.EnQue(qt);
            qt = qQ.DeQue<float>();
            event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(e);
            WaitFlag<HardEvent::MTE2_S>(e);
            for (uint32_t dd = 0; dd < d; ++dd) {
                float bq = biasG.GetValue(h * d + dd);
                for (uint32_t r = 0; r < R; ++r) {
                    q[r][dd] = (qt.GetValue(dd * 8 + r) + bq) * tl.scale;
                }
            }
            qQ.FreeTensor(qt);
        }

        // ---- scores S[r, :] = sum_dd q[r][dd] * K^T[dd, :] ------------------------------
        LocalTensor<float> S = scoreBuf.Get<float>();
        for (uint32_t c0 = 0; c0 < L; c0 += tl.kChunk) {
            LoadStrip(kvQ, kRow + c0, tl.kChunk, tl.kChunk);
            LocalTensor<float> kt = kvQ.DeQue<float>();
            for (uint32_t r = 0; r < R; ++r) {
                LocalTensor<float> srow = S[r * L + c0];
                Muls(srow, kt, q[r][0], tl.kChunk);
                for (uint32_t dd = 1; dd < d; ++dd) {
                    Axpy(srow, kt[dd * tl.kChunk], q[r][dd], tl.kChunk);
                }
            }
            kvQ.FreeTensor(kt);
        }

        // ---- row softmax -----------------------------------------------------------------
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = dotBuf.Get<float>();
        for (uint32_t r = 0; r < R; ++r) {
            LocalTensor<float> srow = S[r * L];
            ReduceMax(red, srow, work, L, false);
            SyncVS();
            float mx = red.GetValue(0);
            Adds(srow, srow, -mx, L);
            Exp(srow, srow, L);
            ReduceSum(red, srow, work, L);
            SyncVS();
            float inv = 1.0f / red.GetValue(0);
            Muls(srow, srow, inv, L);
        }

        // ---- O[r, dd] = sum_j P[r, j] V^T[dd, j] -------------------------------------------
        for (uint32_t r = 0; r < R; ++r) {
            for (uint32_t dd = 0; dd < d; ++dd) {
                acc[r][dd] = 0.0f;
            }
        }
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> dots = dotBuf.Get<float>();
        for (uint32_t c0 = 0; c0 < L; c0 += tl.kChunk) {
            LoadStrip(kvQ, vRow + c0, tl.kChunk, tl.kChunk);
            LocalTensor<float> vt = kvQ.DeQue<float>();
            for (uint32_t r = 0; r < R; ++r) {
                for (uint32_t dd = 0; dd < d; ++dd) {
                    Mul(prod, S[r * L + c0], vt[dd * tl.kChunk], tl.kChunk);
                    // one 32B slot per result keeps every destination aligned
                    ReduceSum(dots[(r * d + dd) * 8], prod, work, tl.kChunk);
                }
            }
            SyncVS();
            for (uint32_t r = 0; r < R; ++r) {
                for (uint32_t dd = 0; dd < d; ++dd) {
                    acc[r][dd] += dots.GetValue((r * d + dd) * 8);
                }
            }
            event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(sv);
            WaitFlag<HardEvent::S_V>(sv);
            kvQ.FreeTensor(vt);
        }

        // ---- write the (R x d) head slice of O[b] (L, E) ----------------------------------------
        LocalTensor<float> ot = outQ.AllocTensor<float>();
        for (uint32_t dd = 0; dd < d; ++dd) {
            float bv = biasG.GetValue(2 * E + h * d + dd);
            for (uint32_t r = 0; r < R; ++r) {
                ot.SetValue(r * d + dd, acc[r][dd] + bv);
            }
        }
        event_t sm = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sm);
        WaitFlag<HardEvent::S_MTE3>(sm);
        DataCopyExtParams wp;
        wp.blockCount = (uint16_t)R;
        wp.blockLen = d * sizeof(float);
        wp.srcStride = 0;
        wp.dstStride = (E - d) * sizeof(float);
        wp.rsv = 0;
        DataCopyPad(oG[((uint64_t)b * L + i0) * E + h * d], ot, wp);
        event_t ms = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(ms);
        WaitFlag<HardEvent::MTE3_S>(ms);
        outQ.FreeTensor(ot);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qQ;
    TQue<QuePosition::VECIN, 2> kvQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> scoreBuf, prodBuf, workBuf, dotBuf;
    GlobalTensor<float> qkvG, biasG, oG;
    PixelTokenAttnCoreTiling tl;
    float q[MAX_Q][MAX_D];
    float acc[MAX_Q][MAX_D];
};

extern "C" __global__ __aicore__ void pixel_token_attn_core(GM_ADDR qkvT, GM_ADDR inBias, GM_ADDR o, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    PixelTokenAttnCoreTiling t;
    __gm__ uint32_t *src = (__gm__ uint32_t *)tiling;
    uint32_t *dst = (uint32_t *)&t;
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) dst[i] = src[i];
    AttnCore op;
    op.Init(qkvT, inBias, o, t);
    op.Process();
}

// ------------------------------------------------------------------------------------------
// 3. residual + out-proj bias + LayerNorm over E, in (E, L) layout
// ------------------------------------------------------------------------------------------
struct PixelTokenAttnTiling {
    uint32_t batch;
    uint32_t embed;
    uint32_t seq;
    uint32_t cols;      // pixel columns per task (multiple of 8)
    uint32_t tasks;     // batch * seq / cols
    float eps;
};

class ResidualColumnNorm {
public:
    __aicore__ inline ResidualColumnNorm() {}

    __aicore__ inline void Init(GM_ADDR yT, GM_ADDR x, GM_ADDR outBias, GM_ADDR gamma, GM_ADDR beta, GM_ADDR out,
                                const PixelTokenAttnTiling &t)
    {
        tl = t;
        yG.SetGlobalBuffer((__gm__ float *)yT);
        xG.SetGlobalBuffer((__gm__ float *)x);
        bG.SetGlobalBuffer((__gm__ float *)outBias);
        gG.SetGlobalBuffer((__gm__ float *)gamma);
        btG.SetGlobalBuffer((__gm__ float *)beta);
        zG.SetGlobalBuffer((__gm__ float *)out);
        uint32_t tile = tl.embed * tl.cols;
        pipe.InitBuffer(yQ, 1, tile * sizeof(float));
        pipe.InitBuffer(xQ, 1, tile * sizeof(float));
        pipe.InitBuffer(zQ, 1, tile * sizeof(float));
        pipe.InitBuffer(statBuf, 3 * tl.cols * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t perBatch = tl.seq / tl.cols;
        for (uint32_t task = GetBlockIdx(); task < tl.tasks; task += GetBlockNum()) {
            uint32_t b = task / perBatch;
            uint32_t l0 = (task % perBatch) * tl.cols;
            uint64_t base = (uint64_t)b * tl.embed * tl.seq + l0;
            CopyIn(base);
            Compute();
            CopyOut(base);
        }
    }

private:
    __aicore__ inline DataCopyExtParams Strided() const
    {
        DataCopyExtParams p;
        p.blockCount = (uint16_t)tl.embed;
        p.blockLen = tl.cols * sizeof(float);
        p.srcStride = (tl.seq - tl.cols) * sizeof(float);
        p.dstStride = 0;
        p.rsv = 0;
        return p;
    }

    __aicore__ inline void CopyIn(uint64_t base)
    {
        LocalTensor<float> yl = yQ.AllocTensor<float>();
        LocalTensor<float> xl = xQ.AllocTensor<float>();
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(yl, yG[base], Strided(), pad);
        DataCopyPad(xl, xG[base], Strided(), pad);
        yQ.EnQue(yl);
        xQ.EnQue(xl);
    }

    __aicore__ inline void Compute()
    {
        const uint32_t E = tl.embed, C = tl.cols;
        LocalTensor<float> yl = yQ.DeQue<float>();
        LocalTensor<float> xl = xQ.DeQue<float>();
        LocalTensor<float> z = zQ.AllocTensor<float>();
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> mean = st;
        LocalTensor<float> var = st[C];
        LocalTensor<float> tmp = st[2 * C];

        Add(z, yl, xl, E * C);
        Duplicate(mean, 0.0f, C);
        for (uint32_t e = 0; e < E; ++e) {
            Adds(z[e * C], z[e * C], bG.GetValue(e), C);
            Add(mean, mean, z[e * C], C);
        }
        Muls(mean, mean, 1.0f / (float)E, C);

        Duplicate(var, 0.0f, C);
        for (uint32_t e = 0; e < E; ++e) {
            Sub(z[e * C], z[e * C], mean, C);
            Mul(tmp, z[e * C], z[e * C], C);
            Add(var, var, tmp, C);
        }
        Muls(var, var, 1.0f / (float)E, C);
        Adds(var, var, tl.eps, C);
        Sqrt(var, var, C);
        Duplicate(tmp, 1.0f, C);
        Div(var, tmp, var, C);        // var now holds rstd

        for (uint32_t e = 0; e < E; ++e) {
            Mul(z[e * C], z[e * C], var, C);
            Muls(z[e * C], z[e * C], gG.GetValue(e), C);
            Adds(z[e * C], z[e * C], btG.GetValue(e), C);
        }
        zQ.EnQue(z);
        yQ.FreeTensor(yl);
        xQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t base)
    {
        LocalTensor<float> z = zQ.DeQue<float>();
        DataCopyExtParams p;
        p.blockCount = (uint16_t)tl.embed;
        p.blockLen = tl.cols * sizeof(float);
        p.srcStride = 0;
        p.dstStride = (tl.seq - tl.cols) * sizeof(float);
        p.rsv = 0;
        DataCopyPad(zG[base], z, p);
        zQ.FreeTensor(z);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> yQ, xQ;
    TQue<QuePosition::VECOUT, 1> zQ;
    TBuf<TPosition::VECCALC> statBuf;
    GlobalTensor<float> yG, xG, bG, gG, btG, zG;
    PixelTokenAttnTiling tl;
};

extern "C" __global__ __aicore__ void pixel_token_attn(GM_ADDR yT, GM_ADDR x, GM_ADDR outBias, GM_ADDR gamma,
                                                      GM_ADDR beta, GM_ADDR out, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    PixelTokenAttnTiling t;
    __gm__ uint32_t *src = (__gm__ uint32_t *)tiling;
    uint32_t *dst = (uint32_t *)&t;
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) dst[i] = src[i];
    ResidualColumnNorm op;
    op.Init(yT, x, outBias, gamma, beta, out, t);
    op.Process();
}
