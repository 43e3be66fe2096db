/*
 * GhostVladPool: NetVLAD aggregation with ghost clusters (fp32).
 *
 * Phases (separated by SyncAll):
 *   1. cube   : L = X[BN, D] * W[D, K+G]
 *   2. vector : per-core partial column sums / sums of squares of L (batch statistics)
 *   3. vector : A = softmax(bn(L)) over all K+G clusters, keep the first K columns,
 *               mass[b, k] = sum_n A[b, n, k]
 *   4. cube   : V^T[b] = X[b]^T [D, N] * A[b] [N, K]   (already in the output's D-major layout)
 *   5. vector : V^T -= centers * mass, L2-normalise each cluster column, then the whole vector
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
using GmF = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using GmFT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using LogitMm = matmul::Matmul<GmF, GmF, GmF, GmF>;
using AggMm = matmul::Matmul<GmFT, GmF, GmF, GmF>;
constexpr uint32_t ROW_CHUNK = 128;
}

class GhostVladPoolKernel {
public:
    LogitMm logitMm;
    AggMm aggMm;

    __aicore__ inline GhostVladPoolKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR gamma, GM_ADDR beta, GM_ADDR centers, GM_ADDR y,
                                GM_ADDR usr, const GhostVladPoolTilingData *t, TPipe *p)
    {
        td = t;
        pipe = p;
        B = t->batch; N = t->numSamples; Dm = t->featDim;
        C = t->allClusters; Cp = t->allPitch; K = t->realClusters; Kp = t->realPitch;
        rows = B * N;
        vid = GetBlockIdx();
        vnum = t->vecCoreNum;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)rows * Dm);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)Dm * C);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, C);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, C);
        centersGm.SetGlobalBuffer((__gm__ float *)centers, (uint64_t)Dm * K);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)B * Dm * K);

        __gm__ float *ws = (__gm__ float *)usr;
        logitGm.SetGlobalBuffer(ws, (uint64_t)rows * C);
        ws += (uint64_t)rows * C;
        asgGm.SetGlobalBuffer(ws, (uint64_t)rows * K);
        ws += (uint64_t)rows * K;
        massGm.SetGlobalBuffer(ws, (uint64_t)B * Kp);
        ws += (uint64_t)B * Kp;
        statGm.SetGlobalBuffer(ws, (uint64_t)vnum * 2 * Cp);
        ws += (uint64_t)vnum * 2 * Cp;
        vtGm.SetGlobalBuffer(ws, (uint64_t)B * Dm * K);
    }

    __aicore__ inline void Process()
    {
        ComputeLogits();
        SyncAll();
        PartialStats();
        SyncAll();
        SoftAssign();
        SyncAll();
        Aggregate();
        SyncAll();
        pipe->Reset();
        Finalize();
    }

private:
    // ---------------- phase 1 ----------------
    __aicore__ inline void ComputeLogits()
    {
        const TCubeTiling &ct = td->logitTiling;
        const uint32_t mBlk = Ceil(ct.M, ct.singleCoreM);
        const uint32_t nBlk = Ceil(ct.N, ct.singleCoreN);
        if (vid >= mBlk * nBlk) {
            return;
        }
        const uint32_t mOff = (vid % mBlk) * ct.singleCoreM;
        const uint32_t nOff = (vid / mBlk) * ct.singleCoreN;
        const int32_t tm = (ct.M - (int32_t)mOff) < ct.singleCoreM ? ct.M - (int32_t)mOff : ct.singleCoreM;
        const int32_t tn = (ct.N - (int32_t)nOff) < ct.singleCoreN ? ct.N - (int32_t)nOff : ct.singleCoreN;
        logitMm.SetTail(tm, tn);
        logitMm.SetTensorA(xGm[(uint64_t)mOff * ct.Ka]);
        logitMm.SetTensorB(wGm[nOff]);
        logitMm.IterateAll(logitGm[(uint64_t)mOff * ct.N + nOff]);
        logitMm.End();
    }

    __aicore__ inline void LoadLogitRows(LocalTensor<float> &dst, uint64_t row0, uint32_t cnt)
    {
        DataCopyExtParams cp{static_cast<uint16_t>(cnt), C * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(dst, logitGm[row0 * C], cp, pad);
    }

    // ---------------- phase 2 ----------------
    __aicore__ inline void PartialStats()
    {
        pipe->InitBuffer(tileQ, 2, td->rowTile * Cp * sizeof(float));
        pipe->InitBuffer(statBuf, 3 * Cp * sizeof(float));
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> sum = st;
        LocalTensor<float> sq = st[Cp];
        LocalTensor<float> tmp = st[2 * Cp];
        Duplicate(st, 0.0f, 2 * Cp);

        const uint32_t per = (rows + vnum - 1) / vnum;
        const uint32_t r0 = vid * per;
        const uint32_t r1 = (r0 + per) < rows ? (r0 + per) : rows;
        for (uint32_t r = r0; r < r1; r += td->rowTile) {
            const uint32_t cnt = (r1 - r) < td->rowTile ? (r1 - r) : td->rowTile;
            LocalTensor<float> tl = tileQ.AllocTensor<float>();
            LoadLogitRows(tl, r, cnt);
            tileQ.EnQue(tl);
            tl = tileQ.DeQue<float>();
            for (uint32_t i = 0; i < cnt; ++i) {
                Add(sum, sum, tl[i * Cp], C);
                Mul(tmp, tl[i * Cp], tl[i * Cp], C);
                Add(sq, sq, tmp, C);
            }
            tileQ.FreeTensor(tl);
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e);
        WaitFlag<HardEvent::V_MTE3>(e);
        DataCopy(statGm[(uint64_t)vid * 2 * Cp], st, 2 * Cp);
        pipe->Reset();
    }

    // ---------------- phase 3 ----------------
    __aicore__ inline void SoftAssign()
    {
        pipe->InitBuffer(tileQ, 2, td->rowTile * Cp * sizeof(float));
        pipe->InitBuffer(statBuf, (vnum * 2 * Cp + 6 * Cp + 16) * sizeof(float));
        LocalTensor<float> all = statBuf.Get<float>();
        LocalTensor<float> mean = all[vnum * 2 * Cp];
        LocalTensor<float> var = mean[Cp];
        LocalTensor<float> scale = var[Cp];
        LocalTensor<float> shift = scale[Cp];
        LocalTensor<float> mass = shift[Cp];
        LocalTensor<float> red = mass[Cp];   // 2*Cp + 16 scratch for reductions

        // gather every core's partial statistics
        DataCopy(all, statGm, vnum * 2 * Cp);
        DataCopyExtParams cp{1, C * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(scale, gammaGm, cp, pad);
        DataCopyPad(shift, betaGm, cp, pad);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
        for (uint32_t c = 1; c < vnum; ++c) {
            Add(all, all, all[c * 2 * Cp], 2 * Cp);
        }
        const float invRows = 1.0f / static_cast<float>(rows);
        Muls(mean, all, invRows, C);
        Muls(var, all[Cp], invRows, C);
        Mul(red, mean, mean, C);
        Sub(var, var, red, C);                 // biased variance, as used for normalisation
        Adds(var, var, td->bnEps, C);
        Sqrt(var, var, C);
        Div(scale, scale, var, C);             // gamma / sqrt(var + eps)
        Mul(red, mean, scale, C);
        Sub(shift, shift, red, C);             // beta - mean * gamma / sqrt(var + eps)

        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        for (uint32_t b = vid; b < B; b += vnum) {
            Duplicate(mass, 0.0f, Kp);
            for (uint32_t n = 0; n < N; n += td->rowTile) {
                const uint32_t cnt = (N - n) < td->rowTile ? (N - n) : td->rowTile;
                const uint64_t row0 = (uint64_t)b * N + n;
                LocalTensor<float> tl = tileQ.AllocTensor<float>();
                LoadLogitRows(tl, row0, cnt);
                tileQ.EnQue(tl);
                tl = tileQ.DeQue<float>();
                for (uint32_t i = 0; i < cnt; ++i) {
                    LocalTensor<float> row = tl[i * Cp];
                    Mul(row, row, scale, C);
                    Add(row, row, shift, C);
                    ReduceMax<float>(red, row, red[16], C, false);
                    SetFlag<HardEvent::V_S>(vs);
                    WaitFlag<HardEvent::V_S>(vs);
                    Adds(row, row, -red.GetValue(0), C);
                    Exp(row, row, C);
                    ReduceSum<float>(red, row, red[16], C);
                    SetFlag<HardEvent::V_S>(vs);
                    WaitFlag<HardEvent::V_S>(vs);
                    Muls(row, row, 1.0f / red.GetValue(0), C);
                    Add(mass, mass, row, K);   // ghost columns are dropped here
                }
                tileQ.EnQue(tl);
                tl = tileQ.DeQue<float>();
                DataCopyExtParams out{static_cast<uint16_t>(cnt), K * (uint32_t)sizeof(float),
                                      (Cp - Kp) / 8, 0, 0};
                DataCopyPad(asgGm[row0 * K], tl, out);
                tileQ.FreeTensor(tl);
            }
            event_t v3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
            SetFlag<HardEvent::V_MTE3>(v3);
            WaitFlag<HardEvent::V_MTE3>(v3);
            DataCopy(massGm[(uint64_t)b * Kp], mass, Kp);
            event_t m3v = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_V));
            SetFlag<HardEvent::MTE3_V>(m3v);
            WaitFlag<HardEvent::MTE3_V>(m3v);
        }
        pipe->Reset();
    }

    // ---------------- phase 4 ----------------
    __aicore__ inline void Aggregate()
    {
        for (uint32_t b = vid; b < B; b += vnum) {
            aggMm.SetTensorA(xGm[(uint64_t)b * N * Dm], true);
            aggMm.SetTensorB(asgGm[(uint64_t)b * N * K]);
            aggMm.IterateAll(vtGm[(uint64_t)b * Dm * K]);
            aggMm.End();
        }
    }

    // ---------------- phase 5 ----------------
    __aicore__ inline void Finalize()
    {
        const uint32_t plane = Dm * Kp;
        pipe->InitBuffer(vQ, 1, plane * sizeof(float));
        pipe->InitBuffer(ctrBuf, plane * sizeof(float));
        pipe->InitBuffer(tmpBuf, ROW_CHUNK * Kp * sizeof(float));
        pipe->InitBuffer(vecBuf, (4 * Kp + 16) * sizeof(float));
        LocalTensor<float> ctr = ctrBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> vec = vecBuf.Get<float>();
        LocalTensor<float> mass = vec;
        LocalTensor<float> colSq = vec[Kp];
        LocalTensor<float> inv = vec[2 * Kp];
        LocalTensor<float> red = vec[3 * Kp];

        DataCopyExtParams ld{static_cast<uint16_t>(Dm), K * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(ctr, centersGm, ld, pad);

        const uint8_t rs = static_cast<uint8_t>(Kp / 8);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        event_t mv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        for (uint32_t b = vid; b < B; b += vnum) {
            LocalTensor<float> v = vQ.AllocTensor<float>();
            DataCopyPad(v, vtGm[(uint64_t)b * Dm * K], ld, pad);
            DataCopy(mass, massGm[(uint64_t)b * Kp], Kp);
            SetFlag<HardEvent::MTE2_V>(mv);
            WaitFlag<HardEvent::MTE2_V>(mv);

            // residual: v[d, k] -= centers[d, k] * mass[k]; accumulate column energy
            Duplicate(colSq, 0.0f, Kp);
            for (uint32_t d0 = 0; d0 < Dm; d0 += ROW_CHUNK) {
                const uint32_t nr = (Dm - d0) < ROW_CHUNK ? (Dm - d0) : ROW_CHUNK;
                Mul(tmp, ctr[d0 * Kp], mass, K, static_cast<uint8_t>(nr), {1, 1, 1, rs, rs, 0});
                Sub(v[d0 * Kp], v[d0 * Kp], tmp, K, static_cast<uint8_t>(nr), {1, 1, 1, rs, rs, rs});
                Mul(tmp, v[d0 * Kp], v[d0 * Kp], K, static_cast<uint8_t>(nr), {1, 1, 1, rs, rs, rs});
                for (uint32_t i = 0; i < nr; ++i) {
                    Add(colSq, colSq, tmp[i * Kp], K);
                }
            }
            // intra-normalisation: 1 / max(||v[:, k]||, eps)
            Sqrt(inv, colSq, K);
            Maxs(inv, inv, td->normEps, K);
            Duplicate(red, 1.0f, K);
            Div(inv, red, inv, K);
            for (uint32_t d0 = 0; d0 < Dm; d0 += ROW_CHUNK) {
                const uint32_t nr = (Dm - d0) < ROW_CHUNK ? (Dm - d0) : ROW_CHUNK;
                Mul(v[d0 * Kp], v[d0 * Kp], inv, K, static_cast<uint8_t>(nr), {1, 1, 1, rs, rs, 0});
            }
            // global norm of the intra-normalised descriptor: sum_k colSq_k * inv_k^2
            Mul(inv, inv, inv, K);
            Mul(inv, inv, colSq, K);
            ReduceSum<float>(red, inv, red[8], K);
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            float g = red.GetValue(0);
            float gn = 1.0f;
            if (g > 0.0f) {
                Duplicate(red, g, 8);
                Sqrt(red, red, 8);
                SetFlag<HardEvent::V_S>(vs);
                WaitFlag<HardEvent::V_S>(vs);
                float nrm = red.GetValue(0);
                gn = 1.0f / (nrm > td->normEps ? nrm : td->normEps);
            }
            Muls(v, v, gn, plane);
            vQ.EnQue(v);
            v = vQ.DeQue<float>();
            DataCopyPad(yGm[(uint64_t)b * Dm * K], v, DataCopyExtParams{static_cast<uint16_t>(Dm),
                        K * (uint32_t)sizeof(float), 0, 0, 0});
            vQ.FreeTensor(v);
        }
    }

    const GhostVladPoolTilingData *td = nullptr;
    TPipe *pipe = nullptr;
    uint32_t B, N, Dm, C, Cp, K, Kp, rows, vid, vnum;
    GlobalTensor<float> xGm, wGm, gammaGm, betaGm, centersGm, yGm;
    GlobalTensor<float> logitGm, asgGm, massGm, statGm, vtGm;
    TQue<QuePosition::VECIN, 2> tileQ;
    TQue<QuePosition::VECOUT, 1> vQ;
    TBuf<TPosition::VECCALC> statBuf, ctrBuf, tmpBuf, vecBuf;
};

extern "C" __global__ __aicore__ void ghost_vlad_pool(GM_ADDR x, GM_ADDR assign_weight, GM_ADDR bn_gamma,
                                                      GM_ADDR bn_beta, GM_ADDR centers, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (usr == nullptr) {
        return;
    }
    TPipe pipe;
    GhostVladPoolKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.logitMm, &td.logitTiling, op.aggMm, &td.aggTiling);
    op.Init(x, assign_weight, bn_gamma, bn_beta, centers, y, usr, &td, &pipe);
    op.Process();
}
