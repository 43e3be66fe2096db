/*
 * mlp_logit_pool.cpp
 *
 * Two-layer perceptron whose logits are pooled with a log-sum-exp:
 *   h   = sigmoid(x  @ W1^T + b1)      [B, H]
 *   z   =          h @ W2^T + b2       [B, O]
 *   out = log(sum_j exp(z[:, j]))      [B]
 *
 * Two device entries live in this file:
 *   mlp_logit_pool_dense : cube matmul (weights stored [out, in], i.e. B is
 *                          transposed) + bias, optional sigmoid applied on
 *                          every base tile in UB before it is written back.
 *   mlp_logit_pool       : numerically stable row-wise log-sum-exp.
 * main.cpp launches dense twice and then the pooling kernel.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct MlpLogitPoolDenseTiling {
    uint32_t m;
    uint32_t n;
    uint32_t k;
    uint32_t applySigmoid;
    TCubeTiling cube;
};

struct MlpLogitPoolTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t rowsPerStep;   // rows loaded into UB at once
};

template <typename T>
__aicore__ inline void PullTiling(T *dst, GM_ADDR src)
{
    auto s = reinterpret_cast<__gm__ uint32_t *>(src);
    auto d = reinterpret_cast<uint32_t *>(dst);
    for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

// ---------------------------------------------------------------------------
// dense layer: C = A * B^T + bias [, sigmoid]
// ---------------------------------------------------------------------------
using DenseA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using DenseB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using DenseC = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using DenseBias = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

class DenseLayer {
public:
    __aicore__ inline DenseLayer() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR w, GM_ADDR bias, GM_ADDR c, const MlpLogitPoolDenseTiling &t)
    {
        td = t;
        const TCubeTiling &ct = td.cube;
        uint32_t mBlocks = (ct.M + ct.singleCoreM - 1) / ct.singleCoreM;
        uint32_t idx = GetBlockIdx();
        uint32_t mIdx = idx % mBlocks;
        uint32_t nIdx = idx / mBlocks;

        rowStart = mIdx * ct.singleCoreM;
        colStart = nIdx * ct.singleCoreN;
        validM = (ct.M - rowStart) < static_cast<uint32_t>(ct.singleCoreM) ? (ct.M - rowStart) : ct.singleCoreM;
        validN = (ct.N - colStart) < static_cast<uint32_t>(ct.singleCoreN) ? (ct.N - colStart) : ct.singleCoreN;

        aGm.SetGlobalBuffer((__gm__ float *)a + static_cast<uint64_t>(rowStart) * ct.Ka);
        wGm.SetGlobalBuffer((__gm__ float *)w + static_cast<uint64_t>(colStart) * ct.Kb);
        biasGm.SetGlobalBuffer((__gm__ float *)bias + colStart);
        cGm.SetGlobalBuffer((__gm__ float *)c);

        pipe.InitBuffer(tileQue, 1, ct.baseM * ct.baseN * sizeof(float));
    }

    template <typename MM>
    __aicore__ inline void Run(MM &mm)
    {
        const TCubeTiling &ct = td.cube;
        if (rowStart >= static_cast<uint32_t>(ct.M) || colStart >= static_cast<uint32_t>(ct.N)) {
            return;
        }
        mm.SetTensorA(aGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(validM, validN);

        uint32_t mSteps = (validM + ct.baseM - 1) / ct.baseM;
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> tile = tileQue.AllocTensor<float>();
            mm.template GetTensorC<true>(tile, false, true);
            if (td.applySigmoid) {
                Sigmoid(tile, tile, ct.baseM * ct.baseN);
            }
            tileQue.EnQue(tile);
            WriteTile(step % mSteps, step / mSteps);
            ++step;
        }
        mm.End();
    }

private:
    // host guarantees M, N are multiples of baseM / baseN, so every tile is full
    __aicore__ inline void WriteTile(uint32_t tm, uint32_t tn)
    {
        const TCubeTiling &ct = td.cube;
        LocalTensor<float> tile = tileQue.DeQue<float>();
        uint64_t off = static_cast<uint64_t>(rowStart + tm * ct.baseM) * ct.N + colStart + tn * ct.baseN;
        DataCopyParams cp;
        cp.blockCount = ct.baseM;
        cp.blockLen = ct.baseN * sizeof(float) / 32;
        cp.srcStride = 0;
        cp.dstStride = (ct.N - ct.baseN) * sizeof(float) / 32;
        DataCopy(cGm[off], tile, cp);
        tileQue.FreeTensor(tile);
    }

    MlpLogitPoolDenseTiling td;
    uint32_t rowStart = 0, colStart = 0, validM = 0, validN = 0;
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> tileQue;
    GlobalTensor<float> aGm, wGm, biasGm, cGm;
};

extern "C" __global__ __aicore__ void mlp_logit_pool_dense(GM_ADDR a, GM_ADDR w, GM_ADDR bias, GM_ADDR c,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    MlpLogitPoolDenseTiling t;
    PullTiling(&t, tiling);

    DenseLayer layer;
    layer.Init(a, w, bias, c, t);
    matmul::Matmul<DenseA, DenseB, DenseC, DenseBias> mm;
    REGIST_MATMUL_OBJ(GetTPipePtr(), GetSysWorkSpacePtr(), mm, &t.cube);
    layer.Run(mm);
}

// ---------------------------------------------------------------------------
// row-wise log-sum-exp
// ---------------------------------------------------------------------------
class RowLogSumExp {
public:
    __aicore__ inline RowLogSumExp() {}

    __aicore__ inline void Init(GM_ADDR z, GM_ADDR out, const MlpLogitPoolTiling &t)
    {
        tp = t;
        first = GetBlockIdx() * tp.rowsPerCore;
        count = 0;
        if (first < tp.rows) {
            count = (tp.rows - first) < tp.rowsPerCore ? (tp.rows - first) : tp.rowsPerCore;
        }
        zGm.SetGlobalBuffer((__gm__ float *)z);
        outGm.SetGlobalBuffer((__gm__ float *)out);

        pipe.InitBuffer(inQ, 2, tp.rowsPerStep * tp.cols * sizeof(float));
        pipe.InitBuffer(expBuf, tp.cols * sizeof(float));
        pipe.InitBuffer(scalarBuf, 32);
        pipe.InitBuffer(workBuf, tp.cols * sizeof(float));
        pipe.InitBuffer(resBuf, ((tp.rowsPerCore + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (count == 0) {
            return;
        }
        LocalTensor<float> res = resBuf.Get<float>();
        for (uint32_t r = 0; r < count; r += tp.rowsPerStep) {
            uint32_t n = (count - r) < tp.rowsPerStep ? (count - r) : tp.rowsPerStep;
            LocalTensor<float> blk = inQ.AllocTensor<float>();
            DataCopy(blk, zGm[static_cast<uint64_t>(first + r) * tp.cols], n * tp.cols);
            inQ.EnQue(blk);
            blk = inQ.DeQue<float>();
            for (uint32_t i = 0; i < n; ++i) {
                res.SetValue(r + i, PoolRow(blk[i * tp.cols]));
            }
            inQ.FreeTensor(blk);
        }
        // scalar writes -> MTE3
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
        DataCopyExtParams cp{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm[first], res, cp);
    }

private:
    __aicore__ inline float PoolRow(const LocalTensor<float> &row)
    {
        LocalTensor<float> e = expBuf.Get<float>();
        LocalTensor<float> s = scalarBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();

        ReduceMax<float>(s, row, work, tp.cols, false);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float mx = s.GetValue(0);
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);

        Adds(e, row, -mx, tp.cols);
        Exp(e, e, tp.cols);
        ReduceSum<float>(s, e, work, tp.cols);
        Ln(s, s, 1);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        return s.GetValue(0) + mx;
    }

    MlpLogitPoolTiling tp;
    uint32_t first = 0, count = 0;
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TBuf<TPosition::VECCALC> expBuf, scalarBuf, workBuf, resBuf;
    GlobalTensor<float> zGm, outGm;
};

extern "C" __global__ __aicore__ void mlp_logit_pool(GM_ADDR z, GM_ADDR out, GM_ADDR tiling)
{
    MlpLogitPoolTiling t;
    PullTiling(&t, tiling);
    RowLogSumExp op;
    op.Init(z, out, t);
    op.Process();
}
