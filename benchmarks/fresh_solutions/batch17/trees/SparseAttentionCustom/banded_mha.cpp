/**
 * banded_mha.cpp - multi-head self attention where query i only sees keys j with
 * i - W <= j < i + W (a band of width 2W around the diagonal).
 *
 * Two entry points:
 *   banded_mha_proj : C = A * B^T + bias on the cube unit (Matmul API). Used for the packed
 *                     q/k/v input projection and for the output projection.
 *   banded_mha      : the banded attention itself, on the vector unit. Work unit is
 *                     (batch, head, tile of QT query rows); only the key/value rows that
 *                     the tile can reach are brought into UB.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// ----------------------------------------------------------------------------------------
// projection: C[M, N] = A[M, K] * W[N, K]^T + bias[N]
// ----------------------------------------------------------------------------------------
using ProjA = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using ProjB = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using ProjC = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using ProjBias = MatmulType<TPosition::GM, CubeFormat::ND, float>;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

extern "C" __global__ __aicore__ void banded_mha_proj(GM_ADDR a, GM_ADDR w, GM_ADDR bias, GM_ADDR c,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SetSysWorkspace(workspace);
    TCubeTiling cube;
    {
        auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
        auto dst = reinterpret_cast<uint32_t *>(&cube);
        for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
            dst[i] = src[i];
        }
    }
    TPipe pipe;
    Matmul<ProjA, ProjB, ProjC, ProjBias> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &cube);

    uint32_t mBlocks = CeilDiv(cube.M, cube.singleCoreM);
    uint32_t blk = GetBlockIdx();
    uint32_t mIdx = blk % mBlocks;
    uint32_t nIdx = blk / mBlocks;
    if (nIdx >= CeilDiv(cube.N, cube.singleCoreN)) {
        return;
    }
    uint32_t mOff = mIdx * cube.singleCoreM;
    uint32_t nOff = nIdx * cube.singleCoreN;
    uint32_t mLen = (cube.M - mOff) < (uint32_t)cube.singleCoreM ? (cube.M - mOff) : cube.singleCoreM;
    uint32_t nLen = (cube.N - nOff) < (uint32_t)cube.singleCoreN ? (cube.N - nOff) : cube.singleCoreN;

    GlobalTensor<float> aGm, wGm, bGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a) + (uint64_t)mOff * cube.Ka);
    wGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(w) + (uint64_t)nOff * cube.Kb);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias) + nOff);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + (uint64_t)mOff * cube.N + nOff);

    mm.SetTensorA(aGm);
    mm.SetTensorB(wGm, true);
    mm.SetBias(bGm);
    mm.SetTail(mLen, nLen);
    mm.IterateAll(cGm);
    mm.End();
}

// ----------------------------------------------------------------------------------------
// banded attention on packed qkv [B*S, 3*E] -> ctx [B*S, E]
// ----------------------------------------------------------------------------------------
struct BandedMhaTiling {
    uint32_t batch;
    uint32_t seq;
    uint32_t embed;     // E
    uint32_t heads;
    uint32_t headDim;   // D, 128 in this sample (two 64-lane halves)
    uint32_t halfWin;   // W
    uint32_t qTile;     // query rows per work unit
    float scale;        // 1 / sqrt(D)
};

class BandedAttention {
public:
    __aicore__ inline BandedAttention() {}

    __aicore__ inline void Init(GM_ADDR qkv, GM_ADDR ctx, const BandedMhaTiling &t)
    {
        tl = t;
        qkvGm.SetGlobalBuffer((__gm__ float *)qkv);
        ctxGm.SetGlobalBuffer((__gm__ float *)ctx);
        maxKeys = tl.qTile + 2 * tl.halfWin;
        uint32_t band = 2 * tl.halfWin;  // keys per query row at most

        pipe.InitBuffer(qQue, 1, tl.qTile * tl.headDim * sizeof(float));
        pipe.InitBuffer(kQue, 1, maxKeys * tl.headDim * sizeof(float));
        pipe.InitBuffer(vQue, 1, maxKeys * tl.headDim * sizeof(float));
        pipe.InitBuffer(oQue, 1, tl.qTile * tl.headDim * sizeof(float));
        pipe.InitBuffer(prodBuf, 2 * band * 64 * sizeof(float));
        pipe.InitBuffer(scoreBuf, band * sizeof(float));
        pipe.InitBuffer(workBuf, band * sizeof(float) + 64);
    }

    __aicore__ inline void Process()
    {
        uint32_t tilesPerSeq = CeilDiv(tl.seq, tl.qTile);
        uint32_t units = tl.batch * tl.heads * tilesPerSeq;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t tIdx = u % tilesPerSeq;
            uint32_t h = (u / tilesPerSeq) % tl.heads;
            uint32_t b = u / (tilesPerSeq * tl.heads);
            RunTile(b, h, tIdx * tl.qTile);
        }
    }

private:
    // rows [row0, row0+rows) of one head's slice (column col0) of the packed qkv matrix
    __aicore__ inline void LoadHeadRows(LocalTensor<float> &dst, uint64_t row0, uint32_t rows, uint32_t col0)
    {
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(rows);
        p.blockLen = static_cast<uint16_t>(tl.headDim * sizeof(float) / 32);
        p.srcStride = static_cast<uint16_t>((3 * tl.embed - tl.headDim) * sizeof(float) / 32);
        p.dstStride = 0;
        DataCopy(dst, qkvGm[row0 * 3 * tl.embed + col0], p);
    }

    __aicore__ inline void RunTile(uint32_t b, uint32_t h, uint32_t i0)
    {
        uint32_t qRows = (tl.seq - i0) < tl.qTile ? (tl.seq - i0) : tl.qTile;
        uint32_t kLo = i0 > tl.halfWin ? i0 - tl.halfWin : 0;
        uint32_t kHi = i0 + qRows - 1 + tl.halfWin;
        if (kHi > tl.seq) {
            kHi = tl.seq;
        }
        uint64_t rowBase = (uint64_t)b * tl.seq;
        uint32_t D = tl.headDim;

        LocalTensor<float> q = qQue.AllocTensor<float>();
        LocalTensor<float> k = kQue.AllocTensor<float>();
        LocalTensor<float> v = vQue.AllocTensor<float>();
        LoadHeadRows(q, rowBase + i0, qRows, h * D);
        LoadHeadRows(k, rowBase + kLo, kHi - kLo, tl.embed + h * D);
        LoadHeadRows(v, rowBase + kLo, kHi - kLo, 2 * tl.embed + h * D);
        qQue.EnQue(q);
        kQue.EnQue(k);
        vQue.EnQue(v);
        q = qQue.DeQue<float>();
        k = kQue.DeQue<float>();
        v = vQue.DeQue<float>();

        LocalTensor<float> o = oQue.AllocTensor<float>();
        for (uint32_t r = 0; r < qRows; ++r) {
            uint32_t i = i0 + r;
            uint32_t jLo = i > tl.halfWin ? i - tl.halfWin : 0;
            uint32_t jHi = (i + tl.halfWin) < tl.seq ? (i + tl.halfWin) : tl.seq;
            AttendRow(q[r * D], k[(jLo - kLo) * D], v[(jLo - kLo) * D], o[r * D], jHi - jLo);
        }
        qQue.FreeTensor(q);
        kQue.FreeTensor(k);
        vQue.FreeTensor(v);
        oQue.EnQue(o);

        o = oQue.DeQue<float>();
        DataCopyParams st;
        st.blockCount = static_cast<uint16_t>(qRows);
        st.blockLen = static_cast<uint16_t>(D * sizeof(float) / 32);
        st.srcStride = 0;
        st.dstStride = static_cast<uint16_t>((tl.embed - D) * sizeof(float) / 32);
        DataCopy(ctxGm[(rowBase + i0) * tl.embed + h * D], o, st);
        oQue.FreeTensor(o);
    }

    // one query row against nk consecutive key/value rows
    __aicore__ inline void AttendRow(const LocalTensor<float> &qRow, const LocalTensor<float> &kRows,
                                     const LocalTensor<float> &vRows, const LocalTensor<float> &out, uint32_t nk)
    {
        uint32_t D = tl.headDim;
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> prod2 = prod[2 * tl.halfWin * 64];
        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();

        // q . k_j for all j: each key row is two 64-float halves; q half is broadcast
        // (src1 repeat stride 0), results packed as nk x 64 then folded.
        BinaryRepeatParams rp(1, 1, 1, 8, static_cast<uint8_t>(D / 8), 0);
        Mul(prod, kRows, qRow, 64, static_cast<uint8_t>(nk), rp);
        Mul(prod2, kRows[64], qRow[64], 64, static_cast<uint8_t>(nk), rp);
        PipeBarrier<PIPE_V>();
        Add(prod, prod, prod2, nk * 64);
        PipeBarrier<PIPE_V>();
        WholeReduceSum<float>(sc, prod, 64, static_cast<int32_t>(nk), 1, 1, 8);
        PipeBarrier<PIPE_V>();
        Muls(sc, sc, tl.scale, nk);

        // numerically stable softmax over the band
        ReduceMax<float>(work, sc, prod2, nk, false);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float mx = work.GetValue(0);
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        Adds(sc, sc, -mx, nk);
        Exp(sc, sc, nk);
        ReduceSum<float>(work, sc, prod2, nk);
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float inv = 1.0f / work.GetValue(0);
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        Muls(sc, sc, inv, nk);

        // out = sum_j p_j * v_j
        Duplicate(out, 0.0f, D);
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        for (uint32_t j = 0; j < nk; ++j) {
            float pj = sc.GetValue(j);
            Axpy(out, vRows[j * D], pj, D);
        }
        PipeBarrier<PIPE_V>();
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qQue, kQue, vQue;
    TQue<QuePosition::VECOUT, 1> oQue;
    TBuf<TPosition::VECCALC> prodBuf, scoreBuf, workBuf;
    GlobalTensor<float> qkvGm, ctxGm;
    BandedMhaTiling tl;
    uint32_t maxKeys = 0;
};

extern "C" __global__ __aicore__ void banded_mha(GM_ADDR qkv, GM_ADDR ctx, GM_ADDR tiling)
{
    BandedMhaTiling t;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(BandedMhaTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    BandedAttention op;
    op.Init(qkv, ctx, t);
    op.Process();
}
