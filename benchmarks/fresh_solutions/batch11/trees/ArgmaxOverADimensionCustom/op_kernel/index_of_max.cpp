// IndexOfMax: position of the maximum along one axis. The input is viewed as
// [outer, reduceLen, inner]. Ties resolve to the first (smallest) index.
#include "kernel_operator.h"

using namespace AscendC;

// Column mode (inner > 1): a unit is (outer row, tile of inner columns). Running max and running
// index are kept per column; every reduce step is Compare(GT) + two Selects.
template <typename T>
class IndexOfMaxColumns {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const IndexOfMaxTilingData &t)
    {
        td = t;
        xGm.SetGlobalBuffer((__gm__ T *)x, (uint64_t)t.outer * t.reduceLen * t.inner);
        yGm.SetGlobalBuffer((__gm__ int64_t *)y, (uint64_t)t.outer * t.inner);
        const uint32_t n = t.tileLen;
        pipe.InitBuffer(inQ, 2, n * sizeof(T));
        pipe.InitBuffer(outQ, 1, n * sizeof(int64_t));
        pipe.InitBuffer(bestBuf, n * sizeof(T));
        pipe.InitBuffer(idxBuf, n * sizeof(float));
        pipe.InitBuffer(stepBuf, n * sizeof(float));
        pipe.InitBuffer(maskBuf, n / 8);
        pipe.InitBuffer(i32Buf, n * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        uint32_t u0 = GetBlockIdx() * td.unitsPerCore;
        uint32_t u1 = u0 + td.unitsPerCore < td.totalUnits ? u0 + td.unitsPerCore : td.totalUnits;
        for (uint32_t u = u0; u < u1; ++u) {
            const uint32_t o = u / td.tilesPerOuter;
            const uint32_t c0 = (u % td.tilesPerOuter) * td.tileLen;
            const uint32_t cols = td.inner - c0 < td.tileLen ? td.inner - c0 : td.tileLen;
            Unit(o, c0, cols);
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t cols)
    {
        LocalTensor<T> t = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(t, xGm[off], cp, pad);
        inQ.EnQue(t);
    }

    __aicore__ inline void Unit(uint32_t o, uint32_t c0, uint32_t cols)
    {
        const uint32_t n = td.tileLen;
        const uint64_t base = (uint64_t)o * td.reduceLen * td.inner + c0;
        LocalTensor<T> best = bestBuf.Get<T>();
        LocalTensor<float> idx = idxBuf.Get<float>();
        LocalTensor<float> step = stepBuf.Get<float>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();

        // r = 0 seeds the running maximum
        Load(base, cols);
        LocalTensor<T> cur = inQ.DeQue<T>();
        DataCopy(best, cur, n);
        inQ.FreeTensor(cur);
        Duplicate(idx, 0.0f, n);

        for (uint32_t r = 1; r < td.reduceLen; ++r) {
            Load(base + (uint64_t)r * td.inner, cols);
            cur = inQ.DeQue<T>();
            Compare(mask, cur, best, CMPMODE::GT, n);                 // strictly greater keeps first max
            Select(best, mask, cur, best, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
            Duplicate(step, static_cast<float>(r), n);               // exact for r < 2^24
            Select(idx, mask, step, idx, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
            inQ.FreeTensor(cur);
        }

        LocalTensor<int32_t> i32 = i32Buf.Get<int32_t>();
        LocalTensor<int64_t> out = outQ.AllocTensor<int64_t>();
        Cast(i32, idx, RoundMode::CAST_RINT, n);
        Cast(out, i32, RoundMode::CAST_NONE, n);
        outQ.EnQue(out);
        out = outQ.DeQue<int64_t>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(int64_t)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)o * td.inner + c0], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    IndexOfMaxTilingData td;
    GlobalTensor<T> xGm;
    GlobalTensor<int64_t> yGm;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> bestBuf, idxBuf, stepBuf, maskBuf, i32Buf;
};

// Row mode (inner == 1): each unit is one contiguous row; the row is scanned in chunks with
// ReduceMax(calIndex = true) and chunk winners are merged on the scalar unit.
template <typename T>
class IndexOfMaxRows {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const IndexOfMaxTilingData &t)
    {
        td = t;
        xGm.SetGlobalBuffer((__gm__ T *)x, (uint64_t)t.outer * t.reduceLen);
        yGm.SetGlobalBuffer((__gm__ int64_t *)y, t.outer);
        pipe.InitBuffer(inQ, 2, t.tileLen * sizeof(T));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, t.tileLen * sizeof(T));
        pipe.InitBuffer(outBuf, 64 * sizeof(int64_t));
    }

    __aicore__ inline void Process()
    {
        uint32_t u0 = GetBlockIdx() * td.unitsPerCore;
        uint32_t u1 = u0 + td.unitsPerCore < td.totalUnits ? u0 + td.unitsPerCore : td.totalUnits;
        LocalTensor<int64_t> outL = outBuf.Get<int64_t>();
        uint32_t pending = 0;
        uint32_t firstRow = u0;
        for (uint32_t u = u0; u < u1; ++u) {
            outL.SetValue(pending++, static_cast<int64_t>(ScanRow(u)));
            if (pending == 32 || u + 1 == u1) {
                event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
                SetFlag<HardEvent::S_MTE3>(e);
                WaitFlag<HardEvent::S_MTE3>(e);
                DataCopyExtParams cp{1, static_cast<uint32_t>(pending * sizeof(int64_t)), 0, 0, 0};
                DataCopyPad(yGm[firstRow], outL, cp);
                event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
                SetFlag<HardEvent::MTE3_S>(e2);
                WaitFlag<HardEvent::MTE3_S>(e2);
                firstRow += pending;
                pending = 0;
            }
        }
    }

private:
    __aicore__ inline uint32_t ScanRow(uint32_t row)
    {
        LocalTensor<T> red = redBuf.Get<T>();
        LocalTensor<T> work = workBuf.Get<T>();
        float bestVal = 0.0f;
        uint32_t bestIdx = 0;
        const uint64_t base = (uint64_t)row * td.reduceLen;
        for (uint32_t k0 = 0; k0 < td.reduceLen; k0 += td.tileLen) {
            const uint32_t len = td.reduceLen - k0 < td.tileLen ? td.reduceLen - k0 : td.tileLen;
            LocalTensor<T> chunk = inQ.AllocTensor<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            DataCopyPad(chunk, xGm[base + k0], cp, pad);
            inQ.EnQue(chunk);
            chunk = inQ.DeQue<T>();
            ReduceMax<T>(red, chunk, work, len, true);
            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e);
            WaitFlag<HardEvent::V_S>(e);
            const float v = static_cast<float>(red.GetValue(0));
            uint32_t pos;
            if constexpr (sizeof(T) == 2) {
                pos = static_cast<uint32_t>(red.template ReinterpretCast<uint16_t>().GetValue(1));
            } else {
                pos = red.template ReinterpretCast<uint32_t>().GetValue(1);
            }
            if (k0 == 0 || v > bestVal) {
                bestVal = v;
                bestIdx = k0 + pos;
            }
            inQ.FreeTensor(chunk);
        }
        return bestIdx;
    }

    TPipe pipe;
    IndexOfMaxTilingData td;
    GlobalTensor<T> xGm;
    GlobalTensor<int64_t> yGm;
    TQue<QuePosition::VECIN, 2> inQ;
    TBuf<TPosition::VECCALC> redBuf, workBuf, outBuf;
};

extern "C" __global__ __aicore__ void index_of_max(GM_ADDR x, GM_ADDR indices, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(10)) {
        IndexOfMaxColumns<float> op;
        op.Init(x, indices, td);
        op.Process();
    } else if (TILING_KEY_IS(11)) {
        IndexOfMaxColumns<half> op;
        op.Init(x, indices, td);
        op.Process();
    } else if (TILING_KEY_IS(20)) {
        IndexOfMaxRows<float> op;
        op.Init(x, indices, td);
        op.Process();
    } else if (TILING_KEY_IS(21)) {
        IndexOfMaxRows<half> op;
        op.Init(x, indices, td);
        op.Process();
    }
}
