/*
 * text_image_attend.cpp
 *
 * Text tokens attend over image patches (multi-head, batch-first):
 *   q  = text @ Wq^T + bq                 (B, Lt, E)
 *   kv = img  @ Wkv^T + bkv               (B, Li, E)
 *   Q = q Wiq^T + biq, K = kv Wik^T + bik, V = kv Wiv^T + biv
 *   O_h = softmax(Q_h K_h^T / sqrt(D)) V_h        per head h, D = E / H
 *   out = concat(O_h) @ Wo^T + bo
 *
 * Two kernels:
 *   text_image_attend_linear : row-blocked dense layer y = x @ Wt + b (Wt stored as (in, out))
 *   text_image_attend        : scaled dot-product attention, one (batch, head) pair per step
 */
#include "kernel_operator.h"

using namespace AscendC;

// ------------------------------------------------------------------------------------------
// dense layer
// ------------------------------------------------------------------------------------------
struct TextImageAttendLinearTiling {
    uint32_t rows;        // number of tokens
    uint32_t inF;         // input features
    uint32_t outF;        // output features (multiple of 8)
    uint32_t rowBlock;    // rows accumulated together so each weight chunk is reused
    uint32_t kChunk;      // weight rows per streamed chunk
    uint32_t blocksPerCore;
};

class DenseRows {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR b, GM_ADDR y, const TextImageAttendLinearTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)wt);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(wQue, 2, tl.kChunk * tl.outF * sizeof(float));
        pipe.InitBuffer(xBuf, tl.rowBlock * tl.inF * sizeof(float));
        pipe.InitBuffer(accQue, 1, tl.rowBlock * tl.outF * sizeof(float));
        pipe.InitBuffer(biasBuf, tl.outF * sizeof(float));
        DataCopy(biasBuf.Get<float>(), bGm, tl.outF);
    }

    __aicore__ inline void Process()
    {
        uint32_t nBlocks = (tl.rows + tl.rowBlock - 1) / tl.rowBlock;
        uint32_t b0 = GetBlockIdx() * tl.blocksPerCore;
        uint32_t b1 = b0 + tl.blocksPerCore;
        if (b1 > nBlocks) b1 = nBlocks;
        for (uint32_t blk = b0; blk < b1; ++blk) {
            uint32_t r0 = blk * tl.rowBlock;
            uint32_t nr = tl.rows - r0;
            if (nr > tl.rowBlock) nr = tl.rowBlock;
            RunBlock(r0, nr);
        }
    }

private:
    __aicore__ inline void RunBlock(uint32_t r0, uint32_t nr)
    {
        LocalTensor<float> xs = xBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> acc = accQue.AllocTensor<float>();

        // stage the input rows; scalar reads follow, so wait for MTE2 on the scalar pipe
        event_t evSM = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE2));
        SetFlag<HardEvent::S_MTE2>(evSM);
        WaitFlag<HardEvent::S_MTE2>(evSM);
        DataCopy(xs, xGm[(uint64_t)r0 * tl.inF], nr * tl.inF);
        event_t evMS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evMS);
        WaitFlag<HardEvent::MTE2_S>(evMS);
        event_t evMV = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evMV);
        WaitFlag<HardEvent::MTE2_V>(evMV);

        for (uint32_t r = 0; r < nr; ++r) {
            Adds(acc[r * tl.outF], bias, 0.0f, tl.outF);
        }
        for (uint32_t k0 = 0; k0 < tl.inF; k0 += tl.kChunk) {
            LocalTensor<float> wc = wQue.AllocTensor<float>();
            DataCopy(wc, wGm[(uint64_t)k0 * tl.outF], tl.kChunk * tl.outF);
            wQue.EnQue(wc);
            wc = wQue.DeQue<float>();
            for (uint32_t r = 0; r < nr; ++r) {
                for (uint32_t k = 0; k < tl.kChunk; ++k) {
                    float xv = xs.GetValue(r * tl.inF + k0 + k);
                    Axpy(acc[r * tl.outF], wc[k * tl.outF], xv, tl.outF);
                }
            }
            wQue.FreeTensor(wc);
        }
        accQue.EnQue(acc);
        acc = accQue.DeQue<float>();
        DataCopy(yGm[(uint64_t)r0 * tl.outF], acc, nr * tl.outF);
        accQue.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> wQue;
    TQue<QuePosition::VECOUT, 1> accQue;
    TBuf<TPosition::VECCALC> xBuf, biasBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    TextImageAttendLinearTiling tl;
};

extern "C" __global__ __aicore__ void text_image_attend_linear(GM_ADDR x, GM_ADDR wt, GM_ADDR b, GM_ADDR y,
                                                               GM_ADDR tiling)
{
    TextImageAttendLinearTiling t;
    auto *p = reinterpret_cast<__gm__ uint32_t *>(tiling);
    t.rows = p[0]; t.inF = p[1]; t.outF = p[2];
    t.rowBlock = p[3]; t.kChunk = p[4]; t.blocksPerCore = p[5];
    DenseRows op;
    op.Init(x, wt, b, y, t);
    op.Process();
}

// ------------------------------------------------------------------------------------------
// attention core
// ------------------------------------------------------------------------------------------
struct TextImageAttendTiling {
    uint32_t batch;
    uint32_t lenQ;        // text tokens
    uint32_t lenKV;       // image tokens
    uint32_t embed;       // model width E
    uint32_t heads;
    uint32_t headDim;     // E / heads, 32 here (one 128-byte row per token)
    uint32_t lenKVAlign;  // lenKV rounded up to 8
    float scale;          // 1 / sqrt(headDim)
};

class HeadAttention {
public:
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, const TextImageAttendTiling &t)
    {
        tl = t;
        qGm.SetGlobalBuffer((__gm__ float *)q);
        kGm.SetGlobalBuffer((__gm__ float *)k);
        vGm.SetGlobalBuffer((__gm__ float *)v);
        oGm.SetGlobalBuffer((__gm__ float *)o);
        uint32_t d = tl.headDim;
        pipe.InitBuffer(qBuf, tl.lenQ * d * sizeof(float));
        pipe.InitBuffer(kBuf, tl.lenKVAlign * d * sizeof(float));
        pipe.InitBuffer(vBuf, tl.lenKV * d * sizeof(float));
        pipe.InitBuffer(prodBuf, tl.lenKVAlign * d * sizeof(float));
        pipe.InitBuffer(qPairBuf, 2 * d * sizeof(float));
        pipe.InitBuffer(scoreBuf, tl.lenKVAlign * sizeof(float));
        pipe.InitBuffer(workBuf, tl.lenKVAlign * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(outQue, 1, tl.lenQ * d * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t units = tl.batch * tl.heads;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t bIdx = u / tl.heads;
            uint32_t h = u % tl.heads;
            LoadHead(bIdx, h);
            AttendHead();
            StoreHead(bIdx, h);
        }
    }

private:
    // Pull the (len x headDim) slice of head h out of a (len x embed) token matrix.
    __aicore__ inline void LoadSlice(LocalTensor<float> &dst, GlobalTensor<float> &src, uint32_t b, uint32_t h,
                                     uint32_t len)
    {
        uint64_t off = (uint64_t)b * len * tl.embed + h * tl.headDim;
        DataCopyExtParams cp{(uint16_t)len, tl.headDim * (uint32_t)sizeof(float),
                             (tl.embed - tl.headDim) * (uint32_t)sizeof(float), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(dst, src[off], cp, pad);
    }

    __aicore__ inline void LoadHead(uint32_t b, uint32_t h)
    {
        LocalTensor<float> ql = qBuf.Get<float>();
        LocalTensor<float> kl = kBuf.Get<float>();
        LocalTensor<float> vl = vBuf.Get<float>();
        event_t evVM = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(evVM);
        WaitFlag<HardEvent::V_MTE2>(evVM);
        LoadSlice(ql, qGm, b, h, tl.lenQ);
        LoadSlice(kl, kGm, b, h, tl.lenKV);
        LoadSlice(vl, vGm, b, h, tl.lenKV);
        event_t evMV = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evMV);
        WaitFlag<HardEvent::MTE2_V>(evMV);
        // padded key rows must not contribute garbage to the reductions
        if (tl.lenKVAlign > tl.lenKV) {
            Duplicate(kl[tl.lenKV * tl.headDim], 0.0f, (tl.lenKVAlign - tl.lenKV) * tl.headDim);
        }
    }

    __aicore__ inline void AttendHead()
    {
        const uint32_t d = tl.headDim;     // 32 floats = 4 blocks per token
        LocalTensor<float> ql = qBuf.Get<float>();
        LocalTensor<float> kl = kBuf.Get<float>();
        LocalTensor<float> vl = vBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> qp = qPairBuf.Get<float>();
        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> wk = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> ol = outQue.AllocTensor<float>();

        const uint8_t pairs = static_cast<uint8_t>(tl.lenKVAlign * d / 64);   // 64 floats per repeat
        for (uint32_t i = 0; i < tl.lenQ; ++i) {
            // q_i (pre-scaled) twice back to back so one repeat covers two key rows
            Muls(qp, ql[i * d], tl.scale, d);
            Muls(qp[d], ql[i * d], tl.scale, d);
            PipeBarrier<PIPE_V>();
            // prod[j, :] = K[j, :] * q_i, then a 32-wide row sum per key -> raw scores
            Mul(prod, kl, qp, 64, pairs, {1, 1, 1, 8, 8, 0});
            PipeBarrier<PIPE_V>();
            WholeReduceSum<float>(sc, prod, (int32_t)d, (int32_t)tl.lenKVAlign, 1, 1, (int32_t)(d / 8));
            PipeBarrier<PIPE_V>();

            // numerically stable softmax over the lenKV valid scores
            ReduceMax<float>(red, sc, wk, (int32_t)tl.lenKV, false);
            event_t evVS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            float mx = red.GetValue(0);
            event_t evSV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(evSV);
            WaitFlag<HardEvent::S_V>(evSV);
            Adds(sc, sc, -mx, tl.lenKV);
            Exp(sc, sc, tl.lenKV);
            ReduceSum<float>(red, sc, wk, (int32_t)tl.lenKV);
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            float inv = 1.0f / red.GetValue(0);

            // o_i = sum_j p_j V[j, :] with p_j = exp(s_j - max) / sum
            LocalTensor<float> oi = ol[i * d];
            Duplicate(oi, 0.0f, d);
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            for (uint32_t j = 0; j < tl.lenKV; ++j) {
                float pj = sc.GetValue(j) * inv;
                Axpy(oi, vl[j * d], pj, d);
            }
            SetFlag<HardEvent::S_V>(evSV);
            WaitFlag<HardEvent::S_V>(evSV);
            PipeBarrier<PIPE_V>();
        }
        outQue.EnQue(ol);
    }

    __aicore__ inline void StoreHead(uint32_t b, uint32_t h)
    {
        LocalTensor<float> ol = outQue.DeQue<float>();
        uint64_t off = (uint64_t)b * tl.lenQ * tl.embed + h * tl.headDim;
        DataCopyExtParams cp{(uint16_t)tl.lenQ, tl.headDim * (uint32_t)sizeof(float), 0,
                             (tl.embed - tl.headDim) * (uint32_t)sizeof(float), 0};
        DataCopyPad(oGm[off], ol, cp);
        outQue.FreeTensor(ol);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> qBuf, kBuf, vBuf, prodBuf, qPairBuf, scoreBuf, workBuf, redBuf;
    TQue<QuePosition::VECOUT, 1> outQue;
    GlobalTensor<float> qGm, kGm, vGm, oGm;
    TextImageAttendTiling tl;
};

extern "C" __global__ __aicore__ void text_image_attend(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, GM_ADDR tiling)
{
    TextImageAttendTiling t;
    auto *src = reinterpret_cast<__gm__ uint8_t *>(tiling);
    auto *dst = reinterpret_cast<uint8_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t); ++i) {
        dst[i] = src[i];
    }
    HeadAttention op;
    op.Init(q, k, v, o, t);
    op.Process();
}
