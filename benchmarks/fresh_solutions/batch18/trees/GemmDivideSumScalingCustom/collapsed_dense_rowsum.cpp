// collapsed_dense_rowsum.cpp
//
// Target: y[b] = alpha * sum_h (x[b, :] . W[h, :])       x: [B, K], W: [N, K]
// (alpha already contains the halving and the scaling factor).
//
// The sum over the N outputs of the dense layer commutes with the dot product:
//     sum_h x[b].W[h] = x[b] . (sum_h W[h])
// so the B x N product is never formed. Two launches of the same kernel:
//   phase 0: wsum[k] = sum_h W[h, k]                 (cores split the K columns)
//   phase 1: y[b]    = alpha * x[b, :] . wsum        (cores split the B rows)
#include "kernel_operator.h"

using namespace AscendC;

struct CollapsedDenseRowsumTiling {
    uint32_t phase;
    uint32_t rows;        // B
    uint32_t inDim;       // K
    uint32_t outDim;      // N
    uint32_t colsPerCore; // phase 0: columns of W per core (multiple of 8)
    uint32_t rowBatch;    // phase 0: W rows fetched per DataCopy
    uint32_t rowsPerCore; // phase 1: x rows per core (multiple of 8)
    uint32_t chunk;       // phase 1: elements of a row per pass (divides K, multiple of 64)
    float alpha;
};

class CollapsedDenseRowsum {
public:
    __aicore__ inline CollapsedDenseRowsum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR wsum, GM_ADDR y, const CollapsedDenseRowsumTiling &cfg)
    {
        c = cfg;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        sGm.SetGlobalBuffer((__gm__ float *)wsum);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        if (c.phase == 0) {
            pipe.InitBuffer(inQ, 2, c.rowBatch * c.colsPerCore * sizeof(float));
            pipe.InitBuffer(outQ, 1, c.colsPerCore * sizeof(float));
        } else {
            pipe.InitBuffer(inQ, 2, c.chunk * sizeof(float));
            pipe.InitBuffer(outQ, 1, c.rowsPerCore * sizeof(float));
            pipe.InitBuffer(vecBuf, c.inDim * sizeof(float));   // the whole wsum vector
            pipe.InitBuffer(accBuf, c.chunk * sizeof(float));
            pipe.InitBuffer(redBuf, (c.chunk / 64 + 16) * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (c.phase == 0) {
            ColumnSums();
        } else {
            Dots();
        }
    }

private:
    __aicore__ inline void ColumnSums()
    {
        uint32_t col0 = GetBlockIdx() * c.colsPerCore;
        if (col0 >= c.inDim) return;
        const uint32_t width = c.colsPerCore;
        LocalTensor<float> acc = outQ.AllocTensor<float>();
        Duplicate(acc, 0.0f, width);

        for (uint32_t r0 = 0; r0 < c.outDim; r0 += c.rowBatch) {
            uint32_t nr = (c.outDim - r0 < c.rowBatch) ? (c.outDim - r0) : c.rowBatch;
            LocalTensor<float> blk = inQ.AllocTensor<float>();
            // nr rows of `width` floats, each row is inDim floats apart in GM
            DataCopyParams cp;
            cp.blockCount = static_cast<uint16_t>(nr);
            cp.blockLen = static_cast<uint16_t>(width / 8);
            cp.srcStride = static_cast<uint16_t>((c.inDim - width) / 8);
            cp.dstStride = 0;
            DataCopy(blk, wGm[(uint64_t)r0 * c.inDim + col0], cp);
            inQ.EnQue(blk);
            blk = inQ.DeQue<float>();
            for (uint32_t i = 0; i < nr; ++i) {
                Add(acc, acc, blk[i * width], width);
            }
            inQ.FreeTensor(blk);
        }
        outQ.EnQue(acc);
        acc = outQ.DeQue<float>();
        DataCopy(sGm[col0], acc, width);
        outQ.FreeTensor(acc);
    }

    __aicore__ inline void Dots()
    {
        uint32_t row0 = GetBlockIdx() * c.rowsPerCore;
        if (row0 >= c.rows) return;
        uint32_t myRows = (c.rows - row0 < c.rowsPerCore) ? (c.rows - row0) : c.rowsPerCore;

        LocalTensor<float> wsum = vecBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = red[16];

        {   // wsum stays resident for all rows of this core
            DataCopy(wsum, sGm, c.inDim);
            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
            SetFlag<HardEvent::MTE2_V>(e);
            WaitFlag<HardEvent::MTE2_V>(e);
        }

        LocalTensor<float> res = outQ.AllocTensor<float>();
        for (uint32_t r = 0; r < myRows; ++r) {
            Duplicate(acc, 0.0f, c.chunk);
            for (uint32_t k0 = 0; k0 < c.inDim; k0 += c.chunk) {
                LocalTensor<float> xs = inQ.AllocTensor<float>();
                DataCopy(xs, xGm[(uint64_t)(row0 + r) * c.inDim + k0], c.chunk);
                inQ.EnQue(xs);
                xs = inQ.DeQue<float>();
                MulAddDst(acc, xs, wsum[k0], c.chunk);  // acc += x * wsum
                inQ.FreeTensor(xs);
            }
            ReduceSum(red, acc, work, c.chunk);
            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e);
            WaitFlag<HardEvent::V_S>(e);
            res.SetValue(r, red.GetValue(0) * c.alpha);
            event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(e2);
            WaitFlag<HardEvent::S_V>(e2);
        }
        outQ.EnQue(res);
        res = outQ.DeQue<float>();
        DataCopyExtParams cp{1, myRows * 4U, 0, 0, 0};
        DataCopyPad(yGm[row0], res, cp);
        outQ.FreeTensor(res);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<QuePosition::VECCALC> vecBuf, accBuf, redBuf;
    GlobalTensor<float> xGm, wGm, sGm, yGm;
    CollapsedDenseRowsumTiling c;
};

extern "C" __global__ __aicore__ void collapsed_dense_rowsum(GM_ADDR x, GM_ADDR w, GM_ADDR wsum, GM_ADDR y,
                                                             GM_ADDR tiling)
{
    CollapsedDenseRowsumTiling cfg;
    auto from = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto to = reinterpret_cast<uint32_t *>(&cfg);
    for (uint32_t i = 0; i < sizeof(cfg) / 4; ++i) {
        to[i] = from[i];
    }
    CollapsedDenseRowsum kernel;
    kernel.Init(x, w, wsum, y, cfg);
    kernel.Process();
}
