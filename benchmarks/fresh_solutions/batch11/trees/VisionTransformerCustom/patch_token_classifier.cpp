/*
 * Device code for a small patch-token image classifier (ViT-like network).
 *
 * Two entries are exported:
 *   patch_token_classifier        - vector stages selected by tiling.stage
 *                                   (patch gather, token assembly, activation,
 *                                    per-position attention, residual + layernorm)
 *   patch_token_classifier_dense  - C = A * B + bias on the cube unit (Matmul API)
 *
 * The host program chains these launches to run the whole network.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

enum VecStage : uint32_t {
    STAGE_PATCHIFY = 0,
    STAGE_ASSEMBLE = 1,
    STAGE_ACTIVATE = 2,
    STAGE_ATTENTION = 3,
    STAGE_ADD_NORM = 4,
};

struct PatchTokenClassifierTiling {
    uint32_t stage;
    // patch gather
    uint32_t batch;
    uint32_t channels;
    uint32_t imageSize;
    uint32_t patch;
    uint32_t grid;          // imageSize / patch
    // token layout
    uint32_t tokens;        // grid * grid + 1
    uint32_t dim;
    // activation
    uint32_t actMode;       // 0: relu, 1: gelu
    uint32_t totalLength;
    uint32_t tileLength;
    // attention
    uint32_t heads;
    uint32_t headDim;
    uint32_t seqLen;        // length of the attended axis
    uint32_t groups;        // independent attention problems
    float scale;
    // layernorm
    uint32_t rows;
    float eps;
};

__aicore__ inline void CopyTiling(PatchTokenClassifierTiling *dst, GM_ADDR src)
{
    auto *out = reinterpret_cast<uint32_t *>(dst);
    auto *in = reinterpret_cast<__gm__ uint32_t *>(src);
    for (uint32_t i = 0; i < sizeof(PatchTokenClassifierTiling) / sizeof(uint32_t); ++i) {
        out[i] = in[i];
    }
}

__aicore__ inline void VecToScalarSync()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(ev);
    WaitFlag<HardEvent::V_S>(ev);
}

__aicore__ inline void ScalarToVecSync()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
    SetFlag<HardEvent::S_V>(ev);
    WaitFlag<HardEvent::S_V>(ev);
}

class TokenVectorStages {
public:
    __aicore__ inline TokenVectorStages() {}

    __aicore__ inline void Run(GM_ADDR in0, GM_ADDR in1, GM_ADDR in2, GM_ADDR in3, GM_ADDR out,
                               const PatchTokenClassifierTiling &t)
    {
        tl = t;
        coreId = GetBlockIdx();
        coreNum = GetBlockNum();
        switch (tl.stage) {
            case STAGE_PATCHIFY: Patchify(in0, out); break;
            case STAGE_ASSEMBLE: Assemble(in0, in1, in2, out); break;
            case STAGE_ACTIVATE: Activate(in0); break;
            case STAGE_ATTENTION: Attention(in0, out); break;
            case STAGE_ADD_NORM: AddNorm(in0, in1, in2, in3, out); break;
            default: break;
        }
    }

private:
    // image (B, C, S, S) -> flat patches; the flat order is (c, ph, pw, i, j) per image,
    // which is then read as rows of C*P*P values.
    __aicore__ inline void Patchify(GM_ADDR img, GM_ADDR patches)
    {
        const uint32_t P = tl.patch;
        const uint32_t S = tl.imageSize;
        const uint32_t G = tl.grid;
        const uint32_t stripe = P * S;                       // P image rows
        srcGm.SetGlobalBuffer((__gm__ float *)img);
        dstGm.SetGlobalBuffer((__gm__ float *)patches);
        pipe.InitBuffer(inQ, BUFFER_NUM, stripe * sizeof(float));

        const uint32_t items = tl.batch * tl.channels * G;  // (b, c, ph)
        const uint32_t perImage = tl.channels * G * G * P * P;
        for (uint32_t it = coreId; it < items; it += coreNum) {
            uint32_t ph = it % G;
            uint32_t c = (it / G) % tl.channels;
            uint32_t b = it / (G * tl.channels);
            LocalTensor<float> rowsLocal = inQ.AllocTensor<float>();
            DataCopy(rowsLocal, srcGm[((b * tl.channels + c) * S + ph * P) * S], stripe);
            inQ.EnQue(rowsLocal);
            rowsLocal = inQ.DeQue<float>();

            uint64_t base = (uint64_t)b * perImage + (uint64_t)(c * G + ph) * G * P * P;
            DataCopyParams cp;
            cp.blockCount = static_cast<uint16_t>(G);
            cp.blockLen = static_cast<uint16_t>(P * sizeof(float) / 32);
            cp.srcStride = 0;
            cp.dstStride = static_cast<uint16_t>((P * P - P) * sizeof(float) / 32);
            for (uint32_t i = 0; i < P; ++i) {
                DataCopy(dstGm[base + i * P], rowsLocal[i * S], cp);
            }
            inQ.FreeTensor(rowsLocal);
        }
    }

    // X[b*T + 0] = cls + pos[0]; X[b*T + t] = emb[b*(T-1) + t-1] + pos[t]
    __aicore__ inline void Assemble(GM_ADDR emb, GM_ADDR cls, GM_ADDR pos, GM_ADDR x)
    {
        const uint32_t D = tl.dim;
        const uint32_t T = tl.tokens;
        srcGm.SetGlobalBuffer((__gm__ float *)emb);
        auxGm.SetGlobalBuffer((__gm__ float *)cls);
        aux2Gm.SetGlobalBuffer((__gm__ float *)pos);
        dstGm.SetGlobalBuffer((__gm__ float *)x);
        pipe.InitBuffer(inQ, BUFFER_NUM, D * sizeof(float));
        pipe.InitBuffer(in2Q, BUFFER_NUM, D * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, D * sizeof(float));

        for (uint32_t r = coreId; r < tl.batch * T; r += coreNum) {
            uint32_t b = r / T;
            uint32_t t = r % T;
            LocalTensor<float> a = inQ.AllocTensor<float>();
            LocalTensor<float> p = in2Q.AllocTensor<float>();
            if (t == 0) {
                DataCopy(a, auxGm, D);
            } else {
                DataCopy(a, srcGm[(b * (T - 1) + t - 1) * D], D);
            }
            DataCopy(p, aux2Gm[t * D], D);
            inQ.EnQue(a);
            in2Q.EnQue(p);
            a = inQ.DeQue<float>();
            p = in2Q.DeQue<float>();
            LocalTensor<float> o = outQ.AllocTensor<float>();
            Add(o, a, p, D);
            outQ.EnQue(o);
            inQ.FreeTensor(a);
            in2Q.FreeTensor(p);
            o = outQ.DeQue<float>();
            DataCopy(dstGm[r * D], o, D);
            outQ.FreeTensor(o);
        }
    }

    // in-place relu / gelu (tanh form) over a flat buffer
    __aicore__ inline void Activate(GM_ADDR buf)
    {
        dstGm.SetGlobalBuffer((__gm__ float *)buf);
        const uint32_t tile = tl.tileLength;
        pipe.InitBuffer(inQ, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(tmpBuf, tile * sizeof(float));

        const uint32_t tiles = (tl.totalLength + tile - 1) / tile;
        for (uint32_t k = coreId; k < tiles; k += coreNum) {
            uint32_t off = k * tile;
            uint32_t len = (tl.totalLength - off) < tile ? (tl.totalLength - off) : tile;
            LocalTensor<float> xin = inQ.AllocTensor<float>();
            DataCopy(xin, dstGm[off], len);
            inQ.EnQue(xin);
            xin = inQ.DeQue<float>();
            LocalTensor<float> y = outQ.AllocTensor<float>();
            if (tl.actMode == 0) {
                Relu(y, xin, len);
            } else {
                // x * sigmoid(1.5957691 * (x + 0.044715 x^3))
                LocalTensor<float> w = tmpBuf.Get<float>();
                Mul(w, xin, xin, len);
                Muls(w, w, 0.044715f, len);
                Adds(w, w, 1.0f, len);
                Mul(w, w, xin, len);
                Muls(w, w, -1.5957691f, len);
                Exp(w, w, len);
                Adds(w, w, 1.0f, len);
                Div(y, xin, w, len);
            }
            outQ.EnQue(y);
            inQ.FreeTensor(xin);
            y = outQ.DeQue<float>();
            DataCopy(dstGm[off], y, len);
            outQ.FreeTensor(y);
        }
    }

    // qkv rows are laid out as (s * groups + g); each group holds seqLen tokens that
    // attend to each other, per head.
    __aicore__ inline void Attention(GM_ADDR qkv, GM_ADDR out)
    {
        const uint32_t D = tl.dim;
        const uint32_t L = tl.seqLen;
        const uint32_t hd = tl.headDim;
        srcGm.SetGlobalBuffer((__gm__ float *)qkv);
        dstGm.SetGlobalBuffer((__gm__ float *)out);
        pipe.InitBuffer(inQ, 1, L * 3 * D * sizeof(float));
        pipe.InitBuffer(outQ, 1, L * D * sizeof(float));
        pipe.InitBuffer(tmpBuf, hd * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(scoreBuf, 64 * sizeof(float));

        LocalTensor<float> prod = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> sc = scoreBuf.Get<float>();

        for (uint32_t g = coreId; g < tl.groups; g += coreNum) {
            LocalTensor<float> rows = inQ.AllocTensor<float>();
            for (uint32_t s = 0; s < L; ++s) {
                DataCopy(rows[s * 3 * D], srcGm[(s * tl.groups + g) * 3 * D], 3 * D);
            }
            inQ.EnQue(rows);
            rows = inQ.DeQue<float>();
            LocalTensor<float> o = outQ.AllocTensor<float>();
            Duplicate(o, 0.0f, L * D);

            for (uint32_t h = 0; h < tl.heads; ++h) {
                for (uint32_t s = 0; s < L; ++s) {
                    LocalTensor<float> q = rows[s * 3 * D + h * hd];
                    float mx = -3.0e38f;
                    for (uint32_t u = 0; u < L; ++u) {
                        Mul(prod, q, rows[u * 3 * D + D + h * hd], hd);
                        ReduceSum(red, prod, red, hd);
                        VecToScalarSync();
                        float v = red.GetValue(0) * tl.scale;
                        sc.SetValue(u, v);
                        mx = v > mx ? v : mx;
                    }
                    ScalarToVecSync();
                    Adds(sc, sc, -mx, L);
                    Exp(sc, sc, L);
                    VecToScalarSync();
                    float sum = 0.0f;
                    for (uint32_t u = 0; u < L; ++u) {
                        sum += sc.GetValue(u);
                    }
                    float inv = 1.0f / sum;
                    ScalarToVecSync();
                    LocalTensor<float> dst = o[s * D + h * hd];
                    for (uint32_t u = 0; u < L; ++u) {
                        Axpy(dst, rows[u * 3 * D + 2 * D + h * hd], sc.GetValue(u) * inv, hd);
                        PipeBarrier<PIPE_V>();
                    }
                }
            }
            outQ.EnQue(o);
            inQ.FreeTensor(rows);
            o = outQ.DeQue<float>();
            for (uint32_t s = 0; s < L; ++s) {
                DataCopy(dstGm[(s * tl.groups + g) * D], o[s * D], D);
            }
            outQ.FreeTensor(o);
        }
    }

    // out = LayerNorm(a + b) * gamma + beta, row by row
    __aicore__ inline void AddNorm(GM_ADDR a, GM_ADDR b, GM_ADDR gamma, GM_ADDR beta, GM_ADDR out)
    {
        const uint32_t D = tl.dim;
        srcGm.SetGlobalBuffer((__gm__ float *)a);
        src2Gm.SetGlobalBuffer((__gm__ float *)b);
        auxGm.SetGlobalBuffer((__gm__ float *)gamma);
        aux2Gm.SetGlobalBuffer((__gm__ float *)beta);
        dstGm.SetGlobalBuffer((__gm__ float *)out);
        pipe.InitBuffer(inQ, BUFFER_NUM, D * sizeof(float));
        pipe.InitBuffer(in2Q, BUFFER_NUM, D * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, D * sizeof(float));
        pipe.InitBuffer(tmpBuf, D * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(scoreBuf, 2 * D * sizeof(float));

        LocalTensor<float> gb = scoreBuf.Get<float>();
        DataCopy(gb, auxGm, D);
        DataCopy(gb[D], aux2Gm, D);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);

        LocalTensor<float> sq = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        const float invD = 1.0f / static_cast<float>(D);
        for (uint32_t r = coreId; r < tl.rows; r += coreNum) {
            LocalTensor<float> xa = inQ.AllocTensor<float>();
            LocalTensor<float> xb = in2Q.AllocTensor<float>();
            DataCopy(xa, srcGm[r * D], D);
            DataCopy(xb, src2Gm[r * D], D);
            inQ.EnQue(xa);
            in2Q.EnQue(xb);
            xa = inQ.DeQue<float>();
            xb = in2Q.DeQue<float>();
            LocalTensor<float> y = outQ.AllocTensor<float>();

            Add(y, xa, xb, D);
            ReduceSum(red, y, sq, D);
            VecToScalarSync();
            float mean = red.GetValue(0) * invD;
            ScalarToVecSync();
            Adds(y, y, -mean, D);
            Mul(sq, y, y, D);
            ReduceSum(red, sq, sq, D);
            Muls(red, red, invD, 8);
            Adds(red, red, tl.eps, 8);
            Sqrt(red, red, 8);
            VecToScalarSync();
            float rstd = 1.0f / red.GetValue(0);
            ScalarToVecSync();
            Muls(y, y, rstd, D);
            Mul(y, y, gb, D);
            Add(y, y, gb[D], D);

            outQ.EnQue(y);
            inQ.FreeTensor(xa);
            in2Q.FreeTensor(xb);
            y = outQ.DeQue<float>();
            DataCopy(dstGm[r * D], y, D);
            outQ.FreeTensor(y);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ, in2Q;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> tmpBuf, redBuf, scoreBuf;
    GlobalTensor<float> srcGm, src2Gm, auxGm, aux2Gm, dstGm;
    PatchTokenClassifierTiling tl;
    uint32_t coreId;
    uint32_t coreNum;
};

extern "C" __global__ __aicore__ void patch_token_classifier(GM_ADDR in0, GM_ADDR in1, GM_ADDR in2,
                                                             GM_ADDR in3, GM_ADDR out, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    PatchTokenClassifierTiling t;
    CopyTiling(&t, tiling);
    TokenVectorStages stages;
    stages.Run(in0, in1, in2, in3, out, t);
}

// ---------------------------------------------------------------------------
// Dense layer on the cube unit: C[M,N] = A[M,K] * B[K,N] + bias[N]
// ---------------------------------------------------------------------------
__aicore__ inline void CopyCubeTiling(TCubeTiling *dst, GM_ADDR src)
{
    auto *out = reinterpret_cast<uint32_t *>(dst);
    auto *in = reinterpret_cast<__gm__ uint32_t *>(src);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
        out[i] = in[i];
    }
}

__aicore__ inline uint32_t DivUp(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

extern "C" __global__ __aicore__ void patch_token_classifier_dense(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                                   GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TCubeTiling cube;
    CopyCubeTiling(&cube, tiling);

    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

    TPipe pipe;
    matmul::Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &cube);

    uint32_t blk = GetBlockIdx();
    if (blk >= static_cast<uint32_t>(cube.usedCoreNum)) {
        return;
    }
    uint32_t mParts = DivUp(cube.M, cube.singleCoreM);
    uint32_t mi = blk % mParts;
    uint32_t ni = blk / mParts;
    uint32_t mStart = mi * cube.singleCoreM;
    uint32_t nStart = ni * cube.singleCoreN;
    int32_t tailM = cube.M - mStart;
    int32_t tailN = cube.N - nStart;
    tailM = tailM < cube.singleCoreM ? tailM : cube.singleCoreM;
    tailN = tailN < cube.singleCoreN ? tailN : cube.singleCoreN;
    if (tailM <= 0 || tailN <= 0) {
        return;
    }

    GlobalTensor<float> aGm, bGm, biasGm, cGm;
    aGm.SetGlobalBuffer((__gm__ float *)a, (uint64_t)cube.M * cube.Ka);
    bGm.SetGlobalBuffer((__gm__ float *)b, (uint64_t)cube.Kb * cube.N);
    biasGm.SetGlobalBuffer((__gm__ float *)bias, cube.N);
    cGm.SetGlobalBuffer((__gm__ float *)c, (uint64_t)cube.M * cube.N);

    mm.SetTail(tailM, tailN);
    mm.SetTensorA(aGm[(uint64_t)mStart * cube.Ka]);
    mm.SetTensorB(bGm[nStart]);
    mm.SetBias(biasGm[nStart]);
    mm.IterateAll(cGm[(uint64_t)mStart * cube.N + nStart]);
    mm.End();
}
