/*
 * SoftmaxXentMean: mean over samples of  logsumexp(logits[i, :]) - logits[i, label[i]]
 * Samples whose label equals ignore_index are skipped (and not counted).
 *
 * Each core walks its rows in class chunks (max pass, then sum-of-exp pass), keeps
 * (loss sum, valid count) in registers and publishes them in the workspace.
 * After SyncAll core 0 folds the partials and writes the scalar result.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t PARTIAL_STRIDE = 8;

template <typename T, typename L>
class SoftmaxXentMeanKernel {
public:
    __aicore__ inline SoftmaxXentMeanKernel() {}
    __aicore__ inline void Init(GM_ADDR logits, GM_ADDR labels, GM_ADDR loss, GM_ADDR ws,
                                const SoftmaxXentMeanTilingData &t)
    {
        classes = t.classes;
        chunk = t.chunk;
        ignoreIndex = t.ignoreIndex;
        usedCores = t.usedCores;
        uint32_t id = GetBlockIdx();
        rowCount = t.rowsPerCore + (id < t.rowsTail ? 1 : 0);
        rowStart = id * t.rowsPerCore + (id < t.rowsTail ? id : t.rowsTail);

        logitGm.SetGlobalBuffer((__gm__ T *)logits);
        labelGm.SetGlobalBuffer((__gm__ L *)labels);
        lossGm.SetGlobalBuffer((__gm__ T *)loss, 1);
        partGm.SetGlobalBuffer((__gm__ float *)ws, usedCores * PARTIAL_STRIDE);

        pipe.InitBuffer(inQ, 2, chunk * sizeof(T));
        pipe.InitBuffer(f32Buf, chunk * sizeof(float));
        pipe.InitBuffer(workBuf, chunk * sizeof(float));
        pipe.InitBuffer(scalarBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        float lossSum = 0.0f;
        float valid = 0.0f;
        for (uint32_t i = 0; i < rowCount; ++i) {
            uint64_t row = rowStart + i;
            int64_t label = static_cast<int64_t>(labelGm.GetValue(row));
            if (label == ignoreIndex || label < 0 || label >= (int64_t)classes) {
                continue;
            }
            float mx = RowPass(row, 0.0f, true);
            float se = RowPass(row, mx, false);
            float picked = ToFloat(logitGm.GetValue(row * classes + label));
            lossSum += mx + ScalarLn(se) - picked;
            valid += 1.0f;
        }
        // publish partials
        LocalTensor<float> s = scalarBuf.Get<float>();
        s.SetValue(0, lossSum);
        s.SetValue(1, valid);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
        DataCopy(partGm[GetBlockIdx() * PARTIAL_STRIDE], s, PARTIAL_STRIDE);
        SyncAll();

        if (GetBlockIdx() == 0) {
            float total = 0.0f;
            float count = 0.0f;
            for (uint32_t c = 0; c < usedCores; ++c) {
                total += partGm.GetValue(c * PARTIAL_STRIDE);
                count += partGm.GetValue(c * PARTIAL_STRIDE + 1);
            }
            float mean = count > 0.0f ? total / count : 0.0f;
            lossGm.SetValue(0, FromFloat(mean));
            DataCacheCleanAndInvalid<T, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(lossGm);
        }
    }

private:
    __aicore__ inline float ToFloat(T v)
    {
        if constexpr (std::is_same<T, half>::value) {
            return static_cast<float>(v);
        } else {
            return v;
        }
    }
    __aicore__ inline T FromFloat(float v)
    {
        if constexpr (std::is_same<T, half>::value) {
            return static_cast<half>(v);
        } else {
            return v;
        }
    }

    // isMax: return row max; otherwise return sum(exp(x - shift))
    __aicore__ inline float RowPass(uint64_t row, float shift, bool isMax)
    {
        float acc = isMax ? -3.4e38f : 0.0f;
        for (uint32_t c0 = 0; c0 < classes; c0 += chunk) {
            uint32_t len = (classes - c0) < chunk ? (classes - c0) : chunk;
            LocalTensor<T> raw = inQ.AllocTensor<T>();
            DataCopyExtParams cp{1, len * (uint32_t)sizeof(T), 0, 0, 0};
            DataCopyPad(raw, logitGm[row * classes + c0], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQ.EnQue(raw);
            raw = inQ.DeQue<T>();
            LocalTensor<float> x = f32Buf.Get<float>();
            if constexpr (std::is_same<T, half>::value) {
                Cast(x, raw, RoundMode::CAST_NONE, len);
            } else {
                DataCopy(x, raw, (len + 7) / 8 * 8);
            }
            inQ.FreeTensor(raw);
            LocalTensor<float> work = workBuf.Get<float>();
            LocalTensor<float> r = scalarBuf.Get<float>();
            if (isMax) {
                ReduceMax(r, x, work, len, false);
            } else {
                Adds(x, x, -shift, len);
                Exp(x, x, len);
                ReduceSum(r, x, work, len);
            }
            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            float v = r.GetValue(0);
            if (isMax) {
                acc = v > acc ? v : acc;
            } else {
                acc += v;
            }
        }
        return acc;
    }

    // natural log of a scalar through the vector unit
    __aicore__ inline float ScalarLn(float v)
    {
        LocalTensor<float> s = scalarBuf.Get<float>();
        Duplicate(s, v, 8);
        Ln(s, s, 8);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return s.GetValue(0);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TBuf<TPosition::VECCALC> f32Buf, workBuf, scalarBuf;
    GlobalTensor<T> logitGm, lossGm;
    GlobalTensor<L> labelGm;
    GlobalTensor<float> partGm;
    uint32_t classes, chunk, rowStart, rowCount, usedCores;
    int64_t ignoreIndex;
};

extern "C" __global__ __aicore__ void softmax_xent_mean(GM_ADDR logits, GM_ADDR labels, GM_ADDR loss,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(1)) {
        SoftmaxXentMeanKernel<float, DTYPE_LABELS> k;
        k.Init(logits, labels, loss, usr, t);
        k.Process();
    } else if (TILING_KEY_IS(2)) {
        SoftmaxXentMeanKernel<half, DTYPE_LABELS> k;
        k.Init(logits, labels, loss, usr, t);
        k.Process();
    }
}
