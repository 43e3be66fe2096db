/*
 * SelectBroadcast: z = condition ? x : y with numpy broadcasting of all three operands.
 *
 * The output is processed as a 2-D view [rows, rowLen] where rowLen is the innermost
 * output extent. A tile is `rowsPerTile` rows x `colChunk` columns laid out in UB with a
 * 64-element pitch, so every row starts on an aligned address and Compare/Select can
 * run across the whole tile at once (padding lanes are computed but never stored).
 * Each operand is filled either
 *   - with one strided DMA (operand already has the full output shape),
 *   - row by row with a DMA (operand broadcast on outer dims only), or
 *   - row by row with Duplicate (operand broadcast along the innermost dim).
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class SelectBroadcastKernel {
public:
    __aicore__ inline SelectBroadcastKernel() {}

    __aicore__ inline void Init(GM_ADDR cond, GM_ADDR x, GM_ADDR y, GM_ADDR z, const SelectBroadcastTilingData& td)
    {
        rank_ = td.rank;
        for (uint32_t i = 0; i < 8; ++i) {
            dims_[i] = td.outDims[i];
            cStr_[i] = td.condStride[i];
            xStr_[i] = td.xStride[i];
            yStr_[i] = td.yStride[i];
        }
        cDense_ = td.condDense != 0;
        xDense_ = td.xDense != 0;
        yDense_ = td.yDense != 0;
        rowLen_ = td.rowLen;
        colChunk_ = td.colChunk;
        pitch_ = td.pitch;
        rowsPerTile_ = td.rowsPerTile;

        rowBeg_ = GetBlockIdx() * td.rowsPerCore;
        rowEnd_ = rowBeg_ + td.rowsPerCore;
        if (rowEnd_ > td.totalRows) rowEnd_ = td.totalRows;

        condGm_.SetGlobalBuffer((__gm__ uint8_t*)cond);
        xGm_.SetGlobalBuffer((__gm__ T*)x);
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        zGm_.SetGlobalBuffer((__gm__ T*)z);

        uint32_t tileElems = rowsPerTile_ * pitch_;
        pipe_.InitBuffer(condQ_, 2, tileElems * sizeof(uint8_t));
        pipe_.InitBuffer(xQ_, 2, tileElems * sizeof(T));
        pipe_.InitBuffer(yQ_, 2, tileElems * sizeof(T));
        pipe_.InitBuffer(zQ_, 2, tileElems * sizeof(T));
        pipe_.InitBuffer(condHalf_, tileElems * sizeof(half));
        pipe_.InitBuffer(mask_, tileElems / 8);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r0 = rowBeg_; r0 < rowEnd_; r0 += rowsPerTile_) {
            uint32_t rows = rowEnd_ - r0 < rowsPerTile_ ? rowEnd_ - r0 : rowsPerTile_;
            for (uint32_t c0 = 0; c0 < rowLen_; c0 += colChunk_) {
                uint32_t cols = rowLen_ - c0 < colChunk_ ? rowLen_ - c0 : colChunk_;
                CopyIn(r0, rows, c0, cols);
                Compute(r0, rows, c0, cols);
                CopyOut(r0, rows, c0, cols);
            }
        }
    }

private:
    __aicore__ inline uint64_t RowBase(uint32_t row, const uint32_t* str) const
    {
        uint64_t off = 0;
        for (int32_t d = static_cast<int32_t>(rank_) - 2; d >= 0; --d) {
            uint32_t idx = row % dims_[d];
            row /= dims_[d];
            off += static_cast<uint64_t>(idx) * str[d];
        }
        return off;
    }

    // DMA part of an operand fill; rows broadcast along the inner dim are left for Compute
    template <typename U>
    __aicore__ inline void Fetch(LocalTensor<U>& dst, GlobalTensor<U>& gm, const uint32_t* str, bool dense,
                                 uint32_t r0, uint32_t rows, uint32_t c0, uint32_t cols)
    {
        DataCopyPadExtParams<U> np{false, 0, 0, 0};
        const uint32_t rowBytes = cols * sizeof(U);
        const uint32_t padded = (rowBytes + 31) / 32 * 32;
        const uint32_t dstGap = (pitch_ * sizeof(U) - padded) / 32;
        if (dense) {
            DataCopyExtParams p{static_cast<uint16_t>(rows), rowBytes,
                                static_cast<uint32_t>((rowLen_ - cols) * sizeof(U)), dstGap, 0};
            DataCopyPad(dst, gm[static_cast<uint64_t>(r0) * rowLen_ + c0], p, np);
            return;
        }
        if (str[rank_ - 1] == 0) return;
        DataCopyExtParams p{1, rowBytes, 0, 0, 0};
        for (uint32_t r = 0; r < rows; ++r) {
            uint64_t off = RowBase(r0 + r, str) + static_cast<uint64_t>(c0) * str[rank_ - 1];
            DataCopyPad(dst[r * pitch_], gm[off], p, np);
        }
    }

    template <typename U>
    __aicore__ inline void Splat(LocalTensor<U>& dst, GlobalTensor<U>& gm, const uint32_t* str,
                                 uint32_t r0, uint32_t rows, uint32_t cols)
    {
        for (uint32_t r = 0; r < rows; ++r) {
            U v = gm.GetValue(RowBase(r0 + r, str));
            Duplicate(dst[r * pitch_], v, static_cast<int32_t>(cols));
        }
    }

    __aicore__ inline bool InnerBroadcast(bool dense, const uint32_t* str) const
    {
        return !dense && str[rank_ - 1] == 0;
    }

    __aicore__ inline void CopyIn(uint32_t r0, uint32_t rows, uint32_t c0, uint32_t cols)
    {
        LocalTensor<uint8_t> c = condQ_.AllocTensor<uint8_t>();
        LocalTensor<T> xl = xQ_.AllocTensor<T>();
        LocalTensor<T> yl = yQ_.AllocTensor<T>();
        Fetch(c, condGm_, cStr_, cDense_, r0, rows, c0, cols);
        Fetch(xl, xGm_, xStr_, xDense_, r0, rows, c0, cols);
        Fetch(yl, yGm_, yStr_, yDense_, r0, rows, c0, cols);
        condQ_.EnQue(c);
        xQ_.EnQue(xl);
        yQ_.EnQue(yl);
    }

    __aicore__ inline void Compute(uint32_t r0, uint32_t rows, uint32_t c0, uint32_t cols)
    {
        LocalTensor<uint8_t> c = condQ_.DeQue<uint8_t>();
        LocalTensor<T> xl = xQ_.DeQue<T>();
        LocalTensor<T> yl = yQ_.DeQue<T>();
        LocalTensor<T> zl = zQ_.AllocTensor<T>();
        LocalTensor<half> ch = condHalf_.Get<half>();
        LocalTensor<uint8_t> bits = mask_.Get<uint8_t>();
        const uint32_t total = rows * pitch_;

        if (InnerBroadcast(xDense_, xStr_)) Splat(xl, xGm_, xStr_, r0, rows, cols);
        if (InnerBroadcast(yDense_, yStr_)) Splat(yl, yGm_, yStr_, r0, rows, cols);

        if (InnerBroadcast(cDense_, cStr_)) {
            // one flag per row: widen it straight into the half view
            for (uint32_t r = 0; r < rows; ++r) {
                half v = condGm_.GetValue(RowBase(r0 + r, cStr_)) != 0 ? static_cast<half>(1.0f)
                                                                       : static_cast<half>(0.0f);
                Duplicate(ch[r * pitch_], v, static_cast<int32_t>(pitch_));
            }
        } else {
            Cast(ch, c, RoundMode::CAST_NONE, total);
        }

        CompareScalar(bits, ch, static_cast<half>(0.0f), CMPMODE::NE, total);
        Select(zl, bits, xl, yl, SELMODE::VSEL_TENSOR_TENSOR_MODE, total);

        zQ_.EnQue(zl);
        condQ_.FreeTensor(c);
        xQ_.FreeTensor(xl);
        yQ_.FreeTensor(yl);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t rows, uint32_t c0, uint32_t cols)
    {
        LocalTensor<T> zl = zQ_.DeQue<T>();
        const uint32_t rowBytes = cols * sizeof(T);
        const uint32_t padded = (rowBytes + 31) / 32 * 32;
        DataCopyExtParams p{static_cast<uint16_t>(rows), rowBytes, (pitch_ * sizeof(T) - padded) / 32,
                            static_cast<uint32_t>((rowLen_ - cols) * sizeof(T)), 0};
        DataCopyPad(zGm_[static_cast<uint64_t>(r0) * rowLen_ + c0], zl, p);
        zQ_.FreeTensor(zl);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> condQ_, xQ_, yQ_;
    TQue<QuePosition::VECOUT, 2> zQ_;
    TBuf<TPosition::VECCALC> condHalf_, mask_;
    GlobalTensor<uint8_t> condGm_;
    GlobalTensor<T> xGm_, yGm_, zGm_;

    uint32_t rank_;
    uint32_t dims_[8], cStr_[8], xStr_[8], yStr_[8];
    bool cDense_, xDense_, yDense_;
    uint32_t rowLen_, colChunk_, pitch_, rowsPerTile_;
    uint32_t rowBeg_, rowEnd_;
};

extern "C" __global__ __aicore__ void select_broadcast(GM_ADDR condition, GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SelectBroadcastKernel<DTYPE_X> op;
    op.Init(condition, x, y, z, td);
    op.Process();
}
