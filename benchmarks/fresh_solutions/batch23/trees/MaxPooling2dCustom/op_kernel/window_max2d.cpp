// WindowMax2d: sliding-window maximum over the two innermost axes of an NCHW tensor.
//
// Work unit = one output row (plane, oh). For each unit:
//   1. acc <- lowest
//   2. for every kernel row that falls inside the image: load the input line into an
//      aligned slot of a padded UB line (right tail filled with "lowest" by DataCopyPad)
//      and fold it into acc with an element-wise Max  (vertical reduction)
//   3. for every kernel column j: Gather acc at (ow*stride + j*dilation) and Max into
//      the output line (horizontal reduction; Gather handles any stride)
//   4. store the output line.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
__aicore__ inline T LowestOf();
template <>
__aicore__ inline float LowestOf<float>() { return -3.402823466e+38f; }
template <>
__aicore__ inline half LowestOf<half>() { return static_cast<half>(-65504.0f); }

template <typename T>
class WindowMax2dKernel {
public:
    __aicore__ inline WindowMax2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const WindowMax2dTiling &t)
    {
        tl = t;
        firstRow = GetBlockIdx() * t.rowsPerCore;
        rowCount = 0;
        if (firstRow < t.totalRows) {
            uint32_t left = t.totalRows - firstRow;
            rowCount = left < t.rowsPerCore ? left : t.rowsPerCore;
        }
        constexpr uint32_t blk = 32 / sizeof(T);
        wAlign = (t.inW + blk - 1) / blk * blk;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(lineQ, 2, t.lineLen * sizeof(T));
        pipe.InitBuffer(outQ, 2, t.outWAlign * sizeof(T));
        pipe.InitBuffer(accBuf, t.lineLen * sizeof(T));
        pipe.InitBuffer(gatherBuf, t.outWAlign * sizeof(T));
        pipe.InitBuffer(offBuf, t.outWAlign * sizeof(uint32_t));

        // byte offsets of the window origin of each output column, relative to padded column 0
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        ArithProgression<int32_t>(off, 0, static_cast<int32_t>(t.stride * sizeof(T)),
                                  static_cast<int32_t>(t.outW));
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < rowCount; ++i) {
            OneRow(firstRow + i);
        }
    }

private:
    __aicore__ inline void OneRow(uint32_t row)
    {
        uint32_t plane = row / tl.outH;
        uint32_t oh = row - plane * tl.outH;
        int32_t ihStart = static_cast<int32_t>(oh * tl.stride) - static_cast<int32_t>(tl.pad);
        uint64_t planeBase = static_cast<uint64_t>(plane) * tl.inH * tl.inW;
        const T lowest = LowestOf<T>();

        LocalTensor<T> acc = accBuf.Get<T>();
        Duplicate(acc, lowest, tl.lineLen);

        for (uint32_t kh = 0; kh < tl.kSize; ++kh) {
            int32_t ih = ihStart + static_cast<int32_t>(kh * tl.dilation);
            if (ih < 0 || ih >= static_cast<int32_t>(tl.inH)) {
                continue; // padded row contributes only "lowest"
            }
            LocalTensor<T> line = lineQ.AllocTensor<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(tl.inW * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pp{true, 0, static_cast<uint8_t>(wAlign - tl.inW), lowest};
            DataCopyPad(line[tl.padOff], xGm[planeBase + static_cast<uint64_t>(ih) * tl.inW], cp, pp);
            lineQ.EnQue(line);
            line = lineQ.DeQue<T>();
            Max(acc[tl.padOff], acc[tl.padOff], line[tl.padOff], wAlign);
            lineQ.FreeTensor(line);
        }

        // horizontal pass
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<T> g = gatherBuf.Get<T>();
        LocalTensor<T> o = outQ.AllocTensor<T>();
        // padded column 0 sits at acc[padOff - pad]
        uint32_t origin = (tl.padOff - tl.pad) * sizeof(T);
        Gather(o, acc, off, origin, tl.outW);
        for (uint32_t kw = 1; kw < tl.kSize; ++kw) {
            PipeBarrier<PIPE_V>();
            Gather(g, acc, off, origin + kw * tl.dilation * sizeof(T), tl.outW);
            PipeBarrier<PIPE_V>();
            Max(o, o, g, tl.outW);
        }
        outQ.EnQue(o);
        o = outQ.DeQue<T>();
        DataCopyExtParams st{1, static_cast<uint32_t>(tl.outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(row) * tl.outW], o, st);
        outQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> lineQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> accBuf, gatherBuf, offBuf;
    GlobalTensor<T> xGm, yGm;
    WindowMax2dTiling tl;
    uint32_t firstRow = 0, rowCount = 0, wAlign = 0;
};

extern "C" __global__ __aicore__ void window_max2d(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(0)) {
        WindowMax2dKernel<float> k;
        k.Init(x, y, t);
        k.Process();
    } else if (TILING_KEY_IS(1)) {
        WindowMax2dKernel<half> k;
        k.Init(x, y, t);
        k.Process();
    }
}
