// out = diag(d) @ B, computed without forming the diagonal matrix: out[i, :] = d[i] * B[i, :].
// Pure bandwidth-bound vector kernel; rows are split across vector cores.
#include "kernel_operator.h"

template <typename T>
class DiagonalRowScaleKernel {
public:
    __aicore__ inline DiagonalRowScaleKernel() {}

    __aicore__ inline void Init(GM_ADDR diag, GM_ADDR mat, GM_ADDR out, const DiagonalRowScaleTilingData &t)
    {
        cols = t.cols;
        colTile = t.colTile;
        rowsPerTile = t.rowsPerTile;

        uint32_t idx = AscendC::GetBlockIdx();
        if (idx < t.headCores) {
            rowStart = idx * t.rowsPerCore;
            rowCount = t.rowsPerCore;
        } else {
            rowStart = t.headCores * t.rowsPerCore + (idx - t.headCores) * (t.rowsPerCore - 1);
            rowCount = t.rowsPerCore - 1;
        }
        dGm.SetGlobalBuffer((__gm__ T *)diag);
        bGm.SetGlobalBuffer((__gm__ T *)mat);
        oGm.SetGlobalBuffer((__gm__ T *)out);

        uint32_t bytes = rowsPerTile * colTile * sizeof(T);
        pipe.InitBuffer(qIn, 2, bytes);
        pipe.InitBuffer(qOut, 2, bytes);
    }

    __aicore__ inline void Process()
    {
        if (rowsPerTile > 1) {
            // whole rows fit: move several rows per DMA
            for (uint32_t r = 0; r < rowCount; r += rowsPerTile) {
                uint32_t nr = rowCount - r < rowsPerTile ? rowCount - r : rowsPerTile;
                Step(rowStart + r, nr, 0, cols);
            }
        } else {
            for (uint32_t r = 0; r < rowCount; ++r) {
                for (uint32_t c = 0; c < cols; c += colTile) {
                    uint32_t w = cols - c < colTile ? cols - c : colTile;
                    Step(rowStart + r, 1, c, w);
                }
            }
        }
    }

private:
    // nr rows starting at row, columns [c, c + w)
    __aicore__ inline void Step(uint32_t row, uint32_t nr, uint32_t c, uint32_t w)
    {
        uint32_t wAligned = (w * sizeof(T) + 31) / 32 * 32 / sizeof(T);
        uint64_t gmOff = static_cast<uint64_t>(row) * cols + c;
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(nr), static_cast<uint32_t>(w * sizeof(T)),
                                      static_cast<uint32_t>((cols - w) * sizeof(T)), 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};

        AscendC::LocalTensor<T> src = qIn.AllocTensor<T>();
        AscendC::DataCopyPad(src, bGm[gmOff], cp, pad);
        qIn.EnQue(src);

        src = qIn.DeQue<T>();
        AscendC::LocalTensor<T> dst = qOut.AllocTensor<T>();
        for (uint32_t i = 0; i < nr; ++i) {
            T s = dGm.GetValue(row + i);
            AscendC::Muls(dst[i * wAligned], src[i * wAligned], s, w);
        }
        qOut.EnQue(dst);
        qIn.FreeTensor(src);

        dst = qOut.DeQue<T>();
        AscendC::DataCopyExtParams cpOut{static_cast<uint16_t>(nr), static_cast<uint32_t>(w * sizeof(T)), 0,
                                         static_cast<uint32_t>((cols - w) * sizeof(T)), 0};
        AscendC::DataCopyPad(oGm[gmOff], dst, cpOut);
        qOut.FreeTensor(dst);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> qIn;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> qOut;
    AscendC::GlobalTensor<T> dGm, bGm, oGm;
    uint32_t cols = 0, colTile = 0, rowsPerTile = 1;
    uint32_t rowStart = 0, rowCount = 0;
};

extern "C" __global__ __aicore__ void diagonal_row_scale(GM_ADDR diag, GM_ADDR matrix, GM_ADDR out,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    DiagonalRowScaleKernel<DTYPE_MATRIX> op;
    op.Init(diag, matrix, out, t);
    op.Process();
}
