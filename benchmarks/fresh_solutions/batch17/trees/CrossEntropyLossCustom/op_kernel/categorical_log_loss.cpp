/*
 * CategoricalLogLoss kernel.
 *
 * loss_i = logsumexp(logits[i, :]) - logits[i, label_i]
 *        = max_i + ln(sum_j exp(logits[i, j] - max_i)) - logits[i, label_i]
 *
 * Rows are split evenly across AIV cores. Each core streams its rows through UB in
 * chunks (two passes per row when the row does not fit: max, then sum of exp), keeps
 * a scalar accumulator of (max - target logit) and batches the per-row exp-sums so
 * that one vector Ln covers many rows. Per-core partials land in the workspace and
 * core 0 finishes the reduction after a cross-core barrier.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t PARTIAL_STRIDE = 8;
constexpr float NEG_LARGE = -3.402823466e+38f;
}

template <typename T, typename LabelT, bool ROW_RESIDENT>
class CategoricalLogLossKernel {
public:
    __aicore__ inline CategoricalLogLossKernel() {}

    __aicore__ inline void Init(GM_ADDR logits, GM_ADDR labels, GM_ADDR loss, GM_ADDR usrWs,
                                const CategoricalLogLossTilingData &td)
    {
        rows_ = td.batchRows;
        classes_ = td.classNum;
        chunkLen_ = td.chunkLen;
        chunkNum_ = td.chunkNum;
        lnBatch_ = td.lnBatch;
        ignoreIndex_ = td.ignoreIndex;
        reduceMode_ = td.reduceMode;
        usedCores_ = td.usedCores;

        blockIdx_ = GetBlockIdx();
        rowBegin_ = blockIdx_ * td.rowsPerCore;
        rowCount_ = 0;
        if (rowBegin_ < rows_) {
            uint32_t left = rows_ - rowBegin_;
            rowCount_ = left < td.rowsPerCore ? left : td.rowsPerCore;
        }

        logitGm_.SetGlobalBuffer((__gm__ T *)logits, static_cast<uint64_t>(rows_) * classes_);
        labelGm_.SetGlobalBuffer((__gm__ LabelT *)labels, rows_);
        lossGm_.SetGlobalBuffer((__gm__ T *)loss, 1);
        partialGm_.SetGlobalBuffer((__gm__ float *)usrWs, usedCores_ * PARTIAL_STRIDE);

        pipe_.InitBuffer(inQue_, BUFFER_NUM, chunkLen_ * sizeof(T));
        pipe_.InitBuffer(rowBuf_, chunkLen_ * sizeof(float));
        pipe_.InitBuffer(expBuf_, chunkLen_ * sizeof(float));
        // reduce scratch: two floats per 64-element repeat plus slack for the second level
        pipe_.InitBuffer(redBuf_, ((chunkLen_ / 64) * 2 + 64) * sizeof(float));
        pipe_.InitBuffer(oneBuf_, 8 * sizeof(float));
        pipe_.InitBuffer(sumBatchBuf_, ((lnBatch_ + 7) / 8 * 8) * sizeof(float));
        // core 0 also uses this to read everyone's partials back
        pipe_.InitBuffer(partBuf_, usedCores_ * PARTIAL_STRIDE * sizeof(float) + 32);
        pipe_.InitBuffer(outBuf_, 32);
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> row = rowBuf_.Get<float>();
        LocalTensor<float> sums = sumBatchBuf_.Get<float>();
        lossAcc_ = 0.0f;
        validCnt_ = 0.0f;
        batchFill_ = 0;

        for (uint32_t r = 0; r < rowCount_; ++r) {
            uint64_t gRow = rowBegin_ + r;
            int64_t target = static_cast<int64_t>(labelGm_.GetValue(gRow));
            if (target == ignoreIndex_ || target < 0 || target >= static_cast<int64_t>(classes_)) {
                continue;
            }
            float rowMax = RowMax(gRow, row);
            float expSum = RowExpSum(gRow, row, rowMax);

            sums.SetValue(batchFill_, expSum);
            ++batchFill_;
            lossAcc_ += rowMax - LogitAt(gRow, static_cast<uint64_t>(target));
            validCnt_ += 1.0f;
            if (batchFill_ == lnBatch_) {
                FlushLogBatch(sums);
            }
        }
        FlushLogBatch(sums);
        PublishPartial();

        // every core has written its pair; core 0 folds them into the scalar loss
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        if (blockIdx_ == 0) {
            Finalize();
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

    __aicore__ inline float LogitAt(uint64_t gRow, uint64_t col)
    {
        T v = logitGm_.GetValue(gRow * classes_ + col);
        return static_cast<float>(v);
    }

    // bring logits[gRow, c*chunkLen : c*chunkLen+len] into `dst` as fp32
    __aicore__ inline void LoadChunk(uint64_t gRow, uint32_t c, uint32_t len, LocalTensor<float> &dst)
    {
        LocalTensor<T> src = inQue_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(src, logitGm_[gRow * classes_ + static_cast<uint64_t>(c) * chunkLen_], cp, pad);
        inQue_.EnQue(src);
        src = inQue_.DeQue<T>();
        if constexpr (std::is_same<T, float>::value) {
            uint32_t aligned = (len + 7) / 8 * 8;
            DataCopy(dst, src, aligned);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, len);
        }
        inQue_.FreeTensor(src);
    }

    __aicore__ inline uint32_t ChunkLen(uint32_t c)
    {
        uint32_t start = c * chunkLen_;
        uint32_t left = classes_ - start;
        return left < chunkLen_ ? left : chunkLen_;
    }

    __aicore__ inline float RowMax(uint64_t gRow, LocalTensor<float> &row)
    {
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> one = oneBuf_.Get<float>();
        float best = NEG_LARGE;
        for (uint32_t c = 0; c < chunkNum_; ++c) {
            uint32_t len = ChunkLen(c);
            LoadChunk(gRow, c, len, row);
            ReduceMax<float>(one, row, red, len, false);
            Fence<HardEvent::V_S>();
            float m = one.GetValue(0);
            best = m > best ? m : best;
        }
        return best;
    }

    __aicore__ inline float RowExpSum(uint64_t gRow, LocalTensor<float> &row, float rowMax)
    {
        LocalTensor<float> ex = expBuf_.Get<float>();
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> one = oneBuf_.Get<float>();
        float total = 0.0f;
        for (uint32_t c = 0; c < chunkNum_; ++c) {
            uint32_t len = ChunkLen(c);
            if constexpr (!ROW_RESIDENT) {
                LoadChunk(gRow, c, len, row);
            }
            Adds(ex, row, -rowMax, len);
            Exp(ex, ex, len);
            ReduceSum<float>(one, ex, red, len);
            Fence<HardEvent::V_S>();
            total += one.GetValue(0);
        }
        return total;
    }

    // lossAcc += sum(ln(s_k)) over the gathered row sums
    __aicore__ inline void FlushLogBatch(LocalTensor<float> &sums)
    {
        if (batchFill_ == 0) {
            return;
        }
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> one = oneBuf_.Get<float>();
        Fence<HardEvent::S_V>();
        Ln(sums, sums, batchFill_);
        ReduceSum<float>(one, sums, red, batchFill_);
        Fence<HardEvent::V_S>();
        lossAcc_ += one.GetValue(0);
        batchFill_ = 0;
    }

    __aicore__ inline void PublishPartial()
    {
        LocalTensor<float> part = partBuf_.Get<float>();
        Duplicate(part, 0.0f, PARTIAL_STRIDE);
        Fence<HardEvent::V_S>();
        part.SetValue(0, lossAcc_);
        part.SetValue(1, validCnt_);
        Fence<HardEvent::S_MTE3>();
        DataCopy(partialGm_[blockIdx_ * PARTIAL_STRIDE], part, PARTIAL_STRIDE);
    }

    __aicore__ inline void Finalize()
    {
        LocalTensor<float> part = partBuf_.Get<float>();
        DataCopy(part, partialGm_, usedCores_ * PARTIAL_STRIDE);
        Fence<HardEvent::MTE2_S>();
        float total = 0.0f;
        float count = 0.0f;
        for (uint32_t i = 0; i < usedCores_; ++i) {
            total += part.GetValue(i * PARTIAL_STRIDE);
            count += part.GetValue(i * PARTIAL_STRIDE + 1);
        }
        // mean over non-ignored samples (0/0 -> nan, same as the framework)
        float result = (reduceMode_ == 1) ? total / count : total;

        LocalTensor<T> out = outBuf_.Get<T>();
        out.SetValue(0, static_cast<T>(result));
        Fence<HardEvent::S_MTE3>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        DataCopyPad(lossGm_, out, cp);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue_;
    TBuf<TPosition::VECCALC> rowBuf_, expBuf_, redBuf_, oneBuf_, sumBatchBuf_, partBuf_, outBuf_;

    GlobalTensor<T> logitGm_;
    GlobalTensor<LabelT> labelGm_;
    GlobalTensor<T> lossGm_;
    GlobalTensor<float> partialGm_;

    uint32_t rows_ = 0, classes_ = 0, chunkLen_ = 0, chunkNum_ = 0, lnBatch_ = 0;
    uint32_t usedCores_ = 0, reduceMode_ = 1, blockIdx_ = 0;
    uint32_t rowBegin_ = 0, rowCount_ = 0, batchFill_ = 0;
    int64_t ignoreIndex_ = -100;
    float lossAcc_ = 0.0f, validCnt_ = 0.0f;
};

extern "C" __global__ __aicore__ void categorical_log_loss(GM_ADDR logits, GM_ADDR labels, GM_ADDR loss,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(1)) {
        CategoricalLogLossKernel<DTYPE_LOGITS, DTYPE_LABELS, true> op;
        op.Init(logits, labels, loss, usrWs, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        CategoricalLogLossKernel<DTYPE_LOGITS, DTYPE_LABELS, false> op;
        op.Init(logits, labels, loss, usrWs, td);
        op.Process();
    }
}
