// LocateMinAlongAxis: int64 index of the first minimum along one axis.
// Tiling key 0: the axis is not innermost -> element-wise running minimum over rows, the
//               index vector is updated with Compare + Select.
// Tiling key 1: the axis is innermost -> ReduceMin with index per chunk of a row.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
__aicore__ inline void SplitTasks(uint64_t total, uint32_t used, uint64_t &lo, uint64_t &hi)
{
    uint64_t idx = GetBlockIdx();
    lo = total * idx / used;
    hi = total * (idx + 1) / used;
}
}  // namespace

template <typename T>
class ArgMinStrided {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, const LocateMinAlongAxisTilingData &td)
    {
        len = td.len;
        post = td.post;
        tile = td.tile;
        tpp = td.tilesPerPre;
        SplitTasks(td.taskTotal, td.coreUsed, lo, hi);
        src.SetGlobalBuffer((__gm__ T *)x);
        dst.SetGlobalBuffer((__gm__ int64_t *)idx);

        pipe.InitBuffer(inQ, 2, tile * sizeof(T));
        pipe.InitBuffer(outQ, 2, tile * sizeof(int64_t));
        pipe.InitBuffer(curB, tile * sizeof(float));
        pipe.InitBuffer(valB, tile * sizeof(float));
        pipe.InitBuffer(posB, tile * sizeof(float));
        pipe.InitBuffer(i32B, tile * sizeof(int32_t));
        pipe.InitBuffer(maskB, tile / 8 + 32);
    }

    __aicore__ inline void Process()
    {
        for (uint64_t task = lo; task < hi; ++task) {
            uint64_t p = task / tpp;
            uint64_t q0 = (task % tpp) * tile;
            uint32_t n = static_cast<uint32_t>(post - q0 < tile ? post - q0 : tile);
            Run(p * len * post + q0, p * post + q0, n);
        }
    }

private:
    __aicore__ inline void Run(uint64_t srcOff, uint64_t dstOff, uint32_t n)
    {
        LocalTensor<float> cur = curB.Get<float>();
        LocalTensor<float> best = valB.Get<float>();
        LocalTensor<float> pos = posB.Get<float>();
        LocalTensor<uint8_t> ge = maskB.Get<uint8_t>();
        uint32_t nv = (n + 63) / 64 * 64;  // compare/select work on whole 256B repeats
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};

        for (uint64_t r = 0; r < len; ++r) {
            LocalTensor<T> in = inQ.AllocTensor<T>();
            DataCopyPad(in, src[srcOff + r * post], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQ.EnQue(in);
            in = inQ.DeQue<T>();
            if constexpr (std::is_same_v<T, float>) {
                DataCopy(cur, in, nv);
            } else {
                Cast(cur, in, RoundMode::CAST_NONE, nv);
            }
            inQ.FreeTensor(in);

            if (r == 0) {
                DataCopy(best, cur, nv);
                Duplicate(pos, 0.0f, nv);
                continue;
            }
            // keep the old index where cur >= best (first occurrence wins), else take r
            Compare(ge, cur, best, CMPMODE::GE, nv);
            Select(pos, ge, pos, static_cast<float>(r), SELMODE::VSEL_TENSOR_SCALAR_MODE, nv);
            Min(best, best, cur, nv);
        }

        LocalTensor<int32_t> i32 = i32B.Get<int32_t>();
        LocalTensor<int64_t> out = outQ.AllocTensor<int64_t>();
        Cast(i32, pos, RoundMode::CAST_RINT, nv);
        Cast(out, i32, RoundMode::CAST_NONE, nv);
        outQ.EnQue(out);
        out = outQ.DeQue<int64_t>();
        DataCopyPad(dst[dstOff], out, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(int64_t)), 0, 0, 0});
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> curB, valB, posB, i32B, maskB;
    GlobalTensor<T> src;
    GlobalTensor<int64_t> dst;
    uint64_t len = 0, post = 0, lo = 0, hi = 0;
    uint32_t tile = 0, tpp = 1;
};

template <typename T>
class ArgMinContiguous {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, const LocateMinAlongAxisTilingData &td)
    {
        len = td.len;
        chunk = td.tile;
        SplitTasks(td.taskTotal, td.coreUsed, lo, hi);
        src.SetGlobalBuffer((__gm__ T *)x);
        dst.SetGlobalBuffer((__gm__ int64_t *)idx);
        pipe.InitBuffer(inQ, 2, chunk * sizeof(T));
        pipe.InitBuffer(fB, chunk * sizeof(float));
        pipe.InitBuffer(workB, chunk * sizeof(float));
        pipe.InitBuffer(resB, 64);
        pipe.InitBuffer(outB, STAGE * sizeof(int64_t));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<int64_t> stage = outB.Get<int64_t>();
        uint32_t k = 0;
        uint64_t flushAt = lo;
        for (uint64_t row = lo; row < hi; ++row) {
            stage.SetValue(k++, RowArgMin(row));
            if (k == STAGE || row + 1 == hi) {
                event_t e1 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
                SetFlag<HardEvent::S_MTE3>(e1);
                WaitFlag<HardEvent::S_MTE3>(e1);
                DataCopyPad(dst[flushAt], stage, DataCopyExtParams{1, static_cast<uint32_t>(k * sizeof(int64_t)), 0, 0, 0});
                event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_S));
                SetFlag<HardEvent::MTE3_S>(e2);
                WaitFlag<HardEvent::MTE3_S>(e2);
                flushAt += k;
                k = 0;
            }
        }
    }

private:
    static constexpr uint32_t STAGE = 128;

    __aicore__ inline int64_t RowArgMin(uint64_t row)
    {
        LocalTensor<float> f = fB.Get<float>();
        LocalTensor<float> work = workB.Get<float>();
        LocalTensor<float> res = resB.Get<float>();
        float bestVal = 0.0f;
        int64_t bestIdx = 0;
        for (uint64_t c = 0; c < len; c += chunk) {
            uint32_t n = static_cast<uint32_t>(len - c < chunk ? len - c : chunk);
            LocalTensor<T> in = inQ.AllocTensor<T>();
            DataCopyPad(in, src[row * len + c], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQ.EnQue(in);
            in = inQ.DeQue<T>();
            if constexpr (std::is_same_v<T, float>) {
                ReduceMin<float>(res, in, work, static_cast<int32_t>(n), true);
            } else {
                Cast(f, in, RoundMode::CAST_NONE, n);
                ReduceMin<float>(res, f, work, static_cast<int32_t>(n), true);
            }
            inQ.FreeTensor(in);

            event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e);
            WaitFlag<HardEvent::V_S>(e);
            float v = res.GetValue(0);
            uint32_t local = res.template ReinterpretCast<uint32_t>().GetValue(1);
            if (c == 0 || v < bestVal) {  // strict: earlier chunk keeps ties
                bestVal = v;
                bestIdx = static_cast<int64_t>(c + local);
            }
        }
        return bestIdx;
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TBuf<TPosition::VECCALC> fB, workB, resB, outB;
    GlobalTensor<T> src;
    GlobalTensor<int64_t> dst;
    uint64_t len = 0, lo = 0, hi = 0;
    uint32_t chunk = 0;
};

extern "C" __global__ __aicore__ void locate_min_along_axis(GM_ADDR x, GM_ADDR indices, GM_ADDR workspace,
                                                            GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ArgMinStrided<DTYPE_X> op;
        op.Init(x, indices, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ArgMinContiguous<DTYPE_X> op;
        op.Init(x, indices, td);
        op.Process();
    }
}
