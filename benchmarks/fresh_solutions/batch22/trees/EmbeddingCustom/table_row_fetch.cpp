// table_row_fetch: out[t, :] = table[ids[t], :]
// Every core owns a contiguous run of tokens. Tokens are processed in groups of
// `groupRows`: the group's ids are pulled into UB, each referenced table row is
// copied into a packed UB block, and the block is written to GM with one copy.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFNUM = 2;

struct TableRowFetchTiling {
    uint32_t numTokens;   // number of ids (flattened)
    uint32_t vocab;       // rows in the table
    uint32_t dim;         // row length, multiple of 8
    uint32_t tokensPerCore;
    uint32_t groupRows;   // rows staged per output copy (multiple of 8)
};

class TableRowFetch {
public:
    __aicore__ inline TableRowFetch() {}

    __aicore__ inline void Init(GM_ADDR ids, GM_ADDR table, GM_ADDR out, GM_ADDR tilingGm)
    {
        auto tp = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
        numTokens = tp[0];
        vocab = tp[1];
        dim = tp[2];
        tokensPerCore = tp[3];
        groupRows = tp[4];

        begin = GetBlockIdx() * tokensPerCore;
        count = 0;
        if (begin < numTokens) {
            count = numTokens - begin;
            if (count > tokensPerCore) {
                count = tokensPerCore;
            }
        }

        idGm.SetGlobalBuffer((__gm__ int32_t *)ids, numTokens);
        tableGm.SetGlobalBuffer((__gm__ float *)table, (uint64_t)vocab * dim);
        outGm.SetGlobalBuffer((__gm__ float *)out, (uint64_t)numTokens * dim);

        pipe.InitBuffer(idBuf, groupRows * sizeof(int32_t));
        pipe.InitBuffer(rowQ, BUFNUM, groupRows * dim * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < count; done += groupRows) {
            uint32_t n = count - done;
            if (n > groupRows) {
                n = groupRows;
            }
            Gather(begin + done, n);
            Flush(begin + done, n);
        }
    }

private:
    __aicore__ inline void Gather(uint32_t tok0, uint32_t n)
    {
        LocalTensor<int32_t> idLocal = idBuf.Get<int32_t>();
        // ids of this group; the tail may not be 32B aligned, so use the padded copy
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0};
        DataCopyPadExtParams<int32_t> pad{false, 0, 0, 0};
        DataCopyPad(idLocal, idGm[tok0], cp, pad);
        // ids are read back by the scalar unit
        event_t mte2ToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(mte2ToS);
        WaitFlag<HardEvent::MTE2_S>(mte2ToS);

        LocalTensor<float> rows = rowQ.AllocTensor<float>();
        for (uint32_t k = 0; k < n; ++k) {
            int32_t id = idLocal.GetValue(k);
            if (id < 0) {
                id = 0;
            } else if (static_cast<uint32_t>(id) >= vocab) {
                id = static_cast<int32_t>(vocab - 1);
            }
            DataCopy(rows[k * dim], tableGm[(uint64_t)id * dim], dim);
        }
        rowQ.EnQue(rows);
    }

    __aicore__ inline void Flush(uint32_t tok0, uint32_t n)
    {
        LocalTensor<float> rows = rowQ.DeQue<float>();
        DataCopy(outGm[(uint64_t)tok0 * dim], rows, n * dim);
        rowQ.FreeTensor(rows);
        // the id buffer is overwritten by the next group's MTE2 copy; make sure
        // the scalar reads of this group have finished before that
        event_t sToMte2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE2));
        SetFlag<HardEvent::S_MTE2>(sToMte2);
        WaitFlag<HardEvent::S_MTE2>(sToMte2);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> idBuf;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFNUM> rowQ;   // MTE2 fills it, MTE3 drains it
    GlobalTensor<int32_t> idGm;
    GlobalTensor<float> tableGm;
    GlobalTensor<float> outGm;
    uint32_t numTokens, vocab, dim, tokensPerCore, groupRows;
    uint32_t begin, count;
};

extern "C" __global__ __aicore__ void table_row_fetch(GM_ADDR ids, GM_ADDR table, GM_ADDR out, GM_ADDR tiling)
{
    TableRowFetch op;
    op.Init(ids, table, out, tiling);
    op.Process();
}
