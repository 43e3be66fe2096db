/*
 * row_running_product.cpp
 *
 * Running (prefix) product along the last axis of a 2-D float tensor:
 *   y[r, c] = x[r, 0] * x[r, 1] * ... * x[r, c]
 *
 * Rows are independent, so the work is split row-wise across AI cores. A row is
 * streamed through UB in tiles of `tileLen` elements; the product of everything
 * seen so far in the row is carried from one tile to the next as a scalar.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct RowRunningProductTiling {
    uint32_t rows;        // number of independent rows
    uint32_t cols;        // length of the scanned axis
    uint32_t rowsPerCore; // rows handled by every core except possibly the last
    uint32_t tileLen;     // elements per UB tile (multiple of 8)
    uint32_t tileNum;     // full tiles per row
    uint32_t tailLen;     // leftover elements in the last tile of a row (0 if none)
};

__aicore__ inline void LoadTiling(RowRunningProductTiling *dst, GM_ADDR src)
{
    auto gm = reinterpret_cast<__gm__ uint32_t *>(src);
    auto p = reinterpret_cast<uint32_t *>(dst);
    for (uint32_t i = 0; i < sizeof(RowRunningProductTiling) / sizeof(uint32_t); ++i) {
        p[i] = gm[i];
    }
}

class RowRunningProduct {
public:
    __aicore__ inline RowRunningProduct() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RowRunningProductTiling &t)
    {
        cols_ = t.cols;
        tileLen_ = t.tileLen;
        tileNum_ = t.tileNum;
        tailLen_ = t.tailLen;

        uint32_t first = GetBlockIdx() * t.rowsPerCore;
        if (first >= t.rows) {
            myRows_ = 0;
            return;
        }
        myRows_ = (first + t.rowsPerCore > t.rows) ? (t.rows - first) : t.rowsPerCore;

        uint64_t base = static_cast<uint64_t>(first) * cols_;
        xGm_.SetGlobalBuffer((__gm__ float *)x + base, static_cast<uint64_t>(myRows_) * cols_);
        yGm_.SetGlobalBuffer((__gm__ float *)y + base, static_cast<uint64_t>(myRows_) * cols_);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, tileLen_ * sizeof(float));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, tileLen_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows_; ++r) {
            uint64_t rowOff = static_cast<uint64_t>(r) * cols_;
            float carry = 1.0f;
            for (uint32_t t = 0; t < tileNum_; ++t) {
                uint64_t off = rowOff + static_cast<uint64_t>(t) * tileLen_;
                CopyIn(off, tileLen_);
                carry = Scan(tileLen_, carry);
                CopyOut(off, tileLen_);
            }
            if (tailLen_ > 0) {
                uint64_t off = rowOff + static_cast<uint64_t>(tileNum_) * tileLen_;
                CopyIn(off, tailLen_);
                carry = Scan(tailLen_, carry);
                CopyOut(off, tailLen_);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> xl = inQ_.AllocTensor<float>();
        // DataCopyPad copes with a tail that is not a whole 32-byte block
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm_[off], cp, pad);
        inQ_.EnQue(xl);
    }

    // Sequential scan of one tile. The dependency chain along the axis makes this
    // inherently serial inside a row; the carry links consecutive tiles.
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
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[off], yl, cp);
        outQ_.FreeTensor(yl);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    uint32_t cols_ = 0;
    uint32_t tileLen_ = 0;
    uint32_t tileNum_ = 0;
    uint32_t tailLen_ = 0;
    uint32_t myRows_ = 0;
};

extern "C" __global__ __aicore__ void row_running_product(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    RowRunningProductTiling t;
    LoadTiling(&t, tiling);
    RowRunningProduct op;
    op.Init(x, y, t);
    op.Process();
}
