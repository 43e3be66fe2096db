// pixel_replicate_x4.cpp
//
// Enlarges every H x W plane of an NCHW float tensor by an integer factor S
// (S = 4 in this sample) by copying each source pixel into an S x S block:
//     out[n, c, y, x] = in[n, c, y / S, x / S]
//
// All N*C*H source rows are treated as one flat list and split over cores.
// A group of source rows is widened with one Gather (index table built once
// in UB), then each widened row is written S times with a strided DataCopy
// that skips the other S-1 output rows.
#include "kernel_operator.h"

using namespace AscendC;

struct PixelReplicateX4Tiling {
    uint32_t srcRows;      // N * C * H
    uint32_t srcW;         // W (multiple of 8)
    uint32_t factor;       // S
    uint32_t rowsPerCore;
    uint32_t rowsPerLoop;  // source rows widened per Gather
};

class PixelReplicate {
public:
    __aicore__ inline PixelReplicate() {}

    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, const PixelReplicateX4Tiling &tl)
    {
        t = tl;
        dstW = t.srcW * t.factor;
        rowBegin = GetBlockIdx() * t.rowsPerCore;
        rowEnd = rowBegin + t.rowsPerCore;
        if (rowEnd > t.srcRows) {
            rowEnd = t.srcRows;
        }
        srcGm.SetGlobalBuffer((__gm__ float *)src);
        dstGm.SetGlobalBuffer((__gm__ float *)dst);

        pipe.InitBuffer(inQue, 2, t.rowsPerLoop * t.srcW * sizeof(float));
        pipe.InitBuffer(outQue, 2, t.rowsPerLoop * dstW * sizeof(float));
        pipe.InitBuffer(idxBuf, t.rowsPerLoop * dstW * sizeof(uint32_t));
        BuildIndex();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; r += t.rowsPerLoop) {
            uint32_t n = (rowEnd - r) < t.rowsPerLoop ? (rowEnd - r) : t.rowsPerLoop;
            CopyIn(r, n);
            Widen(n);
            CopyOut(r, n);
        }
    }

private:
    // byte offset of the source element feeding each widened position
    __aicore__ inline void BuildIndex()
    {
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        uint32_t total = t.rowsPerLoop * dstW;
        for (uint32_t k = 0; k < total; ++k) {
            uint32_t row = k / dstW;
            uint32_t col = (k % dstW) / t.factor;
            idx.SetValue(k, (row * t.srcW + col) * static_cast<uint32_t>(sizeof(float)));
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t n)
    {
        LocalTensor<float> in = inQue.AllocTensor<float>();
        DataCopy(in, srcGm[static_cast<uint64_t>(row) * t.srcW], n * t.srcW);
        inQue.EnQue(in);
    }

    __aicore__ inline void Widen(uint32_t n)
    {
        LocalTensor<float> in = inQue.DeQue<float>();
        LocalTensor<float> out = outQue.AllocTensor<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        Gather(out, in, idx, static_cast<uint32_t>(0), n * dstW);
        outQue.EnQue(out);
        inQue.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t n)
    {
        LocalTensor<float> out = outQue.DeQue<float>();
        // source row r maps to output rows r*S .. r*S+S-1, which are contiguous in GM
        DataCopyParams cp;
        cp.blockCount = static_cast<uint16_t>(n);
        cp.blockLen = static_cast<uint16_t>(dstW * sizeof(float) / 32);
        cp.srcStride = 0;
        cp.dstStride = static_cast<uint16_t>((t.factor - 1) * dstW * sizeof(float) / 32);
        uint64_t base = static_cast<uint64_t>(row) * t.factor * dstW;
        for (uint32_t rep = 0; rep < t.factor; ++rep) {
            DataCopy(dstGm[base + rep * dstW], out, cp);
        }
        outQue.FreeTensor(out);
    }

    PixelReplicateX4Tiling t;
    uint32_t dstW = 0;
    uint32_t rowBegin = 0, rowEnd = 0;
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> idxBuf;
    GlobalTensor<float> srcGm, dstGm;
};

extern "C" __global__ __aicore__ void pixel_replicate_x4(GM_ADDR src, GM_ADDR dst, GM_ADDR tiling)
{
    PixelReplicateX4Tiling tl;
    auto p = reinterpret_cast<__gm__ uint32_t *>(tiling);
    tl.srcRows = p[0];
    tl.srcW = p[1];
    tl.factor = p[2];
    tl.rowsPerCore = p[3];
    tl.rowsPerLoop = p[4];

    PixelReplicate op;
    op.Init(src, dst, tl);
    op.Process();
}
