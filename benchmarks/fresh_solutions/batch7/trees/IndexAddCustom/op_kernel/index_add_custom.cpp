#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = x.index_add(0, indices, values)
// Work split: core k owns columns [k*cols, k*cols + cols) of every row.
//   1) copy its slice of x into y
//   2) for every source row i, atomically add values[i, slice] into y[indices[i], slice]
// Both steps are issued on the MTE3 queue of the same core, so step 2 always sees step 1.
class KernelIndexAdd {
public:
    __aicore__ inline KernelIndexAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR values, GM_ADDR y,
                                const IndexAddCustomTilingData &t)
    {
        numRows = t.numRows;
        rowLen = t.rowLen;
        numIndices = t.numIndices;
        rowsPerBatch = t.rowsPerBatch;
        idxChunk = t.idxChunk;

        uint32_t coreId = GetBlockIdx();
        colStart = coreId * t.colsPerCore;
        colLen = (colStart + t.colsPerCore <= rowLen) ? t.colsPerCore : (rowLen - colStart);
        colLenAligned = (colLen + 7) / 8 * 8;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        valGm.SetGlobalBuffer((__gm__ float *)values);
        idxGm.SetGlobalBuffer((__gm__ int64_t *)indices);

        pipe.InitBuffer(rowQueue, BUFFER_NUM, rowsPerBatch * colLenAligned * sizeof(float));
        pipe.InitBuffer(idxBuf, idxChunk * sizeof(int64_t));
    }

    __aicore__ inline void Process()
    {
        CopyBase();
        ScatterAdd();
    }

private:
    // ---- step 1: y[:, slice] = x[:, slice]
    __aicore__ inline void CopyBase()
    {
        for (uint32_t r0 = 0; r0 < numRows; r0 += rowsPerBatch) {
            uint32_t nRows = (r0 + rowsPerBatch <= numRows) ? rowsPerBatch : (numRows - r0);
            LoadRows(xGm, r0, nRows);
            LocalTensor<float> tile = rowQueue.DeQue<float>();
            DataCopyExtParams outParams{static_cast<uint16_t>(nRows), colLen * (uint32_t)sizeof(float), 0,
                                        (rowLen - colLen) * (uint32_t)sizeof(float), 0};
            DataCopyPad(yGm[(uint64_t)r0 * rowLen + colStart], tile, outParams);
            rowQueue.FreeTensor(tile);
        }
    }

    // ---- step 2: accumulate source rows
    __aicore__ inline void ScatterAdd()
    {
        LocalTensor<int64_t> idxLocal = idxBuf.Get<int64_t>();
        for (uint32_t c0 = 0; c0 < numIndices; c0 += idxChunk) {
            uint32_t nIdx = (c0 + idxChunk <= numIndices) ? idxChunk : (numIndices - c0);

            // stage this chunk of indices for scalar reads
            PipeBarrier<PIPE_ALL>();
            DataCopyExtParams idxParams{1, nIdx * (uint32_t)sizeof(int64_t), 0, 0, 0};
            DataCopyPadExtParams<int64_t> idxPad{false, 0, 0, 0};
            DataCopyPad(idxLocal, idxGm[c0], idxParams, idxPad);
            event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(evt);
            WaitFlag<HardEvent::MTE2_S>(evt);

            for (uint32_t b0 = 0; b0 < nIdx; b0 += rowsPerBatch) {
                uint32_t nRows = (b0 + rowsPerBatch <= nIdx) ? rowsPerBatch : (nIdx - b0);
                LoadRows(valGm, c0 + b0, nRows);
                LocalTensor<float> tile = rowQueue.DeQue<float>();

                DataCopyExtParams oneRow{1, colLen * (uint32_t)sizeof(float), 0, 0, 0};
                SetAtomicAdd<float>();
                for (uint32_t j = 0; j < nRows; ++j) {
                    int64_t dst = idxLocal.GetValue(b0 + j);
                    if (dst < 0) {
                        dst += numRows;
                    }
                    if (dst < 0 || dst >= (int64_t)numRows) {
                        continue;
                    }
                    DataCopyPad(yGm[(uint64_t)dst * rowLen + colStart], tile[j * colLenAligned], oneRow);
                }
                SetAtomicNone();
                rowQueue.FreeTensor(tile);
            }
        }
    }

    // strided load of nRows rows (only our column slice) starting at row r0
    __aicore__ inline void LoadRows(GlobalTensor<float> &src, uint32_t r0, uint32_t nRows)
    {
        LocalTensor<float> tile = rowQueue.AllocTensor<float>();
        DataCopyExtParams inParams{static_cast<uint16_t>(nRows), colLen * (uint32_t)sizeof(float),
                                   (rowLen - colLen) * (uint32_t)sizeof(float), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(tile, src[(uint64_t)r0 * rowLen + colStart], inParams, pad);
        rowQueue.EnQue(tile);
    }

private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> rowQueue;
    TBuf<TPosition::VECCALC> idxBuf;
    GlobalTensor<float> xGm, yGm, valGm;
    GlobalTensor<int64_t> idxGm;
    uint32_t numRows = 0, rowLen = 0, numIndices = 0;
    uint32_t rowsPerBatch = 0, idxChunk = 0;
    uint32_t colStart = 0, colLen = 0, colLenAligned = 0;
};

extern "C" __global__ __aicore__ void index_add_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR values, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelIndexAdd op;
    op.Init(x, indices, values, y, tilingData);
    op.Process();
}
