#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t NBUF = 2;

// y[r, j] = x[r, idx[j]]
// Fast path: the whole source row is staged in UB and the vector Gather instruction
// picks the columns using byte offsets (idx * 4) computed once per index chunk.
// Fallback (very wide rows): scalar reads from GM.
class ColumnGatherKernel {
public:
    __aicore__ inline ColumnGatherKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR y, const ColumnGatherTilingData &td)
    {
        cols = td.srcCols;
        numIdx = td.numIdx;
        idxChunk = td.idxChunk;
        rowInUb = td.rowInUb;

        uint32_t b = GetBlockIdx();
        rowCnt = td.rowsPerCore + (b < td.rowsLeft ? 1 : 0);
        rowBeg = b * td.rowsPerCore + (b < td.rowsLeft ? b : td.rowsLeft);

        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(td.outer) * cols);
        idxGm.SetGlobalBuffer((__gm__ int32_t *)indices, numIdx);
        yGm.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(td.outer) * numIdx);

        colsAligned = (cols + 7) / 8 * 8;
        if (rowInUb) {
            pipe.InitBuffer(rowQ, NBUF, colsAligned * sizeof(float));
        }
        pipe.InitBuffer(offBuf, idxChunk * sizeof(int32_t));
        pipe.InitBuffer(outQ, NBUF, idxChunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t j0 = 0; j0 < numIdx; j0 += idxChunk) {
            uint32_t cnt = numIdx - j0 < idxChunk ? numIdx - j0 : idxChunk;
            LoadOffsets(j0, cnt);
            for (uint32_t r = 0; r < rowCnt; ++r) {
                uint64_t row = rowBeg + r;
                if (rowInUb) {
                    GatherFromUb(row, j0, cnt);
                } else {
                    GatherFromGm(row, j0, cnt);
                }
            }
        }
    }

private:
    __aicore__ inline void LoadOffsets(uint32_t j0, uint32_t cnt)
    {
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        // previous chunk's Gathers must be done before the offsets are overwritten
        event_t evVM = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(evVM);
        WaitFlag<HardEvent::V_MTE2>(evVM);

        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(int32_t)), 0, 0, 0};
        DataCopyPadExtParams<int32_t> pad{false, 0, 0, 0};
        DataCopyPad(off, idxGm[j0], cp, pad);

        event_t evMV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evMV);
        WaitFlag<HardEvent::MTE2_V>(evMV);
        if (rowInUb) {
            // element index -> byte offset inside the staged row
            ShiftLeft(off, off, static_cast<int32_t>(2), cnt);
        } else {
            event_t evMS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(evMS);
            WaitFlag<HardEvent::MTE2_S>(evMS);
        }
    }

    __aicore__ inline void GatherFromUb(uint64_t row, uint32_t j0, uint32_t cnt)
    {
        LocalTensor<float> src = rowQ.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(src, xGm[row * cols], cp, pad);
        rowQ.EnQue(src);

        src = rowQ.DeQue<float>();
        LocalTensor<float> dst = outQ.AllocTensor<float>();
        LocalTensor<uint32_t> offU = offBuf.Get<int32_t>().ReinterpretCast<uint32_t>();
        Gather(dst, src, offU, static_cast<uint32_t>(0), cnt);
        outQ.EnQue(dst);
        rowQ.FreeTensor(src);

        Store(row, j0, cnt);
    }

    __aicore__ inline void GatherFromGm(uint64_t row, uint32_t j0, uint32_t cnt)
    {
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        LocalTensor<float> dst = outQ.AllocTensor<float>();
        uint64_t base = row * cols;
        for (uint32_t j = 0; j < cnt; ++j) {
            dst.SetValue(j, xGm.GetValue(base + static_cast<uint32_t>(off.GetValue(j))));
        }
        // scalar stores must land before MTE3 copies the tile out
        event_t evSM = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(evSM);
        WaitFlag<HardEvent::S_MTE3>(evSM);
        outQ.EnQue(dst);
        Store(row, j0, cnt);
    }

    __aicore__ inline void Store(uint64_t row, uint32_t j0, uint32_t cnt)
    {
        LocalTensor<float> dst = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[row * numIdx + j0], dst, cp);
        outQ.FreeTensor(dst);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, NBUF> rowQ;
    TQue<QuePosition::VECOUT, NBUF> outQ;
    TBuf<QuePosition::VECCALC> offBuf;
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> idxGm;
    uint32_t cols = 0, colsAligned = 0, numIdx = 0, idxChunk = 0;
    uint32_t rowBeg = 0, rowCnt = 0, rowInUb = 1;
};

extern "C" __global__ __aicore__ void column_gather_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ColumnGatherKernel op;
    op.Init(x, indices, y, td);
    op.Process();
}
