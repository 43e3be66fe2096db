// row_unit_scale.cpp
// Rescales every row of a 2-D float matrix to unit Euclidean length:
//   out[r, :] = in[r, :] / sqrt(sum_j in[r, j]^2)
// Rows are split evenly over the cores; a row may be far wider than UB, so
// it is walked in chunks twice: once to accumulate the squared sum, once to
// apply the reciprocal norm.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;

struct RowUnitScaleTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;  // rows handled by cores [0, bigCores)
    uint32_t bigCores;     // first bigCores cores take rowsPerCore, rest take rowsPerCore - 1
    uint32_t chunk;        // elements per chunk (multiple of 8)
    uint32_t chunkCount;   // ceil(cols / chunk)
    uint32_t lastChunk;    // elements in the final chunk
};

class RowUnitScale {
public:
    __aicore__ inline RowUnitScale() {}
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, const RowUnitScaleTiling &tiling)
    {
        ti = tiling;
        uint32_t id = GetBlockIdx();
        if (id < ti.bigCores) {
            myRows = ti.rowsPerCore;
            firstRow = id * ti.rowsPerCore;
        } else {
            myRows = ti.rowsPerCore - 1;
            firstRow = ti.bigCores * ti.rowsPerCore + (id - ti.bigCores) * myRows;
        }
        inGm.SetGlobalBuffer((__gm__ float *)in);
        outGm.SetGlobalBuffer((__gm__ float *)out);

        pipe.InitBuffer(qIn, DEPTH, ti.chunk * sizeof(float));
        pipe.InitBuffer(qOut, DEPTH, ti.chunk * sizeof(float));
        pipe.InitBuffer(sqBuf, ti.chunk * sizeof(float));
        pipe.InitBuffer(accBuf, ti.chunk * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, ti.chunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows; ++r) {
            uint64_t rowOff = static_cast<uint64_t>(firstRow + r) * ti.cols;
            float inv = SquaredNormInv(rowOff);
            for (uint32_t c = 0; c < ti.chunkCount; ++c) {
                uint32_t len = (c + 1 == ti.chunkCount) ? ti.lastChunk : ti.chunk;
                Load(rowOff + static_cast<uint64_t>(c) * ti.chunk, len);
                Scale(inv, len);
                Store(rowOff + static_cast<uint64_t>(c) * ti.chunk, len);
            }
        }
    }

private:
    // first pass: element-wise x*x accumulated into a chunk-wide vector, reduced once at the end
    __aicore__ inline float SquaredNormInv(uint64_t rowOff)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        Duplicate(acc, 0.0f, ti.chunk);
        for (uint32_t c = 0; c < ti.chunkCount; ++c) {
            uint32_t len = (c + 1 == ti.chunkCount) ? ti.lastChunk : ti.chunk;
            Load(rowOff + static_cast<uint64_t>(c) * ti.chunk, len);
            LocalTensor<float> x = qIn.DeQue<float>();
            Mul(sq, x, x, len);
            Add(acc, acc, sq, len);
            qIn.FreeTensor(x);
        }
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        ReduceSum<float>(red, acc, work, ti.chunk);
        Sqrt(red, red, 1);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        float norm = red.GetValue(0);
        return 1.0f / norm;
    }

    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<float> x = qIn.AllocTensor<float>();
        DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>((8 - len % 8) % 8), 0.0f};
        DataCopyPad(x, inGm[off], cp, pad);
        qIn.EnQue(x);
    }

    __aicore__ inline void Scale(float inv, uint32_t len)
    {
        LocalTensor<float> x = qIn.DeQue<float>();
        LocalTensor<float> y = qOut.AllocTensor<float>();
        Muls(y, x, inv, len);
        qOut.EnQue(y);
        qIn.FreeTensor(x);
    }

    __aicore__ inline void Store(uint64_t off, uint32_t len)
    {
        LocalTensor<float> y = qOut.DeQue<float>();
        DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm[off], y, cp);
        qOut.FreeTensor(y);
    }

    RowUnitScaleTiling ti;
    uint32_t myRows = 0;
    uint32_t firstRow = 0;
    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> qIn;
    TQue<QuePosition::VECOUT, DEPTH> qOut;
    TBuf<TPosition::VECCALC> sqBuf, accBuf, redBuf, workBuf;
    GlobalTensor<float> inGm, outGm;
};

extern "C" __global__ __aicore__ void row_unit_scale(GM_ADDR in, GM_ADDR out, GM_ADDR tiling)
{
    RowUnitScaleTiling t;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    RowUnitScale kernel;
    kernel.Init(in, out, t);
    kernel.Process();
}
