/*
 * DenseMaxCenterGelu
 *   C = x * W^T + b                      (cube, Matmul high-level API, fp32 into workspace)
 *   v = max(C, dim=reduceDim, keepdim)   (vector)
 *   y = gelu(v - mean(v, dim=1))         (vector, exact erf form)
 *
 * Exact GELU without a sign branch:
 *   gelu(u) = 0.5 * u * (1 + erf(u / sqrt2)) = 0.5 * (u + |u| * erf(|u| / sqrt2))
 * erf on a non-negative argument uses the Abramowitz-Stegun 7.1.26 rational fit
 * (|error| < 1.5e-7).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
constexpr float INV_SQRT2 = 0.70710678118654752f;
constexpr float ERF_P = 0.3275911f;
constexpr float ERF_A1 = 0.254829592f;
constexpr float ERF_A2 = -0.284496736f;
constexpr float ERF_A3 = 1.421413741f;
constexpr float ERF_A4 = -1.453152027f;
constexpr float ERF_A5 = 1.061405429f;
constexpr float NEG_INF_F = -3.402823466e+38f;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
}  // namespace

template <typename T>
class DenseMaxCenterGeluKernel {
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;

public:
    __aicore__ inline DenseMaxCenterGeluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR usrWs,
                                const DenseMaxCenterGeluTiling *td)
    {
        td_ = td;
        M_ = td->m;
        N_ = td->n;
        K_ = td->k;
        xGm_.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(M_) * K_);
        wGm_.SetGlobalBuffer((__gm__ T *)w, static_cast<uint64_t>(N_) * K_);
        biasGm_.SetGlobalBuffer((__gm__ T *)bias, N_);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        cGm_.SetGlobalBuffer((__gm__ float *)usrWs, static_cast<uint64_t>(M_) * N_);
        colMaxGm_.SetGlobalBuffer((__gm__ float *)usrWs + static_cast<uint64_t>(M_) * N_, N_);
    }

    __aicore__ inline void Process()
    {
        Gemm();
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        pipe_.InitBuffer(inQue_, 2, td_->chunk * sizeof(float));
        pipe_.InitBuffer(outQue_, 1, td_->chunk * sizeof(T));
        pipe_.InitBuffer(accBuf_, td_->chunk * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, td_->chunk * sizeof(float));
        pipe_.InitBuffer(tmp2Buf_, td_->chunk * sizeof(float));
        pipe_.InitBuffer(valBuf_, td_->chunk * sizeof(float));
        pipe_.InitBuffer(redBuf_, (td_->chunk / 32 + 64) * sizeof(float));
        pipe_.InitBuffer(oneBuf_, 32);
        if (td_->reduceDim == 1) {
            RowMaxPath();
        } else {
            ColMaxPath();
        }
    }

private:
    template <HardEvent EVT>
    __aicore__ inline void Fence()
    {
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(EVT));
        SetFlag<EVT>(ev);
        WaitFlag<EVT>(ev);
    }

    // ------------------------------------------------------------------ cube stage
    __aicore__ inline void Gemm()
    {
        const TCubeTiling &mt = td_->mm;
        uint32_t blk = GetBlockIdx();
        REGIST_MATMUL_OBJ(&pipe_, GetSysWorkSpacePtr(), mm_, &mt);
        if (blk >= static_cast<uint32_t>(mt.usedCoreNum)) {
            return;
        }
        uint32_t mBlocks = CeilDivU(mt.M, mt.singleCoreM);
        uint32_t mIdx = blk % mBlocks;
        uint32_t nIdx = blk / mBlocks;
        uint32_t mStart = mIdx * mt.singleCoreM;
        uint32_t nStart = nIdx * mt.singleCoreN;
        if (mStart >= M_ || nStart >= N_) {
            return;
        }
        int32_t tailM = static_cast<int32_t>(M_ - mStart) < mt.singleCoreM ? static_cast<int32_t>(M_ - mStart) : mt.singleCoreM;
        int32_t tailN = static_cast<int32_t>(N_ - nStart) < mt.singleCoreN ? static_cast<int32_t>(N_ - nStart) : mt.singleCoreN;

        mm_.SetTensorA(xGm_[static_cast<uint64_t>(mStart) * K_]);
        mm_.SetTensorB(wGm_[static_cast<uint64_t>(nStart) * K_], true);
        mm_.SetBias(biasGm_[nStart]);
        mm_.SetTail(tailM, tailN);
        mm_.IterateAll(cGm_[static_cast<uint64_t>(mStart) * N_ + nStart]);
        mm_.End();
    }

    // ------------------------------------------------------------------ helpers
    __aicore__ inline void LoadF32(LocalTensor<float> &dst, GlobalTensor<float> src, uint32_t len)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(dst, src, cp, DataCopyPadExtParams<float>{false, 0, 0, 0});
    }

    // in-place exact GELU on len fp32 elements; uses tmp / tmp2 as scratch
    __aicore__ inline void GeluErf(LocalTensor<float> &u, uint32_t len)
    {
        LocalTensor<float> a = tmpBuf_.Get<float>();
        LocalTensor<float> t = tmp2Buf_.Get<float>();
        Abs(a, u, len);                       // |u|
        Muls(a, a, INV_SQRT2, len);           // s = |u| / sqrt2
        // t = 1 / (1 + p s)
        Muls(t, a, ERF_P, len);
        Adds(t, t, 1.0f, len);
        Reciprocal(t, t, len);
        // poly = ((((a5 t + a4) t + a3) t + a2) t + a1) t, accumulated in place of t
        LocalTensor<float> poly = accBuf_.Get<float>();
        Muls(poly, t, ERF_A5, len);
        Adds(poly, poly, ERF_A4, len);
        Mul(poly, poly, t, len);
        Adds(poly, poly, ERF_A3, len);
        Mul(poly, poly, t, len);
        Adds(poly, poly, ERF_A2, len);
        Mul(poly, poly, t, len);
        Adds(poly, poly, ERF_A1, len);
        Mul(poly, poly, t, len);
        // e = exp(-s^2); erf(s) = 1 - poly * e
        Mul(t, a, a, len);
        Muls(t, t, -1.0f, len);
        Exp(t, t, len);
        Mul(poly, poly, t, len);
        Muls(poly, poly, -1.0f, len);
        Adds(poly, poly, 1.0f, len);
        // 0.5 * (u + |u| * erf)
        Abs(a, u, len);
        Mul(a, a, poly, len);
        Add(u, u, a, len);
        Muls(u, u, 0.5f, len);
    }

    __aicore__ inline void StoreOut(GlobalTensor<T> dst, LocalTensor<float> &src, uint32_t len)
    {
        LocalTensor<T> o = outQue_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(o, src, (len + 7) / 8 * 8);
        } else {
            Cast(o, src, RoundMode::CAST_ROUND, len);
        }
        outQue_.EnQue(o);
        o = outQue_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(dst, o, cp);
        outQue_.FreeTensor(o);
    }

    // ------------------------------------------------------------------ reduceDim == 1
    // v_i = max_j C[i, j]; the centring mean runs over the kept size-1 axis, i.e. v_i itself.
    __aicore__ inline void RowMaxPath()
    {
        uint32_t blk = GetBlockIdx();
        uint32_t r0 = blk * td_->rowsPerCore;
        if (r0 >= M_) {
            return;
        }
        uint32_t rows = (M_ - r0) < td_->rowsPerCore ? (M_ - r0) : td_->rowsPerCore;
        uint32_t chunk = td_->chunk;
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> one = oneBuf_.Get<float>();

        for (uint32_t base = 0; base < rows; base += chunk) {
            uint32_t cnt = (rows - base) < chunk ? (rows - base) : chunk;
            // gather the row maxima of this group (scalar writes, then vector epilogue)
            LocalTensor<float> rowMax = valBuf_.Get<float>();
            for (uint32_t i = 0; i < cnt; ++i) {
                uint64_t row = r0 + base + i;
                float best = NEG_INF_F;
                for (uint32_t c = 0; c < N_; c += chunk) {
                    uint32_t len = (N_ - c) < chunk ? (N_ - c) : chunk;
                    LocalTensor<float> in = inQue_.AllocTensor<float>();
                    LoadF32(in, cGm_[row * N_ + c], len);
                    inQue_.EnQue(in);
                    in = inQue_.DeQue<float>();
                    ReduceMax<float>(one, in, red, len, false);
                    inQue_.FreeTensor(in);
                    Fence<HardEvent::V_S>();
                    float m = one.GetValue(0);
                    best = m > best ? m : best;
                }
                rowMax.SetValue(i, best);
            }
            Fence<HardEvent::S_V>();
            LocalTensor<float> centred = inQue_.AllocTensor<float>();
            // mean over the kept axis of size 1 equals the value: centred = v - v
            Sub(centred, rowMax, rowMax, cnt);
            GeluErf(centred, cnt);
            PipeBarrier<PIPE_V>();
            StoreOut(yGm_[r0 + base], centred, cnt);
            inQue_.FreeTensor(centred);
        }
    }

    // ------------------------------------------------------------------ reduceDim == 0
    // v_j = max_i C[i, j]  (shape 1 x N), then y = gelu(v - mean_j v_j)
    __aicore__ inline void ColMaxPath()
    {
        uint32_t blk = GetBlockIdx();
        uint32_t c0 = blk * td_->colsPerCore;
        uint32_t cols = 0;
        if (c0 < N_) {
            cols = (N_ - c0) < td_->colsPerCore ? (N_ - c0) : td_->colsPerCore;
        }
        uint32_t chunk = td_->chunk;
        LocalTensor<float> acc = accBuf_.Get<float>();

        for (uint32_t cb = 0; cb < cols; cb += chunk) {
            uint32_t len = (cols - cb) < chunk ? (cols - cb) : chunk;
            Duplicate(acc, NEG_INF_F, len);
            for (uint32_t i = 0; i < M_; ++i) {
                LocalTensor<float> in = inQue_.AllocTensor<float>();
                LoadF32(in, cGm_[static_cast<uint64_t>(i) * N_ + c0 + cb], len);
                inQue_.EnQue(in);
                in = inQue_.DeQue<float>();
                Max(acc, acc, in, len);
                inQue_.FreeTensor(in);
            }
            Fence<HardEvent::V_MTE3>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(colMaxGm_[c0 + cb], acc, cp);
            Fence<HardEvent::MTE3_V>();
        }

        PipeBarrier<PIPE_ALL>();
        SyncAll();

        // every core recomputes the global mean of v (N floats, cheap) to avoid another barrier
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> one = oneBuf_.Get<float>();
        float total = 0.0f;
        for (uint32_t c = 0; c < N_; c += chunk) {
            uint32_t len = (N_ - c) < chunk ? (N_ - c) : chunk;
            LocalTensor<float> in = inQue_.AllocTensor<float>();
            LoadF32(in, colMaxGm_[c], len);
            inQue_.EnQue(in);
            in = inQue_.DeQue<float>();
            ReduceSum<float>(one, in, red, len);
            inQue_.FreeTensor(in);
            Fence<HardEvent::V_S>();
            total += one.GetValue(0);
        }
        float mean = total / static_cast<float>(N_);

        for (uint32_t cb = 0; cb < cols; cb += chunk) {
            uint32_t len = (cols - cb) < chunk ? (cols - cb) : chunk;
            LocalTensor<float> in = inQue_.AllocTensor<float>();
            LoadF32(in, colMaxGm_[c0 + cb], len);
            inQue_.EnQue(in);
            in = inQue_.DeQue<float>();
            Adds(in, in, -mean, len);
            GeluErf(in, len);
            PipeBarrier<PIPE_V>();
            StoreOut(yGm_[c0 + cb], in, len);
            inQue_.FreeTensor(in);
        }
    }

private:
    TPipe pipe_;
    Matmul<AType, BType, CType, BiasType> mm_;
    TQue<QuePosition::VECIN, 2> inQue_;
    TQue<QuePosition::VECOUT, 1> outQue_;
    TBuf<TPosition::VECCALC> accBuf_, tmpBuf_, tmp2Buf_, valBuf_, redBuf_, oneBuf_;

    GlobalTensor<T> xGm_, wGm_, biasGm_, yGm_;
    GlobalTensor<float> cGm_, colMaxGm_;
    const DenseMaxCenterGeluTiling *td_ = nullptr;
    uint32_t M_ = 0, N_ = 0, K_ = 0;
};

extern "C" __global__ __aicore__ void dense_max_center_gelu(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    DenseMaxCenterGeluKernel<DTYPE_X> op;
    op.Init(x, weight, bias, y, usrWs, &td);
    op.Process();
}
