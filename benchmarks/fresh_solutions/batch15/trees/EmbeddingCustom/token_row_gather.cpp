// token_row_gather.cpp
// Lookup-table gather: out[t, :] = table[ids[t], :] for int64 ids and a float32 table.
//
// Each core owns a contiguous range of tokens.  Token ids are staged in UB in groups
// of ROWS_PER_TILE, then the matching table rows are copied GM -> UB one by one into a
// (ROWS_PER_TILE x dim) tile, which goes back to GM with a single contiguous copy
// (the output rows of consecutive tokens are adjacent).
#include "kernel_operator.h"

using namespace AscendC;

struct TokenRowGatherTiling {
    uint32_t numTokens;
    uint32_t vocab;
    uint32_t dim;            // row length in floats (multiple of 8)
    uint32_t tokensPerCore;
    uint32_t rowsPerTile;    // <= 32, multiple of 4 so int64 id groups are 32B aligned
    uint32_t reserved;
};

class TokenRowGather {
public:
    __aicore__ inline TokenRowGather() {}

    __aicore__ inline void Init(GM_ADDR ids, GM_ADDR table, GM_ADDR out, const TokenRowGatherTiling &t)
    {
        tl = t;
        first = GetBlockIdx() * tl.tokensPerCore;
        count = 0;
        if (first < tl.numTokens) {
            count = tl.numTokens - first;
            if (count > tl.tokensPerCore) count = tl.tokensPerCore;
        }
        idGm.SetGlobalBuffer((__gm__ int64_t *)ids + first, count);
        tableGm.SetGlobalBuffer((__gm__ float *)table, (uint64_t)tl.vocab * tl.dim);
        outGm.SetGlobalBuffer((__gm__ float *)out + (uint64_t)first * tl.dim, (uint64_t)count * tl.dim);

        pipe.InitBuffer(idQue, 1, tl.rowsPerTile * sizeof(int64_t));
        pipe.InitBuffer(rowQue, 2, tl.rowsPerTile * tl.dim * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t base = 0; base < count; base += tl.rowsPerTile) {
            uint32_t n = count - base < tl.rowsPerTile ? count - base : tl.rowsPerTile;
            Gather(base, n);
            Store(base, n);
        }
    }

private:
    __aicore__ inline void Gather(uint32_t base, uint32_t n)
    {
        // stage ids
        LocalTensor<int64_t> ids = idQue.AllocTensor<int64_t>();
        DataCopyExtParams ip{1, (uint32_t)(n * sizeof(int64_t)), 0, 0, 0};
        DataCopyPadExtParams<int64_t> ipad{false, 0, 0, 0};
        DataCopyPad(ids, idGm[base], ip, ipad);
        event_t toScalar = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(toScalar);
        WaitFlag<HardEvent::MTE2_S>(toScalar);

        LocalTensor<float> rows = rowQue.AllocTensor<float>();
        for (uint32_t r = 0; r < n; ++r) {
            int64_t id = ids.GetValue(r);
            // guard against bad ids instead of faulting on an out-of-range read
            if (id < 0) id = 0;
            if (id >= (int64_t)tl.vocab) id = tl.vocab - 1;
            DataCopy(rows[r * tl.dim], tableGm[(uint64_t)id * tl.dim], tl.dim);
        }
        rowQue.EnQue(rows);
        idQue.FreeTensor(ids);
    }

    __aicore__ inline void Store(uint32_t base, uint32_t n)
    {
        LocalTensor<float> rows = rowQue.DeQue<float>();
        DataCopy(outGm[(uint64_t)base * tl.dim], rows, n * tl.dim);
        rowQue.FreeTensor(rows);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> idQue;
    TQue<QuePosition::VECOUT, 2> rowQue;   // filled by MTE2, drained by MTE3
    GlobalTensor<int64_t> idGm;
    GlobalTensor<float> tableGm, outGm;
    TokenRowGatherTiling tl;
    uint32_t first = 0;
    uint32_t count = 0;
};

extern "C" __global__ __aicore__ void token_row_gather(GM_ADDR ids, GM_ADDR table, GM_ADDR out, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TokenRowGatherTiling t;
    __gm__ uint32_t *src = (__gm__ uint32_t *)tiling;
    uint32_t *dst = (uint32_t *)&t;
    for (uint32_t i = 0; i < sizeof(t) / 4; ++i) {
        dst[i] = src[i];
    }
    TokenRowGather op;
    op.Init(ids, table, out, t);
    op.Process();
}
