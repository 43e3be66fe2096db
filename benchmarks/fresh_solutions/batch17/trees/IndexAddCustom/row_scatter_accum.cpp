// row_scatter_accum: out = x; out[idx[i], :] += src[i, :] for every i (dim-0 scatter add).
//
// Duplicate indices make a row-parallel split racy, so the work is split by COLUMNS
// instead: every core owns a set of column strips of `stripCols` floats. A strip of the
// whole destination (dstRows x stripCols) lives in UB while all source rows are streamed
// through it, so the accumulation needs no atomics and no GM read-modify-write.
#include "kernel_operator.h"

using namespace AscendC;

struct RowScatterAccumTiling {
    uint32_t dstRows;     // rows of x / out
    uint32_t cols;        // row length
    uint32_t srcRows;     // number of indices / source rows
    uint32_t stripCols;   // columns per strip (multiple of 8)
    uint32_t stripCount;  // cols / stripCols
    uint32_t srcBatch;    // source rows fetched per DMA
};

namespace {
constexpr int32_t DEPTH = 2;

__aicore__ inline void FetchTiling(GM_ADDR gm, RowScatterAccumTiling &t)
{
    __gm__ uint32_t *p = reinterpret_cast<__gm__ uint32_t *>(gm);
    uint32_t *q = reinterpret_cast<uint32_t *>(&t);
#pragma unroll
    for (uint32_t i = 0; i < sizeof(RowScatterAccumTiling) / 4; i++) {
        q[i] = p[i];
    }
}
}  // namespace

class RowScatterAccum {
public:
    __aicore__ inline RowScatterAccum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR src, GM_ADDR out,
                                const RowScatterAccumTiling &tiling)
    {
        t_ = tiling;
        xGm_.SetGlobalBuffer((__gm__ float *)x);
        idxGm_.SetGlobalBuffer((__gm__ int64_t *)idx);
        srcGm_.SetGlobalBuffer((__gm__ float *)src);
        outGm_.SetGlobalBuffer((__gm__ float *)out);

        pipe_.InitBuffer(strip_, t_.dstRows * t_.stripCols * sizeof(float));
        pipe_.InitBuffer(srcQ_, DEPTH, t_.srcBatch * t_.stripCols * sizeof(float));
    }

    __aicore__ inline void Run()
    {
        uint32_t nCores = GetBlockNum();
        for (uint32_t s = GetBlockIdx(); s < t_.stripCount; s += nCores) {
            DoStrip(s * t_.stripCols);
        }
    }

private:
    __aicore__ inline void DoStrip(uint32_t col0)
    {
        LocalTensor<float> acc = strip_.Get<float>();

        // 1) pull the strip of x: dstRows blocks of stripCols floats, row pitch = cols
        DataCopyParams ld;
        ld.blockCount = static_cast<uint16_t>(t_.dstRows);
        ld.blockLen = static_cast<uint16_t>(t_.stripCols * sizeof(float) / 32);
        ld.srcStride = static_cast<uint16_t>((t_.cols - t_.stripCols) * sizeof(float) / 32);
        ld.dstStride = 0;
        DataCopy(acc, xGm_[col0], ld);
        event_t e0 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e0);
        WaitFlag<HardEvent::MTE2_V>(e0);

        // 2) stream the source rows in batches and add each into its target row
        uint32_t nBatches = (t_.srcRows + t_.srcBatch - 1) / t_.srcBatch;
        if (nBatches > 0) {
            Prefetch(0, col0);
        }
        for (uint32_t b = 0; b < nBatches; ++b) {
            if (b + 1 < nBatches) {
                Prefetch(b + 1, col0);  // double buffering: next batch is in flight
            }
            LocalTensor<float> vals = srcQ_.DeQue<float>();
            uint32_t r0 = b * t_.srcBatch;
            uint32_t rows = (t_.srcRows - r0) < t_.srcBatch ? (t_.srcRows - r0) : t_.srcBatch;
            for (uint32_t j = 0; j < rows; ++j) {
                int64_t dst = idxGm_.GetValue(r0 + j);
                if (dst < 0) {
                    dst += t_.dstRows;  // negative indices count from the end, as in torch
                }
                LocalTensor<float> row = acc[static_cast<uint32_t>(dst) * t_.stripCols];
                Add(row, row, vals[j * t_.stripCols], t_.stripCols);
                // consecutive adds may hit the same row
                PipeBarrier<PIPE_V>();
            }
            srcQ_.FreeTensor(vals);
        }

        // 3) write the strip back
        event_t e1 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e1);
        WaitFlag<HardEvent::V_MTE3>(e1);
        DataCopyParams st;
        st.blockCount = ld.blockCount;
        st.blockLen = ld.blockLen;
        st.srcStride = 0;
        st.dstStride = ld.srcStride;
        DataCopy(outGm_[col0], acc, st);
        // the next strip reuses the same UB buffer
        event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_MTE2));
        SetFlag<HardEvent::MTE3_MTE2>(e2);
        WaitFlag<HardEvent::MTE3_MTE2>(e2);
    }

    __aicore__ inline void Prefetch(uint32_t batch, uint32_t col0)
    {
        uint32_t r0 = batch * t_.srcBatch;
        uint32_t rows = (t_.srcRows - r0) < t_.srcBatch ? (t_.srcRows - r0) : t_.srcBatch;
        LocalTensor<float> buf = srcQ_.AllocTensor<float>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(rows);
        p.blockLen = static_cast<uint16_t>(t_.stripCols * sizeof(float) / 32);
        p.srcStride = static_cast<uint16_t>((t_.cols - t_.stripCols) * sizeof(float) / 32);
        p.dstStride = 0;
        DataCopy(buf, srcGm_[(uint64_t)r0 * t_.cols + col0], p);
        srcQ_.EnQue(buf);
    }

    TPipe pipe_;
    TBuf<TPosition::VECCALC> strip_;
    TQue<QuePosition::VECIN, DEPTH> srcQ_;
    GlobalTensor<float> xGm_, srcGm_, outGm_;
    GlobalTensor<int64_t> idxGm_;
    RowScatterAccumTiling t_;
};

extern "C" __global__ __aicore__ void row_scatter_accum(GM_ADDR x, GM_ADDR idx, GM_ADDR src, GM_ADDR out,
                                                        GM_ADDR tiling)
{
    RowScatterAccumTiling t;
    FetchTiling(tiling, t);
    RowScatterAccum k;
    k.Init(x, idx, src, out, t);
    k.Run();
}

#ifndef ASCENDC_CPU_DEBUG
void row_scatter_accum_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *idx, uint8_t *src,
                          uint8_t *out, uint8_t *tiling)
{
    row_scatter_accum<<<blockDim, nullptr, stream>>>(x, idx, src, out, tiling);
}
#endif
