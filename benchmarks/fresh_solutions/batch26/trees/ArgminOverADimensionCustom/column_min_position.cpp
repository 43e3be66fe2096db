// For x of shape [outer, reduce, inner] find, for every (outer, inner) pair, the position along the
// middle axis holding the smallest value (first one on ties). Result is int64 [outer, inner].
//
// Work is split into (outer, column-chunk) items. For one item a core streams the reduce axis in
// slabs of `slabRows` rows and keeps a running minimum and its row index per column.
#include "kernel_operator.h"

using namespace AscendC;

struct ColumnMinPositionTiling {
    uint32_t outer;
    uint32_t reduce;
    uint32_t inner;
    uint32_t chunk;        // columns per item, multiple of 64
    uint32_t chunksPerRow; // ceil(inner / chunk)
    uint32_t slabRows;     // rows per DMA
    uint32_t totalItems;
};

class ColumnMinPosition {
public:
    __aicore__ inline ColumnMinPosition() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, const ColumnMinPositionTiling &tt)
    {
        t = tt;
        src.SetGlobalBuffer((__gm__ float *)x);
        dst.SetGlobalBuffer((__gm__ int64_t *)idx);
        pipe.InitBuffer(slabQ, 2, t.slabRows * t.chunk * sizeof(float));
        pipe.InitBuffer(outQ, 1, t.chunk * sizeof(int64_t));
        pipe.InitBuffer(bestVal, t.chunk * sizeof(float));
        pipe.InitBuffer(bestPos, t.chunk * sizeof(float));   // row index kept as float (exact < 2^24)
        pipe.InitBuffer(keepMask, t.chunk / 8);
        pipe.InitBuffer(posI32, t.chunk * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t item = GetBlockIdx(); item < t.totalItems; item += GetBlockNum()) {
            uint32_t o = item / t.chunksPerRow;
            uint32_t c0 = (item % t.chunksPerRow) * t.chunk;
            uint32_t width = (t.inner - c0) < t.chunk ? (t.inner - c0) : t.chunk;
            Scan(o, c0, width);
            Store(o, c0, width);
        }
    }

private:
    __aicore__ inline void LoadSlab(uint32_t o, uint32_t c0, uint32_t width, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> slab = slabQ.AllocTensor<float>();
        uint64_t off = ((uint64_t)o * t.reduce + r0) * t.inner + c0;
        // `rows` strided blocks of `width` floats; each block lands on a chunk-sized UB row
        DataCopyExtParams cp{(uint16_t)rows, width * (uint32_t)sizeof(float),
                             (t.inner - width) * (uint32_t)sizeof(float),
                             (t.chunk - width) * (uint32_t)sizeof(float) / 32, 0};
        DataCopyPad(slab, src[off], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        slabQ.EnQue(slab);
    }

    __aicore__ inline void Scan(uint32_t o, uint32_t c0, uint32_t width)
    {
        LocalTensor<float> val = bestVal.Get<float>();
        LocalTensor<float> pos = bestPos.Get<float>();
        LocalTensor<uint8_t> keep = keepMask.Get<uint8_t>();

        uint32_t slabs = (t.reduce + t.slabRows - 1) / t.slabRows;
        bool first = true;
        for (uint32_t s = 0; s < slabs; ++s) {
            uint32_t r0 = s * t.slabRows;
            uint32_t rows = (t.reduce - r0) < t.slabRows ? (t.reduce - r0) : t.slabRows;
            LoadSlab(o, c0, width, r0, rows);
            LocalTensor<float> slab = slabQ.DeQue<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                LocalTensor<float> cur = slab[r * t.chunk];
                if (first) {
                    DataCopy(val, cur, t.chunk);
                    Duplicate(pos, 0.0f, t.chunk);
                    first = false;
                    PipeBarrier<PIPE_V>();
                    continue;
                }
                // keep the old position where cur >= best (strict improvement only -> first index wins)
                Compare(keep, cur, val, CMPMODE::GE, t.chunk);
                PipeBarrier<PIPE_V>();
                Select(pos, keep, pos, (float)(r0 + r), SELMODE::VSEL_TENSOR_SCALAR_MODE, t.chunk);
                Min(val, val, cur, t.chunk);
                PipeBarrier<PIPE_V>();
            }
            slabQ.FreeTensor(slab);
        }
    }

    __aicore__ inline void Store(uint32_t o, uint32_t c0, uint32_t width)
    {
        LocalTensor<float> pos = bestPos.Get<float>();
        LocalTensor<int32_t> p32 = posI32.Get<int32_t>();
        LocalTensor<int64_t> res = outQ.AllocTensor<int64_t>();
        Cast(p32, pos, RoundMode::CAST_RINT, t.chunk);
        PipeBarrier<PIPE_V>();
        Cast(res, p32, RoundMode::CAST_NONE, t.chunk);
        outQ.EnQue(res);
        res = outQ.DeQue<int64_t>();
        DataCopyPad(dst[(uint64_t)o * t.inner + c0], res,
                    DataCopyExtParams{1, width * (uint32_t)sizeof(int64_t), 0, 0, 0});
        outQ.FreeTensor(res);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> slabQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> bestVal, bestPos, keepMask, posI32;
    GlobalTensor<float> src;
    GlobalTensor<int64_t> dst;
    ColumnMinPositionTiling t;
};

extern "C" __global__ __aicore__ void column_min_position(GM_ADDR x, GM_ADDR idx, GM_ADDR tiling)
{
    ColumnMinPositionTiling t;
    __gm__ uint32_t *p = reinterpret_cast<__gm__ uint32_t *>(tiling);
    t.outer = p[0];
    t.reduce = p[1];
    t.inner = p[2];
    t.chunk = p[3];
    t.chunksPerRow = p[4];
    t.slabRows = p[5];
    t.totalItems = p[6];
    ColumnMinPosition k;
    k.Init(x, idx, t);
    k.Process();
}
