/*
 * dense_groupnorm_rowmin_spread.cpp
 *
 * Two kernels, launched back to back from main.cpp:
 *
 *   1. dense_proj            h = x @ W^T + b                     (cube, Matmul API)
 *      x [M, K], W [N, K] (nn.Linear layout), b [N]  ->  h [M, N] in a GM workspace
 *
 *   2. groupnorm_rowmin_spread
 *      g      = group-normalise every row of h (N features split into G groups,
 *               biased variance, eps) followed by the per-feature affine gamma/beta
 *      m[r]   = min_n g[r, n]                                         -> [M]
 *      out[c, r] = m[r] + shift[c]                                    -> [N, M]
 *      (i.e. a [M, 1] column broadcast against a [1, N, 1, 1] shift, giving
 *       a [1, N, M, 1] tensor)
 *
 * Kernel 2 gives each vector core a contiguous block of rows. Group sums and
 * sums of squares come out of one WholeReduceSum each (one repeat per group),
 * the per-group centring/scaling is done on G-sized slices, and the row
 * minimum is a single ReduceMin. Once all rows of the block are known the
 * core writes its [N, rows] column strip of the output in chunks of channels
 * using a strided DataCopy.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

/* ------------------------------------------------------------------ */
/* kernel 1: projection on the cube unit                              */
/* ------------------------------------------------------------------ */

using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // W is [N, K]
using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

__aicore__ inline void CopyCubeTiling(TCubeTiling *dst, GM_ADDR src)
{
    auto in = reinterpret_cast<__gm__ uint32_t *>(src);
    auto out = reinterpret_cast<uint32_t *>(dst);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
        out[i] = in[i];
    }
}

extern "C" __global__ __aicore__ void dense_proj(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR h,
                                                 GM_ADDR workspace, GM_ADDR tilingGm)
{
    if ASCEND_IS_AIV {
        return;
    }
    SetSysWorkspace(workspace);
    TCubeTiling tiling;
    CopyCubeTiling(&tiling, tilingGm);
    if (GetBlockIdx() >= (uint32_t)tiling.usedCoreNum) {
        return;
    }

    GlobalTensor<float> xGm, wGm, biasGm, hGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tiling.M * tiling.Ka);
    wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)tiling.N * tiling.Kb);
    biasGm.SetGlobalBuffer((__gm__ float *)bias, tiling.N);
    hGm.SetGlobalBuffer((__gm__ float *)h, (uint64_t)tiling.M * tiling.N);

    // which (m, n) block of h this core owns
    uint32_t mBlocks = CeilDivU(tiling.M, tiling.singleCoreM);
    uint32_t mIdx = GetBlockIdx() % mBlocks;
    uint32_t nIdx = GetBlockIdx() / mBlocks;
    uint32_t mStart = mIdx * tiling.singleCoreM;
    uint32_t nStart = nIdx * tiling.singleCoreN;
    int32_t tailM = tiling.M - (int32_t)mStart;
    int32_t tailN = tiling.N - (int32_t)nStart;
    tailM = tailM < tiling.singleCoreM ? tailM : tiling.singleCoreM;
    tailN = tailN < tiling.singleCoreN ? tailN : tiling.singleCoreN;

    TPipe pipe;
    matmul::Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(xGm[(uint64_t)mStart * tiling.Ka]);
    mm.SetTensorB(wGm[(uint64_t)nStart * tiling.Kb], true);
    mm.SetBias(biasGm[nStart]);
    mm.SetTail(tailM, tailN);
    mm.IterateAll(hGm[(uint64_t)mStart * tiling.N + nStart]);
    mm.End();
}

/* ------------------------------------------------------------------ */
/* kernel 2: group norm -> row min -> broadcast add                   */
/* ------------------------------------------------------------------ */

struct GroupnormRowminSpreadTiling {
    uint32_t rows;          // M
    uint32_t feats;         // N
    uint32_t groups;        // G
    uint32_t groupSize;     // N / G, multiple of 8, <= 64
    uint32_t rowsPerCore;   // every core gets exactly this many rows (multiple of 8)
    uint32_t chanChunk;     // output channels written per strided copy
    float eps;
};

class GroupnormRowminSpread {
public:
    __aicore__ inline GroupnormRowminSpread() {}

    __aicore__ inline void Init(GM_ADDR h, GM_ADDR gamma, GM_ADDR beta, GM_ADDR shift, GM_ADDR out,
                                const GroupnormRowminSpreadTiling &tl)
    {
        cfg = tl;
        rowBegin = GetBlockIdx() * cfg.rowsPerCore;

        hGm.SetGlobalBuffer((__gm__ float *)h, (uint64_t)cfg.rows * cfg.feats);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, cfg.feats);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, cfg.feats);
        shiftGm.SetGlobalBuffer((__gm__ float *)shift, cfg.feats);
        outGm.SetGlobalBuffer((__gm__ float *)out, (uint64_t)cfg.feats * cfg.rows);

        pipe.InitBuffer(rowQ, 2, cfg.feats * sizeof(float));
        pipe.InitBuffer(stripQ, 2, cfg.chanChunk * cfg.rowsPerCore * sizeof(float));
        pipe.InitBuffer(paramBuf, 3 * cfg.feats * sizeof(float));   // gamma | beta | shift
        pipe.InitBuffer(sqBuf, cfg.feats * sizeof(float));
        uint32_t gPad = (cfg.groups + 7) / 8 * 8;
        pipe.InitBuffer(statBuf, 4 * gPad * sizeof(float));         // sum | sumsq | mean | rstd
        pipe.InitBuffer(minBuf, (cfg.rowsPerCore + 8) * sizeof(float));
        gStride = gPad;
    }

    __aicore__ inline void Process()
    {
        LoadParams();
        for (uint32_t r = 0; r < cfg.rowsPerCore; ++r) {
            CopyInRow(rowBegin + r);
            RowMin(r);
        }
        WriteStrip();
    }

private:
    __aicore__ inline void Sync(HardEvent evt)
    {
        event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(evt));
        switch (evt) {
            case HardEvent::V_S:
                SetFlag<HardEvent::V_S>(id);
                WaitFlag<HardEvent::V_S>(id);
                break;
            case HardEvent::S_V:
                SetFlag<HardEvent::S_V>(id);
                WaitFlag<HardEvent::S_V>(id);
                break;
            default:
                SetFlag<HardEvent::MTE2_V>(id);
                WaitFlag<HardEvent::MTE2_V>(id);
                break;
        }
    }

    __aicore__ inline void LoadParams()
    {
        LocalTensor<float> p = paramBuf.Get<float>();
        DataCopy(p, gammaGm, cfg.feats);
        DataCopy(p[cfg.feats], betaGm, cfg.feats);
        DataCopy(p[2 * cfg.feats], shiftGm, cfg.feats);
        Sync(HardEvent::MTE2_V);
        event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(id);
        WaitFlag<HardEvent::MTE2_S>(id);
    }

    __aicore__ inline void CopyInRow(uint32_t row)
    {
        LocalTensor<float> v = rowQ.AllocTensor<float>();
        DataCopy(v, hGm[(uint64_t)row * cfg.feats], cfg.feats);
        rowQ.EnQue(v);
    }

    __aicore__ inline void RowMin(uint32_t localRow)
    {
        LocalTensor<float> v = rowQ.DeQue<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> sum = st;
        LocalTensor<float> sumSq = st[gStride];
        LocalTensor<float> mean = st[2 * gStride];
        LocalTensor<float> rstd = st[3 * gStride];
        const uint32_t G = cfg.groupSize;
        const uint8_t blocksPerGroup = static_cast<uint8_t>(G * sizeof(float) / 32);
        const float invG = 1.0f / static_cast<float>(G);

        // one repeat per group: mask = G elements, next repeat starts G elements later
        WholeReduceSum<float>(sum, v, G, cfg.groups, 1, 1, blocksPerGroup);
        Mul(sq, v, v, cfg.feats);
        WholeReduceSum<float>(sumSq, sq, G, cfg.groups, 1, 1, blocksPerGroup);

        Muls(mean, sum, invG, cfg.groups);
        Muls(sumSq, sumSq, invG, cfg.groups);
        Mul(rstd, mean, mean, cfg.groups);
        Sub(rstd, sumSq, rstd, cfg.groups);            // E[x^2] - E[x]^2
        Maxs(rstd, rstd, 0.0f, cfg.groups);
        Adds(rstd, rstd, cfg.eps, cfg.groups);
        Rsqrt(rstd, rstd, cfg.groups);
        Sync(HardEvent::V_S);

        for (uint32_t g = 0; g < cfg.groups; ++g) {
            LocalTensor<float> seg = v[g * G];
            Adds(seg, seg, -mean.GetValue(g), G);
            Muls(seg, seg, rstd.GetValue(g), G);
        }

        LocalTensor<float> p = paramBuf.Get<float>();
        Mul(v, v, p, cfg.feats);
        Add(v, v, p[cfg.feats], cfg.feats);

        // the stats are no longer needed, reuse their first slot for the minimum
        LocalTensor<float> m = minBuf.Get<float>();
        ReduceMin<float>(st, v, sq, cfg.feats, false);
        Sync(HardEvent::V_S);
        m.SetValue(localRow, st.GetValue(0));
        rowQ.FreeTensor(v);
    }

    // out[c, rowBegin : rowBegin + rowsPerCore] = minima + shift[c]
    __aicore__ inline void WriteStrip()
    {
        Sync(HardEvent::S_V);
        LocalTensor<float> m = minBuf.Get<float>();
        LocalTensor<float> p = paramBuf.Get<float>();
        const uint32_t R = cfg.rowsPerCore;
        for (uint32_t c0 = 0; c0 < cfg.feats; c0 += cfg.chanChunk) {
            uint32_t cc = (cfg.feats - c0 < cfg.chanChunk) ? (cfg.feats - c0) : cfg.chanChunk;
            LocalTensor<float> strip = stripQ.AllocTensor<float>();
            for (uint32_t c = 0; c < cc; ++c) {
                Adds(strip[c * R], m, p.GetValue(2 * cfg.feats + c0 + c), R);
            }
            stripQ.EnQue(strip);
            strip = stripQ.DeQue<float>();
            DataCopyParams cp;
            cp.blockCount = static_cast<uint16_t>(cc);
            cp.blockLen = static_cast<uint16_t>(R * sizeof(float) / 32);
            cp.srcStride = 0;
            cp.dstStride = static_cast<uint16_t>((cfg.rows - R) * sizeof(float) / 32);
            DataCopy(outGm[(uint64_t)c0 * cfg.rows + rowBegin], strip, cp);
            stripQ.FreeTensor(strip);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQ;
    TQue<QuePosition::VECOUT, 2> stripQ;
    TBuf<TPosition::VECCALC> paramBuf, sqBuf, statBuf, minBuf;
    GlobalTensor<float> hGm, gammaGm, betaGm, shiftGm, outGm;
    GroupnormRowminSpreadTiling cfg;
    uint32_t rowBegin = 0;
    uint32_t gStride = 0;
};

extern "C" __global__ __aicore__ void groupnorm_rowmin_spread(GM_ADDR h, GM_ADDR gamma, GM_ADDR beta,
                                                              GM_ADDR shift, GM_ADDR out, GM_ADDR tiling)
{
    GroupnormRowminSpreadTiling tl;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(GroupnormRowminSpreadTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    GroupnormRowminSpread op;
    op.Init(h, gamma, beta, shift, out, tl);
    op.Process();
}
