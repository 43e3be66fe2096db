// y = min(max(x, min_val), max_val), element-wise, any shape.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;   // double buffering

template <typename T>
class BoundedLinearClipKernel {
public:
    __aicore__ inline BoundedLinearClipKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const BoundedLinearClipTilingData &td)
    {
        uint64_t start = static_cast<uint64_t>(GetBlockIdx()) * td.elemsPerCore;
        mine = td.totalElems > start ? td.totalElems - start : 0;
        mine = mine < td.elemsPerCore ? mine : td.elemsPerCore;
        tileLen = td.tileElems;
        lo = static_cast<T>(td.lower);
        hi = static_cast<T>(td.upper);

        src.SetGlobalBuffer((__gm__ T *)x + start, mine);
        dst.SetGlobalBuffer((__gm__ T *)y + start, mine);
        pipe.InitBuffer(qIn, DEPTH, tileLen * sizeof(T));
        pipe.InitBuffer(qOut, DEPTH, tileLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < mine; off += tileLen) {
            uint32_t n = (mine - off) < tileLen ? static_cast<uint32_t>(mine - off) : tileLen;
            Load(off, n);
            Clip(n);
            Save(off, n);
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t n)
    {
        LocalTensor<T> t = qIn.AllocTensor<T>();
        DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        DataCopyPad(t, src[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        qIn.EnQue(t);
    }

    __aicore__ inline void Clip(uint32_t n)
    {
        LocalTensor<T> in = qIn.DeQue<T>();
        LocalTensor<T> out = qOut.AllocTensor<T>();
        // vector ops run on whole 32-byte blocks; the padded lanes are never stored
        uint32_t aligned = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
        Maxs(out, in, lo, aligned);
        Mins(out, out, hi, aligned);
        qOut.EnQue(out);
        qIn.FreeTensor(in);
    }

    __aicore__ inline void Save(uint64_t off, uint32_t n)
    {
        LocalTensor<T> out = qOut.DeQue<T>();
        DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        DataCopyPad(dst[off], out, cp);
        qOut.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> qIn;
    TQue<QuePosition::VECOUT, DEPTH> qOut;
    GlobalTensor<T> src, dst;
    uint64_t mine = 0;
    uint32_t tileLen = 0;
    T lo, hi;
};

extern "C" __global__ __aicore__ void bounded_linear_clip(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    BoundedLinearClipKernel<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
