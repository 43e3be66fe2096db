// SeqWindowMax: sliding-window maximum along the last axis (1-D max pooling).
// A whole sequence is held in UB.  For every window tap j an offset table picks
// x[o*stride + j*dilation - pad] for all outputs o at once (Gather); taps that
// fall into the padding point at a -inf sentinel stored after the sequence.
// The output is the element-wise Max over the window taps.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class SeqWindowMaxKernel {
public:
    __aicore__ inline SeqWindowMaxKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SeqWindowMaxTilingData &td)
    {
        cfg = td;
        uint32_t core = GetBlockIdx();
        myRows = cfg.rowsPerCore + (core < cfg.rowsExtra ? 1 : 0);
        firstRow = core * cfg.rowsPerCore + (core < cfg.rowsExtra ? core : cfg.rowsExtra);
        sentinel = cfg.inLenAlign;          // element index of the -inf slot
        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(inQ, 2, (cfg.inLenAlign + 32) * sizeof(T));
        pipe.InitBuffer(outQ, 2, cfg.outLenAlign * sizeof(T));
        pipe.InitBuffer(idx, cfg.window * cfg.outLenAlign * sizeof(uint32_t));
        pipe.InitBuffer(scratch, cfg.outLenAlign * sizeof(T));
        MakeTable();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows; ++r) {
            uint64_t row = firstRow + r;
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    __aicore__ inline void MakeTable()
    {
        LocalTensor<uint32_t> tb = idx.Get<uint32_t>();
        for (uint32_t j = 0; j < cfg.window; ++j) {
            for (uint32_t o = 0; o < cfg.outLenAlign; ++o) {
                int64_t pos = (int64_t)o * cfg.stride + (int64_t)j * cfg.dilation - cfg.pad;
                uint32_t e = (o < cfg.outLen && pos >= 0 && pos < (int64_t)cfg.inLen) ? (uint32_t)pos : sentinel;
                tb.SetValue(j * cfg.outLenAlign + o, e * (uint32_t)sizeof(T));
            }
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void CopyIn(uint64_t row)
    {
        LocalTensor<T> seq = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, cfg.inLen * (uint32_t)sizeof(T), 0, 0, 0};
        DataCopyPad(seq, xGm[row * cfg.inLen], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ.EnQue(seq);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> seq = inQ.DeQue<T>();
        // -inf sentinel (lowest finite value of the dtype)
        T lowest;
        if constexpr (std::is_same<T, half>::value) {
            lowest = static_cast<half>(-65504.0f);
        } else {
            lowest = -3.4028235e38f;
        }
        Duplicate(seq[sentinel], lowest, 32 / sizeof(T));
        LocalTensor<uint32_t> tb = idx.Get<uint32_t>();
        LocalTensor<T> tmp = scratch.Get<T>();
        LocalTensor<T> res = outQ.AllocTensor<T>();
        Gather(res, seq, tb, 0u, cfg.outLen);
        for (uint32_t j = 1; j < cfg.window; ++j) {
            Gather(tmp, seq, tb[j * cfg.outLenAlign], 0u, cfg.outLen);
            Max(res, res, tmp, cfg.outLen);
        }
        outQ.EnQue(res);
        inQ.FreeTensor(seq);
    }

    __aicore__ inline void CopyOut(uint64_t row)
    {
        LocalTensor<T> res = outQ.DeQue<T>();
        DataCopyExtParams cp{1, cfg.outLen * (uint32_t)sizeof(T), 0, 0, 0};
        DataCopyPad(yGm[row * cfg.outLen], res, cp);
        outQ.FreeTensor(res);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> idx, scratch;
    GlobalTensor<T> xGm, yGm;
    SeqWindowMaxTilingData cfg;
    uint32_t myRows, firstRow, sentinel;
};

extern "C" __global__ __aicore__ void seq_window_max(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(1)) {
        SeqWindowMaxKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        SeqWindowMaxKernel<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
