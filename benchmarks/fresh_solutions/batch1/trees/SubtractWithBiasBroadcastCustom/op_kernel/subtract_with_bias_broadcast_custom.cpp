#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y[r, c] = x[r, c] - bias[c]
// Each core owns a contiguous column slice [colStart, colStart + myCols) for all
// rows. The bias slice is loaded once; x is streamed in groups of rowsPerTile rows.
class KernelSubtractBiasBroadcast {
public:
    __aicore__ inline KernelSubtractBiasBroadcast() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, uint32_t rows, uint32_t cols,
                                uint32_t colsPerCore, uint32_t lastCoreCols, uint32_t rowsPerTile)
    {
        uint32_t blk = AscendC::GetBlockIdx();
        this->rows = rows;
        this->cols = cols;
        this->rowsPerTile = rowsPerTile;
        this->sliceStride = colsPerCore;   // UB row pitch, already 32B aligned
        this->myCols = (blk == AscendC::GetBlockNum() - 1) ? lastCoreCols : colsPerCore;
        uint32_t colStart = blk * colsPerCore;

        xGm.SetGlobalBuffer((__gm__ float*)x + colStart, rows * cols - colStart);
        yGm.SetGlobalBuffer((__gm__ float*)y + colStart, rows * cols - colStart);
        biasGm.SetGlobalBuffer((__gm__ float*)bias + colStart, myCols);

        pipe.InitBuffer(inQ, BUFFER_NUM, rowsPerTile * sliceStride * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, rowsPerTile * sliceStride * sizeof(float));
        pipe.InitBuffer(biasQ, 1, sliceStride * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> b = biasQ.AllocTensor<float>();
        AscendC::DataCopyExtParams bp{1, static_cast<uint32_t>(myCols * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(b, biasGm, bp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        biasQ.EnQue(b);
        b = biasQ.DeQue<float>();

        for (uint32_t r0 = 0; r0 < rows; r0 += rowsPerTile) {
            uint32_t nr = (rows - r0) < rowsPerTile ? (rows - r0) : rowsPerTile;
            CopyIn(r0, nr);
            Compute(b, nr);
            CopyOut(r0, nr);
        }
        biasQ.FreeTensor(b);
    }

private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t nr)
    {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams p;
        p.blockCount = static_cast<uint16_t>(nr);
        p.blockLen = myCols * sizeof(float);
        p.srcStride = (cols - myCols) * sizeof(float);          // bytes in GM
        p.dstStride = (sliceStride - AlignUp8(myCols)) / 8;     // 32B blocks in UB
        p.rsv = 0;
        AscendC::DataCopyPad(xl, xGm[(uint64_t)r0 * cols], p, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& b, uint32_t nr)
    {
        AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        for (uint32_t r = 0; r < nr; ++r) {
            AscendC::Sub(yl[r * sliceStride], xl[r * sliceStride], b, myCols);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t nr)
    {
        AscendC::LocalTensor<float> yl = outQ.DeQue<float>();
        AscendC::DataCopyExtParams p;
        p.blockCount = static_cast<uint16_t>(nr);
        p.blockLen = myCols * sizeof(float);
        p.srcStride = (sliceStride - AlignUp8(myCols)) / 8;
        p.dstStride = (cols - myCols) * sizeof(float);
        p.rsv = 0;
        AscendC::DataCopyPad(yGm[(uint64_t)r0 * cols], yl, p);
        outQ.FreeTensor(yl);
    }

    __aicore__ inline uint32_t AlignUp8(uint32_t v) { return (v + 7) / 8 * 8; }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> biasQ;
    AscendC::GlobalTensor<float> xGm, yGm, biasGm;
    uint32_t rows, cols, myCols, sliceStride, rowsPerTile;
};

extern "C" __global__ __aicore__ void subtract_with_bias_broadcast_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSubtractBiasBroadcast op;
    op.Init(x, bias, y, tiling_data.rows, tiling_data.cols, tiling_data.colsPerCore,
            tiling_data.lastCoreCols, tiling_data.rowsPerTile);
    op.Process();
}
