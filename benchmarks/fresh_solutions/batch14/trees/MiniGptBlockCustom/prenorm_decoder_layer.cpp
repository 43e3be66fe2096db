/*
 * prenorm_decoder_layer.cpp
 *
 * One pre-norm transformer decoder layer (causal self-attention + MLP):
 *   h  = x + Wo * Attn(LN1(x)) + bo
 *   y  = h + W2 * gelu_tanh(W1 * LN2(h) + b1) + b2
 *
 * Device entries (main.cpp chains them on one stream):
 *   prenorm_decoder_layer_norm   : LayerNorm over the embedding axis
 *   prenorm_decoder_layer_dense  : cube matmul (nn.Linear weight layout) + bias
 *                                  with a vector epilogue: none / gelu / +residual
 *   prenorm_decoder_layer        : causal multi-head attention on the packed
 *                                  [tokens, 3*C] q|k|v projection
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

enum Epilogue : uint32_t { EPI_NONE = 0, EPI_GELU = 1, EPI_RESIDUAL = 2 };

struct PrenormDecoderLayerTiling {
    // layer norm
    uint32_t tokens;
    uint32_t embed;
    uint32_t tokensPerCore;
    float lnEps;
    // attention
    uint32_t batch;
    uint32_t seqLen;
    uint32_t heads;
    uint32_t headDim;
    float attnScale;
    // dense
    uint32_t epilogue;
    uint32_t baseM;
    uint32_t baseN;
    TCubeTiling cube;
};

template <typename T>
__aicore__ inline void GrabTiling(T *t, GM_ADDR g)
{
    auto s = reinterpret_cast<__gm__ uint32_t *>(g);
    auto d = reinterpret_cast<uint32_t *>(t);
    for (uint32_t i = 0; i < sizeof(T) / 4; ++i) {
        d[i] = s[i];
    }
}

__aicore__ inline void VecToScalar()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
}

__aicore__ inline void ScalarToVec()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
    SetFlag<HardEvent::S_V>(e);
    WaitFlag<HardEvent::S_V>(e);
}

// ===========================================================================
// LayerNorm
// ===========================================================================
class TokenLayerNorm {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const PrenormDecoderLayerTiling &t)
    {
        cfg = t;
        first = GetBlockIdx() * cfg.tokensPerCore;
        last = first + cfg.tokensPerCore;
        if (last > cfg.tokens) {
            last = cfg.tokens;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        gGm.SetGlobalBuffer((__gm__ float *)gamma);
        bGm.SetGlobalBuffer((__gm__ float *)beta);
        uint32_t bytes = cfg.embed * sizeof(float);
        pipe.InitBuffer(inQ, 2, bytes);
        pipe.InitBuffer(outQ, 2, bytes);
        pipe.InitBuffer(affine, 2 * bytes);
        pipe.InitBuffer(sq, bytes);
        pipe.InitBuffer(red, 32);
        pipe.InitBuffer(work, bytes);
    }

    __aicore__ inline void Process()
    {
        const uint32_t c = cfg.embed;
        LocalTensor<float> gb = affine.Get<float>();
        DataCopy(gb, gGm, c);
        DataCopy(gb[c], bGm, c);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);

        const float invC = 1.0f / static_cast<float>(c);
        for (uint32_t tok = first; tok < last; ++tok) {
            LocalTensor<float> xin = inQ.AllocTensor<float>();
            DataCopy(xin, xGm[static_cast<uint64_t>(tok) * c], c);
            inQ.EnQue(xin);
            xin = inQ.DeQue<float>();

            LocalTensor<float> r = red.Get<float>();
            LocalTensor<float> s = sq.Get<float>();
            LocalTensor<float> w = work.Get<float>();
            ReduceSum<float>(r, xin, w, c);
            VecToScalar();
            float mean = r.GetValue(0) * invC;
            ScalarToVec();

            LocalTensor<float> yo = outQ.AllocTensor<float>();
            Adds(yo, xin, -mean, c);
            Mul(s, yo, yo, c);
            ReduceSum<float>(r, s, w, c);
            VecToScalar();
            float var = r.GetValue(0) * invC;
            ScalarToVec();
            // rstd on the vector unit keeps the scalar side free of sqrt
            Duplicate(r, var + cfg.lnEps, 8);
            Sqrt(r, r, 8);
            VecToScalar();
            float rstd = 1.0f / r.GetValue(0);
            ScalarToVec();

            Muls(yo, yo, rstd, c);
            Mul(yo, yo, gb, c);
            Add(yo, yo, gb[c], c);
            outQ.EnQue(yo);
            inQ.FreeTensor(xin);

            yo = outQ.DeQue<float>();
            DataCopy(yGm[static_cast<uint64_t>(tok) * c], yo, c);
            outQ.FreeTensor(yo);
        }
    }

private:
    PrenormDecoderLayerTiling cfg;
    uint32_t first = 0, last = 0;
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> affine, sq, red, work;
    GlobalTensor<float> xGm, yGm, gGm, bGm;
};

extern "C" __global__ __aicore__ void prenorm_decoder_layer_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                                 GM_ADDR tiling)
{
    PrenormDecoderLayerTiling t;
    GrabTiling(&t, tiling);
    TokenLayerNorm op;
    op.Init(x, gamma, beta, y, t);
    op.Process();
}

// ===========================================================================
// Dense: out = act(in @ W^T + b) [+ residual]
// ===========================================================================
using DnA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using DnB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using DnC = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using DnBias = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

class DenseEpilogue {
public:
    matmul::Matmul<DnA, DnB, DnC, DnBias> mm;

    __aicore__ inline bool Init(GM_ADDR in, GM_ADDR w, GM_ADDR bias, GM_ADDR res, GM_ADDR out,
                                const PrenormDecoderLayerTiling &t)
    {
        cfg = t;
        const TCubeTiling &ct = cfg.cube;
        uint32_t mCnt = Ceil(ct.M, ct.singleCoreM);
        mBase = (GetBlockIdx() % mCnt) * ct.singleCoreM;
        nBase = (GetBlockIdx() / mCnt) * ct.singleCoreN;
        if (mBase >= static_cast<uint32_t>(ct.M) || nBase >= static_cast<uint32_t>(ct.N)) {
            return false;
        }
        mLen = ct.M - mBase < static_cast<uint32_t>(ct.singleCoreM) ? ct.M - mBase : ct.singleCoreM;
        nLen = ct.N - nBase < static_cast<uint32_t>(ct.singleCoreN) ? ct.N - nBase : ct.singleCoreN;

        inGm.SetGlobalBuffer((__gm__ float *)in + static_cast<uint64_t>(mBase) * ct.Ka);
        wGm.SetGlobalBuffer((__gm__ float *)w + static_cast<uint64_t>(nBase) * ct.Kb);
        biasGm.SetGlobalBuffer((__gm__ float *)bias + nBase);
        resGm.SetGlobalBuffer((__gm__ float *)res);
        outGm.SetGlobalBuffer((__gm__ float *)out);

        uint32_t tileBytes = cfg.baseM * cfg.baseN * sizeof(float);
        pipe.InitBuffer(accQ, 1, tileBytes);
        pipe.InitBuffer(resQ, 1, tileBytes);
        pipe.InitBuffer(outQ, 1, tileBytes);
        pipe.InitBuffer(scratch, tileBytes);
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(inGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(mLen, nLen);
        const uint32_t mSteps = Ceil(mLen, cfg.baseM);
        const uint32_t elems = cfg.baseM * cfg.baseN;
        uint32_t k = 0;
        while (mm.template Iterate<true>()) {
            uint32_t row = mBase + (k % mSteps) * cfg.baseM;
            uint32_t col = nBase + (k / mSteps) * cfg.baseN;
            ++k;

            LocalTensor<float> acc = accQ.AllocTensor<float>();
            mm.template GetTensorC<true>(acc, false, true);
            accQ.EnQue(acc);
            if (cfg.epilogue == EPI_RESIDUAL) {
                LocalTensor<float> r = resQ.AllocTensor<float>();
                DataCopy(r, resGm[static_cast<uint64_t>(row) * cfg.cube.N + col], TileParams(false));
                resQ.EnQue(r);
            }

            acc = accQ.DeQue<float>();
            LocalTensor<float> o = outQ.AllocTensor<float>();
            if (cfg.epilogue == EPI_GELU) {
                Gelu(o, acc, elems);
            } else if (cfg.epilogue == EPI_RESIDUAL) {
                LocalTensor<float> r = resQ.DeQue<float>();
                Add(o, acc, r, elems);
                resQ.FreeTensor(r);
            } else {
                DataCopy(o, acc, elems);
            }
            accQ.FreeTensor(acc);
            outQ.EnQue(o);

            o = outQ.DeQue<float>();
            DataCopy(outGm[static_cast<uint64_t>(row) * cfg.cube.N + col], o, TileParams(true));
            outQ.FreeTensor(o);
        }
        mm.End();
    }

private:
    // a baseM x baseN window of a row-major [M, N] matrix
    __aicore__ inline DataCopyParams TileParams(bool toGm)
    {
        DataCopyParams p;
        p.blockCount = cfg.baseM;
        p.blockLen = cfg.baseN * sizeof(float) / 32;
        uint16_t gap = (cfg.cube.N - cfg.baseN) * sizeof(float) / 32;
        p.srcStride = toGm ? 0 : gap;
        p.dstStride = toGm ? gap : 0;
        return p;
    }

    // tanh-form GELU: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    __aicore__ inline void Gelu(const LocalTensor<float> &dst, const LocalTensor<float> &x, uint32_t n)
    {
        LocalTensor<float> t = scratch.Get<float>();
        Mul(t, x, x, n);
        Mul(t, t, x, n);
        Muls(t, t, 0.044715f, n);
        Add(t, t, x, n);
        Muls(t, t, 0.7978845608f, n);
        Tanh(dst, t, n);
        Adds(dst, dst, 1.0f, n);
        Mul(dst, dst, x, n);
        Muls(dst, dst, 0.5f, n);
    }

    PrenormDecoderLayerTiling cfg;
    uint32_t mBase = 0, nBase = 0, mLen = 0, nLen = 0;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> accQ, resQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> scratch;
    GlobalTensor<float> inGm, wGm, biasGm, resGm, outGm;
};

extern "C" __global__ __aicore__ void prenorm_decoder_layer_dense(GM_ADDR in, GM_ADDR w, GM_ADDR bias, GM_ADDR res,
                                                                  GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    PrenormDecoderLayerTiling t;
    GrabTiling(&t, tiling);
    DenseEpilogue op;
    if (!op.Init(in, w, bias, res, out, t)) {
        return;
    }
    REGIST_MATMUL_OBJ(GetTPipePtr(), GetSysWorkSpacePtr(), op.mm, &t.cube);
    op.Process();
}

// ===========================================================================
// Causal attention, one (batch, head) pair per iteration
// ===========================================================================
class CausalHeadAttention {
public:
    __aicore__ inline void Init(GM_ADDR qkv, GM_ADDR y, const PrenormDecoderLayerTiling &t)
    {
        cfg = t;
        qkvGm.SetGlobalBuffer((__gm__ float *)qkv);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        const uint32_t T = cfg.seqLen;
        const uint32_t D = cfg.headDim;
        pipe.InitBuffer(kvQ, 1, 2 * T * D * sizeof(float));  // K rows then V rows
        pipe.InitBuffer(ktBuf, D * T * sizeof(float));        // K transposed [D, T]
        pipe.InitBuffer(qQ, 2, D * sizeof(float));
        pipe.InitBuffer(yQ, 2, D * sizeof(float));
        pipe.InitBuffer(scoreBuf, T * sizeof(float));
        pipe.InitBuffer(redBuf, 32);
        pipe.InitBuffer(workBuf, T * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t units = cfg.batch * cfg.heads;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            Head(u / cfg.heads, u % cfg.heads);
        }
    }

private:
    __aicore__ inline void Head(uint32_t b, uint32_t h)
    {
        const uint32_t T = cfg.seqLen;
        const uint32_t D = cfg.headDim;
        const uint32_t C = cfg.embed;
        const uint64_t rowPitch = 3ULL * C;
        const uint64_t base = static_cast<uint64_t>(b) * T * rowPitch + h * D;

        // K and V for this head: T rows of D floats, pitch 3C in GM
        LocalTensor<float> kv = kvQ.AllocTensor<float>();
        DataCopyParams cp;
        cp.blockCount = T;
        cp.blockLen = D * sizeof(float) / 32;
        cp.srcStride = (rowPitch - D) * sizeof(float) / 32;
        cp.dstStride = 0;
        DataCopy(kv, qkvGm[base + C], cp);
        DataCopy(kv[T * D], qkvGm[base + 2 * C], cp);
        kvQ.EnQue(kv);
        kv = kvQ.DeQue<float>();
        LocalTensor<float> kRows = kv;
        LocalTensor<float> vRows = kv[T * D];

        // transpose K once per head so that scores become D axpy's of length T
        LocalTensor<float> kt = ktBuf.Get<float>();
        for (uint32_t j = 0; j < T; ++j) {
            for (uint32_t d = 0; d < D; ++d) {
                kt.SetValue(d * T + j, kRows.GetValue(j * D + d));
            }
        }
        ScalarToVec();

        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        for (uint32_t i = 0; i < T; ++i) {
            LocalTensor<float> q = qQ.AllocTensor<float>();
            DataCopy(q, qkvGm[base + i * rowPitch], D);
            qQ.EnQue(q);
            q = qQ.DeQue<float>();

            Duplicate(sc, 0.0f, T);
            for (uint32_t d = 0; d < D; ++d) {
                float qd = q.GetValue(d) * cfg.attnScale;
                ScalarToVec();
                Axpy(sc, kt[d * T], qd, T);
            }
            qQ.FreeTensor(q);

            // causal mask: keys after position i never contribute
            VecToScalar();
            for (uint32_t j = i + 1; j < T; ++j) {
                sc.SetValue(j, -3.0e38f);
            }
            ScalarToVec();

            ReduceMax<float>(red, sc, work, T, false);
            VecToScalar();
            float mx = red.GetValue(0);
            ScalarToVec();
            Adds(sc, sc, -mx, T);
            Exp(sc, sc, T);
            ReduceSum<float>(red, sc, work, T);
            VecToScalar();
            float inv = 1.0f / red.GetValue(0);

            LocalTensor<float> yo = yQ.AllocTensor<float>();
            ScalarToVec();
            Duplicate(yo, 0.0f, D);
            VecToScalar();
            for (uint32_t j = 0; j <= i; ++j) {
                float p = sc.GetValue(j) * inv;
                ScalarToVec();
                Axpy(yo, vRows[j * D], p, D);
            }
            yQ.EnQue(yo);
            yo = yQ.DeQue<float>();
            DataCopy(yGm[(static_cast<uint64_t>(b) * T + i) * C + h * D], yo, D);
            yQ.FreeTensor(yo);
        }
        kvQ.FreeTensor(kv);
    }

    PrenormDecoderLayerTiling cfg;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> kvQ;
    TQue<QuePosition::VECIN, 2> qQ;
    TQue<QuePosition::VECOUT, 2> yQ;
    TBuf<TPosition::VECCALC> ktBuf, scoreBuf, redBuf, workBuf;
    GlobalTensor<float> qkvGm, yGm;
};

extern "C" __global__ __aicore__ void prenorm_decoder_layer(GM_ADDR qkv, GM_ADDR y, GM_ADDR tiling)
{
    PrenormDecoderLayerTiling t;
    GrabTiling(&t, tiling);
    CausalHeadAttention op;
    op.Init(qkv, y, t);
    op.Process();
}
