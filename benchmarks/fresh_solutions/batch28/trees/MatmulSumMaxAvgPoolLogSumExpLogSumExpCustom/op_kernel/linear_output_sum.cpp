/**
 * LinearOutputSum kernel (fp32)
 *
 * Reference semantics, for x[B, K], weight[J, K], bias[J]:
 *     h = x @ weight^T + bias            # [B, J]
 *     s = sum(h, dim=1, keepdim)         # [B, 1]
 *     s = max(s, dim=1)  -> s            # size-1 axis
 *     s = mean(s, dim=1) -> s
 *     s = logsumexp(s, dim=1) twice      # size-1 axis: m + log(exp(s - m))
 *
 * Since the row sum is linear,  Σ_j h[b, j] = x[b, :] · (Σ_j weight[j, :]) + Σ_j bias[j].
 * The kernel therefore never materialises h:
 *   phase 1  every core sums a slice of weight's columns over all J rows
 *            (core 0 also sums bias); results go to the user workspace;
 *   SyncAll;
 *   phase 2  every core takes a slice of the batch and computes one K-long
 *            dot product per row, then applies the size-1 reductions.
 * Work drops from O(B*J*K) to O(J*K + B*K).
 */
#include "kernel_operator.h"

using namespace AscendC;

class LinearOutputSumKernel {
public:
    __aicore__ inline LinearOutputSumKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR ws,
                                const LinearOutputSumTilingData &td)
    {
        td_ = td;
        core_ = GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(td.batch) * td.inFeatures);
        wGm_.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(td.outFeatures) * td.inFeatures);
        bGm_.SetGlobalBuffer((__gm__ float *)bias, td.outFeatures);
        yGm_.SetGlobalBuffer((__gm__ float *)y, td.batch);
        sumGm_.SetGlobalBuffer((__gm__ float *)ws, td.inAlign + 8);
    }

    __aicore__ inline void Process()
    {
        ColumnSums();
        if (core_ == 0) {
            BiasTotal();
        }
        SyncAll<true>();
        pipe_.Reset();
        RowDots();
    }

private:
    template <HardEvent E>
    __aicore__ inline void Fence()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    __aicore__ inline uint32_t Up8(uint32_t v) const { return (v + 7U) & ~7U; }

    __aicore__ inline void CopyZeroPadded(const LocalTensor<float> &dst, const GlobalTensor<float> &src,
                                          uint16_t rows, uint32_t cols, uint32_t gmRowGap)
    {
        DataCopyExtParams p{rows, static_cast<uint32_t>(cols * sizeof(float)),
                            static_cast<uint32_t>(gmRowGap * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(Up8(cols) - cols), 0.0f};
        DataCopyPad(dst, src, p, pad);
    }

    // ---------------- phase 1 ----------------
    __aicore__ inline void ColumnSums()
    {
        const uint32_t in = td_.inFeatures;
        const uint32_t out = td_.outFeatures;
        uint32_t c0 = core_ * td_.colsPerCore;
        if (c0 >= in) {
            return;
        }
        uint32_t c1 = c0 + td_.colsPerCore;
        c1 = c1 > in ? in : c1;

        pipe_.InitBuffer(blkQ_, 2, td_.rowBlock * td_.colChunk * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, td_.colChunk * sizeof(float));
        pipe_.InitBuffer(accBuf_, td_.colChunk * sizeof(float));
        LocalTensor<float> acc = accBuf_.Get<float>();

        for (uint32_t cs = c0; cs < c1; cs += td_.colChunk) {
            uint32_t cl = (c1 - cs) < td_.colChunk ? (c1 - cs) : td_.colChunk;
            uint32_t cla = Up8(cl);
            Duplicate(acc, 0.0f, cla);
            for (uint32_t r0 = 0; r0 < out; r0 += td_.rowBlock) {
                uint32_t rb = (out - r0) < td_.rowBlock ? (out - r0) : td_.rowBlock;
                LocalTensor<float> blk = blkQ_.AllocTensor<float>();
                CopyZeroPadded(blk, wGm_[static_cast<uint64_t>(r0) * in + cs], static_cast<uint16_t>(rb), cl,
                               in - cl);
                blkQ_.EnQue(blk);
                LocalTensor<float> rows = blkQ_.DeQue<float>();
                for (uint32_t i = 0; i < rb; ++i) {
                    Add(acc, acc, rows[i * cla], cla);
                }
                blkQ_.FreeTensor(rows);
            }
            LocalTensor<float> o = outQ_.AllocTensor<float>();
            Adds(o, acc, 0.0f, cla);
            outQ_.EnQue(o);
            LocalTensor<float> od = outQ_.DeQue<float>();
            DataCopyExtParams p{1, static_cast<uint32_t>(cl * sizeof(float)), 0, 0, 0};
            DataCopyPad(sumGm_[cs], od, p);
            outQ_.FreeTensor(od);
        }
        pipe_.Reset();
    }

    __aicore__ inline void BiasTotal()
    {
        const uint32_t out = td_.outFeatures;
        const uint32_t chunk = td_.biasChunk;
        pipe_.InitBuffer(accBuf_, chunk * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, chunk * sizeof(float));
        pipe_.InitBuffer(scrBuf_, chunk * sizeof(float));
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        LocalTensor<float> scr = scrBuf_.Get<float>();
        Duplicate(acc, 0.0f, chunk);
        for (uint32_t s = 0; s < out; s += chunk) {
            uint32_t len = (out - s) < chunk ? (out - s) : chunk;
            Fence<HardEvent::V_MTE2>();
            CopyZeroPadded(tmp, bGm_[s], 1, len, 0);
            Fence<HardEvent::MTE2_V>();
            Add(acc, acc, tmp, Up8(len));
        }
        ReduceSum(tmp, acc, scr, static_cast<int32_t>(chunk));
        Fence<HardEvent::V_MTE3>();
        DataCopyExtParams p{1, sizeof(float), 0, 0, 0};
        DataCopyPad(sumGm_[td_.inAlign], tmp, p);
        Fence<HardEvent::MTE3_V>();
        pipe_.Reset();
    }

    // ---------------- phase 2 ----------------
    __aicore__ inline void RowDots()
    {
        uint32_t rows = td_.rowsPerCore + (core_ < td_.rowsTail ? 1U : 0U);
        if (rows == 0) {
            return;
        }
        uint32_t row0 = core_ * td_.rowsPerCore + (core_ < td_.rowsTail ? core_ : td_.rowsTail);
        const uint32_t in = td_.inFeatures;
        const uint32_t kc = td_.kChunk;
        const bool wsumResident = td_.inAlign <= kc;

        pipe_.InitBuffer(xQ_, 2, kc * sizeof(float));
        pipe_.InitBuffer(wsBuf_, kc * sizeof(float));
        pipe_.InitBuffer(accBuf_, kc * sizeof(float));
        pipe_.InitBuffer(scrBuf_, kc * sizeof(float));
        pipe_.InitBuffer(resBuf_, td_.resultCap * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, td_.resultCap * sizeof(float));
        pipe_.InitBuffer(redBuf_, 8 * sizeof(float));
        LocalTensor<float> wsum = wsBuf_.Get<float>();
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> scr = scrBuf_.Get<float>();
        LocalTensor<float> res = resBuf_.Get<float>();
        LocalTensor<float> red = redBuf_.Get<float>();

        // bias total
        CopyZeroPadded(red, sumGm_[td_.inAlign], 1, 1, 0);
        Fence<HardEvent::MTE2_S>();
        float biasTotal = red.GetValue(0);
        if (wsumResident) {
            CopyZeroPadded(wsum, sumGm_, 1, in, 0);
            Fence<HardEvent::MTE2_V>();
        }
        Duplicate(res, 0.0f, td_.resultCap);

        for (uint32_t r = 0; r < rows; ++r) {
            uint64_t base = static_cast<uint64_t>(row0 + r) * in;
            Duplicate(acc, 0.0f, kc);
            for (uint32_t k0 = 0; k0 < in; k0 += kc) {
                uint32_t len = (in - k0) < kc ? (in - k0) : kc;
                uint32_t la = Up8(len);
                LocalTensor<float> xl = xQ_.AllocTensor<float>();
                CopyZeroPadded(xl, xGm_[base + k0], 1, len, 0);
                xQ_.EnQue(xl);
                if (!wsumResident) {
                    Fence<HardEvent::V_MTE2>();
                    CopyZeroPadded(wsum, sumGm_[k0], 1, len, 0);
                    Fence<HardEvent::MTE2_V>();
                }
                LocalTensor<float> xv = xQ_.DeQue<float>();
                Mul(scr, xv, wsum, la);
                Add(acc, acc, scr, la);
                xQ_.FreeTensor(xv);
            }
            ReduceSum(red, acc, scr, static_cast<int32_t>(kc));
            Fence<HardEvent::V_S>();
            res.SetValue(r, red.GetValue(0) + biasTotal);
            Fence<HardEvent::S_V>();
        }

        SizeOneReductions(res, td_.resultCap);

        Fence<HardEvent::V_MTE3>();
        DataCopyExtParams p{1, static_cast<uint32_t>(rows * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[row0], res, p);
    }

    // max / mean / logsumexp / logsumexp over an axis of length 1, evaluated
    // literally so that inf / nan propagate exactly like the reference.
    __aicore__ inline void SizeOneReductions(const LocalTensor<float> &v, uint32_t n)
    {
        LocalTensor<float> t = tmpBuf_.Get<float>();
        // max over one element: identity; mean over one element: divide by 1
        Muls(v, v, 1.0f, n);
        for (int pass = 0; pass < 2; ++pass) {
            // lse = m + log(exp(v - m)) with m = max = v
            Sub(t, v, v, n);
            Exp(t, t, n);
            Ln(t, t, n);
            Add(v, v, t, n);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> blkQ_;
    TQue<QuePosition::VECIN, 2> xQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<TPosition::VECCALC> accBuf_, tmpBuf_, scrBuf_, wsBuf_, resBuf_, redBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_, sumGm_;
    LinearOutputSumTilingData td_;
    uint32_t core_ = 0;
};

extern "C" __global__ __aicore__ void linear_output_sum(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    LinearOutputSumKernel op;
    op.Init(x, weight, bias, y, usr, td);
    op.Process();
}
