// row_prefix_total: inclusive running sum along the last axis of a 2-D tensor.
//
// Rows are dealt out to cores in contiguous runs. A row is streamed through UB
// in chunks; the running total of everything before the current chunk is kept
// in a scalar register ("carry") and folded into the chunk while scanning.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;

struct RowPrefixTotalTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t chunk;       // elements per UB chunk, multiple of 8
    uint32_t chunksPerRow;
    uint32_t lastChunk;   // elements in the final chunk of a row
};

__aicore__ inline void FetchTiling(RowPrefixTotalTiling *t, GM_ADDR gm)
{
    auto src = reinterpret_cast<__gm__ uint32_t *>(gm);
    auto dst = reinterpret_cast<uint32_t *>(t);
    for (uint32_t i = 0; i < sizeof(RowPrefixTotalTiling) / 4; i++) {
        dst[i] = src[i];
    }
}

class RowPrefixTotal {
public:
    __aicore__ inline RowPrefixTotal() {}

    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, const RowPrefixTotalTiling &t)
    {
        cfg = t;
        firstRow = GetBlockIdx() * t.rowsPerCore;
        myRows = 0;
        if (firstRow < t.rows) {
            myRows = t.rows - firstRow;
            if (myRows > t.rowsPerCore) {
                myRows = t.rowsPerCore;
            }
        }
        uint64_t total = static_cast<uint64_t>(t.rows) * t.cols;
        inGm.SetGlobalBuffer((__gm__ float *)src, total);
        outGm.SetGlobalBuffer((__gm__ float *)dst, total);
        pipe.InitBuffer(qIn, DEPTH, t.chunk * sizeof(float));
        pipe.InitBuffer(qOut, DEPTH, t.chunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows; r++) {
            uint64_t rowBase = static_cast<uint64_t>(firstRow + r) * cfg.cols;
            float carry = 0.0f;
            for (uint32_t c = 0; c < cfg.chunksPerRow; c++) {
                uint32_t len = (c + 1 == cfg.chunksPerRow) ? cfg.lastChunk : cfg.chunk;
                uint64_t off = rowBase + static_cast<uint64_t>(c) * cfg.chunk;
                CopyIn(off, len);
                carry = Scan(len, carry);
                CopyOut(off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> buf = qIn.AllocTensor<float>();
        DataCopyExtParams p{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(buf, inGm[off], p, pad);
        qIn.EnQue(buf);
    }

    // Sequential inclusive scan of one chunk; returns the updated carry.
    __aicore__ inline float Scan(uint32_t len, float carry)
    {
        LocalTensor<float> src = qIn.DeQue<float>();
        LocalTensor<float> dst = qOut.AllocTensor<float>();
        float acc = carry;
        for (uint32_t i = 0; i < len; i++) {
            acc += src.GetValue(i);
            dst.SetValue(i, acc);
        }
        qOut.EnQue(dst);
        qIn.FreeTensor(src);
        return acc;
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<float> buf = qOut.DeQue<float>();
        DataCopyExtParams p{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm[off], buf, p);
        qOut.FreeTensor(buf);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> qIn;
    TQue<QuePosition::VECOUT, DEPTH> qOut;
    GlobalTensor<float> inGm;
    GlobalTensor<float> outGm;
    RowPrefixTotalTiling cfg;
    uint32_t firstRow = 0;
    uint32_t myRows = 0;
};

extern "C" __global__ __aicore__ void row_prefix_total(GM_ADDR src, GM_ADDR dst, GM_ADDR tiling)
{
    RowPrefixTotalTiling t;
    FetchTiling(&t, tiling);
    RowPrefixTotal op;
    op.Init(src, dst, t);
    op.Process();
}
