/**
 * Multi-head attention of a decoder sequence (queries) over an encoder memory (keys/values).
 *
 *   query_memory_attend_linear : y = x @ Wt + b      (Wt stored [in, out], used for the four projections)
 *   query_memory_attend        : per (batch, head) softmax(q k^T / sqrt(hd)) v on the vector unit
 */
#include "kernel_operator.h"

using namespace AscendC;

struct QueryMemoryAttendTiling {
    uint32_t rows;        // linear: number of input rows (batch * seq)
    uint32_t inDim;       // linear: input features
    uint32_t outDim;      // linear: output features
    uint32_t rowBlock;    // linear: rows accumulated together per weight sweep
    uint32_t batch;       // attention
    uint32_t heads;
    uint32_t headDim;     // 64
    uint32_t lenQ;
    uint32_t lenKV;
    uint32_t model;       // heads * headDim
    float scale;          // 1 / sqrt(headDim)
};

template <typename T>
__aicore__ inline void CopyTiling(T &dst, GM_ADDR src)
{
    auto s = reinterpret_cast<__gm__ uint32_t *>(src);
    auto d = reinterpret_cast<uint32_t *>(&dst);
    for (uint32_t i = 0; i < sizeof(T) / 4; i++) d[i] = s[i];
}

// ---------------------------------------------------------------------------------------
// Dense projection. A block of `rowBlock` input rows is kept in UB; weight rows Wt[k, :]
// stream through once per block and are accumulated with Axpy using x[r, k] as the scalar.
// ---------------------------------------------------------------------------------------
class ProjectRows {
public:
    __aicore__ inline ProjectRows() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR bias, GM_ADDR y, const QueryMemoryAttendTiling &t)
    {
        cfg = t;
        xG.SetGlobalBuffer((__gm__ float *)x);
        wG.SetGlobalBuffer((__gm__ float *)wt);
        bG.SetGlobalBuffer((__gm__ float *)bias);
        yG.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(xTile, cfg.rowBlock * cfg.inDim * sizeof(float));
        pipe.InitBuffer(accTile, cfg.rowBlock * cfg.outDim * sizeof(float));
        pipe.InitBuffer(biasTile, cfg.outDim * sizeof(float));
        pipe.InitBuffer(wQ, 2, cfg.outDim * sizeof(float));
        pipe.InitBuffer(yQ, 2, cfg.outDim * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t blocks = (cfg.rows + cfg.rowBlock - 1) / cfg.rowBlock;
        LocalTensor<float> bl = biasTile.Get<float>();
        DataCopy(bl, bG, cfg.outDim);
        for (uint32_t blk = GetBlockIdx(); blk < blocks; blk += GetBlockNum()) {
            uint32_t r0 = blk * cfg.rowBlock;
            uint32_t nr = (cfg.rows - r0) < cfg.rowBlock ? (cfg.rows - r0) : cfg.rowBlock;
            DoBlock(r0, nr);
        }
    }

private:
    __aicore__ inline void DoBlock(uint32_t r0, uint32_t nr)
    {
        LocalTensor<float> xl = xTile.Get<float>();
        LocalTensor<float> acc = accTile.Get<float>();
        LocalTensor<float> bl = biasTile.Get<float>();
        DataCopy(xl, xG[(uint64_t)r0 * cfg.inDim], nr * cfg.inDim);
        for (uint32_t r = 0; r < nr; r++) {
            DataCopy(acc[r * cfg.outDim], bl, cfg.outDim);   // UB->UB: start from the bias
        }
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);

        for (uint32_t k = 0; k < cfg.inDim; k++) {
            LocalTensor<float> wr = wQ.AllocTensor<float>();
            DataCopy(wr, wG[(uint64_t)k * cfg.outDim], cfg.outDim);
            wQ.EnQue(wr);
            wr = wQ.DeQue<float>();
            for (uint32_t r = 0; r < nr; r++) {
                Axpy(acc[r * cfg.outDim], wr, xl.GetValue(r * cfg.inDim + k), cfg.outDim);
            }
            wQ.FreeTensor(wr);
        }
        for (uint32_t r = 0; r < nr; r++) {
            LocalTensor<float> yo = yQ.AllocTensor<float>();
            DataCopy(yo, acc[r * cfg.outDim], cfg.outDim);
            yQ.EnQue(yo);
            yo = yQ.DeQue<float>();
            DataCopy(yG[(uint64_t)(r0 + r) * cfg.outDim], yo, cfg.outDim);
            yQ.FreeTensor(yo);
        }
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> xTile, accTile, biasTile;
    TQue<QuePosition::VECIN, 2> wQ;
    TQue<QuePosition::VECOUT, 2> yQ;
    GlobalTensor<float> xG, wG, bG, yG;
    QueryMemoryAttendTiling cfg;
};

// ---------------------------------------------------------------------------------------
// Scaled dot-product attention for one (batch, head) pair at a time. K and V of the head
// are resident in UB; each query row produces lenKV scores with one broadcast Mul and one
// WholeReduceSum (headDim = 64 floats = one 256B repeat).
// ---------------------------------------------------------------------------------------
class HeadAttention {
public:
    __aicore__ inline HeadAttention() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, const QueryMemoryAttendTiling &t)
    {
        cfg = t;
        qG.SetGlobalBuffer((__gm__ float *)q);
        kG.SetGlobalBuffer((__gm__ float *)k);
        vG.SetGlobalBuffer((__gm__ float *)v);
        oG.SetGlobalBuffer((__gm__ float *)o);
        uint32_t kvBytes = cfg.lenKV * cfg.headDim * sizeof(float);
        pipe.InitBuffer(kBuf, kvBytes);
        pipe.InitBuffer(vBuf, kvBytes);
        pipe.InitBuffer(prodBuf, kvBytes);
        pipe.InitBuffer(scoreBuf, cfg.lenKV * sizeof(float));
        pipe.InitBuffer(redBuf, cfg.lenKV * sizeof(float));
        pipe.InitBuffer(qQ, 2, cfg.headDim * sizeof(float));
        pipe.InitBuffer(oQ, 2, cfg.headDim * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t pairs = cfg.batch * cfg.heads;
        for (uint32_t p = GetBlockIdx(); p < pairs; p += GetBlockNum()) {
            uint32_t b = p / cfg.heads;
            uint32_t h = p % cfg.heads;
            LoadKV(b, h);
            for (uint32_t i = 0; i < cfg.lenQ; i++) {
                QueryRow(b, h, i);
            }
        }
    }

private:
    // strided copy of the head's columns: lenKV rows of headDim floats out of model-wide rows
    __aicore__ inline void LoadKV(uint32_t b, uint32_t h)
    {
        uint64_t off = (uint64_t)b * cfg.lenKV * cfg.model + h * cfg.headDim;
        DataCopyParams dp;
        dp.blockCount = cfg.lenKV;
        dp.blockLen = cfg.headDim * sizeof(float) / 32;
        dp.srcStride = (cfg.model - cfg.headDim) * sizeof(float) / 32;
        dp.dstStride = 0;
        LocalTensor<float> kl = kBuf.Get<float>();
        LocalTensor<float> vl = vBuf.Get<float>();
        PipeBarrier<PIPE_ALL>();   // previous pair's vector work must finish before overwrite
        DataCopy(kl, kG[off], dp);
        DataCopy(vl, vG[off], dp);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void QueryRow(uint32_t b, uint32_t h, uint32_t i)
    {
        uint64_t qOff = ((uint64_t)b * cfg.lenQ + i) * cfg.model + h * cfg.headDim;
        LocalTensor<float> ql = qQ.AllocTensor<float>();
        DataCopy(ql, qG[qOff], cfg.headDim);
        qQ.EnQue(ql);
        ql = qQ.DeQue<float>();

        LocalTensor<float> kl = kBuf.Get<float>();
        LocalTensor<float> vl = vBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();

        // prod[j, :] = k[j, :] * q  (src1 repeat stride 0 re-reads q for every row)
        Mul(prod, kl, ql, (uint64_t)cfg.headDim, (uint8_t)cfg.lenKV, {1, 1, 1, 8, 8, 0});
        qQ.FreeTensor(ql);
        PipeBarrier<PIPE_V>();
        WholeReduceSum(sc, prod, (int32_t)cfg.headDim, (int32_t)cfg.lenKV, 1, 1, 8);
        PipeBarrier<PIPE_V>();
        Muls(sc, sc, cfg.scale, cfg.lenKV);

        // numerically safe softmax over lenKV scores
        ReduceMax(red, sc, prod, cfg.lenKV, false);
        event_t e1 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e1);
        WaitFlag<HardEvent::V_S>(e1);
        float mx = red.GetValue(0);
        Adds(sc, sc, -mx, cfg.lenKV);
        Exp(sc, sc, cfg.lenKV);
        ReduceSum(red, sc, prod, cfg.lenKV);
        event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e2);
        WaitFlag<HardEvent::V_S>(e2);
        float inv = 1.0f / red.GetValue(0);

        // out = (sum_j p_j v_j) / sum
        LocalTensor<float> ol = oQ.AllocTensor<float>();
        Duplicate(ol, 0.0f, cfg.headDim);
        for (uint32_t j = 0; j < cfg.lenKV; j++) {
            Axpy(ol, vl[j * cfg.headDim], sc.GetValue(j) * inv, cfg.headDim);
        }
        oQ.EnQue(ol);
        ol = oQ.DeQue<float>();
        DataCopy(oG[qOff], ol, cfg.headDim);
        oQ.FreeTensor(ol);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> kBuf, vBuf, prodBuf, scoreBuf, redBuf;
    TQue<QuePosition::VECIN, 2> qQ;
    TQue<QuePosition::VECOUT, 2> oQ;
    GlobalTensor<float> qG, kG, vG, oG;
    QueryMemoryAttendTiling cfg;
};

extern "C" __global__ __aicore__ void query_memory_attend_linear(GM_ADDR x, GM_ADDR wt, GM_ADDR bias,
                                                                 GM_ADDR y, GM_ADDR tiling)
{
    QueryMemoryAttendTiling t;
    CopyTiling(t, tiling);
    ProjectRows op;
    op.Init(x, wt, bias, y, t);
    op.Process();
}

extern "C" __global__ __aicore__ void query_memory_attend(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out,
                                                          GM_ADDR tiling)
{
    QueryMemoryAttendTiling t;
    CopyTiling(t, tiling);
    HeadAttention op;
    op.Init(q, k, v, out, t);
    op.Process();
}
