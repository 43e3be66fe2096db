/*
 * ConvChannelMinDoubleTanh
 *   y[n, 0, oh, ow] = tanh(tanh(min_co(bias[co] + sum_{ci,kh,kw} x[n,ci,oh+kh,ow+kw] * w[co,ci,kh,kw])))
 *
 * Direct convolution vectorised along the output width. For a row task the kernel fetches,
 * for every (ci, kh, kw), the input segment x[n, ci, oh+kh, w0+kw : w0+kw+tileW] into its own
 * 32B-aligned UB slot (DataCopyPad handles the unaligned GM start), so each filter tap is one
 * Axpy over the segment. Channel min and the two tanh run on the same vectors.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t SLICE_DEPTH = 2;
constexpr float BIG_VALUE = 3.0e38f;

class ConvChannelMinDoubleTanhKernel {
public:
    __aicore__ inline ConvChannelMinDoubleTanhKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                const ConvChannelMinDoubleTanhTilingData &td)
    {
        cin = td.cin; cout = td.cout;
        inH = td.inH; inW = td.inW;
        kH = td.kH; kW = td.kW;
        outH = td.outH; outW = td.outW;
        tileW = td.tileW; tilesPerRow = td.tilesPerRow;
        taps = cin * kH * kW;

        uint32_t idx = GetBlockIdx();
        myTasks = td.tasksPerCore + (idx < td.tasksRemain ? 1 : 0);
        firstTask = idx * td.tasksPerCore + (idx < td.tasksRemain ? idx : td.tasksRemain);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)filter);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        uint32_t wLen = (cout * taps + 7) / 8 * 8;
        uint32_t bLen = (cout + 7) / 8 * 8;
        pipe.InitBuffer(filterBuf, wLen * sizeof(float));
        pipe.InitBuffer(biasBuf, bLen * sizeof(float));
        pipe.InitBuffer(sliceQ, SLICE_DEPTH, taps * tileW * sizeof(float));
        pipe.InitBuffer(outQ, 2, tileW * sizeof(float));
        pipe.InitBuffer(accBuf, tileW * sizeof(float));
        pipe.InitBuffer(minBuf, tileW * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileW * sizeof(float));

        // filters and bias are read by the scalar unit, so wait for MTE2 explicitly
        LocalTensor<float> wl = filterBuf.Get<float>();
        LocalTensor<float> bl = biasBuf.Get<float>();
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm, {1, static_cast<uint32_t>(cout * taps * sizeof(float)), 0, 0, 0}, pad);
        DataCopyPad(bl, bGm, {1, static_cast<uint32_t>(cout * sizeof(float)), 0, 0, 0}, pad);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < myTasks; ++t) {
            uint32_t task = firstTask + t;
            uint32_t tile = task % tilesPerRow;
            uint32_t row = task / tilesPerRow;       // n * outH + oh
            uint32_t n = row / outH;
            uint32_t oh = row % outH;
            uint32_t w0 = tile * tileW;
            uint32_t cnt = (outW - w0) < tileW ? (outW - w0) : tileW;

            LoadSlices(n, oh, w0, cnt);
            Compute(cnt);
            Store(row, w0, cnt);
        }
    }

private:
    __aicore__ inline void LoadSlices(uint32_t n, uint32_t oh, uint32_t w0, uint32_t cnt)
    {
        LocalTensor<float> s = sliceQ.AllocTensor<float>();
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        uint32_t slot = 0;
        for (uint32_t ci = 0; ci < cin; ++ci) {
            uint64_t plane = ((uint64_t)n * cin + ci) * inH;
            for (uint32_t a = 0; a < kH; ++a) {
                uint64_t rowOff = (plane + oh + a) * inW + w0;
                for (uint32_t b = 0; b < kW; ++b) {
                    DataCopyPad(s[slot * tileW], xGm[rowOff + b], cp, pad);
                    ++slot;
                }
            }
        }
        sliceQ.EnQue(s);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        LocalTensor<float> s = sliceQ.DeQue<float>();
        LocalTensor<float> wl = filterBuf.Get<float>();
        LocalTensor<float> bl = biasBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> mn = minBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();

        Duplicate(mn, BIG_VALUE, cnt);
        for (uint32_t co = 0; co < cout; ++co) {
            Duplicate(acc, bl.GetValue(co), cnt);
            uint32_t wBase = co * taps;
            for (uint32_t k = 0; k < taps; ++k) {
                Axpy(acc, s[k * tileW], wl.GetValue(wBase + k), cnt);
            }
            Min(mn, mn, acc, cnt);
        }
        sliceQ.FreeTensor(s);

        LocalTensor<float> out = outQ.AllocTensor<float>();
        Tanh2x(out, mn, tmp, cnt);   // first tanh
        Tanh2x(out, out, tmp, cnt);  // second tanh
        outQ.EnQue(out);
    }

    // tanh(v) = 2 / (1 + exp(-2v)) - 1 ; exp overflow for very negative v gives -1 as wanted
    __aicore__ inline void Tanh2x(const LocalTensor<float> &dst, const LocalTensor<float> &src,
                                  const LocalTensor<float> &tmp, uint32_t cnt)
    {
        Muls(tmp, src, -2.0f, cnt);
        Exp(tmp, tmp, cnt);
        Adds(tmp, tmp, 1.0f, cnt);
        Reciprocal(tmp, tmp, cnt);
        Muls(tmp, tmp, 2.0f, cnt);
        Adds(dst, tmp, -1.0f, cnt);
    }

    __aicore__ inline void Store(uint32_t row, uint32_t w0, uint32_t cnt)
    {
        LocalTensor<float> out = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)row * outW + w0], out, cp);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, SLICE_DEPTH> sliceQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> filterBuf, biasBuf, accBuf, minBuf, tmpBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;

    uint32_t cin, cout, inH, inW, kH, kW, outH, outW, taps;
    uint32_t tileW, tilesPerRow;
    uint32_t firstTask, myTasks;
};

extern "C" __global__ __aicore__ void conv_channel_min_double_tanh(GM_ADDR x, GM_ADDR filter, GM_ADDR bias,
                                                                   GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ConvChannelMinDoubleTanhKernel kernel;
    kernel.Init(x, filter, bias, y, tilingData);
    kernel.Process();
}
