// LinearScaledBatchNorm kernel
//   phase 1 (cube + vector epilogue): y = (x * W^T + bias) * scale   -> written to y
//   phase 2 (vector):                 per-column batch statistics over M rows,
//                                     y = (y - mean) / sqrt(var + eps) * gamma + beta  (in place)
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using CType = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
}

class LinearScaledBatchNormKernel {
public:
    __aicore__ inline LinearScaledBatchNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR scale, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR y, const LinearScaledBatchNormTilingData &td, TPipe *pipeIn)
    {
        pipe = pipeIn;
        M = td.rows;
        K = td.inFeatures;
        N = td.outFeatures;
        eps = td.eps;
        vecCores = td.vecCoreNum;
        colsPerCore = td.colsPerCore;
        colChunk = td.colChunk;
        rowChunk = td.rowChunk;
        mmt = &td.mmTiling;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)M * K);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)N * K);
        biasGm.SetGlobalBuffer((__gm__ float *)bias, N);
        scaleGm.SetGlobalBuffer((__gm__ float *)scale, N);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, N);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, N);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)M * N);
    }

    // ---------------- phase 1 ----------------
    template <class MM>
    __aicore__ inline void LinearPhase(MM &mm)
    {
        const uint32_t blk = GetBlockIdx();
        const uint32_t mBlocks = (M + mmt->singleCoreM - 1) / mmt->singleCoreM;
        const uint32_t nBlocks = (N + mmt->singleCoreN - 1) / mmt->singleCoreN;
        if (blk >= mBlocks * nBlocks) {
            return;
        }
        const uint32_t mIdx = blk % mBlocks;
        const uint32_t nIdx = blk / mBlocks;
        const uint32_t m0 = mIdx * mmt->singleCoreM;
        const uint32_t n0 = nIdx * mmt->singleCoreN;
        const uint32_t curM = (M - m0) < (uint32_t)mmt->singleCoreM ? (M - m0) : mmt->singleCoreM;
        const uint32_t curN = (N - n0) < (uint32_t)mmt->singleCoreN ? (N - n0) : mmt->singleCoreN;

        const uint32_t baseM = mmt->baseM;
        const uint32_t baseN = mmt->baseN;
        pipe->InitBuffer(cQue, 1, baseM * baseN * sizeof(float));
        pipe->InitBuffer(scaleBuf, baseN * sizeof(float));
        LocalTensor<float> scaleLocal = scaleBuf.Get<float>();

        mm.SetTensorA(xGm[(uint64_t)m0 * K]);
        mm.SetTensorB(wGm[(uint64_t)n0 * K], true);
        mm.SetBias(biasGm[n0]);
        mm.SetTail(curM, curN, K);

        const uint32_t nIters = (curN + baseN - 1) / baseN;
        uint32_t iter = 0;
        while (mm.template Iterate<true>()) {
            // default iterate order walks M first, then N
            const uint32_t tm = iter % ((curM + baseM - 1) / baseM);
            const uint32_t tn = iter / ((curM + baseM - 1) / baseM);
            const uint32_t rowsHere = (curM - tm * baseM) < baseM ? (curM - tm * baseM) : baseM;
            const uint32_t colsHere = (curN - tn * baseN) < baseN ? (curN - tn * baseN) : baseN;
            (void)nIters;

            LocalTensor<float> cLocal = cQue.AllocTensor<float>();
            mm.template GetTensorC<true>(cLocal, false, true);

            // bring this column slice of the scale vector in
            DataCopyExtParams sp{1, colsHere * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            DataCopyPad(scaleLocal, scaleGm[n0 + tn * baseN], sp, pad);
            event_t ev = static_cast<event_t>(pipe->FetchEventID(HardEvent::MTE2_V));
            SetFlag<HardEvent::MTE2_V>(ev);
            WaitFlag<HardEvent::MTE2_V>(ev);

            for (uint32_t r = 0; r < rowsHere; ++r) {
                Mul(cLocal[r * baseN], cLocal[r * baseN], scaleLocal, colsHere);
            }
            cQue.EnQue(cLocal);
            cLocal = cQue.DeQue<float>();

            DataCopyExtParams op{(uint16_t)rowsHere, colsHere * (uint32_t)sizeof(float),
                                 (uint32_t)((baseN - colsHere) * sizeof(float) / 32), (uint32_t)((N - colsHere) * sizeof(float)), 0};
            uint64_t dst = (uint64_t)(m0 + tm * baseM) * N + n0 + tn * baseN;
            DataCopyPad(yGm[dst], cLocal, op);
            cQue.FreeTensor(cLocal);
            ++iter;
        }
        mm.End();
        pipe->Reset();
    }

    // ---------------- phase 2 ----------------
    __aicore__ inline void NormPhase()
    {
        const uint32_t core = GetBlockIdx();
        if (core >= vecCores) {
            return;
        }
        const uint32_t c0 = core * colsPerCore;
        const uint32_t c1 = (c0 + colsPerCore) < N ? (c0 + colsPerCore) : N;

        pipe->InitBuffer(inQue, BUFFER_NUM, rowChunk * colChunk * sizeof(float));
        pipe->InitBuffer(outQue, 1, rowChunk * colChunk * sizeof(float));
        pipe->InitBuffer(statBuf, 6 * colChunk * sizeof(float));
        LocalTensor<float> stats = statBuf.Get<float>();
        LocalTensor<float> sum = stats;
        LocalTensor<float> sqSum = stats[colChunk];
        LocalTensor<float> mulA = stats[2 * colChunk];
        LocalTensor<float> addB = stats[3 * colChunk];
        LocalTensor<float> gma = stats[4 * colChunk];
        LocalTensor<float> sq = stats[5 * colChunk];

        for (uint32_t cs = c0; cs < c1; cs += colChunk) {
            const uint32_t cw = (c1 - cs) < colChunk ? (c1 - cs) : colChunk;
            Duplicate(sum, 0.0f, colChunk);
            Duplicate(sqSum, 0.0f, colChunk);

            // pass 1: sum and sum of squares down the columns
            for (uint32_t r0 = 0; r0 < M; r0 += rowChunk) {
                const uint32_t rh = (M - r0) < rowChunk ? (M - r0) : rowChunk;
                LoadTile(r0, rh, cs, cw);
                LocalTensor<float> t = inQue.DeQue<float>();
                for (uint32_t r = 0; r < rh; ++r) {
                    Add(sum, sum, t[r * colChunk], cw);
                    Mul(sq, t[r * colChunk], t[r * colChunk], cw);
                    Add(sqSum, sqSum, sq, cw);
                }
                inQue.FreeTensor(t);
            }

            // mean, biased variance -> y*a + b form
            const float invM = 1.0f / static_cast<float>(M);
            Muls(sum, sum, invM, cw);                 // mean
            Muls(sqSum, sqSum, invM, cw);             // E[y^2]
            Mul(sq, sum, sum, cw);
            Sub(sqSum, sqSum, sq, cw);                // var
            Maxs(sqSum, sqSum, 0.0f, cw);
            Adds(sqSum, sqSum, eps, cw);
            Sqrt(sqSum, sqSum, cw);
            LoadVec(gma, gammaGm[cs], cw);
            Div(mulA, gma, sqSum, cw);                // a = gamma / sqrt(var+eps)
            LoadVec(addB, betaGm[cs], cw);
            Mul(sq, sum, mulA, cw);
            Sub(addB, addB, sq, cw);                  // b = beta - mean * a

            // pass 2: normalise in place
            for (uint32_t r0 = 0; r0 < M; r0 += rowChunk) {
                const uint32_t rh = (M - r0) < rowChunk ? (M - r0) : rowChunk;
                LoadTile(r0, rh, cs, cw);
                LocalTensor<float> t = inQue.DeQue<float>();
                LocalTensor<float> o = outQue.AllocTensor<float>();
                for (uint32_t r = 0; r < rh; ++r) {
                    Mul(o[r * colChunk], t[r * colChunk], mulA, cw);
                    Add(o[r * colChunk], o[r * colChunk], addB, cw);
                }
                outQue.EnQue(o);
                inQue.FreeTensor(t);
                o = outQue.DeQue<float>();
                DataCopyExtParams p{(uint16_t)rh, cw * (uint32_t)sizeof(float),
                                    (uint32_t)((colChunk - cw) * sizeof(float) / 32), (uint32_t)((N - cw) * sizeof(float)), 0};
                DataCopyPad(yGm[(uint64_t)r0 * N + cs], o, p);
                outQue.FreeTensor(o);
            }
        }
    }

private:
    __aicore__ inline void LoadTile(uint32_t r0, uint32_t rh, uint32_t cs, uint32_t cw)
    {
        LocalTensor<float> t = inQue.AllocTensor<float>();
        DataCopyExtParams p{(uint16_t)rh, cw * (uint32_t)sizeof(float), (uint32_t)((N - cw) * sizeof(float)),
                            (uint32_t)((colChunk - cw) * sizeof(float) / 32), 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(t, yGm[(uint64_t)r0 * N + cs], p, pad);
        inQue.EnQue(t);
    }

    __aicore__ inline void LoadVec(LocalTensor<float> &dst, const GlobalTensor<float> &src, uint32_t n)
    {
        DataCopyExtParams p{1, n * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(dst, src, p, pad);
        event_t ev = static_cast<event_t>(pipe->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
    }

    TPipe *pipe = nullptr;
    const TCubeTiling *mmt = nullptr;
    GlobalTensor<float> xGm, wGm, biasGm, scaleGm, gammaGm, betaGm, yGm;
    TQue<QuePosition::VECIN, 1> cQue;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<TPosition::VECCALC> scaleBuf, statBuf;
    uint32_t M = 0, K = 0, N = 0;
    uint32_t vecCores = 0, colsPerCore = 0, colChunk = 0, rowChunk = 0;
    float eps = 1e-5f;
};

extern "C" __global__ __aicore__ void linear_scaled_batch_norm(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR scale,
                                                               GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    LinearScaledBatchNormKernel op;
    op.Init(x, weight, bias, scale, gamma, beta, y, td, &pipe);

    matmul::Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.mmTiling);
    op.LinearPhase(mm);

    // every core must see the full (scaled) linear output before the column statistics start
    SyncAll();
    op.NormPhase();
}
