/*
 * MeanAbsNormalize kernel:  y = x / mean(|x|) along one axis.
 *
 * Row mode  (reduced axis is innermost): each task is one row. Short rows are
 *           handled in a single UB pass; long rows use two passes (sum, scale).
 * Slab mode (reduced axis has trailing dims): each task is one slab of
 *           chunkLen contiguous inner positions for one outer index; |x| is
 *           accumulated elementwise over the reduced axis, then applied.
 * fp16 data is promoted to fp32 for both the statistic and the scaling.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T, bool ROW_MODE>
class MeanAbsNormalizeKernel {
    static constexpr int32_t DEPTH = 2;
    static constexpr bool IS_F32 = std::is_same<T, float>::value;

public:
    __aicore__ inline MeanAbsNormalizeKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MeanAbsNormalizeTilingData &tiling)
    {
        td = tiling;
        chunk = td.chunkLen;
        firstTask = GetBlockIdx() * td.tasksPerCore;
        lastTask = firstTask + td.tasksPerCore;
        if (lastTask > td.taskCount) {
            lastTask = td.taskCount;
        }
        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(inQue, DEPTH, chunk * sizeof(T));
        pipe.InitBuffer(outQue, DEPTH, chunk * sizeof(T));
        pipe.InitBuffer(absBuf, chunk * sizeof(float));
        pipe.InitBuffer(accBuf, chunk * sizeof(float));
        if constexpr (!IS_F32) {
            pipe.InitBuffer(castBuf, chunk * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = firstTask; task < lastTask; ++task) {
            if constexpr (ROW_MODE) {
                NormalizeRow(task);
            } else {
                NormalizeSlab(task / td.slabsPerOuter, task % td.slabsPerOuter);
            }
        }
    }

private:
    // ---------------------------------------------------------------- helpers
    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<T> buf = inQue.AllocTensor<T>();
        DataCopyPad(buf, xGm[off], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQue.EnQue(buf);
    }

    __aicore__ inline void Store(uint64_t off, uint32_t len)
    {
        LocalTensor<T> buf = outQue.DeQue<T>();
        DataCopyPad(yGm[off], buf, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
        outQue.FreeTensor(buf);
    }

    // fp32 view of a freshly dequeued input chunk
    __aicore__ inline LocalTensor<float> AsFloat(LocalTensor<T> &src, uint32_t len)
    {
        if constexpr (IS_F32) {
            return src;
        } else {
            LocalTensor<float> f = castBuf.Get<float>();
            Cast(f, src, RoundMode::CAST_NONE, len);
            PipeBarrier<PIPE_V>();
            return f;
        }
    }

    // dst(T, out queue) = src(fp32) * factor
    __aicore__ inline void EmitScaled(LocalTensor<float> &src, float factor, uint32_t len)
    {
        LocalTensor<T> dst = outQue.AllocTensor<T>();
        if constexpr (IS_F32) {
            Muls(dst, src, factor, len);
        } else {
            Muls(src, src, factor, len);
            PipeBarrier<PIPE_V>();
            Cast(dst, src, RoundMode::CAST_ROUND, len);
        }
        outQue.EnQue(dst);
    }

    __aicore__ inline float AbsSum(LocalTensor<float> &src, uint32_t len)
    {
        LocalTensor<float> a = absBuf.Get<float>();
        LocalTensor<float> work = accBuf.Get<float>();
        Abs(a, src, len);
        PipeBarrier<PIPE_V>();
        ReduceSum(a, a, work, len);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return a.GetValue(0);
    }

    // --------------------------------------------------------------- row mode
    __aicore__ inline void NormalizeRow(uint32_t row)
    {
        const uint32_t len = td.reduceLen;
        const uint64_t base = static_cast<uint64_t>(row) * len;
        const float n = static_cast<float>(len);

        if (len <= chunk) {
            Load(base, len);
            LocalTensor<T> xl = inQue.DeQue<T>();
            LocalTensor<float> xf = AsFloat(xl, len);
            const float s = AbsSum(xf, len);
            EmitScaled(xf, n / s, len);
            inQue.FreeTensor(xl);
            Store(base, len);
            return;
        }

        float s = 0.0f;
        for (uint32_t pos = 0; pos < len; pos += chunk) {
            const uint32_t cur = (len - pos) < chunk ? (len - pos) : chunk;
            Load(base + pos, cur);
            LocalTensor<T> xl = inQue.DeQue<T>();
            LocalTensor<float> xf = AsFloat(xl, cur);
            s += AbsSum(xf, cur);
            inQue.FreeTensor(xl);
        }
        const float factor = n / s;
        for (uint32_t pos = 0; pos < len; pos += chunk) {
            const uint32_t cur = (len - pos) < chunk ? (len - pos) : chunk;
            Load(base + pos, cur);
            LocalTensor<T> xl = inQue.DeQue<T>();
            LocalTensor<float> xf = AsFloat(xl, cur);
            EmitScaled(xf, factor, cur);
            inQue.FreeTensor(xl);
            Store(base + pos, cur);
        }
    }

    // -------------------------------------------------------------- slab mode
    __aicore__ inline void NormalizeSlab(uint32_t o, uint32_t slab)
    {
        const uint32_t i0 = slab * chunk;
        const uint32_t width = (td.inner - i0) < chunk ? (td.inner - i0) : chunk;
        const uint64_t planeBase = static_cast<uint64_t>(o) * td.reduceLen * td.inner + i0;

        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> a = absBuf.Get<float>();
        Duplicate(acc, 0.0f, width);
        for (uint32_t d = 0; d < td.reduceLen; ++d) {
            Load(planeBase + static_cast<uint64_t>(d) * td.inner, width);
            LocalTensor<T> xl = inQue.DeQue<T>();
            LocalTensor<float> xf = AsFloat(xl, width);
            Abs(a, xf, width);
            PipeBarrier<PIPE_V>();
            Add(acc, acc, a, width);
            PipeBarrier<PIPE_V>();
            inQue.FreeTensor(xl);
        }
        // acc <- reduceLen / sum|x|
        Duplicate(a, static_cast<float>(td.reduceLen), width);
        PipeBarrier<PIPE_V>();
        Div(acc, a, acc, width);
        PipeBarrier<PIPE_V>();

        for (uint32_t d = 0; d < td.reduceLen; ++d) {
            const uint64_t off = planeBase + static_cast<uint64_t>(d) * td.inner;
            Load(off, width);
            LocalTensor<T> xl = inQue.DeQue<T>();
            LocalTensor<float> xf = AsFloat(xl, width);
            LocalTensor<T> yl = outQue.AllocTensor<T>();
            if constexpr (IS_F32) {
                Mul(yl, xf, acc, width);
            } else {
                Mul(xf, xf, acc, width);
                PipeBarrier<PIPE_V>();
                Cast(yl, xf, RoundMode::CAST_ROUND, width);
            }
            outQue.EnQue(yl);
            inQue.FreeTensor(xl);
            Store(off, width);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, DEPTH> inQue;
    TQue<TPosition::VECOUT, DEPTH> outQue;
    TBuf<TPosition::VECCALC> absBuf, accBuf, castBuf;
    GlobalTensor<T> xGm, yGm;
    MeanAbsNormalizeTilingData td;
    uint32_t chunk = 0, firstTask = 0, lastTask = 0;
};

extern "C" __global__ __aicore__ void mean_abs_normalize(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        MeanAbsNormalizeKernel<float, true> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        MeanAbsNormalizeKernel<half, true> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        MeanAbsNormalizeKernel<float, false> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(3)) {
        MeanAbsNormalizeKernel<half, false> op;
        op.Init(x, y, td);
        op.Process();
    }
}
