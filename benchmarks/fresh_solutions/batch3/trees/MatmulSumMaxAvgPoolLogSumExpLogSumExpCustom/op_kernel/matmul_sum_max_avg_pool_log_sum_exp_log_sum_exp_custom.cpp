#include "kernel_operator.h"

using namespace AscendC;

// sum_n (x W^T + b)[m, n] = x[m, :] . colsum(W) + sum(b)
// -> fold W to a K-vector first, then one dot product per row.
// max / mean / logsumexp all act on a size-1 dim afterwards.
constexpr uint32_t MAX_ROWS_PER_CORE = 256;

class KernelLinearSumLse {
public:
    __aicore__ inline KernelLinearSumLse() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR usr,
                                const MatmulSumMaxAvgPoolLogSumExpLogSumExpCustomTilingData& t)
    {
        M = t.M; K = t.K; N = t.N;
        colChunk = t.colChunk; rowBatch = t.rowBatch;
        rowsPerCore = t.rowsPerCore; kTile = t.kTile;
        core = GetBlockIdx();
        kPad = (K + 7) / 8 * 8;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)M * K);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)N * K);
        bGm.SetGlobalBuffer((__gm__ float*)b, N);
        yGm.SetGlobalBuffer((__gm__ float*)y, M);
        wsumGm.SetGlobalBuffer((__gm__ float*)usr, kPad + 8);

        uint32_t p1 = rowBatch * colChunk;
        uint32_t bufLen = p1 > kTile ? p1 : kTile;
        pipe.InitBuffer(inQ, 2, bufLen * sizeof(float));
        pipe.InitBuffer(vecQ, 1, kTile * sizeof(float));
        pipe.InitBuffer(accBuf, bufLen * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(workBuf, 1024 * sizeof(float));
        pipe.InitBuffer(resBuf, MAX_ROWS_PER_CORE * sizeof(float));
        pipe.InitBuffer(tmpBuf, MAX_ROWS_PER_CORE * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        FoldWeight();
        SyncAll();
        RowDots();
    }

private:
    __aicore__ inline void SyncVS()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void SyncSV()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    // phase 1: wsum[k0:k1] = sum_n W[n, k0:k1]; core 0 also does sum(b)
    __aicore__ inline void FoldWeight()
    {
        uint32_t k0 = core * colChunk;
        if (k0 < K) {
            uint32_t len = (k0 + colChunk > K) ? (K - k0) : colChunk;
            uint32_t lenA = (len + 7) / 8 * 8;
            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, lenA);
            for (uint32_t n0 = 0; n0 < N; n0 += rowBatch) {
                uint32_t nr = (n0 + rowBatch > N) ? (N - n0) : rowBatch;
                LocalTensor<float> blk = inQ.AllocTensor<float>();
                DataCopyExtParams cp{static_cast<uint16_t>(nr), static_cast<uint32_t>(len * sizeof(float)),
                                     static_cast<uint32_t>((K - len) * sizeof(float)), 0, 0};
                DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(lenA - len), 0.0f};
                DataCopyPad(blk, wGm[(uint64_t)n0 * K + k0], cp, pad);
                inQ.EnQue(blk);
                blk = inQ.DeQue<float>();
                for (uint32_t r = 0; r < nr; ++r) {
                    Add(acc, acc, blk[r * lenA], lenA);
                }
                inQ.FreeTensor(blk);
            }
            LocalTensor<float> o = vecQ.AllocTensor<float>();
            DataCopy(o, acc, lenA);
            vecQ.EnQue(o);
            o = vecQ.DeQue<float>();
            DataCopyExtParams outp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(wsumGm[k0], o, outp);
            vecQ.FreeTensor(o);
        }

        if (core == 0) {
            LocalTensor<float> red = redBuf.Get<float>();
            LocalTensor<float> work = workBuf.Get<float>();
            float bsum = 0.0f;
            for (uint32_t n0 = 0; n0 < N; n0 += kTile) {
                uint32_t cnt = (n0 + kTile > N) ? (N - n0) : kTile;
                LocalTensor<float> bl = inQ.AllocTensor<float>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                DataCopyPad(bl, bGm[n0], cp, pad);
                inQ.EnQue(bl);
                bl = inQ.DeQue<float>();
                ReduceSum<float>(red, bl, work, cnt);
                SyncVS();
                bsum += red.GetValue(0);
                inQ.FreeTensor(bl);
            }
            LocalTensor<float> o = vecQ.AllocTensor<float>();
            Duplicate(o, bsum, 8);
            vecQ.EnQue(o);
            o = vecQ.DeQue<float>();
            DataCopy(wsumGm[kPad], o, 8);
            vecQ.FreeTensor(o);
        }
    }

    // phase 2: y[m] = x[m, :] . wsum + bsum, then max/mean/lse/lse over the unit dim
    __aicore__ inline void RowDots()
    {
        uint32_t r0 = core * rowsPerCore;
        if (r0 >= M) return;
        uint32_t nr = (r0 + rowsPerCore > M) ? (M - r0) : rowsPerCore;

        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> res = resBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        float bsum = wsumGm.GetValue(kPad);
        uint32_t nTiles = (K + kTile - 1) / kTile;

        LocalTensor<float> wv;
        bool cached = false;
        for (uint32_t i = 0; i < nr; ++i) {
            uint64_t rowOff = (uint64_t)(r0 + i) * K;
            for (uint32_t t = 0; t < nTiles; ++t) {
                uint32_t kb = t * kTile;
                uint32_t cnt = (kb + kTile > K) ? (K - kb) : kTile;
                uint32_t cntA = (cnt + 7) / 8 * 8;
                DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(cntA - cnt), 0.0f};
                if (!cached) {
                    wv = vecQ.AllocTensor<float>();
                    DataCopyPad(wv, wsumGm[kb], cp, pad);
                    vecQ.EnQue(wv);
                    wv = vecQ.DeQue<float>();
                }
                LocalTensor<float> xv = inQ.AllocTensor<float>();
                DataCopyPad(xv, xGm[rowOff + kb], cp, pad);
                inQ.EnQue(xv);
                xv = inQ.DeQue<float>();
                if (t == 0) {
                    Mul(acc, xv, wv, cntA);
                } else {
                    MulAddDst(acc, xv, wv, cntA);
                }
                inQ.FreeTensor(xv);
                if (nTiles == 1) {
                    cached = true;       // single K tile: keep folded weight resident
                } else {
                    vecQ.FreeTensor(wv);
                }
            }
            ReduceSum<float>(red, acc, work, (K < kTile ? (K + 7) / 8 * 8 : kTile));
            SyncVS();
            res.SetValue(i, red.GetValue(0) + bsum);
        }
        if (cached) vecQ.FreeTensor(wv);
        SyncSV();

        // max over dim of size 1 and mean over dim of size 1 are identities;
        // logsumexp over one element: v + log(exp(v - v))
        for (int rep = 0; rep < 2; ++rep) {
            Sub(tmp, res, res, nr);
            Exp(tmp, tmp, nr);
            Ln(tmp, tmp, nr);
            Add(res, res, tmp, nr);
        }

        LocalTensor<float> o = vecQ.AllocTensor<float>();
        DataCopy(o, res, (nr + 7) / 8 * 8);
        vecQ.EnQue(o);
        o = vecQ.DeQue<float>();
        DataCopyExtParams outp{1, static_cast<uint32_t>(nr * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[r0], o, outp);
        vecQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 1> vecQ;
    TBuf<TPosition::VECCALC> accBuf, redBuf, workBuf, resBuf, tmpBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm, wsumGm;
    uint32_t M, K, N, colChunk, rowBatch, rowsPerCore, kTile, core, kPad;
};

extern "C" __global__ __aicore__ void matmul_sum_max_avg_pool_log_sum_exp_log_sum_exp_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    KernelLinearSumLse op;
    op.Init(x, weight, bias, y, usr, td);
    op.Process();
}
