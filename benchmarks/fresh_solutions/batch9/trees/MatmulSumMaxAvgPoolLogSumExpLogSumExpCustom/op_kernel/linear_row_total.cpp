/**
 * @file linear_row_total.cpp
 *
 * y[m, 0] = sum_n ( sum_k x[m,k] * W[n,k] + b[n] )
 *         = x[m,:] . colsum(W) + sum(b)
 *
 * Reducing the weight first turns the M x N x K product into one pass over W
 * plus an M x K dot-product pass, so no cube unit is needed.
 * Reductions over singleton axes (max / mean / logsumexp of one element) are
 * the identity and therefore folded away.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
constexpr uint32_t OUT_CHUNK = 256; // rows buffered in UB before one store
} // namespace

class LinearRowTotalKernel {
public:
    __aicore__ inline LinearRowTotalKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR usrWs,
                                const LinearRowTotalTilingData &td)
    {
        m_ = td.batch;
        k_ = td.inFeatures;
        n_ = td.outFeatures;
        colsPerCore_ = td.colsPerCore;
        rowsPerCore_ = td.rowsPerCore;
        tileK_ = td.tileK;
        biasTile_ = td.biasTile;
        biasSlot_ = td.wsOffsetBias;

        xGm_.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(m_) * k_);
        wGm_.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(n_) * k_);
        bGm_.SetGlobalBuffer((__gm__ float *)b, n_);
        yGm_.SetGlobalBuffer((__gm__ float *)y, m_);
        vGm_.SetGlobalBuffer((__gm__ float *)usrWs, biasSlot_ + 8);

        uint32_t tileBytes = (tileK_ > biasTile_ ? tileK_ : biasTile_) * sizeof(float);
        pipe_.InitBuffer(inQ_, DEPTH, tileBytes);
        pipe_.InitBuffer(vecQ_, DEPTH, tileBytes);
        pipe_.InitBuffer(outQ_, 1, tileBytes);
        pipe_.InitBuffer(accBuf_, tileBytes);
        pipe_.InitBuffer(workBuf_, tileBytes);
        pipe_.InitBuffer(scalarBuf_, 64);
        pipe_.InitBuffer(rowOutBuf_, OUT_CHUNK * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        ReduceWeightColumns();
        if (GetBlockIdx() == 0) {
            ReduceBias();
        }
        SyncAll();
        RowDots();
    }

private:
    // ---------------- stage 1 ----------------
    __aicore__ inline void ReduceWeightColumns()
    {
        uint32_t kBeg = GetBlockIdx() * colsPerCore_;
        if (kBeg >= k_) {
            return;
        }
        uint32_t kLen = (k_ - kBeg < colsPerCore_) ? (k_ - kBeg) : colsPerCore_;
        LocalTensor<float> acc = accBuf_.Get<float>();
        for (uint32_t off = 0; off < kLen; off += tileK_) {
            uint32_t len = (kLen - off < tileK_) ? (kLen - off) : tileK_;
            Duplicate(acc, 0.0f, len);
            for (uint32_t row = 0; row < n_; ++row) {
                LoadSlice(inQ_, wGm_, static_cast<uint64_t>(row) * k_ + kBeg + off, len);
                LocalTensor<float> wl = inQ_.DeQue<float>();
                Add(acc, acc, wl, len);
                inQ_.FreeTensor(wl);
            }
            LocalTensor<float> o = outQ_.AllocTensor<float>();
            DataCopy(o, acc, AlignUp8(len));
            outQ_.EnQue(o);
            o = outQ_.DeQue<float>();
            DataCopyPad(vGm_[kBeg + off], o, DataCopyExtParams(1, len * sizeof(float), 0, 0, 0));
            outQ_.FreeTensor(o);
        }
    }

    __aicore__ inline void ReduceBias()
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> red = scalarBuf_.Get<float>();
        float total = 0.0f;
        for (uint32_t off = 0; off < n_; off += biasTile_) {
            uint32_t len = (n_ - off < biasTile_) ? (n_ - off) : biasTile_;
            LoadSlice(inQ_, bGm_, off, len);
            LocalTensor<float> bl = inQ_.DeQue<float>();
            ReduceSum<float>(red, bl, work, len);
            inQ_.FreeTensor(bl);
            WaitVectorForScalar();
            total += red.GetValue(0);
        }
        LocalTensor<float> o = outQ_.AllocTensor<float>();
        o.SetValue(0, total);
        WaitScalarForStore();
        DataCopyPad(vGm_[biasSlot_], o, DataCopyExtParams(1, sizeof(float), 0, 0, 0));
        outQ_.FreeTensor(o);
        (void)acc;
    }

    // ---------------- stage 2 ----------------
    __aicore__ inline void RowDots()
    {
        uint32_t rBeg = GetBlockIdx() * rowsPerCore_;
        if (rBeg >= m_) {
            return;
        }
        uint32_t rEnd = rBeg + rowsPerCore_;
        if (rEnd > m_) {
            rEnd = m_;
        }
        float biasTotal = vGm_.GetValue(biasSlot_);
        bool singleTile = (k_ <= tileK_);
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> red = scalarBuf_.Get<float>();
        LocalTensor<float> rowOut = rowOutBuf_.Get<float>();

        // when K fits in one tile the reduced weight vector stays resident
        LocalTensor<float> vResident;
        if (singleTile) {
            LoadSlice(vecQ_, vGm_, 0, k_);
            vResident = vecQ_.DeQue<float>();
        }

        uint32_t filled = 0;
        uint32_t chunkStart = rBeg;
        for (uint32_t r = rBeg; r < rEnd; ++r) {
            Duplicate(acc, 0.0f, tileK_);
            for (uint32_t off = 0; off < k_; off += tileK_) {
                uint32_t len = (k_ - off < tileK_) ? (k_ - off) : tileK_;
                LoadSlice(inQ_, xGm_, static_cast<uint64_t>(r) * k_ + off, len);
                LocalTensor<float> xl = inQ_.DeQue<float>();
                LocalTensor<float> prod = work;
                if (singleTile) {
                    Mul(prod, xl, vResident, len);
                } else {
                    LoadSlice(vecQ_, vGm_, off, len);
                    LocalTensor<float> vl = vecQ_.DeQue<float>();
                    Mul(prod, xl, vl, len);
                    vecQ_.FreeTensor(vl);
                }
                Add(acc, acc, prod, len);
                inQ_.FreeTensor(xl);
            }
            ReduceSum<float>(red, acc, work, tileK_);
            WaitVectorForScalar();
            rowOut.SetValue(filled, red.GetValue(0) + biasTotal);
            ++filled;
            if (filled == OUT_CHUNK || r + 1 == rEnd) {
                WaitScalarForStore();
                DataCopyPad(yGm_[chunkStart], rowOut, DataCopyExtParams(1, filled * sizeof(float), 0, 0, 0));
                WaitStoreForScalar();
                chunkStart += filled;
                filled = 0;
            }
        }
        if (singleTile) {
            vecQ_.FreeTensor(vResident);
        }
    }

    // ---------------- helpers ----------------
    template <typename Q>
    __aicore__ inline void LoadSlice(Q &q, GlobalTensor<float> &src, uint64_t offset, uint32_t len)
    {
        LocalTensor<float> t = q.template AllocTensor<float>();
        DataCopyPad(t, src[offset], DataCopyExtParams(1, len * sizeof(float), 0, 0, 0),
                    DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        q.EnQue(t);
    }

    __aicore__ inline uint32_t AlignUp8(uint32_t v) { return (v + 7) / 8 * 8; }

    __aicore__ inline void WaitVectorForScalar()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }
    __aicore__ inline void WaitScalarForStore()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
    }
    __aicore__ inline void WaitStoreForScalar()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(ev);
        WaitFlag<HardEvent::MTE3_S>(ev);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, DEPTH> inQ_;
    TQue<QuePosition::VECIN, DEPTH> vecQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<TPosition::VECCALC> accBuf_, workBuf_, scalarBuf_, rowOutBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_, vGm_;
    uint32_t m_ = 0, k_ = 0, n_ = 0;
    uint32_t colsPerCore_ = 0, rowsPerCore_ = 0, tileK_ = 0, biasTile_ = 0, biasSlot_ = 0;
};

extern "C" __global__ __aicore__ void linear_row_total(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    LinearRowTotalKernel op;
    op.Init(x, weight, bias, y, usrWs, td);
    op.Process();
}
