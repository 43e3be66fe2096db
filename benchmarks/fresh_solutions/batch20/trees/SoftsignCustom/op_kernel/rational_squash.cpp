// RationalSquash: y = x / (1 + |x|)
// Plain streaming element-wise kernel: each core walks its contiguous slice in
// UB-sized tiles with double-buffered in/out queues; the last (partial) tile is
// moved with DataCopyPad so no element count restriction applies.
#include "kernel_operator.h"

namespace {
constexpr int32_t QUEUE_DEPTH = 2;
}

template <typename T>
class RationalSquashKernel {
public:
    __aicore__ inline RationalSquashKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RationalSquashTilingData &td)
    {
        uint64_t begin = td.perCoreNum * AscendC::GetBlockIdx();
        uint64_t remain = td.totalNum > begin ? td.totalNum - begin : 0;
        count = remain < td.perCoreNum ? remain : td.perCoreNum;
        tile = td.tileNum;

        xGm.SetGlobalBuffer((__gm__ T *)x + begin, count);
        yGm.SetGlobalBuffer((__gm__ T *)y + begin, count);
        pipe.InitBuffer(inQ, QUEUE_DEPTH, tile * sizeof(T));
        pipe.InitBuffer(outQ, QUEUE_DEPTH, tile * sizeof(T));
        pipe.InitBuffer(denBuf, tile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < count; off += tile) {
            uint32_t len = (count - off) < tile ? (uint32_t)(count - off) : tile;
            CopyIn(off, len);
            Compute(len);
            CopyOut(off, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<T> xl = inQ.AllocTensor<T>();
        if (len == tile) {
            AscendC::DataCopy(xl, xGm[off], len);
        } else {
            AscendC::DataCopyExtParams cp{1, (uint32_t)(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, (T)0};
            AscendC::DataCopyPad(xl, xGm[off], cp, pad);
        }
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> xl = inQ.DeQue<T>();
        AscendC::LocalTensor<T> yl = outQ.AllocTensor<T>();
        AscendC::LocalTensor<T> den = denBuf.Get<T>();
        AscendC::Abs(den, xl, len);                       // |x|
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(den, den, (T)1.0, len);             // 1 + |x|
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Div(yl, xl, den, len);                   // x / (1 + |x|)
        outQ.EnQue<T>(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<T> yl = outQ.DeQue<T>();
        if (len == tile) {
            AscendC::DataCopy(yGm[off], yl, len);
        } else {
            AscendC::DataCopyExtParams cp{1, (uint32_t)(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[off], yl, cp);
        }
        outQ.FreeTensor(yl);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, QUEUE_DEPTH> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, QUEUE_DEPTH> outQ;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> denBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint64_t count = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void rational_squash(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    RationalSquashKernel<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
