#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y[o, 0, i] = sum_r x[o, r, i]; each task owns one (o, column tile) and streams
// blocks of rowTile strided rows through UB, adding them into a column accumulator.
class KernelSumDim {
public:
    __aicore__ inline KernelSumDim() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, SumReductionOverADimensionCustomTilingData* t)
    {
        outer = t->outer;
        reduceLen = t->reduceLen;
        inner = t->inner;
        colTile = t->colTile;
        colTiles = t->colTiles;
        rowTile = t->rowTile;
        taskNum = t->taskNum;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(inQueue, BUFFER_NUM, rowTile * colTile * sizeof(float));
        pipe.InitBuffer(outQueue, 1, colTile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = AscendC::GetBlockIdx(); task < taskNum; task += AscendC::GetBlockNum()) {
            uint32_t o = task / colTiles;
            uint32_t col0 = (task % colTiles) * colTile;
            uint32_t cols = (col0 + colTile <= inner) ? colTile : inner - col0;

            AscendC::LocalTensor<float> acc = outQueue.AllocTensor<float>();
            AscendC::Duplicate(acc, 0.0f, cols);
            for (uint32_t r0 = 0; r0 < reduceLen; r0 += rowTile) {
                uint32_t rows = (r0 + rowTile <= reduceLen) ? rowTile : reduceLen - r0;
                CopyIn(o, r0, rows, col0, cols);
                Accumulate(acc, rows, cols);
            }
            outQueue.EnQue(acc);
            acc = outQueue.DeQue<float>();
            AscendC::DataCopy(yGm[(uint64_t)o * inner + col0], acc, cols);
            outQueue.FreeTensor(acc);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t o, uint32_t r0, uint32_t rows, uint32_t col0, uint32_t cols)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        uint64_t src = ((uint64_t)o * reduceLen + r0) * inner + col0;
        AscendC::DataCopyParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = static_cast<uint16_t>(cols * sizeof(float) / 32);
        cp.srcStride = static_cast<uint16_t>((inner - cols) * sizeof(float) / 32);
        cp.dstStride = static_cast<uint16_t>((colTile - cols) * sizeof(float) / 32);
        AscendC::DataCopy(xLocal, xGm[src], cp);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Accumulate(AscendC::LocalTensor<float>& acc, uint32_t rows, uint32_t cols)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
        // pairwise fold inside the block first, keeps the add chain short
        uint32_t live = rows;
        while (live > 1) {
            uint32_t half = live / 2;
            for (uint32_t r = 0; r < half; ++r) {
                AscendC::Add(xLocal[r * colTile], xLocal[r * colTile], xLocal[(r + half) * colTile], cols);
            }
            if (live & 1) {
                AscendC::PipeBarrier<PIPE_V>();
                AscendC::Add(xLocal, xLocal, xLocal[(live - 1) * colTile], cols);
            }
            AscendC::PipeBarrier<PIPE_V>();
            live = half;
        }
        AscendC::Add(acc, acc, xLocal, cols);
        AscendC::PipeBarrier<PIPE_V>();
        inQueue.FreeTensor(xLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t outer, reduceLen, inner, colTile, colTiles, rowTile, taskNum;
};

extern "C" __global__ __aicore__ void sum_reduction_over_a_dimension_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                            GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSumDim op;
    op.Init(x, y, &tilingData);
    op.Process();
}
