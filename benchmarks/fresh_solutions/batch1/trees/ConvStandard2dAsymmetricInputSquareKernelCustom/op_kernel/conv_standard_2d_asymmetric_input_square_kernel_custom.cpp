#include "kernel_operator.h"

using namespace AscendC;

// Direct 2D convolution (stride 1, no padding inside the kernel, optional dilation).
//
// A task is one strip of output: (n, oh, [ow0, ow0 + len)) for all output channels.
// For every input channel the k*k shifted input strips are DMA'd into UB
// (shifts are applied on the GM side, so UB addresses stay 32B aligned), then
//   acc[co, :] += w[co, ci, kh, kw] * strip[kh, kw, :]
// is accumulated with Axpy. The window for ci+1 is prefetched while ci computes.
constexpr int32_t WIN_BUFFERS = 2;

class KernelConv2dDirect {
public:
    __aicore__ inline KernelConv2dDirect() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvStandard2dAsymmetricInputSquareKernelCustomTilingData& t)
    {
        cin = t.inChannels;
        cout = t.outChannels;
        inH = t.inH;
        inW = t.inW;
        outH = t.outH;
        outW = t.outW;
        k = t.kSize;
        dil = t.dilation;
        kStride = t.kStride;
        tileW = t.tileW;
        tilesPerRow = t.tilesPerRow;
        taps = k * k;

        uint32_t core = GetBlockIdx();
        taskCount = t.tasksPerCore + (core < t.tasksTail ? 1 : 0);
        taskBegin = core * t.tasksPerCore + (core < t.tasksTail ? core : t.tasksTail);

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(t.batch) * cin * inH * inW);
        wGm.SetGlobalBuffer((__gm__ float*)w, static_cast<uint64_t>(cout) * cin * taps);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(t.batch) * cout * outH * outW);

        pipe.InitBuffer(winQueue, WIN_BUFFERS, taps * tileW * sizeof(float));
        pipe.InitBuffer(accQueue, 1, cout * tileW * sizeof(float));
        pipe.InitBuffer(wSliceBuf, cout * kStride * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = taskBegin; task < taskBegin + taskCount; ++task) {
            uint32_t tile = task % tilesPerRow;
            uint32_t row = task / tilesPerRow;      // n * outH + oh
            uint32_t oh = row % outH;
            uint32_t n = row / outH;
            uint32_t ow0 = tile * tileW;
            uint32_t len = (outW - ow0) < tileW ? (outW - ow0) : tileW;
            RunStrip(n, oh, ow0, len);
        }
    }

private:
    // all k*k shifted strips of one input channel, laid out [kh][kw][tileW]
    __aicore__ inline void LoadWindow(uint32_t n, uint32_t ci, uint32_t oh, uint32_t ow0, uint32_t len)
    {
        LocalTensor<float> win = winQueue.AllocTensor<float>();
        uint32_t lenPad = (len + 7) / 8 * 8;
        uint64_t chanBase = (static_cast<uint64_t>(n) * cin + ci) * inH * inW;
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        for (uint32_t kw = 0; kw < k; ++kw) {
            // one DMA per kw covers all kh rows (they are dil*inW apart in GM)
            DataCopyExtParams cp{static_cast<uint16_t>(k), len * static_cast<uint32_t>(sizeof(float)),
                                 (dil * inW - len) * static_cast<uint32_t>(sizeof(float)),
                                 (k * tileW - lenPad) / 8, 0};
            uint64_t src = chanBase + static_cast<uint64_t>(oh) * inW + ow0 + kw * dil;
            DataCopyPad(win[kw * tileW], xGm[src], cp, noPad);
        }
        winQueue.EnQue(win);
    }

    // w[:, ci, :, :] -> UB as [cout][kStride]; read by the scalar unit
    __aicore__ inline void LoadWeightSlice(uint32_t ci)
    {
        wSlice = wSliceBuf.Get<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(cout), taps * static_cast<uint32_t>(sizeof(float)),
                             (cin - 1) * taps * static_cast<uint32_t>(sizeof(float)),
                             (kStride - (taps + 7) / 8 * 8) / 8, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(wSlice, wGm[static_cast<uint64_t>(ci) * taps], cp, noPad);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void RunStrip(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t len)
    {
        LocalTensor<float> acc = accQueue.AllocTensor<float>();
        Duplicate(acc, 0.0f, cout * tileW);

        LoadWindow(n, 0, oh, ow0, len);
        for (uint32_t ci = 0; ci < cin; ++ci) {
            LoadWeightSlice(ci);
            if (ci + 1 < cin) {
                LoadWindow(n, ci + 1, oh, ow0, len);
            }
            LocalTensor<float> win = winQueue.DeQue<float>();
            for (uint32_t co = 0; co < cout; ++co) {
                LocalTensor<float> dst = acc[co * tileW];
                uint32_t wRow = co * kStride;
                for (uint32_t tap = 0; tap < taps; ++tap) {
                    Axpy(dst, win[tap * tileW], wSlice.GetValue(wRow + tap), len);
                }
            }
            winQueue.FreeTensor(win);
        }

        accQueue.EnQue(acc);
        acc = accQueue.DeQue<float>();
        uint32_t lenPad = (len + 7) / 8 * 8;
        uint64_t plane = static_cast<uint64_t>(outH) * outW;
        DataCopyExtParams out{static_cast<uint16_t>(cout), len * static_cast<uint32_t>(sizeof(float)),
                              (tileW - lenPad) / 8,
                              static_cast<uint32_t>((plane - len) * sizeof(float)), 0};
        uint64_t dstOff = static_cast<uint64_t>(n) * cout * plane + static_cast<uint64_t>(oh) * outW + ow0;
        DataCopyPad(yGm[dstOff], acc, out);
        accQueue.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, WIN_BUFFERS> winQueue;
    TQue<QuePosition::VECOUT, 1> accQueue;
    TBuf<QuePosition::VECCALC> wSliceBuf;
    LocalTensor<float> wSlice;
    GlobalTensor<float> xGm;
    GlobalTensor<float> wGm;
    GlobalTensor<float> yGm;

    uint32_t cin, cout, inH, inW, outH, outW, k, dil, kStride, taps;
    uint32_t tileW, tilesPerRow, taskBegin, taskCount;
};

extern "C" __global__ __aicore__ void conv_standard_2d_asymmetric_input_square_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConv2dDirect op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
