// row_index_pick.cpp
// out[r, j] = src[r, index[r, j]]  (gather along the last axis, one row at a time)
//
// Each core owns a contiguous band of rows. For every row the whole source row is
// staged in UB once, then the index row is streamed in chunks: int64 indices are
// narrowed to int32, scaled to byte offsets and fed to the vector Gather instruction.
#include "kernel_operator.h"

using namespace AscendC;

struct RowIndexPickTiling {
    uint32_t rows;          // number of rows (shared by src / index / out)
    uint32_t srcCols;       // length of a source row
    uint32_t idxCols;       // length of an index row == output row
    uint32_t rowsPerCore;   // rows assigned to each core (last core may get fewer)
    uint32_t chunk;         // index elements processed per inner step (multiple of 8)
};

class RowIndexPick {
public:
    __aicore__ inline RowIndexPick() {}

    __aicore__ inline void Init(GM_ADDR src, GM_ADDR index, GM_ADDR out, const RowIndexPickTiling &tl)
    {
        t = tl;
        uint32_t bid = GetBlockIdx();
        rowBegin = bid * t.rowsPerCore;
        rowEnd = rowBegin + t.rowsPerCore;
        if (rowEnd > t.rows) rowEnd = t.rows;

        srcGm.SetGlobalBuffer((__gm__ float *)src, (uint64_t)t.rows * t.srcCols);
        idxGm.SetGlobalBuffer((__gm__ int64_t *)index, (uint64_t)t.rows * t.idxCols);
        outGm.SetGlobalBuffer((__gm__ float *)out, (uint64_t)t.rows * t.idxCols);

        pipe.InitBuffer(rowBuf, t.srcCols * sizeof(float));
        pipe.InitBuffer(idxQ, 2, t.chunk * sizeof(int64_t));
        pipe.InitBuffer(outQ, 2, t.chunk * sizeof(float));
        pipe.InitBuffer(offBuf, t.chunk * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            LoadRow(r);
            for (uint32_t c = 0; c < t.idxCols; c += t.chunk) {
                uint32_t n = t.idxCols - c;
                if (n > t.chunk) n = t.chunk;
                CopyIdx(r, c, n);
                Pick(n);
                Store(r, c, n);
            }
        }
    }

private:
    __aicore__ inline void LoadRow(uint32_t r)
    {
        LocalTensor<float> row = rowBuf.Get<float>();
        // make sure previous Gathers from this buffer have drained before overwriting
        event_t evVM = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(evVM);
        WaitFlag<HardEvent::V_MTE2>(evVM);
        DataCopy(row, srcGm[(uint64_t)r * t.srcCols], t.srcCols);
        event_t evMV = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evMV);
        WaitFlag<HardEvent::MTE2_V>(evMV);
    }

    __aicore__ inline void CopyIdx(uint32_t r, uint32_t c, uint32_t n)
    {
        LocalTensor<int64_t> il = idxQ.AllocTensor<int64_t>();
        uint32_t aligned = (n + 3) / 4 * 4;   // 4 x int64 = 32 bytes
        DataCopy(il, idxGm[(uint64_t)r * t.idxCols + c], aligned);
        idxQ.EnQue(il);
    }

    __aicore__ inline void Pick(uint32_t n)
    {
        LocalTensor<int64_t> il = idxQ.DeQue<int64_t>();
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> ol = outQ.AllocTensor<float>();
        uint32_t len = (n + 7) / 8 * 8;

        // int64 -> int32 (indices are < srcCols, fit easily)
        Cast(off, il, RoundMode::CAST_NONE, len);
        // clamp into the row so padding lanes never read out of the UB row buffer
        Maxs(off, off, (int32_t)0, len);
        Mins(off, off, (int32_t)(t.srcCols - 1), len);
        // element index -> byte offset inside the row buffer
        ShiftLeft(off, off, (int32_t)2, len);
        Gather(ol, row, off.ReinterpretCast<uint32_t>(), (uint32_t)0, len);

        outQ.EnQue(ol);
        idxQ.FreeTensor(il);
    }

    __aicore__ inline void Store(uint32_t r, uint32_t c, uint32_t n)
    {
        LocalTensor<float> ol = outQ.DeQue<float>();
        DataCopyExtParams p{1, n * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(outGm[(uint64_t)r * t.idxCols + c], ol, p);
        outQ.FreeTensor(ol);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> rowBuf;
    TBuf<TPosition::VECCALC> offBuf;
    TQue<QuePosition::VECIN, 2> idxQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<float> srcGm;
    GlobalTensor<int64_t> idxGm;
    GlobalTensor<float> outGm;
    RowIndexPickTiling t;
    uint32_t rowBegin = 0;
    uint32_t rowEnd = 0;
};

extern "C" __global__ __aicore__ void row_index_pick(GM_ADDR src, GM_ADDR index, GM_ADDR out, GM_ADDR tiling)
{
    RowIndexPickTiling tl;
    __gm__ uint32_t *p = reinterpret_cast<__gm__ uint32_t *>(tiling);
    tl.rows = p[0];
    tl.srcCols = p[1];
    tl.idxCols = p[2];
    tl.rowsPerCore = p[3];
    tl.chunk = p[4];
    if (GetBlockIdx() * tl.rowsPerCore >= tl.rows) {
        return;
    }
    RowIndexPick op;
    op.Init(src, index, out, tl);
    op.Process();
}
