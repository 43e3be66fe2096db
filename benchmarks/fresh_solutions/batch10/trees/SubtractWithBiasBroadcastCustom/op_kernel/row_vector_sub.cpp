/**
 * RowVectorSub kernel: y[r, :] = x[r, :] - bias[:]
 *
 * Each core owns a contiguous band of rows. The column axis is cut into
 * colTile chunks; for each chunk the matching slice of bias is loaded once
 * and then reused for every row block of the band.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;

template <typename T>
class RowVectorSubKernel {
public:
    __aicore__ inline RowVectorSubKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const RowVectorSubTilingData &td)
    {
        cols_ = td.cols;
        colTile_ = td.colTile;
        rowTile_ = td.rowTile;

        uint32_t blk = GetBlockIdx();
        // the first bigCoreNum cores take one extra row
        if (blk < td.bigCoreNum) {
            myRows_ = td.rowsPerCore + 1;
            rowStart_ = blk * myRows_;
        } else {
            myRows_ = td.rowsPerCore;
            rowStart_ = td.bigCoreNum * (td.rowsPerCore + 1) + (blk - td.bigCoreNum) * td.rowsPerCore;
        }

        xGm_.SetGlobalBuffer((__gm__ T *)x + (uint64_t)rowStart_ * cols_, (uint64_t)myRows_ * cols_);
        yGm_.SetGlobalBuffer((__gm__ T *)y + (uint64_t)rowStart_ * cols_, (uint64_t)myRows_ * cols_);
        bGm_.SetGlobalBuffer((__gm__ T *)bias, cols_);

        pipe_.InitBuffer(xQ_, DEPTH, rowTile_ * colTile_ * sizeof(T));
        pipe_.InitBuffer(yQ_, DEPTH, rowTile_ * colTile_ * sizeof(T));
        pipe_.InitBuffer(bQ_, 1, colTile_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (myRows_ == 0) {
            return;
        }
        for (uint32_t c0 = 0; c0 < cols_; c0 += colTile_) {
            uint32_t cw = (cols_ - c0) < colTile_ ? (cols_ - c0) : colTile_;
            LoadBias(c0, cw);
            LocalTensor<T> bLocal = bQ_.DeQue<T>();
            for (uint32_t r0 = 0; r0 < myRows_; r0 += rowTile_) {
                uint32_t rh = (myRows_ - r0) < rowTile_ ? (myRows_ - r0) : rowTile_;
                CopyIn(r0, rh, c0, cw);
                Compute(bLocal, rh);
                CopyOut(r0, rh, c0, cw);
            }
            bQ_.FreeTensor(bLocal);
        }
    }

private:
    __aicore__ inline void LoadBias(uint32_t c0, uint32_t cw)
    {
        LocalTensor<T> b = bQ_.AllocTensor<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(cw * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(b, bGm_[c0], p, pad);
        bQ_.EnQue(b);
    }

    __aicore__ inline void CopyIn(uint32_t r0, uint32_t rh, uint32_t c0, uint32_t cw)
    {
        LocalTensor<T> xl = xQ_.AllocTensor<T>();
        // rh rows of cw elements, GM rows are `cols_` apart, UB rows are colTile_ apart
        uint32_t padElems = colTile_ - ((cw * sizeof(T) + 31) / 32 * 32) / sizeof(T);
        DataCopyExtParams p{static_cast<uint16_t>(rh), static_cast<uint32_t>(cw * sizeof(T)),
                            static_cast<uint32_t>((cols_ - cw) * sizeof(T)),
                            static_cast<uint32_t>(padElems * sizeof(T) / 32), 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm_[(uint64_t)r0 * cols_ + c0], p, pad);
        xQ_.EnQue(xl);
    }

    __aicore__ inline void Compute(LocalTensor<T> &bLocal, uint32_t rh)
    {
        LocalTensor<T> xl = xQ_.DeQue<T>();
        LocalTensor<T> yl = yQ_.AllocTensor<T>();
        // rows in UB are colTile_ apart and colTile_ is 32B aligned, so every
        // row slice starts on an aligned address
        for (uint32_t r = 0; r < rh; ++r) {
            Sub(yl[r * colTile_], xl[r * colTile_], bLocal, colTile_);
        }
        yQ_.EnQue(yl);
        xQ_.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t rh, uint32_t c0, uint32_t cw)
    {
        LocalTensor<T> yl = yQ_.DeQue<T>();
        uint32_t padElems = colTile_ - ((cw * sizeof(T) + 31) / 32 * 32) / sizeof(T);
        DataCopyExtParams p{static_cast<uint16_t>(rh), static_cast<uint32_t>(cw * sizeof(T)),
                            static_cast<uint32_t>(padElems * sizeof(T) / 32),
                            static_cast<uint32_t>((cols_ - cw) * sizeof(T)), 0};
        DataCopyPad(yGm_[(uint64_t)r0 * cols_ + c0], yl, p);
        yQ_.FreeTensor(yl);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, DEPTH> xQ_;
    TQue<QuePosition::VECIN, 1> bQ_;
    TQue<QuePosition::VECOUT, DEPTH> yQ_;
    GlobalTensor<T> xGm_, bGm_, yGm_;
    uint32_t cols_ = 0, colTile_ = 0, rowTile_ = 0;
    uint32_t myRows_ = 0, rowStart_ = 0;
};

extern "C" __global__ __aicore__ void row_vector_sub(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RowVectorSubKernel<float> op;
        op.Init(x, bias, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        RowVectorSubKernel<half> op;
        op.Init(x, bias, y, td);
        op.Process();
    }
}
