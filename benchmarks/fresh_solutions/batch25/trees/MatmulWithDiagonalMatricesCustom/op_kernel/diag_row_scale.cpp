// out[i, j] = diag[i] * matrix[i, j]
// i.e. the product of a diagonal matrix (given by its diagonal) with a dense matrix, computed
// without ever materialising the N x N diagonal matrix: one vector Muls per row segment.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class DiagRowScaleKernel {
public:
    __aicore__ inline DiagRowScaleKernel() {}

    __aicore__ inline void Init(GM_ADDR diag, GM_ADDR mat, GM_ADDR out, const DiagRowScaleTilingData &td)
    {
        cols = td.cols;
        colTile = td.colTile;
        packRows = td.rowsPerTile;
        uint32_t b = GetBlockIdx();
        myRows = td.rowsPerCore + (b < td.extraRows ? 1 : 0);
        firstRow = b * td.rowsPerCore + (b < td.extraRows ? b : td.extraRows);

        dGm.SetGlobalBuffer((__gm__ T *)diag + firstRow, myRows);
        mGm.SetGlobalBuffer((__gm__ T *)mat + static_cast<uint64_t>(firstRow) * cols);
        oGm.SetGlobalBuffer((__gm__ T *)out + static_cast<uint64_t>(firstRow) * cols);
        pipe.InitBuffer(qIn, 2, colTile * packRows * sizeof(T));
        pipe.InitBuffer(qOut, 2, colTile * packRows * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (packRows > 1) {
            // short rows: move several rows per DMA, each row padded to colTile in UB
            for (uint32_t r = 0; r < myRows; r += packRows) {
                uint32_t n = myRows - r < packRows ? myRows - r : packRows;
                LoadRows(r, n);
                ScaleRows(r, n);
                StoreRows(r, n);
            }
            return;
        }
        // long rows: walk each row in colTile pieces
        for (uint32_t r = 0; r < myRows; ++r) {
            T s = dGm.GetValue(r);
            uint64_t base = static_cast<uint64_t>(r) * cols;
            for (uint32_t c = 0; c < cols; c += colTile) {
                uint32_t len = cols - c < colTile ? cols - c : colTile;
                LoadSpan(base + c, len);
                ScaleSpan(s, len);
                StoreSpan(base + c, len);
            }
        }
    }

private:
    __aicore__ inline void LoadRows(uint32_t r, uint32_t n)
    {
        LocalTensor<T> t = qIn.AllocTensor<T>();
        uint32_t padElems = colTile - cols;
        DataCopyExtParams cp{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{padElems != 0, 0, static_cast<uint8_t>(padElems), static_cast<T>(0)};
        DataCopyPad(t, mGm[static_cast<uint64_t>(r) * cols], cp, pad);
        qIn.EnQue(t);
    }

    __aicore__ inline void ScaleRows(uint32_t r, uint32_t n)
    {
        LocalTensor<T> src = qIn.DeQue<T>();
        LocalTensor<T> dst = qOut.AllocTensor<T>();
        for (uint32_t i = 0; i < n; ++i) {
            T s = dGm.GetValue(r + i);
            Muls(dst[i * colTile], src[i * colTile], s, colTile);
        }
        qOut.EnQue(dst);
        qIn.FreeTensor(src);
    }

    __aicore__ inline void StoreRows(uint32_t r, uint32_t n)
    {
        LocalTensor<T> t = qOut.DeQue<T>();
        DataCopyExtParams cp{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        DataCopyPad(oGm[static_cast<uint64_t>(r) * cols], t, cp);
        qOut.FreeTensor(t);
    }

    __aicore__ inline void LoadSpan(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = qIn.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(t, mGm[off], cp, pad);
        qIn.EnQue(t);
    }

    __aicore__ inline void ScaleSpan(T s, uint32_t len)
    {
        LocalTensor<T> src = qIn.DeQue<T>();
        LocalTensor<T> dst = qOut.AllocTensor<T>();
        Muls(dst, src, s, len);
        qOut.EnQue(dst);
        qIn.FreeTensor(src);
    }

    __aicore__ inline void StoreSpan(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = qOut.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(oGm[off], t, cp);
        qOut.FreeTensor(t);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qIn;
    TQue<QuePosition::VECOUT, 2> qOut;
    GlobalTensor<T> dGm, mGm, oGm;
    uint32_t cols = 0, colTile = 0, packRows = 1, myRows = 0, firstRow = 0;
};

extern "C" __global__ __aicore__ void diag_row_scale(GM_ADDR diag, GM_ADDR matrix, GM_ADDR out,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DiagRowScaleKernel<DTYPE_MATRIX> op;
    op.Init(diag, matrix, out, td);
    op.Process();
}
