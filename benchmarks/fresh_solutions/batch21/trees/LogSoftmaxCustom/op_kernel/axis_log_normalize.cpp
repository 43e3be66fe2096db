// AxisLogNormalize: y = x - max(x) - log(sum(exp(x - max(x)))) along one axis.
//
// RowMode  (axis innermost): one task = one row, streamed in tiles; three passes
//          (max, sum of exp, write) with scalar row statistics.
// ColMode  (axis strided):   one task = (outer index, slice of inner); the slice
//          of every axis position is contiguous, so max / sum are kept as vectors
//          and updated online: s = s * exp(m - m') + exp(x - m').
#include "kernel_operator.h"
using namespace AscendC;

template <HardEvent E>
__aicore__ inline void WaitEvent()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(e);
    WaitFlag<E>(e);
}

template <typename T>
class AxisLogNormalizeKernel {
public:
    __aicore__ inline AxisLogNormalizeKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisLogNormalizeTilingData &td)
    {
        t = td;
        uint32_t id = GetBlockIdx();
        myTasks = t.taskPerCore + (id < t.taskRemain ? 1 : 0);
        firstTask = id * t.taskPerCore + (id < t.taskRemain ? id : t.taskRemain);
        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(inQ, 2, t.tileLen * sizeof(T));
        pipe.InitBuffer(outQ, 2, t.tileLen * sizeof(T));
        pipe.InitBuffer(calc, 4 * t.tileLen * sizeof(float));   // x, m, s, tmp
    }

    __aicore__ inline void RowMode()
    {
        LocalTensor<float> fx = calc.Get<float>();
        LocalTensor<float> red = fx[t.tileLen];
        LocalTensor<float> work = fx[2 * t.tileLen];
        for (uint32_t i = 0; i < myTasks; ++i) {
            uint64_t base = (uint64_t)(firstTask + i) * t.axisLen;
            float mx = -3.4e38f;
            for (uint32_t c = 0; c < t.axisLen; c += t.tileLen) {
                uint32_t n = Len(c);
                Load(base + c, n, fx);
                ReduceMax(red, fx, work, n, false);
                WaitEvent<HardEvent::V_S>();
                float v = red.GetValue(0);
                mx = v > mx ? v : mx;
            }
            float sum = 0.0f;
            for (uint32_t c = 0; c < t.axisLen; c += t.tileLen) {
                uint32_t n = Len(c);
                Load(base + c, n, fx);
                Adds(fx, fx, -mx, n);
                Exp(fx, fx, n);
                ReduceSum(red, fx, work, n);
                WaitEvent<HardEvent::V_S>();
                sum += red.GetValue(0);
            }
            Duplicate(red, sum, 8);
            Ln(red, red, 8);
            WaitEvent<HardEvent::V_S>();
            float shift = -(mx + red.GetValue(0));
            for (uint32_t c = 0; c < t.axisLen; c += t.tileLen) {
                uint32_t n = Len(c);
                Load(base + c, n, fx);
                Adds(fx, fx, shift, n);
                Store(base + c, n, fx);
            }
        }
    }

    __aicore__ inline void ColMode()
    {
        LocalTensor<float> fx = calc.Get<float>();
        LocalTensor<float> m = fx[t.tileLen];
        LocalTensor<float> s = fx[2 * t.tileLen];
        LocalTensor<float> tmp = fx[3 * t.tileLen];
        uint64_t axisStride = t.inner;
        for (uint32_t i = 0; i < myTasks; ++i) {
            uint32_t task = firstTask + i;
            uint32_t o = task / t.innerTiles;
            uint32_t it = task % t.innerTiles;
            uint32_t j0 = it * t.tileLen;
            uint32_t n = (t.inner - j0) < t.tileLen ? (t.inner - j0) : t.tileLen;
            uint64_t base = (uint64_t)o * t.axisLen * t.inner + j0;

            Duplicate(m, -3.4e38f, n);
            Duplicate(s, 0.0f, n);
            for (uint32_t a = 0; a < t.axisLen; ++a) {
                Load(base + a * axisStride, n, fx);
                Max(tmp, m, fx, n);          // m'
                Sub(m, m, tmp, n);           // m - m'
                Exp(m, m, n);
                Mul(s, s, m, n);             // rescale old sum
                Sub(fx, fx, tmp, n);
                Exp(fx, fx, n);
                Add(s, s, fx, n);
                DataCopy(m, tmp, (n + 7) / 8 * 8);
            }
            Ln(s, s, n);
            Add(m, m, s, n);                 // log-normaliser per inner position
            for (uint32_t a = 0; a < t.axisLen; ++a) {
                Load(base + a * axisStride, n, fx);
                Sub(fx, fx, m, n);
                Store(base + a * axisStride, n, fx);
            }
        }
    }

private:
    __aicore__ inline uint32_t Len(uint32_t c) { return (t.axisLen - c) < t.tileLen ? (t.axisLen - c) : t.tileLen; }

    __aicore__ inline void Load(uint64_t off, uint32_t n, LocalTensor<float> &dst)
    {
        LocalTensor<T> in = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, n * (uint32_t)sizeof(T), 0, 0, 0};
        DataCopyPad(in, xGm[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ.EnQue(in);
        in = inQ.DeQue<T>();
        if constexpr (std::is_same<T, half>::value) {
            Cast(dst, in, RoundMode::CAST_NONE, n);
        } else {
            Adds(dst, in, 0.0f, n);
        }
        inQ.FreeTensor(in);
    }

    __aicore__ inline void Store(uint64_t off, uint32_t n, LocalTensor<float> &src)
    {
        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, half>::value) {
            Cast(out, src, RoundMode::CAST_ROUND, n);
        } else {
            Adds(out, src, 0.0f, n);
        }
        outQ.EnQue(out);
        out = outQ.DeQue<T>();
        DataCopyExtParams cp{1, n * (uint32_t)sizeof(T), 0, 0, 0};
        DataCopyPad(yGm[off], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> calc;
    GlobalTensor<T> xGm, yGm;
    AxisLogNormalizeTilingData t;
    uint32_t myTasks, firstTask;
};

extern "C" __global__ __aicore__ void axis_log_normalize(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(11)) {
        AxisLogNormalizeKernel<float> k; k.Init(x, y, td); k.RowMode();
    } else if (TILING_KEY_IS(12)) {
        AxisLogNormalizeKernel<float> k; k.Init(x, y, td); k.ColMode();
    } else if (TILING_KEY_IS(21)) {
        AxisLogNormalizeKernel<half> k; k.Init(x, y, td); k.RowMode();
    } else if (TILING_KEY_IS(22)) {
        AxisLogNormalizeKernel<half> k; k.Init(x, y, td); k.ColMode();
    }
}
