#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t PINGPONG = 2;
constexpr uint32_t SLOT = 8;   // floats per 32-byte partial-sum slot

/*
 * y = x / ||x||_F in a single launch:
 *   phase 1  every core squares and accumulates its slice, reduces to one partial,
 *            and writes it into its own 32B slot of the workspace
 *   barrier  hardware SyncAll across all vector cores
 *   phase 2  every core re-reads all partials, forms 1/sqrt(total), scales its slice
 */
class WholeTensorL2Normalize {
public:
    __aicore__ inline WholeTensorL2Normalize() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR usrWs, const WholeTensorL2NormalizeTiling &td)
    {
        uint64_t begin = td.sliceLen * GetBlockIdx();
        mine = td.total > begin ? td.total - begin : 0;
        if (mine > td.sliceLen) {
            mine = td.sliceLen;
        }
        tileLen = td.tileLen;
        workLen = td.sumWorkLen;
        cores = td.usedCores;

        xGm.SetGlobalBuffer((__gm__ float *)x + begin, mine);
        yGm.SetGlobalBuffer((__gm__ float *)y + begin, mine);
        partGm.SetGlobalBuffer((__gm__ float *)usrWs, static_cast<uint64_t>(cores) * SLOT);

        pipe.InitBuffer(inQ, PINGPONG, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, PINGPONG, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(workBuf, workLen * sizeof(float));
        uint32_t tableLen = cores * SLOT;
        pipe.InitBuffer(tableBuf, (tableLen > tileLen ? tableLen : tileLen) * sizeof(float));
        pipe.InitBuffer(smallBuf, SLOT * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        SumOfSquares();
        SyncAll();
        float invNorm = InverseNorm();
        Scale(invNorm);
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, xGm[off], cp, pad);
        inQ.EnQue(t);
    }

    __aicore__ inline void SumOfSquares()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> sq = tableBuf.Get<float>();
        Duplicate(acc, 0.0f, tileLen);
        for (uint64_t off = 0; off < mine; off += tileLen) {
            uint32_t len = (mine - off) < tileLen ? static_cast<uint32_t>(mine - off) : tileLen;
            Load(off, len);
            LocalTensor<float> t = inQ.DeQue<float>();
            Mul(sq, t, t, len);
            Add(acc, acc, sq, len);
            inQ.FreeTensor(t);
        }
        LocalTensor<float> slot = outQ.AllocTensor<float>();
        Duplicate(slot, 0.0f, SLOT);
        LocalTensor<float> work = workBuf.Get<float>();
        ReduceSum<float>(slot, acc, work, tileLen);
        outQ.EnQue(slot);
        slot = outQ.DeQue<float>();
        DataCopy(partGm[static_cast<uint64_t>(GetBlockIdx()) * SLOT], slot, SLOT);
        outQ.FreeTensor(slot);
    }

    __aicore__ inline float InverseNorm()
    {
        LocalTensor<float> table = tableBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> s = smallBuf.Get<float>();

        DataCopy(table, partGm, cores * SLOT);
        event_t evMV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evMV);
        WaitFlag<HardEvent::MTE2_V>(evMV);

        // slots hold [partial, 0, 0, ...] so summing the whole table is exact
        ReduceSum<float>(s, table, work, cores * SLOT);
        Sqrt(s, s, 1);
        Duplicate(table, 1.0f, SLOT);
        Div(s, table, s, 1);

        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        return s.GetValue(0);
    }

    __aicore__ inline void Scale(float invNorm)
    {
        for (uint64_t off = 0; off < mine; off += tileLen) {
            uint32_t len = (mine - off) < tileLen ? static_cast<uint32_t>(mine - off) : tileLen;
            Load(off, len);
            LocalTensor<float> t = inQ.DeQue<float>();
            LocalTensor<float> o = outQ.AllocTensor<float>();
            Muls(o, t, invNorm, len);
            outQ.EnQue(o);
            inQ.FreeTensor(t);

            o = outQ.DeQue<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[off], o, cp);
            outQ.FreeTensor(o);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, PINGPONG> inQ;
    TQue<QuePosition::VECOUT, PINGPONG> outQ;
    TBuf<QuePosition::VECCALC> accBuf, workBuf, tableBuf, smallBuf;
    GlobalTensor<float> xGm, yGm, partGm;
    uint64_t mine = 0;
    uint32_t tileLen = 0, workLen = 0, cores = 1;
};

extern "C" __global__ __aicore__ void whole_tensor_l2_normalize_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    WholeTensorL2Normalize op;
    op.Init(x, y, usrWs, td);
    op.Process();
}
