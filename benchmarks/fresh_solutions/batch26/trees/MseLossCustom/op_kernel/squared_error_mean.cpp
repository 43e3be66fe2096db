// mean((predict - label)^2) over every element.
// Pass 1: each core accumulates its slice elementwise in fp32 and reduces it to one partial.
// Pass 2: after a core barrier, core 0 adds the partials and scales by 1/N.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class SquaredErrorMeanOp {
public:
    __aicore__ inline SquaredErrorMeanOp() {}
    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR label, GM_ADDR loss, GM_ADDR ws,
                                const SquaredErrorMeanTilingData &td)
    {
        tile = td.tileNum;
        cores = td.usedCores;
        inv = td.invTotal;
        uint64_t start = td.perCoreNum * GetBlockIdx();
        myLen = 0;
        if (start < td.totalNum) {
            myLen = (start + td.perCoreNum > td.totalNum) ? td.totalNum - start : td.perCoreNum;
        }
        pGm.SetGlobalBuffer((__gm__ T *)pred + start);
        lGm.SetGlobalBuffer((__gm__ T *)label + start);
        outGm.SetGlobalBuffer((__gm__ T *)loss, 1);
        partGm.SetGlobalBuffer((__gm__ float *)ws, cores * 8);

        pipe.InitBuffer(pQ, 2, tile * sizeof(T));
        pipe.InitBuffer(lQ, 2, tile * sizeof(T));
        pipe.InitBuffer(diffBuf, tile * sizeof(float));
        pipe.InitBuffer(accBuf, tile * sizeof(float));
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(castBuf, tile * sizeof(float));
        }
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, tile);
        uint32_t rounds = static_cast<uint32_t>((myLen + tile - 1) / tile);
        for (uint32_t i = 0; i < rounds; ++i) {
            uint32_t cnt = (i == rounds - 1) ? static_cast<uint32_t>(myLen - static_cast<uint64_t>(i) * tile) : tile;
            CopyIn(i, cnt);
            Accumulate(cnt);
        }
        WritePartial(acc);
        SyncAll();
        if (GetBlockIdx() == 0) {
            Finalize();
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t cnt)
    {
        LocalTensor<T> a = pQ.AllocTensor<T>();
        LocalTensor<T> b = lQ.AllocTensor<T>();
        DataCopyExtParams prm(1, cnt * sizeof(T), 0, 0, 0);
        DataCopyPadExtParams<T> pad(false, 0, 0, 0);
        DataCopyPad(a, pGm[static_cast<uint64_t>(i) * tile], prm, pad);
        DataCopyPad(b, lGm[static_cast<uint64_t>(i) * tile], prm, pad);
        pQ.EnQue(a);
        lQ.EnQue(b);
    }

    __aicore__ inline void Accumulate(uint32_t cnt)
    {
        LocalTensor<T> a = pQ.DeQue<T>();
        LocalTensor<T> b = lQ.DeQue<T>();
        LocalTensor<float> d = diffBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            Sub(d, a, b, cnt);
        } else {
            // widen before subtracting so that the difference does not lose precision
            LocalTensor<float> tmp = castBuf.Get<float>();
            Cast(d, a, RoundMode::CAST_NONE, cnt);
            Cast(tmp, b, RoundMode::CAST_NONE, cnt);
            Sub(d, d, tmp, cnt);
        }
        Mul(d, d, d, cnt);
        Add(acc, acc, d, cnt);
        pQ.FreeTensor(a);
        lQ.FreeTensor(b);
    }

    __aicore__ inline void WritePartial(LocalTensor<float> &acc)
    {
        LocalTensor<float> r = redBuf.Get<float>();
        LocalTensor<float> work = diffBuf.Get<float>();
        ReduceSum<float>(r, acc, work, tile);
        event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float s = r.GetValue(0);
        for (int k = 1; k < 8; ++k) {
            r.SetValue(k, 0.0f);
        }
        r.SetValue(0, s);
        event_t sm = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sm);
        WaitFlag<HardEvent::S_MTE3>(sm);
        DataCopy(partGm[GetBlockIdx() * 8], r, 8);
    }

    __aicore__ inline void Finalize()
    {
        LocalTensor<float> all = accBuf.Get<float>();
        LocalTensor<float> r = redBuf.Get<float>();
        LocalTensor<float> work = diffBuf.Get<float>();
        DataCopy(all, partGm, cores * 8);   // slots are zero-padded, so a flat sum is exact
        event_t mv = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mv);
        WaitFlag<HardEvent::MTE2_V>(mv);
        ReduceSum<float>(r, all, work, cores * 8);
        Muls(r, r, inv, 8);
        LocalTensor<T> o = pQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(o, r, 8);
        } else {
            Cast(o, r, RoundMode::CAST_ROUND, 8);
        }
        event_t vm = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vm);
        WaitFlag<HardEvent::V_MTE3>(vm);
        DataCopyPad(outGm, o, DataCopyExtParams(1, sizeof(T), 0, 0, 0));
        pQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> pQ, lQ;
    TBuf<TPosition::VECCALC> diffBuf, accBuf, castBuf, redBuf;
    GlobalTensor<T> pGm, lGm, outGm;
    GlobalTensor<float> partGm;
    uint64_t myLen;
    uint32_t tile, cores;
    float inv;
};

extern "C" __global__ __aicore__ void squared_error_mean(GM_ADDR predict, GM_ADDR label, GM_ADDR loss,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    SquaredErrorMeanOp<DTYPE_PREDICT> op;
    op.Init(predict, label, loss, usr, td);
    op.Process();
}
