/*
 * SigmoidMlpLogSumExp
 *
 *   h = sigmoid(x @ w1^T + b1)          (M, Hd)
 *   z = h @ w2^T + b2                   (M, N)
 *   y[m] = log(sum_n exp(z[m, n]))      (M)
 *
 * Every vector block owns a band of rows for BOTH products, so the second
 * GEMM only needs activations this same block produced: no cross-core barrier
 * is required, only local ordering between the store of h and the cube's read.
 *
 * Stage 1: cube GEMM -> UB block -> sigmoid -> h in workspace.
 * Stage 2: cube GEMM -> UB block -> online log-sum-exp per row (running max
 *          and running rescaled sum, updated block by block). z is never stored.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
constexpr float LOWEST = -3.402823466e+38f;

__aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Lesser(uint32_t a, uint32_t b) { return a < b ? a : b; }
__aicore__ inline uint32_t To8(uint32_t a) { return (a + 7) / 8 * 8; }

template <HardEvent E>
__aicore__ inline void Ordered()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(e);
    WaitFlag<E>(e);
}
}  // namespace

class SigmoidMlpLseKernel {
public:
    using GmA = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using GmBt = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using UbC = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using GmBias = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using Gemm = Matmul<GmA, GmBt, UbC, GmBias>;

    Gemm mmHidden;
    Gemm mmOut;

    __aicore__ inline SigmoidMlpLseKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w1, GM_ADDR b1, GM_ADDR w2, GM_ADDR b2, GM_ADDR y,
                                GM_ADDR userWs, const SigmoidMlpLseTilingData &td, TPipe *pipe)
    {
        t1 = td.hiddenMm;
        t2 = td.outputMm;
        M = t1.M;
        K = t1.Ka;
        Hd = t1.N;
        N = t2.N;

        uint32_t blk = GetBlockIdx();
        active = blk < td.usedBlocks;
        row0 = blk * td.rowsPerBlock;
        bandRows = active ? Lesser(td.rowsPerBlock, M - row0) : 0;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)M * K);
        w1Gm.SetGlobalBuffer((__gm__ float *)w1, (uint64_t)Hd * K);
        b1Gm.SetGlobalBuffer((__gm__ float *)b1, Hd);
        w2Gm.SetGlobalBuffer((__gm__ float *)w2, (uint64_t)N * Hd);
        b2Gm.SetGlobalBuffer((__gm__ float *)b2, N);
        yGm.SetGlobalBuffer((__gm__ float *)y, M);
        hGm.SetGlobalBuffer((__gm__ float *)userWs, (uint64_t)M * Hd);

        uint32_t tileElems = t1.baseM * t1.baseN;
        uint32_t tile2 = t2.baseM * t2.baseN;
        pipe->InitBuffer(cQue, 1, (tileElems > tile2 ? tileElems : tile2) * sizeof(float));
        uint32_t bandPad = To8(td.rowsPerBlock);
        pipe->InitBuffer(runMaxBuf, bandPad * sizeof(float));
        pipe->InitBuffer(runSumBuf, bandPad * sizeof(float));
        uint32_t bm = t2.baseM > t1.baseM ? t2.baseM : t1.baseM;
        pipe->InitBuffer(slotBuf, 2 * bm * 8 * sizeof(float));   // per-row block max / block sum
        pipe->InitBuffer(corrBuf, To8(bm) * sizeof(float));      // exp(oldMax - newMax)
        pipe->InitBuffer(workBuf, (To8(t2.baseN / 8) + 64) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (!active) {
            mmHidden.End();
            mmOut.End();
            return;
        }
        HiddenStage();
        // h rows of this band were written by our own MTE3 queue; make sure they
        // have landed before the cube is told to read them.
        PipeBarrier<PIPE_ALL>();
        OutputStage();
    }

private:
    // ---------------------------------------------------------------- stage 1
    __aicore__ inline void HiddenStage()
    {
        mmHidden.SetTensorA(xGm[(uint64_t)row0 * K]);
        mmHidden.SetTensorB(w1Gm, true);
        mmHidden.SetBias(b1Gm);
        mmHidden.SetTail(bandRows, Hd);

        uint32_t mSteps = Ceil(bandRows, t1.baseM);
        uint32_t step = 0;
        while (mmHidden.template Iterate<true>()) {
            LocalTensor<float> c = cQue.AllocTensor<float>();
            mmHidden.template GetTensorC<true>(c, false, true);
            uint32_t len = t1.baseM * t1.baseN;
            // sigmoid = 1 / (1 + exp(-v))
            Muls(c, c, -1.0f, len);
            Exp(c, c, len);
            Adds(c, c, 1.0f, len);
            Reciprocal(c, c, len);
            cQue.EnQue(c);

            c = cQue.DeQue<float>();
            uint32_t r = (step % mSteps) * t1.baseM;
            uint32_t col = (step / mSteps) * t1.baseN;
            uint32_t rows = Lesser(t1.baseM, bandRows - r);
            uint32_t cols = Lesser(t1.baseN, Hd - col);
            DataCopyExtParams st{static_cast<uint16_t>(rows), cols * (uint32_t)sizeof(float),
                                 (t1.baseN - To8(cols)) / 8, (Hd - cols) * (uint32_t)sizeof(float), 0};
            DataCopyPad(hGm[(uint64_t)(row0 + r) * Hd + col], c, st);
            cQue.FreeTensor(c);
            ++step;
        }
        mmHidden.End();
    }

    // ---------------------------------------------------------------- stage 2
    __aicore__ inline void OutputStage()
    {
        LocalTensor<float> runMax = runMaxBuf.Get<float>();
        LocalTensor<float> runSum = runSumBuf.Get<float>();
        LocalTensor<float> slot = slotBuf.Get<float>();
        LocalTensor<float> corr = corrBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        uint32_t bandPad = To8(bandRows);
        Duplicate(runMax, LOWEST, bandPad);
        Duplicate(runSum, 0.0f, bandPad);

        mmOut.SetTensorA(hGm[(uint64_t)row0 * Hd]);
        mmOut.SetTensorB(w2Gm, true);
        mmOut.SetBias(b2Gm);
        mmOut.SetTail(bandRows, N);

        uint32_t mSteps = Ceil(bandRows, t2.baseM);
        uint32_t step = 0;
        while (mmOut.template Iterate<true>()) {
            LocalTensor<float> c = cQue.AllocTensor<float>();
            mmOut.template GetTensorC<true>(c, false, true);
            cQue.EnQue(c);
            c = cQue.DeQue<float>();

            uint32_t r0 = (step % mSteps) * t2.baseM;
            uint32_t c0 = (step / mSteps) * t2.baseN;
            uint32_t rows = Lesser(t2.baseM, bandRows - r0);
            uint32_t cols = Lesser(t2.baseN, N - c0);
            FoldBlock(c, r0, rows, cols, runMax, runSum, slot, corr, work);
            cQue.FreeTensor(c);
            ++step;
        }
        mmOut.End();

        // y = max + log(sum)
        Ln(runSum, runSum, bandRows);
        Add(runSum, runSum, runMax, bandRows);
        Ordered<HardEvent::V_MTE3>();
        DataCopyPad(yGm[row0], runSum, DataCopyExtParams{1, bandRows * (uint32_t)sizeof(float), 0, 0, 0});
    }

    // merge one (rows x cols) block of z into the running per-row max / sum
    __aicore__ inline void FoldBlock(LocalTensor<float> &c, uint32_t r0, uint32_t rows, uint32_t cols,
                                     LocalTensor<float> &runMax, LocalTensor<float> &runSum,
                                     LocalTensor<float> &slot, LocalTensor<float> &corr, LocalTensor<float> &work)
    {
        uint32_t pitch = t2.baseN;
        LocalTensor<float> bmax = slot;
        LocalTensor<float> bsum = slot[t2.baseM * 8];

        for (uint32_t r = 0; r < rows; ++r) {
            ReduceMax(bmax[r * 8], c[r * pitch], work, cols, false);
        }
        Ordered<HardEvent::V_S>();

        // new running max per row; correction exponent old - new
        for (uint32_t r = 0; r < rows; ++r) {
            float old = runMax.GetValue(r0 + r);
            float blk = bmax.GetValue(r * 8);
            float nm = blk > old ? blk : old;
            corr.SetValue(r, old - nm);
            runMax.SetValue(r0 + r, nm);
        }
        Ordered<HardEvent::S_V>();

        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> line = c[r * pitch];
            Adds(line, line, -runMax.GetValue(r0 + r), cols);
            Exp(line, line, cols);
            ReduceSum(bsum[r * 8], line, work, cols);
        }
        Exp(corr, corr, rows);
        Ordered<HardEvent::V_S>();

        for (uint32_t r = 0; r < rows; ++r) {
            float s = runSum.GetValue(r0 + r) * corr.GetValue(r) + bsum.GetValue(r * 8);
            runSum.SetValue(r0 + r, s);
        }
        Ordered<HardEvent::S_V>();
    }

    TCubeTiling t1, t2;
    TQue<QuePosition::VECIN, 1> cQue;
    TBuf<TPosition::VECCALC> runMaxBuf, runSumBuf, slotBuf, corrBuf, workBuf;
    GlobalTensor<float> xGm, w1Gm, b1Gm, w2Gm, b2Gm, yGm, hGm;
    uint32_t M = 0, K = 0, Hd = 0, N = 0;
    uint32_t row0 = 0, bandRows = 0;
    bool active = false;
};

extern "C" __global__ __aicore__ void sigmoid_mlp_log_sum_exp(GM_ADDR x, GM_ADDR w1, GM_ADDR b1, GM_ADDR w2,
                                                              GM_ADDR b2, GM_ADDR y, GM_ADDR workspace,
                                                              GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GM_ADDR userWs = GetUserWorkspace(workspace);

    TPipe pipe;
    SigmoidMlpLseKernel op;
    op.Init(x, w1, b1, w2, b2, y, userWs, td, &pipe);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mmHidden, &td.hiddenMm, op.mmOut, &td.outputMm);
    op.Process();
}
