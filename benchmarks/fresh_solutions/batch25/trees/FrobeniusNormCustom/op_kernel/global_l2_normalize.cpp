/*
 * GlobalL2Normalize: y = x / sqrt(sum(x^2) + eps), where the sum runs over *every* element.
 *
 * Pass 1: each core accumulates x^2 of its range element-wise into an fp32 UB accumulator,
 *         reduces it once and publishes the scalar in its workspace slot.
 * SyncAll: all partials visible.
 * Pass 2: each core folds the partials (same order on every core -> identical scale everywhere)
 *         and rescales its range.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;
constexpr uint32_t SLOT = 8;  // floats per workspace slot (32B)

template <typename T>
class GlobalL2NormalizeKernel {
public:
    __aicore__ inline GlobalL2NormalizeKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR ws, const GlobalL2NormalizeTilingData &td)
    {
        coreId = GetBlockIdx();
        coreNum = td.coreNum;
        tileLen = td.tileLen;
        eps = td.eps;
        uint64_t start = td.perCore * coreId;
        span = (coreId == coreNum - 1) ? td.totalLen - start : td.perCore;

        xGm.SetGlobalBuffer((__gm__ T *)x + start, span);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, span);
        partGm.SetGlobalBuffer((__gm__ float *)ws, coreNum * SLOT);

        pipe.InitBuffer(inQue, DEPTH, tileLen * sizeof(T));
        pipe.InitBuffer(outQue, DEPTH, tileLen * sizeof(T));
        pipe.InitBuffer(fBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        SumSquares();
        SyncAll();
        float scale = GatherScale();
        Rescale(scale);
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = inQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(t, xGm[off], cp, pad);
        inQue.EnQue(t);
    }

    // converts the dequeued tile into fp32 in fBuf
    __aicore__ inline LocalTensor<float> ToFloat(uint32_t len)
    {
        LocalTensor<T> t = inQue.DeQue<T>();
        LocalTensor<float> f = fBuf.Get<float>();
        if constexpr (sizeof(T) == 2) {
            Cast(f, t, RoundMode::CAST_NONE, len);
        } else {
            Adds(f, t, 0.0f, len);
        }
        inQue.FreeTensor(t);
        return f;
    }

    __aicore__ inline void SumSquares()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        Duplicate(acc, 0.0f, tileLen);
        for (uint64_t off = 0; off < span; off += tileLen) {
            uint32_t len = static_cast<uint32_t>(span - off < tileLen ? span - off : tileLen);
            Load(off, len);
            LocalTensor<float> f = ToFloat(len);
            Mul(sq, f, f, len);
            Add(acc, acc, sq, len);
        }
        // single tree reduction at the end keeps the rounding error small
        ReduceSum(acc, acc, sq, tileLen);
        float partial = acc.GetValue(0);
        Duplicate(sq, 0.0f, SLOT);
        sq.SetValue(0, partial);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e);
        WaitFlag<HardEvent::S_MTE3>(e);
        DataCopy(partGm[coreId * SLOT], sq, SLOT);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline float GatherScale()
    {
        LocalTensor<float> buf = sqBuf.Get<float>();
        DataCopy(buf, partGm, coreNum * SLOT);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
        float total = 0.0f;
        for (uint32_t c = 0; c < coreNum; ++c) {
            total += buf.GetValue(c * SLOT);
        }
        // vector sqrt on a one-element tile, then reciprocal in scalar
        buf.SetValue(0, total + eps);
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Sqrt(buf, buf, 1);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        return 1.0f / buf.GetValue(0);
    }

    __aicore__ inline void Rescale(float scale)
    {
        for (uint64_t off = 0; off < span; off += tileLen) {
            uint32_t len = static_cast<uint32_t>(span - off < tileLen ? span - off : tileLen);
            Load(off, len);
            LocalTensor<float> f = ToFloat(len);
            LocalTensor<T> o = outQue.AllocTensor<T>();
            if constexpr (sizeof(T) == 2) {
                Muls(f, f, scale, len);
                Cast(o, f, RoundMode::CAST_ROUND, len);
            } else {
                Muls(o, f, scale, len);
            }
            outQue.EnQue(o);
            o = outQue.DeQue<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[off], o, cp);
            outQue.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> inQue;
    TQue<QuePosition::VECOUT, DEPTH> outQue;
    TBuf<TPosition::VECCALC> fBuf, sqBuf, accBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> partGm;
    uint64_t span = 0;
    uint32_t coreId = 0, coreNum = 1, tileLen = 0;
    float eps = 0.0f;
};

extern "C" __global__ __aicore__ void global_l2_normalize(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(0)) {
        GlobalL2NormalizeKernel<float> op;
        op.Init(x, y, usr, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        GlobalL2NormalizeKernel<half> op;
        op.Init(x, y, usr, td);
        op.Process();
    }
}
