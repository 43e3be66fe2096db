/**
 * DenseBnScaledSoftmax
 *
 *   z   = x * W^T + bias                        (cube, Matmul API, written to y)
 *   mu, var = batch statistics of z per column  (training-mode batch norm)
 *   t   = scale * (gamma * (z - mu) / sqrt(var + eps) + beta)
 *   y   = softmax(t, dim = 1)
 *
 * Stage 2 folds normalisation and scaling into one per-column affine map
 * t = a * z + b that is stored in the workspace, so stage 3 is a plain row softmax.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
constexpr int32_t BUF = 2;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Align8(uint32_t a) { return (a + 7) / 8 * 8; }

template <HardEvent EV>
__aicore__ inline void Barrier()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
    SetFlag<EV>(e);
    WaitFlag<EV>(e);
}
}

using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class DenseBnScaledSoftmaxKernel {
public:
    __aicore__ inline DenseBnScaledSoftmaxKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR scale, GM_ADDR y, GM_ADDR usrWs,
                                const DenseBnScaledSoftmaxTilingData &td)
    {
        td_ = &td;
        m_ = td.rows; n_ = td.cols; k_ = td.depth;
        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)w);
        biasGm_.SetGlobalBuffer((__gm__ float *)bias);
        gammaGm_.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta);
        scaleGm_.SetGlobalBuffer((__gm__ float *)scale);
        yGm_.SetGlobalBuffer((__gm__ float *)y);
        aGm_.SetGlobalBuffer((__gm__ float *)usrWs, n_);
        bGm_.SetGlobalBuffer((__gm__ float *)usrWs + n_, n_);
    }

    // ---------------- stage 1: GEMM slice of this core ----------------
    __aicore__ inline void Gemm(Matmul<AType, BType, CType, BiasType> &mm)
    {
        const TCubeTiling &t = td_->mmTiling;
        uint32_t mBlocks = CeilDivU(t.M, t.singleCoreM);
        uint32_t blk = GetBlockIdx();
        uint32_t mIdx = blk % mBlocks;
        uint32_t nIdx = blk / mBlocks;
        if (mIdx * t.singleCoreM >= t.M || nIdx * t.singleCoreN >= t.N) {
            return;
        }
        uint32_t curM = (t.M - mIdx * t.singleCoreM) < (uint32_t)t.singleCoreM ? (t.M - mIdx * t.singleCoreM) : t.singleCoreM;
        uint32_t curN = (t.N - nIdx * t.singleCoreN) < (uint32_t)t.singleCoreN ? (t.N - nIdx * t.singleCoreN) : t.singleCoreN;

        uint64_t offA = (uint64_t)mIdx * t.singleCoreM * t.Ka;
        uint64_t offB = (uint64_t)nIdx * t.singleCoreN * t.Kb;     // weight stored (N, K)
        uint64_t offC = (uint64_t)mIdx * t.singleCoreM * t.N + (uint64_t)nIdx * t.singleCoreN;
        mm.SetTensorA(xGm_[offA]);
        mm.SetTensorB(wGm_[offB], true);
        mm.SetBias(biasGm_[nIdx * t.singleCoreN]);
        mm.SetTail(curM, curN);
        mm.IterateAll(yGm_[offC]);
        mm.End();
    }

    // ------------- stage 2: column statistics -> affine (a, b) -------------
    __aicore__ inline void ColumnStats()
    {
        uint32_t core = GetBlockIdx();
        uint32_t c0 = core * td_->statCols;
        if (c0 >= n_) {
            return;
        }
        uint32_t cw = (n_ - c0) < td_->statCols ? (n_ - c0) : td_->statCols;
        uint32_t cwA = Align8(cw);
        uint32_t rowTile = td_->statRowTile;

        TQue<QuePosition::VECIN, 1> inQ;
        TBuf<TPosition::VECCALC> acc;
        pipe_.InitBuffer(inQ, 1, rowTile * td_->statCols * sizeof(float));
        pipe_.InitBuffer(acc, 5 * td_->statCols * sizeof(float));
        LocalTensor<float> sum = acc.Get<float>();
        LocalTensor<float> sq = sum[td_->statCols];
        LocalTensor<float> tmp = sum[2 * td_->statCols];
        LocalTensor<float> gam = sum[3 * td_->statCols];
        LocalTensor<float> bet = sum[4 * td_->statCols];
        Duplicate(sum, 0.0f, cwA);
        Duplicate(sq, 0.0f, cwA);

        for (uint32_t r0 = 0; r0 < m_; r0 += rowTile) {
            uint32_t rc = (m_ - r0) < rowTile ? (m_ - r0) : rowTile;
            LocalTensor<float> z = inQ.AllocTensor<float>();
            DataCopyExtParams cp{static_cast<uint16_t>(rc), cw * (uint32_t)sizeof(float),
                                 (n_ - cw) * (uint32_t)sizeof(float), 0, 0};
            DataCopyPad(z, yGm_[(uint64_t)r0 * n_ + c0], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            inQ.EnQue(z);
            z = inQ.DeQue<float>();
            for (uint32_t r = 0; r < rc; ++r) {
                Add(sum, sum, z[r * cwA], cw);
                Mul(tmp, z[r * cwA], z[r * cwA], cw);
                Add(sq, sq, tmp, cw);
            }
            inQ.FreeTensor(z);
        }

        DataCopyExtParams one{1, cw * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(gam, gammaGm_[c0], one, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        DataCopyPad(bet, betaGm_[c0], one, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        Barrier<HardEvent::MTE2_V>();

        float invM = 1.0f / static_cast<float>(m_);
        Muls(sum, sum, invM, cw);                 // mean
        Muls(sq, sq, invM, cw);                   // E[z^2]
        Mul(tmp, sum, sum, cw);
        Sub(sq, sq, tmp, cw);                     // biased variance
        Maxs(sq, sq, 0.0f, cw);
        Adds(sq, sq, td_->eps, cw);
        Sqrt(sq, sq, cw);
        Duplicate(tmp, 1.0f, cw);
        Div(sq, tmp, sq, cw);                     // 1 / sqrt(var + eps)
        Mul(sq, sq, gam, cw);                     // gamma * invstd

        if (td_->scaleLen == 1) {
            float s = scaleGm_.GetValue(0);
            Muls(sq, sq, s, cw);                  // a
            Muls(bet, bet, s, cw);
        } else {
            DataCopyPad(tmp, scaleGm_[c0], one, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            Barrier<HardEvent::MTE2_V>();
            Mul(sq, sq, tmp, cw);
            Mul(bet, bet, tmp, cw);
        }
        Mul(tmp, sq, sum, cw);
        Sub(bet, bet, tmp, cw);                   // b = s*beta - a*mean
        Barrier<HardEvent::V_MTE3>();
        DataCopyPad(aGm_[c0], sq, one);
        DataCopyPad(bGm_[c0], bet, one);
    }

    // ---------------- stage 3: row softmax of a*z + b ----------------
    __aicore__ inline void RowSoftmax()
    {
        uint32_t core = GetBlockIdx();
        uint32_t r0 = core * td_->softRows;
        if (r0 >= m_) {
            return;
        }
        uint32_t r1 = (r0 + td_->softRows) < m_ ? (r0 + td_->softRows) : m_;
        uint32_t tile = td_->colTile;

        pipe_.Reset();
        pipe_.InitBuffer(zQ_, BUF, tile * sizeof(float));
        pipe_.InitBuffer(abQ_, 1, 2 * tile * sizeof(float));
        pipe_.InitBuffer(outQ_, BUF, tile * sizeof(float));
        pipe_.InitBuffer(workBuf_, (tile + 64) * sizeof(float));

        for (uint32_t r = r0; r < r1; ++r) {
            uint64_t rowOff = (uint64_t)r * n_;
            // pass 1: t = a*z + b written back in place, running max
            float rowMax = -3.4e38f;
            for (uint32_t c = 0; c < n_; c += tile) {
                uint32_t len = (n_ - c) < tile ? (n_ - c) : tile;
                LoadChunk(rowOff + c, len, true, c);
                LocalTensor<float> z = zQ_.DeQue<float>();
                LocalTensor<float> ab = abQ_.DeQue<float>();
                LocalTensor<float> t = outQ_.AllocTensor<float>();
                Mul(t, z, ab, len);
                Add(t, t, ab[tile], len);
                float cm = ReduceScalar(t, len, true);
                rowMax = cm > rowMax ? cm : rowMax;
                zQ_.FreeTensor(z);
                abQ_.FreeTensor(ab);
                StoreChunk(t, rowOff + c, len);
            }
            Barrier<HardEvent::MTE3_MTE2>();
            // pass 2: sum of exp(t - max)
            float rowSum = 0.0f;
            for (uint32_t c = 0; c < n_; c += tile) {
                uint32_t len = (n_ - c) < tile ? (n_ - c) : tile;
                LoadChunk(rowOff + c, len, false, c);
                LocalTensor<float> t = zQ_.DeQue<float>();
                Adds(t, t, -rowMax, len);
                Exp(t, t, len);
                rowSum += ReduceScalar(t, len, false);
                zQ_.FreeTensor(t);
            }
            float inv = 1.0f / rowSum;
            // pass 3: normalise
            for (uint32_t c = 0; c < n_; c += tile) {
                uint32_t len = (n_ - c) < tile ? (n_ - c) : tile;
                LoadChunk(rowOff + c, len, false, c);
                LocalTensor<float> t = zQ_.DeQue<float>();
                LocalTensor<float> o = outQ_.AllocTensor<float>();
                Adds(o, t, -rowMax, len);
                Exp(o, o, len);
                Muls(o, o, inv, len);
                zQ_.FreeTensor(t);
                StoreChunk(o, rowOff + c, len);
            }
            Barrier<HardEvent::MTE3_MTE2>();
        }
    }

private:
    __aicore__ inline void LoadChunk(uint64_t gmOff, uint32_t len, bool withAffine, uint32_t col)
    {
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        LocalTensor<float> z = zQ_.AllocTensor<float>();
        DataCopyPad(z, yGm_[gmOff], cp, pad);
        zQ_.EnQue(z);
        if (withAffine) {
            LocalTensor<float> ab = abQ_.AllocTensor<float>();
            DataCopyPad(ab, aGm_[col], cp, pad);
            DataCopyPad(ab[td_->colTile], bGm_[col], cp, pad);
            abQ_.EnQue(ab);
        }
    }

    __aicore__ inline void StoreChunk(LocalTensor<float> &t, uint64_t gmOff, uint32_t len)
    {
        outQ_.EnQue(t);
        LocalTensor<float> o = outQ_.DeQue<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm_[gmOff], o, cp);
        outQ_.FreeTensor(o);
    }

    __aicore__ inline float ReduceScalar(const LocalTensor<float> &src, uint32_t len, bool isMax)
    {
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> dst = work[td_->colTile];
        if (isMax) {
            ReduceMax(dst, src, work, len, false);
        } else {
            ReduceSum(dst, src, work, len);
        }
        Barrier<HardEvent::V_S>();
        return dst.GetValue(0);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF> zQ_;
    TQue<QuePosition::VECIN, 1> abQ_;
    TQue<QuePosition::VECOUT, BUF> outQ_;
    TBuf<TPosition::VECCALC> workBuf_;
    GlobalTensor<float> xGm_, wGm_, biasGm_, gammaGm_, betaGm_, scaleGm_, yGm_, aGm_, bGm_;
    const DenseBnScaledSoftmaxTilingData *td_;
    uint32_t m_, n_, k_;

public:
    TPipe &Pipe() { return pipe_; }
};

extern "C" __global__ __aicore__ void dense_bn_scaled_softmax(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                              GM_ADDR gamma, GM_ADDR beta, GM_ADDR scale,
                                                              GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    DenseBnScaledSoftmaxKernel op;
    op.Init(x, weight, bias, gamma, beta, scale, y, usrWs, td);

    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&op.Pipe(), GetSysWorkSpacePtr(), mm, &td.mmTiling);
    op.Gemm(mm);

    if ASCEND_IS_AIV {
        SyncAll();
        op.ColumnStats();
        SyncAll();
        op.RowSoftmax();
    }
}
