/*
 * RowBiasSubtract: y[r, c] = x[r, c] - bias[c]
 *
 * Rows are split over the vector cores. Each core walks its rows column-tile by
 * column-tile; the bias slice for a column tile is loaded once and reused for all
 * rows of the core, so bias traffic is cols * ceil(cols/colTile) per core at most.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
}

template <typename T>
class RowBiasSubtractKernel {
public:
    __aicore__ inline RowBiasSubtractKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const RowBiasSubtractTilingData& td)
    {
        cols_ = td.cols;
        colTile_ = td.colTile;
        uint32_t idx = GetBlockIdx();
        uint32_t big = td.bigCoreNum;
        if (idx < big) {
            myRows_ = td.rowsPerCore + 1;
            rowStart_ = idx * myRows_;
        } else {
            myRows_ = td.rowsPerCore;
            rowStart_ = big * (td.rowsPerCore + 1) + (idx - big) * td.rowsPerCore;
        }

        xGm_.SetGlobalBuffer((__gm__ T*)x + (uint64_t)rowStart_ * cols_, (uint64_t)myRows_ * cols_);
        yGm_.SetGlobalBuffer((__gm__ T*)y + (uint64_t)rowStart_ * cols_, (uint64_t)myRows_ * cols_);
        bGm_.SetGlobalBuffer((__gm__ T*)bias, cols_);

        pipe_.InitBuffer(xQue_, DEPTH, colTile_ * sizeof(T));
        pipe_.InitBuffer(yQue_, DEPTH, colTile_ * sizeof(T));
        pipe_.InitBuffer(bQue_, 1, colTile_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (myRows_ == 0) {
            return;
        }
        for (uint32_t c0 = 0; c0 < cols_; c0 += colTile_) {
            uint32_t len = (cols_ - c0) < colTile_ ? (cols_ - c0) : colTile_;
            LoadBias(c0, len);
            LocalTensor<T> bLocal = bQue_.DeQue<T>();
            for (uint32_t r = 0; r < myRows_; ++r) {
                CopyIn(r, c0, len);
                Compute(bLocal, len);
                CopyOut(r, c0, len);
            }
            bQue_.FreeTensor(bLocal);
        }
    }

private:
    __aicore__ inline void LoadBias(uint32_t c0, uint32_t len)
    {
        LocalTensor<T> bLocal = bQue_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(bLocal, bGm_[c0], cp, pad);
        bQue_.EnQue(bLocal);
    }

    __aicore__ inline void CopyIn(uint32_t r, uint32_t c0, uint32_t len)
    {
        LocalTensor<T> xLocal = xQue_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm_[(uint64_t)r * cols_ + c0], cp, pad);
        xQue_.EnQue(xLocal);
    }

    __aicore__ inline void Compute(const LocalTensor<T>& bLocal, uint32_t len)
    {
        LocalTensor<T> xLocal = xQue_.DeQue<T>();
        LocalTensor<T> yLocal = yQue_.AllocTensor<T>();
        Sub(yLocal, xLocal, bLocal, len);
        yQue_.EnQue(yLocal);
        xQue_.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t c0, uint32_t len)
    {
        LocalTensor<T> yLocal = yQue_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[(uint64_t)r * cols_ + c0], yLocal, cp);
        yQue_.FreeTensor(yLocal);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, DEPTH> xQue_;
    TQue<QuePosition::VECIN, 1> bQue_;
    TQue<QuePosition::VECOUT, DEPTH> yQue_;
    GlobalTensor<T> xGm_, bGm_, yGm_;
    uint32_t cols_ = 0;
    uint32_t colTile_ = 0;
    uint32_t rowStart_ = 0;
    uint32_t myRows_ = 0;
};

extern "C" __global__ __aicore__ void row_bias_subtract(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        RowBiasSubtractKernel<half> op;
        op.Init(x, bias, y, td);
        op.Process();
    } else {
        RowBiasSubtractKernel<float> op;
        op.Init(x, bias, y, td);
        op.Process();
    }
}
