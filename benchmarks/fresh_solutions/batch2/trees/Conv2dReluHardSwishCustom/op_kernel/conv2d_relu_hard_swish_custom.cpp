#include "kernel_operator.h"

using namespace AscendC;

// conv2d (stride 1, no padding) + bias -> relu -> x * clamp((x + 3) / 6, 0, 1)
//
// Work unit: one output row (n, oh) for every output channel.
// For each of the inC*k*k taps (ci, kh, kw) the input segment x[n, ci, oh+kh, kw : kw+outW]
// is DMA'd straight from GM (unaligned GM start is fine for DataCopyPad), so every tap is an
// aligned UB row and the convolution is a chain of Axpy's into outC accumulator rows.

constexpr int32_t BUFFER_NUM = 2;

class KernelConvReluHardSwish {
public:
    __aicore__ inline KernelConvReluHardSwish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const Conv2dReluHardSwishCustomTilingData& td)
    {
        inC = td.inC; outC = td.outC; inH = td.inH; inW = td.inW;
        k = td.kSize; outH = td.outH; outW = td.outW; pitch = td.outWPad;
        taps = td.taps;

        rowLo = GetBlockIdx() * td.rowsPerCore;
        rowHi = rowLo + td.rowsPerCore;
        if (rowHi > td.rowCount) rowHi = td.rowCount;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        bGm.SetGlobalBuffer((__gm__ float*)b);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(tapQue, BUFFER_NUM, taps * pitch * sizeof(float));
        pipe.InitBuffer(accQue, BUFFER_NUM, outC * pitch * sizeof(float));
        pipe.InitBuffer(wBuf, td.tapsPad * sizeof(float));
        pipe.InitBuffer(gateTBuf, pitch * sizeof(float));
        gateBuf = gateTBuf.Get<float>();

        // keep all weights resident in UB, read them as scalars
        wLocal = wBuf.Get<float>();
        DataCopyExtParams cp{1, outC * taps * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(wLocal, wGm, cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowLo; r < rowHi; ++r) {
            uint32_t n = r / outH;
            uint32_t oh = r - n * outH;
            LoadTaps(n, oh);
            Convolve();
            Store(n, oh);
        }
    }

private:
    __aicore__ inline void LoadTaps(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> t = tapQue.AllocTensor<float>();
        DataCopyExtParams cp{1, outW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint32_t slot = 0;
        for (uint32_t ci = 0; ci < inC; ++ci) {
            uint64_t plane = ((uint64_t)n * inC + ci) * inH * inW;
            for (uint32_t kh = 0; kh < k; ++kh) {
                uint64_t rowStart = plane + (uint64_t)(oh + kh) * inW;
                for (uint32_t kw = 0; kw < k; ++kw) {
                    DataCopyPad(t[slot * pitch], xGm[rowStart + kw], cp, pad);
                    ++slot;
                }
            }
        }
        tapQue.EnQue(t);
    }

    __aicore__ inline void Convolve()
    {
        LocalTensor<float> t = tapQue.DeQue<float>();
        LocalTensor<float> acc = accQue.AllocTensor<float>();

        for (uint32_t co = 0; co < outC; ++co) {
            Duplicate(acc[co * pitch], bGm.GetValue(co), outW);   // start from the bias
        }
        PipeBarrier<PIPE_V>();

        for (uint32_t co = 0; co < outC; ++co) {
            LocalTensor<float> dst = acc[co * pitch];
            uint32_t wBase = co * taps;
            for (uint32_t s = 0; s < taps; ++s) {
                Axpy(dst, t[s * pitch], wLocal.GetValue(wBase + s), outW);
                PipeBarrier<PIPE_V>();
            }
        }
        tapQue.FreeTensor(t);

        // relu, then hardswish-style gate; after relu x >= 0 so only the upper clamp matters
        uint32_t total = outC * pitch;
        Relu(acc, acc, total);
        PipeBarrier<PIPE_V>();
        for (uint32_t co = 0; co < outC; ++co) {
            HardSwishRow(acc[co * pitch]);
        }
        accQue.EnQue(acc);
    }

    // x * min(x/6 + 0.5, 1), in place; the gate goes through a one-row scratch buffer
    __aicore__ inline void HardSwishRow(LocalTensor<float> row)
    {
        LocalTensor<float> g = gateBuf;
        Muls(g, row, 1.0f / 6.0f, outW);
        PipeBarrier<PIPE_V>();
        Adds(g, g, 0.5f, outW);
        PipeBarrier<PIPE_V>();
        Mins(g, g, 1.0f, outW);
        PipeBarrier<PIPE_V>();
        Mul(row, row, g, outW);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Store(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> acc = accQue.DeQue<float>();
        uint64_t plane = (uint64_t)outH * outW;
        uint64_t dst = (uint64_t)n * outC * plane + (uint64_t)oh * outW;
        uint32_t rowBytes = outW * sizeof(float);
        uint32_t srcGap = (pitch * sizeof(float) - (rowBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{(uint16_t)outC, rowBytes, srcGap, (uint32_t)((plane - outW) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], acc, cp);
        accQue.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> tapQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> accQue;
    TBuf<QuePosition::VECCALC> wBuf, gateTBuf;
    LocalTensor<float> wLocal, gateBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    uint32_t inC, outC, inH, inW, k, outH, outW, pitch, taps;
    uint32_t rowLo, rowHi;
};

extern "C" __global__ __aicore__ void conv2d_relu_hard_swish_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvReluHardSwish op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
