// y = x / mean(|x|, axis=1, keepdim=True)
//
// The input is viewed as (outer, R, inner) with R the reduced axis.
//  * Row mode (inner == 1): a work unit is one row of R contiguous values. Pass 1
//    streams the row and accumulates sum|x| with ReduceSum; pass 2 streams it again
//    and multiplies by R / sum. When the row fits in one tile it stays resident in
//    UB between the passes and is read only once.
//  * Strided mode (inner > 1): a work unit is (o, chunk of inner). Pass 1 adds |x|
//    of each of the R slices element-wise into an accumulator vector; pass 2 scales
//    each slice by R / acc.
// All arithmetic is done in float32; float16 inputs are cast on the way in/out.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class MeanAbsNormalizeKernel {
public:
    __aicore__ inline MeanAbsNormalizeKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MeanAbsNormalizeTilingData& t)
    {
        R = t.reduceLen;
        inner = t.inner;
        tile = t.tileLen;
        innerChunks = t.innerChunks;
        uint32_t b = GetBlockIdx();
        unitCount = t.unitsPerCore + (b < t.unitsRemain ? 1 : 0);
        unitBegin = b * t.unitsPerCore + (b < t.unitsRemain ? b : t.unitsRemain);

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        pipe.InitBuffer(inQ, 2, tile * sizeof(T));
        pipe.InitBuffer(outQ, 2, tile * sizeof(T));
        pipe.InitBuffer(fBuf, tile * sizeof(float));   // float copy of the current tile
        pipe.InitBuffer(accBuf, tile * sizeof(float)); // |x| sums / scale vector
        pipe.InitBuffer(tmpBuf, tile * sizeof(float)); // ReduceSum scratch
    }

    __aicore__ inline void ProcessRows()
    {
        for (uint32_t u = 0; u < unitCount; ++u) {
            uint64_t base = (uint64_t)(unitBegin + u) * R;
            if (R <= tile) {
                RowResident(base);
            } else {
                RowStreamed(base);
            }
        }
    }

    __aicore__ inline void ProcessStrided()
    {
        for (uint32_t u = 0; u < unitCount; ++u) {
            uint32_t unit = unitBegin + u;
            uint32_t o = unit / innerChunks;
            uint32_t i0 = (unit % innerChunks) * tile;
            uint32_t len = (inner - i0) < tile ? (inner - i0) : tile;
            uint64_t base = (uint64_t)o * R * inner + i0;

            LocalTensor<float> acc = accBuf.Get<float>();
            LocalTensor<float> xf = fBuf.Get<float>();
            Duplicate(acc, 0.0f, len);
            for (uint32_t r = 0; r < R; ++r) {
                Load(base + (uint64_t)r * inner, len);
                ToFloat(xf, len);
                Abs(xf, xf, len);
                Add(acc, acc, xf, len);
            }
            // acc <- R / acc (i.e. 1 / mean)
            LocalTensor<float> num = tmpBuf.Get<float>();
            Duplicate(num, static_cast<float>(R), len);
            Div(acc, num, acc, len);
            for (uint32_t r = 0; r < R; ++r) {
                Load(base + (uint64_t)r * inner, len);
                ToFloat(xf, len);
                Mul(xf, xf, acc, len);
                Store(xf, base + (uint64_t)r * inner, len);
            }
        }
    }

private:
    __aicore__ inline void RowResident(uint64_t base)
    {
        LocalTensor<float> xf = fBuf.Get<float>();
        LocalTensor<float> absv = accBuf.Get<float>();
        LocalTensor<float> work = tmpBuf.Get<float>();
        Load(base, R);
        ToFloat(xf, R);
        Abs(absv, xf, R);
        ReduceSum<float>(absv, absv, work, R);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        float sum = absv.GetValue(0);
        float scale = static_cast<float>(R) / sum;
        Muls(xf, xf, scale, R);
        Store(xf, base, R);
    }

    __aicore__ inline void RowStreamed(uint64_t base)
    {
        LocalTensor<float> xf = fBuf.Get<float>();
        LocalTensor<float> absv = accBuf.Get<float>();
        LocalTensor<float> work = tmpBuf.Get<float>();
        float sum = 0.0f;
        for (uint32_t c = 0; c < R; c += tile) {
            uint32_t len = (R - c) < tile ? (R - c) : tile;
            Load(base + c, len);
            ToFloat(xf, len);
            Abs(absv, xf, len);
            ReduceSum<float>(absv, absv, work, len);
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            sum += absv.GetValue(0);
        }
        float scale = static_cast<float>(R) / sum;
        for (uint32_t c = 0; c < R; c += tile) {
            uint32_t len = (R - c) < tile ? (R - c) : tile;
            Load(base + c, len);
            ToFloat(xf, len);
            Muls(xf, xf, scale, len);
            Store(xf, base + c, len);
        }
    }

    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = inQ.AllocTensor<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(t, xGm[off], p, pad);
        inQ.EnQue(t);
    }

    // Dequeue the loaded tile and widen it into dst (float).
    __aicore__ inline void ToFloat(LocalTensor<float>& dst, uint32_t len)
    {
        LocalTensor<T> t = inQ.DeQue<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(dst, t, (len + 7) / 8 * 8);
        } else {
            Cast(dst, t, RoundMode::CAST_NONE, len);
        }
        inQ.FreeTensor(t);
    }

    __aicore__ inline void Store(LocalTensor<float>& src, uint64_t off, uint32_t len)
    {
        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(o, src, (len + 7) / 8 * 8);
        } else {
            Cast(o, src, RoundMode::CAST_ROUND, len);
        }
        outQ.EnQue(o);
        o = outQ.DeQue<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], o, p);
        outQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> fBuf, accBuf, tmpBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t R, inner, tile, innerChunks;
    uint32_t unitBegin, unitCount;
};

extern "C" __global__ __aicore__ void mean_abs_normalize(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(10)) {
        MeanAbsNormalizeKernel<float> k;
        k.Init(x, y, t);
        k.ProcessRows();
    } else if (TILING_KEY_IS(11)) {
        MeanAbsNormalizeKernel<half> k;
        k.Init(x, y, t);
        k.ProcessRows();
    } else if (TILING_KEY_IS(20)) {
        MeanAbsNormalizeKernel<float> k;
        k.Init(x, y, t);
        k.ProcessStrided();
    } else if (TILING_KEY_IS(21)) {
        MeanAbsNormalizeKernel<half> k;
        k.Init(x, y, t);
        k.ProcessStrided();
    }
}
