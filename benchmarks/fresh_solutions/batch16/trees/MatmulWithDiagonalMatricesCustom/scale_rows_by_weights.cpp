/**
 * scale_rows_by_weights.cpp
 *
 * Left-multiplying a matrix by a diagonal matrix only rescales its rows:
 *     C[i, j] = a[i] * B[i, j]
 * so no cube work is needed: the kernel streams B through UB and applies Muls with the
 * row's weight. Each core owns a contiguous band of rows; a row is processed in column
 * chunks of colTile elements with double buffering on both the input and output side.
 */
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

struct ScaleRowsByWeightsTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t colTile;       // multiple of 8
    uint32_t colTiles;      // ceil(cols / colTile)
    uint32_t colTail;       // elements in the last chunk
};

class ScaleRowsByWeights {
public:
    __aicore__ inline ScaleRowsByWeights() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const ScaleRowsByWeightsTiling &tiling)
    {
        ti = tiling;
        firstRow = AscendC::GetBlockIdx() * ti.rowsPerCore;
        numRows = 0;
        if (firstRow < ti.rows) {
            numRows = (ti.rows - firstRow) < ti.rowsPerCore ? (ti.rows - firstRow) : ti.rowsPerCore;
        }
        aGm.SetGlobalBuffer((__gm__ float *)a + firstRow, numRows);
        bGm.SetGlobalBuffer((__gm__ float *)b + (uint64_t)firstRow * ti.cols);
        cGm.SetGlobalBuffer((__gm__ float *)c + (uint64_t)firstRow * ti.cols);

        pipe.InitBuffer(inQueueB, BUFFER_NUM, ti.colTile * sizeof(float));
        pipe.InitBuffer(outQueueC, BUFFER_NUM, ti.colTile * sizeof(float));
        pipe.InitBuffer(diagBuf, (ti.rowsPerCore + 7) / 8 * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (numRows == 0) {
            return;
        }
        // pull this core's diagonal entries once; they are read as scalars afterwards
        AscendC::LocalTensor<float> diag = diagBuf.Get<float>();
        AscendC::DataCopyExtParams cp{1, numRows * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(diag, aGm, cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        event_t evt = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(evt);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(evt);

        for (uint32_t r = 0; r < numRows; ++r) {
            float w = diag.GetValue(r);
            for (uint32_t t = 0; t < ti.colTiles; ++t) {
                uint32_t len = (t == ti.colTiles - 1) ? ti.colTail : ti.colTile;
                uint64_t off = (uint64_t)r * ti.cols + (uint64_t)t * ti.colTile;
                CopyIn(off, len);
                Compute(w, len);
                CopyOut(off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> bLocal = inQueueB.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(bLocal, bGm[off], cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        inQueueB.EnQue(bLocal);
    }

    __aicore__ inline void Compute(float w, uint32_t len)
    {
        AscendC::LocalTensor<float> bLocal = inQueueB.DeQue<float>();
        AscendC::LocalTensor<float> cLocal = outQueueC.AllocTensor<float>();
        AscendC::Muls(cLocal, bLocal, w, len);
        outQueueC.EnQue<float>(cLocal);
        inQueueB.FreeTensor(bLocal);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> cLocal = outQueueC.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(cGm[off], cLocal, cp);
        outQueueC.FreeTensor(cLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueB;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueC;
    AscendC::TBuf<AscendC::TPosition::VECCALC> diagBuf;
    AscendC::GlobalTensor<float> aGm, bGm, cGm;
    ScaleRowsByWeightsTiling ti;
    uint32_t firstRow = 0;
    uint32_t numRows = 0;
};

extern "C" __global__ __aicore__ void scale_rows_by_weights(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    ScaleRowsByWeightsTiling ti;
    __gm__ uint32_t *p = reinterpret_cast<__gm__ uint32_t *>(tiling);
    ti.rows = p[0];
    ti.cols = p[1];
    ti.rowsPerCore = p[2];
    ti.colTile = p[3];
    ti.colTiles = p[4];
    ti.colTail = p[5];

    ScaleRowsByWeights op;
    op.Init(a, b, c, ti);
    op.Process();
}
