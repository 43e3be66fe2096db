// Linear layer -> training-mode BatchNorm1d -> scalar scale -> row softmax.
//
// Phase 1 (cube):   h = x @ w^T + bias via the Matmul high level API, written straight
//                   into y (y doubles as the staging buffer for h).
// Phase 2 (vector): per output column the batch mean / biased variance of h; folded with
//                   gamma, beta and the scale into one multiplier and one offset per
//                   column, kept in the user workspace:  z = h * colMul + colAdd.
// Phase 3 (vector): per row: z = h*colMul + colAdd, softmax(z) written back into y.
// Phases are separated by full-core barriers (SyncAll).

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "linear_bnorm_softmax_tiling.h"

using namespace AscendC;

namespace {
template <HardEvent EVT>
__aicore__ inline void WaitPipe()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
    SetFlag<EVT>(id);
    WaitFlag<EVT>(id);
}

__aicore__ inline uint32_t Align8(uint32_t v)
{
    return (v + 7) / 8 * 8;
}

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}
} // namespace

using LhsType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using RhsType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // w is [N, K]
using OutType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

class LinearBnormSoftmaxKernel {
public:
    matmul::Matmul<LhsType, RhsType, OutType, BiasType> mm;

    __aicore__ inline LinearBnormSoftmaxKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta, GM_ADDR scale,
                                GM_ADDR y, GM_ADDR userWs, const LinearBnormSoftmaxTiling &t, TPipe *pipe)
    {
        t_ = t;
        pipe_ = pipe;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), static_cast<uint64_t>(t.rows) * t.depth);
        wGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(w), static_cast<uint64_t>(t.cols) * t.depth);
        biasGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), t.cols);
        gammaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(gamma), t.cols);
        betaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(beta), t.cols);
        scaleGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(scale), 1);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), static_cast<uint64_t>(t.rows) * t.cols);
        colMulGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(userWs), t.cols);
        colAddGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(userWs) + Align8(t.cols), t.cols);

        vecIdx_ = GetBlockIdx();
        vecNum_ = GetBlockNum() * GetTaskRatio();
    }

    __aicore__ inline void Process()
    {
        ProjectRows();
        SyncAll();
        ColumnStatistics();
        SyncAll();
        RowSoftmax();
    }

private:
    // ---------------- phase 1: h = x w^T + b ----------------
    __aicore__ inline void ProjectRows()
    {
        const auto &c = t_.mm;
        uint32_t mBlocks = CeilDiv(t_.rows, c.singleCoreM);
        uint32_t nBlocks = CeilDiv(t_.cols, c.singleCoreN);
        for (uint32_t tile = vecIdx_; tile < mBlocks * nBlocks; tile += vecNum_) {
            uint32_t mi = tile % mBlocks;
            uint32_t ni = tile / mBlocks;
            uint32_t m0 = mi * c.singleCoreM;
            uint32_t n0 = ni * c.singleCoreN;
            uint32_t tm = t_.rows - m0 < static_cast<uint32_t>(c.singleCoreM) ? t_.rows - m0 : c.singleCoreM;
            uint32_t tn = t_.cols - n0 < static_cast<uint32_t>(c.singleCoreN) ? t_.cols - n0 : c.singleCoreN;
            mm.SetTensorA(xGm_[static_cast<uint64_t>(m0) * t_.depth]);
            mm.SetTensorB(wGm_[static_cast<uint64_t>(n0) * t_.depth], true);
            mm.SetBias(biasGm_[n0]);
            mm.SetTail(tm, tn);
            mm.IterateAll(yGm_[static_cast<uint64_t>(m0) * t_.cols + n0]);
        }
        mm.End();
    }

    // ---------------- phase 2: per-column batch statistics ----------------
    __aicore__ inline void ColumnStatistics()
    {
        const uint32_t cb = t_.colBlock;
        TBuf<TPosition::VECCALC> blkBuf, accBuf, prmBuf;
        TQue<QuePosition::VECOUT, 1> outQue;
        pipe_->InitBuffer(blkBuf, t_.rowBlock * cb * sizeof(float));
        pipe_->InitBuffer(accBuf, 4 * cb * sizeof(float));
        pipe_->InitBuffer(prmBuf, 2 * cb * sizeof(float));
        pipe_->InitBuffer(outQue, 1, 2 * cb * sizeof(float));

        LocalTensor<float> blk = blkBuf.Get<float>();
        LocalTensor<float> accs = accBuf.Get<float>();
        LocalTensor<float> pivot = accs;
        LocalTensor<float> sumD = accs[cb];
        LocalTensor<float> sumD2 = accs[2 * cb];
        LocalTensor<float> sq = accs[3 * cb];
        LocalTensor<float> prm = prmBuf.Get<float>();
        LocalTensor<float> gam = prm;
        LocalTensor<float> bet = prm[cb];
        const float invRows = 1.0f / static_cast<float>(t_.rows);
        const float scale = scaleGm_.GetValue(0);

        for (uint32_t u = vecIdx_; u < t_.statUnits; u += vecNum_) {
            uint32_t c0 = u * cb;
            uint32_t cw = t_.cols - c0 < cb ? t_.cols - c0 : cb;
            DataCopyExtParams vp{1, static_cast<uint32_t>(cw * sizeof(float)), 0, 0, 0};

            WaitPipe<HardEvent::V_MTE2>();
            // pivot = first row of the block: statistics of (h - pivot) are better conditioned
            DataCopyPad(pivot, yGm_[c0], vp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            DataCopyPad(gam, gammaGm_[c0], vp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            DataCopyPad(bet, betaGm_[c0], vp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            WaitPipe<HardEvent::MTE2_V>();
            Duplicate(sumD, 0.0f, cb);
            Duplicate(sumD2, 0.0f, cb);

            for (uint32_t r0 = 0; r0 < t_.rows; r0 += t_.rowBlock) {
                uint32_t rb = t_.rows - r0 < t_.rowBlock ? t_.rows - r0 : t_.rowBlock;
                DataCopyExtParams bp;
                bp.blockCount = static_cast<uint16_t>(rb);
                bp.blockLen = cw * sizeof(float);
                bp.srcStride = (t_.cols - cw) * sizeof(float);
                bp.dstStride = (cb - Align8(cw)) / 8;
                bp.rsv = 0;
                WaitPipe<HardEvent::V_MTE2>();
                DataCopyPad(blk, yGm_[static_cast<uint64_t>(r0) * t_.cols + c0], bp,
                            DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                WaitPipe<HardEvent::MTE2_V>();
                for (uint32_t r = 0; r < rb; ++r) {
                    LocalTensor<float> row = blk[r * cb];
                    Sub(row, row, pivot, cw);
                    Add(sumD, sumD, row, cw);
                    Mul(sq, row, row, cw);
                    Add(sumD2, sumD2, sq, cw);
                }
            }

            // meanD = sumD/rows ; var = sumD2/rows - meanD^2 ; mean = pivot + meanD
            LocalTensor<float> res = outQue.AllocTensor<float>();
            LocalTensor<float> colMul = res;
            LocalTensor<float> colAdd = res[cb];
            Muls(sumD, sumD, invRows, cw);                 // meanD
            Muls(sumD2, sumD2, invRows, cw);
            Mul(sq, sumD, sumD, cw);
            Sub(sumD2, sumD2, sq, cw);                     // var
            Maxs(sumD2, sumD2, 0.0f, cw);
            Adds(sumD2, sumD2, t_.eps, cw);
            Sqrt(sumD2, sumD2, cw);
            Duplicate(sq, 1.0f, cw);
            Div(sumD2, sq, sumD2, cw);                     // 1/sqrt(var+eps)
            Mul(colMul, gam, sumD2, cw);                   // gamma * invstd
            Add(sumD, sumD, pivot, cw);                    // mean
            Mul(sq, sumD, colMul, cw);
            Sub(colAdd, bet, sq, cw);                      // beta - mean*gamma*invstd
            Muls(colMul, colMul, scale, cw);
            Muls(colAdd, colAdd, scale, cw);
            outQue.EnQue(res);
            res = outQue.DeQue<float>();
            DataCopyPad(colMulGm_[c0], res, vp);
            DataCopyPad(colAddGm_[c0], res[cb], vp);
            outQue.FreeTensor(res);
        }
        pipe_->Reset();
    }

    // ---------------- phase 3: softmax over each row ----------------
    __aicore__ inline void RowSoftmax()
    {
        const uint32_t n = t_.cols;
        const uint32_t pitch = Align8(n);
        TBuf<TPosition::VECCALC> mulBuf, addBuf, workBuf, redBuf;
        TQue<QuePosition::VECIN, 1> inQue;
        TQue<QuePosition::VECOUT, 1> outQue;
        pipe_->InitBuffer(mulBuf, pitch * sizeof(float));
        pipe_->InitBuffer(addBuf, pitch * sizeof(float));
        pipe_->InitBuffer(workBuf, t_.softmaxWork * sizeof(float));
        pipe_->InitBuffer(redBuf, 8 * sizeof(float));
        pipe_->InitBuffer(inQue, 1, pitch * sizeof(float));
        pipe_->InitBuffer(outQue, 1, pitch * sizeof(float));

        LocalTensor<float> colMul = mulBuf.Get<float>();
        LocalTensor<float> colAdd = addBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        DataCopyExtParams rowP{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(colMul, colMulGm_, rowP, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        DataCopyPad(colAdd, colAddGm_, rowP, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        WaitPipe<HardEvent::MTE2_V>();

        for (uint32_t r = vecIdx_; r < t_.rows; r += vecNum_) {
            LocalTensor<float> h = inQue.AllocTensor<float>();
            DataCopyPad(h, yGm_[static_cast<uint64_t>(r) * n], rowP, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            inQue.EnQue(h);
            h = inQue.DeQue<float>();

            LocalTensor<float> z = outQue.AllocTensor<float>();
            Mul(z, h, colMul, n);
            Add(z, z, colAdd, n);
            inQue.FreeTensor(h);

            ReduceMax(red, z, work, n, false);
            WaitPipe<HardEvent::V_S>();
            float rowMax = red.GetValue(0);
            WaitPipe<HardEvent::S_V>();
            Adds(z, z, -rowMax, n);
            Exp(z, z, n);
            ReduceSum(red, z, work, n);
            WaitPipe<HardEvent::V_S>();
            float denom = red.GetValue(0);
            WaitPipe<HardEvent::S_V>();
            Muls(z, z, 1.0f / denom, n);

            outQue.EnQue(z);
            z = outQue.DeQue<float>();
            DataCopyPad(yGm_[static_cast<uint64_t>(r) * n], z, rowP);
            outQue.FreeTensor(z);
        }
    }

private:
    TPipe *pipe_ = nullptr;
    LinearBnormSoftmaxTiling t_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> wGm_;
    GlobalTensor<float> biasGm_;
    GlobalTensor<float> gammaGm_;
    GlobalTensor<float> betaGm_;
    GlobalTensor<float> scaleGm_;
    GlobalTensor<float> yGm_;
    GlobalTensor<float> colMulGm_;
    GlobalTensor<float> colAddGm_;
    uint32_t vecIdx_ = 0;
    uint32_t vecNum_ = 1;
};

extern "C" __global__ __aicore__ void linear_bnorm_softmax(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma,
                                                           GM_ADDR beta, GM_ADDR scale, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(LinearBnormSoftmaxTiling);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    TPipe pipe;
    LinearBnormSoftmaxKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.mm);
    if ASCEND_IS_AIC {
        return;
    }
    op.Init(x, weight, bias, gamma, beta, scale, y, userWs, tilingData, &pipe);
    op.Process();
}
