#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
constexpr float NEG_INF = -3.402823466e+38f;
}

/*
 * log_softmax along the last dimension for rows that are far larger than UB
 * (e.g. 393216 floats = 1.5 MB). Every row is streamed three times:
 *   pass 1: element-wise running max over chunks, then one ReduceMax  -> m
 *   pass 2: running sum of exp(x - m), then one ReduceSum              -> s
 *   pass 3: y = x - (m + ln s)
 */
class RowLogProbKernel {
public:
    __aicore__ inline RowLogProbKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RowLogProbTilingData &td)
    {
        cols_ = td.cols;
        chunk_ = td.chunk;
        uint32_t idx = GetBlockIdx();
        uint32_t firstRow;
        if (idx < td.bigCoreNum) {
            myRows_ = td.rowsPerCore + 1;
            firstRow = idx * myRows_;
        } else {
            myRows_ = td.rowsPerCore;
            firstRow = td.bigCoreNum * (td.rowsPerCore + 1) + (idx - td.bigCoreNum) * td.rowsPerCore;
        }
        uint64_t base = static_cast<uint64_t>(firstRow) * cols_;
        xGm_.SetGlobalBuffer((__gm__ float *)x + base, static_cast<uint64_t>(myRows_) * cols_);
        yGm_.SetGlobalBuffer((__gm__ float *)y + base, static_cast<uint64_t>(myRows_) * cols_);

        pipe_.InitBuffer(inQ_, DEPTH, chunk_ * sizeof(float));
        pipe_.InitBuffer(outQ_, DEPTH, chunk_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, chunk_ * sizeof(float));
        pipe_.InitBuffer(workBuf_, td.reduceWork * sizeof(float));
        pipe_.InitBuffer(scalarBuf_, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows_; ++r) {
            uint64_t rowOff = static_cast<uint64_t>(r) * cols_;
            float rowMax = RowMax(rowOff);
            float logSum = RowLogSumExp(rowOff, rowMax);
            WriteRow(rowOff, -(rowMax + logSum));
        }
    }

private:
    __aicore__ inline uint32_t ChunkLen(uint32_t c) const
    {
        uint32_t left = cols_ - c;
        return left < chunk_ ? left : chunk_;
    }

    __aicore__ inline void Fetch(uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = inQ_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, xGm_[off], cp, pad);
        inQ_.EnQue(t);
    }

    // wait for the vector pipe, then read element 0 on the scalar unit
    __aicore__ inline float ReadScalar(const LocalTensor<float> &t)
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return t.GetValue(0);
    }

    __aicore__ inline float RowMax(uint64_t rowOff)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        Duplicate(acc, NEG_INF, chunk_);
        for (uint32_t c = 0; c < cols_; c += chunk_) {
            uint32_t len = ChunkLen(c);
            Fetch(rowOff + c, len);
            LocalTensor<float> xt = inQ_.DeQue<float>();
            Max(acc, acc, xt, len);
            inQ_.FreeTensor(xt);
        }
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> s = scalarBuf_.Get<float>();
        ReduceMax<float>(s, acc, work, chunk_, false);
        return ReadScalar(s);
    }

    __aicore__ inline float RowLogSumExp(uint64_t rowOff, float rowMax)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        Duplicate(acc, 0.0f, chunk_);
        for (uint32_t c = 0; c < cols_; c += chunk_) {
            uint32_t len = ChunkLen(c);
            Fetch(rowOff + c, len);
            LocalTensor<float> xt = inQ_.DeQue<float>();
            Adds(xt, xt, -rowMax, len);
            Exp(xt, xt, len);
            Add(acc, acc, xt, len);
            inQ_.FreeTensor(xt);
        }
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> s = scalarBuf_.Get<float>();
        ReduceSum<float>(s, acc, work, chunk_);
        // ln(sum) on the vector unit (only lane 0 matters)
        Ln(s, s, 1);
        return ReadScalar(s);
    }

    __aicore__ inline void WriteRow(uint64_t rowOff, float shift)
    {
        for (uint32_t c = 0; c < cols_; c += chunk_) {
            uint32_t len = ChunkLen(c);
            Fetch(rowOff + c, len);
            LocalTensor<float> xt = inQ_.DeQue<float>();
            LocalTensor<float> yt = outQ_.AllocTensor<float>();
            Adds(yt, xt, shift, len);
            outQ_.EnQue(yt);
            inQ_.FreeTensor(xt);

            yt = outQ_.DeQue<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm_[rowOff + c], yt, cp);
            outQ_.FreeTensor(yt);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, DEPTH> inQ_;
    TQue<QuePosition::VECOUT, DEPTH> outQ_;
    TBuf<QuePosition::VECCALC> accBuf_, workBuf_, scalarBuf_;
    GlobalTensor<float> xGm_, yGm_;
    uint32_t cols_ = 0;
    uint32_t chunk_ = 0;
    uint32_t myRows_ = 0;
};

extern "C" __global__ __aicore__ void row_log_prob_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    RowLogProbKernel op;
    op.Init(x, y, td);
    op.Process();
}
