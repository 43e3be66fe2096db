/*
 * SoftmaxNllMean kernel.
 *
 * loss = (1 / V) * sum_{i valid} [ log(sum_c exp(z[i, c])) - z[i, t_i] ],   V = #valid rows
 *
 * Per row the log-sum-exp is computed in a numerically stable way (max subtraction). Rows are
 * processed in groups: max / sum-of-exp / target logit of each row are parked in small UB
 * vectors and the group is finalised with one Ln + Add + Sub + ReduceSum.
 * Every core leaves (partial loss, valid count) in the user workspace; after a cross-core barrier
 * core 0 reduces them and writes the scalar result.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t IN_DEPTH = 2;

template <typename T, typename TIdx>
class SoftmaxNllMeanKernel {
public:
    __aicore__ inline SoftmaxNllMeanKernel() {}

    __aicore__ inline void Init(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR userWs,
                                const SoftmaxNllMeanTilingData& tiling)
    {
        cfg = tiling;
        coreId = GetBlockIdx();
        rowFirst = coreId * cfg.rowsPerCore + (coreId < cfg.rowsTail ? coreId : cfg.rowsTail);
        rowNum = cfg.rowsPerCore + (coreId < cfg.rowsTail ? 1 : 0);

        zGm.SetGlobalBuffer((__gm__ T*)logits);
        tGm.SetGlobalBuffer((__gm__ TIdx*)target);
        lossGm.SetGlobalBuffer((__gm__ T*)loss);
        partGm.SetGlobalBuffer((__gm__ float*)userWs);

        pipe.InitBuffer(chunkQ, IN_DEPTH, cfg.colTile * sizeof(T));
        pipe.InitBuffer(work, cfg.colTile * sizeof(float));
        pipe.InitBuffer(redWork, cfg.colTile * sizeof(float));
        pipe.InitBuffer(scal, 64 * sizeof(float));
        pipe.InitBuffer(stats, 3 * cfg.rowGroup * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        float lossSum = 0.0f;
        float valid = 0.0f;
        LocalTensor<float> st = stats.Get<float>();
        LocalTensor<float> gMax = st;
        LocalTensor<float> gSum = st[cfg.rowGroup];
        LocalTensor<float> gTgt = st[2 * cfg.rowGroup];

        for (uint32_t g0 = 0; g0 < rowNum; g0 += cfg.rowGroup) {
            const uint32_t gCnt = (rowNum - g0) < cfg.rowGroup ? (rowNum - g0) : cfg.rowGroup;
            for (uint32_t i = 0; i < gCnt; ++i) {
                const uint64_t row = rowFirst + g0 + i;
                const int64_t t = static_cast<int64_t>(tGm.GetValue(row));
                if (t == cfg.ignoreIndex || t < 0 || t >= static_cast<int64_t>(cfg.classes)) {
                    // contributes log(1) + 0 - 0 = 0 and is not counted
                    gMax.SetValue(i, 0.0f);
                    gSum.SetValue(i, 1.0f);
                    gTgt.SetValue(i, 0.0f);
                    continue;
                }
                float m = 0.0f;
                float s = 0.0f;
                RowLogSumExp(row, m, s);
                gMax.SetValue(i, m);
                gSum.SetValue(i, s);
                gTgt.SetValue(i, static_cast<float>(zGm.GetValue(row * cfg.classes + static_cast<uint64_t>(t))));
                valid += 1.0f;
            }
            // group finalisation: sum_i (ln(sum_i) + max_i - target_i)
            Sync<HardEvent::S_V>();
            Ln(gSum, gSum, gCnt);
            Add(gSum, gSum, gMax, gCnt);
            Sub(gSum, gSum, gTgt, gCnt);
            LocalTensor<float> r = scal.Get<float>();
            ReduceSum(r, gSum, redWork.Get<float>(), gCnt);
            Sync<HardEvent::V_S>();
            lossSum += r.GetValue(0);
        }
        Publish(lossSum, valid);
        Finalise();
    }

private:
    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    __aicore__ inline uint32_t ChunkLen(uint32_t k)
    {
        const uint32_t rest = cfg.classes - k * cfg.colTile;
        return rest < cfg.colTile ? rest : cfg.colTile;
    }

    // Loads chunk k of a row and leaves it as fp32 in `work`.
    __aicore__ inline void LoadChunk(uint64_t row, uint32_t k)
    {
        const uint32_t len = ChunkLen(k);
        LocalTensor<T> raw = chunkQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(raw, zGm[row * cfg.classes + static_cast<uint64_t>(k) * cfg.colTile], cp, pad);
        chunkQ.EnQue(raw);
        raw = chunkQ.DeQue<T>();
        LocalTensor<float> w = work.Get<float>();
        if constexpr (sizeof(T) == sizeof(float)) {
            Adds(w, raw, 0.0f, len);
        } else {
            Cast(w, raw, RoundMode::CAST_NONE, len);
        }
        chunkQ.FreeTensor(raw);
    }

    __aicore__ inline float ReduceScalar(bool isMax, uint32_t len)
    {
        LocalTensor<float> r = scal.Get<float>();
        if (isMax) {
            ReduceMax(r, work.Get<float>(), redWork.Get<float>(), len, false);
        } else {
            ReduceSum(r, work.Get<float>(), redWork.Get<float>(), len);
        }
        Sync<HardEvent::V_S>();
        return r.GetValue(0);
    }

    __aicore__ inline void RowLogSumExp(uint64_t row, float& rowMax, float& rowSum)
    {
        LocalTensor<float> w = work.Get<float>();
        // pass 1: maximum
        rowMax = -3.4e38f;
        for (uint32_t k = 0; k < cfg.colChunks; ++k) {
            LoadChunk(row, k);
            const float m = ReduceScalar(true, ChunkLen(k));
            rowMax = m > rowMax ? m : rowMax;
        }
        // pass 2: sum of exp(z - max); the single-chunk case reuses the resident data
        rowSum = 0.0f;
        for (uint32_t k = 0; k < cfg.colChunks; ++k) {
            const uint32_t len = ChunkLen(k);
            if (cfg.colChunks > 1) {
                LoadChunk(row, k);
            }
            Adds(w, w, -rowMax, len);
            Exp(w, w, len);
            rowSum += ReduceScalar(false, len);
        }
    }

    // Each core writes {lossSum, validCount} into its 32B slot of the workspace.
    __aicore__ inline void Publish(float lossSum, float valid)
    {
        LocalTensor<float> r = scal.Get<float>();
        r.SetValue(0, lossSum);
        r.SetValue(1, valid);
        Sync<HardEvent::S_MTE3>();
        DataCopyExtParams cp{1, 2 * sizeof(float), 0, 0, 0};
        DataCopyPad(partGm[coreId * 8], r, cp);
        PipeBarrier<PIPE_ALL>();
        SyncAll();
    }

    __aicore__ inline void Finalise()
    {
        if (coreId != 0) {
            return;
        }
        LocalTensor<float> w = work.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cfg.coreUsed * 8 * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(w, partGm, cp, pad);
        Sync<HardEvent::MTE2_S>();
        float total = 0.0f;
        float count = 0.0f;
        for (uint32_t c = 0; c < cfg.coreUsed; ++c) {
            total += w.GetValue(c * 8);
            count += w.GetValue(c * 8 + 1);
        }
        // mean over non-ignored rows; 0/0 gives NaN as in the reference definition
        const float mean = total / count;
        LocalTensor<T> o = chunkQ.AllocTensor<T>();
        o.SetValue(0, static_cast<T>(mean));
        Sync<HardEvent::S_MTE3>();
        DataCopyExtParams st{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        DataCopyPad(lossGm, o, st);
        chunkQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, IN_DEPTH> chunkQ;
    TBuf<TPosition::VECCALC> work, redWork, scal, stats;
    GlobalTensor<T> zGm, lossGm;
    GlobalTensor<TIdx> tGm;
    GlobalTensor<float> partGm;
    SoftmaxNllMeanTilingData cfg;
    uint32_t coreId = 0, rowFirst = 0, rowNum = 0;
};

extern "C" __global__ __aicore__ void softmax_nll_mean(GM_ADDR logits, GM_ADDR target, GM_ADDR loss,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    SoftmaxNllMeanKernel<DTYPE_LOGITS, DTYPE_TARGET> op;
    op.Init(logits, target, loss, userWs, td);
    op.Process();
}
