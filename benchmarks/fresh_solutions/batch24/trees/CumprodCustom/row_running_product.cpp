/*
 * row_running_product: inclusive running product along the last axis of a
 * 2-D float matrix.  y[r][c] = x[r][0] * x[r][1] * ... * x[r][c]
 *
 * Rows are independent, so each AI core owns a contiguous band of rows.
 * A row is streamed through UB in column chunks; the product of everything
 * seen so far in the row is carried across chunks in a scalar.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct RowRunningProductTiling {
    uint32_t rows;        // number of independent rows
    uint32_t cols;        // length of the scanned axis
    uint32_t rowsPerCore; // rows handled by cores [0, bigCores)
    uint32_t bigCores;    // number of cores that take one extra row
    uint32_t chunk;       // columns per UB chunk (multiple of 8)
};

class RowRunningProduct {
public:
    __aicore__ inline RowRunningProduct() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RowRunningProductTiling &t)
    {
        cols_ = t.cols;
        chunk_ = t.chunk;
        uint32_t blk = GetBlockIdx();
        // first `bigCores` cores take rowsPerCore + 1 rows, the rest rowsPerCore
        if (blk < t.bigCores) {
            rowCount_ = t.rowsPerCore + 1;
            rowStart_ = blk * rowCount_;
        } else {
            rowCount_ = t.rowsPerCore;
            rowStart_ = t.bigCores * (t.rowsPerCore + 1) + (blk - t.bigCores) * t.rowsPerCore;
        }
        xGm_.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.rows * t.cols);
        yGm_.SetGlobalBuffer((__gm__ float *)y, (uint64_t)t.rows * t.cols);
        pipe_.InitBuffer(inQ_, BUFFER_NUM, chunk_ * sizeof(float));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, chunk_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount_; ++r) {
            uint64_t rowBase = (uint64_t)(rowStart_ + r) * cols_;
            float carry = 1.0f;
            for (uint32_t c0 = 0; c0 < cols_; c0 += chunk_) {
                uint32_t len = (cols_ - c0 < chunk_) ? (cols_ - c0) : chunk_;
                CopyIn(rowBase + c0, len);
                carry = Scan(len, carry);
                CopyOut(rowBase + c0, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> xl = inQ_.AllocTensor<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm_[off], p, pad);
        inQ_.EnQue(xl);
    }

    // sequential dependency: every element needs its predecessor, so the scan
    // itself is scalar; the transfers around it are double-buffered.
    __aicore__ inline float Scan(uint32_t len, float carry)
    {
        LocalTensor<float> xl = inQ_.DeQue<float>();
        LocalTensor<float> yl = outQ_.AllocTensor<float>();
        float acc = carry;
        for (uint32_t i = 0; i < len; ++i) {
            acc = acc * xl.GetValue(i);
            yl.SetValue(i, acc);
        }
        outQ_.EnQue(yl);
        inQ_.FreeTensor(xl);
        return acc;
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<float> yl = outQ_.DeQue<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[off], yl, p);
        outQ_.FreeTensor(yl);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    GlobalTensor<float> xGm_, yGm_;
    uint32_t cols_ = 0, chunk_ = 0, rowStart_ = 0, rowCount_ = 0;
};

extern "C" __global__ __aicore__ void row_running_product(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    // tiling struct lives in GM; copy it field by field into registers
    RowRunningProductTiling t;
    __gm__ uint32_t *tp = reinterpret_cast<__gm__ uint32_t *>(tiling);
    t.rows = tp[0];
    t.cols = tp[1];
    t.rowsPerCore = tp[2];
    t.bigCores = tp[3];
    t.chunk = tp[4];

    RowRunningProduct op;
    op.Init(x, y, t);
    op.Process();
}
