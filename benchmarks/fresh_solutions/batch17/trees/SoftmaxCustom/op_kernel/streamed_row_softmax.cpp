/*
 * Softmax over the last axis for rows that may be far longer than UB.
 *
 * Pass A (online statistics): for every chunk, m_new = max(m, max(chunk)),
 *   s = s * exp(m - m_new) + sum(exp(chunk - m_new)).
 * Pass B: y = exp(x - m) / s, chunk by chunk.
 * Math is done in float32; float16 inputs are widened on load and narrowed on store.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class StreamedSoftmax {
public:
    __aicore__ inline StreamedSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const StreamedRowSoftmaxTilingData &td)
    {
        cols = td.cols;
        chunk = td.chunk;
        const uint32_t id = GetBlockIdx();
        rowCount = td.rowsPerCore + (id < td.extraRows ? 1 : 0);
        rowStart = id * td.rowsPerCore + (id < td.extraRows ? id : td.extraRows);
        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(inQ, 2, chunk * sizeof(T));
        pipe.InitBuffer(outQ, 2, chunk * sizeof(T));
        pipe.InitBuffer(fBuf, chunk * sizeof(float));
        pipe.InitBuffer(workBuf, chunk * sizeof(float));
        pipe.InitBuffer(scalBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            const uint64_t base = static_cast<uint64_t>(rowStart + r) * cols;
            float rowMax, rowSum;
            Statistics(base, rowMax, rowSum);
            Normalise(base, rowMax, 1.0f / rowSum);
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<T> in = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(in, xGm[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ.EnQue(in);
    }

    // dequeue a chunk and widen it into fBuf
    __aicore__ inline LocalTensor<float> Widen(uint32_t len)
    {
        LocalTensor<T> in = inQ.DeQue<T>();
        LocalTensor<float> f = fBuf.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(f, in, (len + 7) / 8 * 8);
        } else {
            Cast(f, in, RoundMode::CAST_NONE, len);
        }
        inQ.FreeTensor(in);
        return f;
    }

    __aicore__ inline void VecToScalar()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void ScalarToVec()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void Statistics(uint64_t base, float &m, float &s)
    {
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> sc = scalBuf.Get<float>();
        m = -3.402823466e+38f;
        s = 0.0f;
        for (uint32_t off = 0; off < cols; off += chunk) {
            const uint32_t len = (cols - off) < chunk ? (cols - off) : chunk;
            Load(base + off, len);
            LocalTensor<float> f = Widen(len);

            ReduceMax(sc, f, work, len, false);
            VecToScalar();
            const float cm = sc.GetValue(0);
            const float mNew = cm > m ? cm : m;
            // rescale factor exp(m - mNew) computed on the vector unit
            sc.SetValue(8, m - mNew);
            ScalarToVec();
            Exp(sc[8], sc[8], 1);
            Adds(f, f, -mNew, len);
            Exp(f, f, len);
            ReduceSum(sc[16], f, work, len);
            VecToScalar();
            s = s * sc.GetValue(8) + sc.GetValue(16);
            m = mNew;
        }
    }

    __aicore__ inline void Normalise(uint64_t base, float m, float invSum)
    {
        for (uint32_t off = 0; off < cols; off += chunk) {
            const uint32_t len = (cols - off) < chunk ? (cols - off) : chunk;
            Load(base + off, len);
            LocalTensor<float> f = Widen(len);
            Adds(f, f, -m, len);
            Exp(f, f, len);
            Muls(f, f, invSum, len);

            LocalTensor<T> out = outQ.AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                DataCopy(out, f, (len + 7) / 8 * 8);
            } else {
                Cast(out, f, RoundMode::CAST_ROUND, len);
            }
            outQ.EnQue(out);
            out = outQ.DeQue<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[base + off], out, cp);
            outQ.FreeTensor(out);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> fBuf, workBuf, scalBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t cols = 0, chunk = 0, rowStart = 0, rowCount = 0;
};

extern "C" __global__ __aicore__ void streamed_row_softmax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    StreamedSoftmax<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
