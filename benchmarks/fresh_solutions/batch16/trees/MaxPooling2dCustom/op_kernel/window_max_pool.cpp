#include "kernel_operator.h"

using namespace AscendC;

// WindowMaxPool
//   y[p, i, j] = max_{u < k, v < k} x[p, i*s - pad + u, j*s - pad + v]   (padding never wins)
//
// Every core owns a contiguous range of output rows (flattened over N*C planes).
// For one output row:
//   1. the (up to) k contributing input rows are loaded into a row buffer whose margins
//      hold the lowest representable value, and reduced vertically with Max;
//   2. the horizontal window is reduced by gathering the k shifted / strided views of that
//      vertical maximum (byte offset tables built once) and combining them with Max.

template <typename T> struct Lowest;
template <> struct Lowest<float> { __aicore__ static inline float V() { return -3.402823466e+38f; } };
template <> struct Lowest<half> { __aicore__ static inline half V() { return static_cast<half>(-65504.0f); } };

template <typename T>
class WindowMaxPoolOp {
public:
    __aicore__ inline WindowMaxPoolOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const WindowMaxPoolTilingData &t)
    {
        cfg = t;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        uint32_t id = GetBlockIdx();
        rowCnt = t.rowsPerCore + (id < t.extraRows ? 1 : 0);
        rowBeg = static_cast<uint64_t>(id) * t.rowsPerCore + (id < t.extraRows ? id : t.extraRows);

        pipe.InitBuffer(inQ, 2, t.rowLen * sizeof(T));
        pipe.InitBuffer(outQ, 2, t.outWPad * sizeof(T));
        pipe.InitBuffer(colMaxBuf, t.rowLen * sizeof(T));
        pipe.InitBuffer(shiftBuf, t.outWPad * sizeof(T));
        pipe.InitBuffer(idxBuf, t.win * t.outWPad * sizeof(uint32_t));

        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t v = 0; v < t.win; ++v) {
            for (uint32_t j = 0; j < t.outWPad; ++j) {
                uint32_t jc = j < t.outW ? j : t.outW - 1;    // padded lanes repeat the last column
                uint32_t pos = t.lead - t.pad + jc * t.step + v;
                idx.SetValue(v * t.outWPad + j, pos * static_cast<uint32_t>(sizeof(T)));
            }
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint64_t r = 0; r < rowCnt; ++r) {
            uint64_t g = rowBeg + r;
            uint32_t plane = static_cast<uint32_t>(g / cfg.outH);
            uint32_t oh = static_cast<uint32_t>(g % cfg.outH);
            VerticalMax(plane, oh);
            HorizontalMax(g);
        }
    }

private:
    __aicore__ inline void VerticalMax(uint32_t plane, uint32_t oh)
    {
        LocalTensor<T> vm = colMaxBuf.Get<T>();
        int32_t top = static_cast<int32_t>(oh * cfg.step) - static_cast<int32_t>(cfg.pad);
        int32_t lo = top < 0 ? 0 : top;
        int32_t hi = top + static_cast<int32_t>(cfg.win);
        if (hi > static_cast<int32_t>(cfg.inH)) {
            hi = static_cast<int32_t>(cfg.inH);
        }
        uint64_t planeBase = static_cast<uint64_t>(plane) * cfg.inH * cfg.inW;
        for (int32_t ih = lo; ih < hi; ++ih) {
            LocalTensor<T> buf = inQ.AllocTensor<T>();
            Duplicate(buf, Lowest<T>::V(), cfg.rowLen);
            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
            SetFlag<HardEvent::V_MTE2>(ev);
            WaitFlag<HardEvent::V_MTE2>(ev);
            uint32_t blk = 32 / sizeof(T);
            uint32_t wAl = (cfg.inW + blk - 1) / blk * blk;
            DataCopyExtParams cp{1, static_cast<uint32_t>(cfg.inW * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pp{true, 0, static_cast<uint8_t>(wAl - cfg.inW), Lowest<T>::V()};
            DataCopyPad(buf[cfg.lead], xGm[planeBase + static_cast<uint64_t>(ih) * cfg.inW], cp, pp);
            inQ.EnQue(buf);

            LocalTensor<T> row = inQ.DeQue<T>();
            if (ih == lo) {
                Adds(vm, row, static_cast<T>(0), cfg.rowLen);
            } else {
                Max(vm, vm, row, cfg.rowLen);
            }
            inQ.FreeTensor(row);
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void HorizontalMax(uint64_t outRow)
    {
        LocalTensor<T> vm = colMaxBuf.Get<T>();
        LocalTensor<T> sh = shiftBuf.Get<T>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<T> res = outQ.AllocTensor<T>();
        Gather(res, vm, idx, 0, cfg.outWPad);
        for (uint32_t v = 1; v < cfg.win; ++v) {
            PipeBarrier<PIPE_V>();
            Gather(sh, vm, idx[v * cfg.outWPad], 0, cfg.outWPad);
            PipeBarrier<PIPE_V>();
            Max(res, res, sh, cfg.outWPad);
        }
        outQ.EnQue(res);

        LocalTensor<T> o = outQ.DeQue<T>();
        DataCopyExtParams st{1, static_cast<uint32_t>(cfg.outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[outRow * cfg.outW], o, st);
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> colMaxBuf, shiftBuf, idxBuf;
    GlobalTensor<T> xGm, yGm;
    WindowMaxPoolTilingData cfg;
    uint64_t rowBeg = 0;
    uint64_t rowCnt = 0;
};

extern "C" __global__ __aicore__ void window_max_pool(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    WindowMaxPoolOp<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
