// SubtractTrailingBias: y[r, c] = x[r, c] - bias[c]
// Outer loop over column tiles so the bias tile is fetched once and reused for every row this
// core owns; rows are double-buffered through the in/out queues.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class SubtractTrailingBiasOp {
public:
    __aicore__ inline SubtractTrailingBiasOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const SubtractTrailingBiasTilingData &td)
    {
        cols = td.cols;
        colTile = td.colTile;
        uint32_t core = GetBlockIdx();
        rowStart = core * td.rowsPerCore + (core < td.rowsLeft ? core : td.rowsLeft);
        rowCount = td.rowsPerCore + (core < td.rowsLeft ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ T *)x);
        biasGm.SetGlobalBuffer((__gm__ T *)bias, cols);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(xQue, 2, colTile * sizeof(T));
        pipe.InitBuffer(yQue, 2, colTile * sizeof(T));
        pipe.InitBuffer(biasQue, 1, colTile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c0 = 0; c0 < cols; c0 += colTile) {
            uint32_t len = (cols - c0) < colTile ? (cols - c0) : colTile;
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};

            LocalTensor<T> b = biasQue.AllocTensor<T>();
            DataCopyPad(b, biasGm[c0], cp, DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
            biasQue.EnQue(b);
            b = biasQue.DeQue<T>();

            for (uint32_t r = 0; r < rowCount; ++r) {
                uint64_t off = static_cast<uint64_t>(rowStart + r) * cols + c0;
                // copy in
                LocalTensor<T> xin = xQue.AllocTensor<T>();
                DataCopyPad(xin, xGm[off], cp, DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
                xQue.EnQue(xin);
                // compute
                xin = xQue.DeQue<T>();
                LocalTensor<T> yout = yQue.AllocTensor<T>();
                Sub(yout, xin, b, len);
                xQue.FreeTensor(xin);
                yQue.EnQue(yout);
                // copy out
                yout = yQue.DeQue<T>();
                DataCopyPad(yGm[off], yout, cp);
                yQue.FreeTensor(yout);
            }
            biasQue.FreeTensor(b);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> xQue;
    TQue<TPosition::VECIN, 1> biasQue;
    TQue<TPosition::VECOUT, 2> yQue;
    GlobalTensor<T> xGm, biasGm, yGm;
    uint32_t cols = 0, colTile = 0, rowStart = 0, rowCount = 0;
};

extern "C" __global__ __aicore__ void subtract_trailing_bias(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SubtractTrailingBiasOp<DTYPE_X> op;
    op.Init(x, bias, y, td);
    op.Process();
}
