/*
 * column_pick: out[r, j] = x[r, idx[j]]
 *
 * x   : float32 [rows, cols]
 * idx : int64   [picks]        (0 <= idx[j] < cols)
 * out : float32 [rows, picks]
 *
 * The index vector is turned into a table of byte offsets once per core and
 * kept resident in UB. Each row of x is then loaded whole and the wanted
 * columns are collected with the vector Gather instruction.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
}

struct ColumnPickTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t picks;
    uint32_t rowsPerCore;
    uint32_t rowsTail;      // cores [0, rowsTail) get one extra row
};

class ColumnPickKernel {
public:
    __aicore__ inline ColumnPickKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR out, const ColumnPickTiling &tl)
    {
        cols = tl.cols;
        picks = tl.picks;
        uint32_t bid = GetBlockIdx();
        rowCount = tl.rowsPerCore + (bid < tl.rowsTail ? 1 : 0);
        rowBegin = bid * tl.rowsPerCore + (bid < tl.rowsTail ? bid : tl.rowsTail);

        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(tl.rows) * cols);
        idxGm.SetGlobalBuffer((__gm__ int64_t *)idx, picks);
        outGm.SetGlobalBuffer((__gm__ float *)out, static_cast<uint64_t>(tl.rows) * picks);

        pipe.InitBuffer(rowQue, DEPTH, cols * sizeof(float));
        pipe.InitBuffer(pickQue, DEPTH, picks * sizeof(float));
        pipe.InitBuffer(offsetBuf, picks * sizeof(uint32_t));
    }

    __aicore__ inline void Process()
    {
        if (rowCount == 0) {
            return;
        }
        BuildOffsets();
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t row = rowBegin + r;
            LoadRow(row);
            PickColumns();
            StoreRow(row);
        }
    }

private:
    // byte offset of each selected column inside a UB row; negative indices wrap like torch
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        for (uint32_t j = 0; j < picks; ++j) {
            int64_t c = idxGm.GetValue(j);
            if (c < 0) {
                c += cols;
            }
            offs.SetValue(j, static_cast<uint32_t>(c) * static_cast<uint32_t>(sizeof(float)));
        }
        // scalar writes must land before the vector unit reads the table
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void LoadRow(uint64_t row)
    {
        LocalTensor<float> buf = rowQue.AllocTensor<float>();
        DataCopy(buf, xGm[row * cols], cols);
        rowQue.EnQue(buf);
    }

    __aicore__ inline void PickColumns()
    {
        LocalTensor<float> src = rowQue.DeQue<float>();
        LocalTensor<float> dst = pickQue.AllocTensor<float>();
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        Gather(dst, src, offs, static_cast<uint32_t>(0), picks);
        pickQue.EnQue(dst);
        rowQue.FreeTensor(src);
    }

    __aicore__ inline void StoreRow(uint64_t row)
    {
        LocalTensor<float> dst = pickQue.DeQue<float>();
        DataCopy(outGm[row * picks], dst, picks);
        pickQue.FreeTensor(dst);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> rowQue;
    TQue<QuePosition::VECOUT, DEPTH> pickQue;
    TBuf<TPosition::VECCALC> offsetBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<int64_t> idxGm;
    GlobalTensor<float> outGm;
    uint32_t cols = 0;
    uint32_t picks = 0;
    uint32_t rowBegin = 0;
    uint32_t rowCount = 0;
};

extern "C" __global__ __aicore__ void column_pick(GM_ADDR x, GM_ADDR idx, GM_ADDR out, GM_ADDR tiling)
{
    ColumnPickTiling tl;
    __gm__ uint32_t *raw = reinterpret_cast<__gm__ uint32_t *>(tiling);
    tl.rows = raw[0];
    tl.cols = raw[1];
    tl.picks = raw[2];
    tl.rowsPerCore = raw[3];
    tl.rowsTail = raw[4];

    ColumnPickKernel kernel;
    kernel.Init(x, idx, out, tl);
    kernel.Process();
}
