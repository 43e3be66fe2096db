/*
 * DepthwiseConvBnClip: per-channel KxK convolution (any stride / symmetric zero padding),
 * then y = clamp(conv * scale[c] + shift[c], 0, clip_max).
 *
 * A work item is a band of output rows of one (image, channel) plane. The input rows the band
 * needs are staged in UB with an aligned pitch; each staged row is followed by a zero block that
 * stands in for the horizontal padding. For every kernel column kw a precomputed byte-offset table
 * turns "input column wo*stride - pad + kw" into a Gather, so arbitrary strides need no
 * unaligned vector access.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class DepthwiseConvBnClipKernel {
public:
    __aicore__ inline DepthwiseConvBnClipKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const DepthwiseConvBnClipTilingData &tiling)
    {
        td = tiling;
        const uint64_t planes = (uint64_t)td.batch * td.channels;
        xGm.SetGlobalBuffer((__gm__ T *)x, planes * td.inH * td.inW);
        yGm.SetGlobalBuffer((__gm__ T *)y, planes * td.outH * td.outW);
        fGm.SetGlobalBuffer((__gm__ T *)filter, (uint64_t)td.channels * td.kernel * td.kernel);
        scaleGm.SetGlobalBuffer((__gm__ T *)scale, td.channels);
        shiftGm.SetGlobalBuffer((__gm__ T *)shift, td.channels);

        kk = td.kernel * td.kernel;
        pipe.InitBuffer(inQ, 1, td.bandInRows * td.rowPitch * sizeof(T));
        pipe.InitBuffer(outQ, 2, td.bandRows * td.outWAlign * sizeof(T));
        pipe.InitBuffer(tapBuf, td.outWAlign * sizeof(T));
        pipe.InitBuffer(offBuf, td.kernel * td.outWAlign * sizeof(uint32_t));
        pipe.InitBuffer(wBuf, (kk + 32) * sizeof(T));
        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        uint32_t first = GetBlockIdx() * td.bandsPerCore;
        uint32_t last = first + td.bandsPerCore;
        if (last > td.totalBands) {
            last = td.totalBands;
        }
        uint32_t loadedChannel = 0xFFFFFFFFU;
        for (uint32_t u = first; u < last; ++u) {
            const uint32_t plane = u / td.bandsPerPlane;
            const uint32_t band = u % td.bandsPerPlane;
            const uint32_t ch = plane % td.channels;
            if (ch != loadedChannel) {
                LoadChannelParams(ch);
                loadedChannel = ch;
            }
            StageInput(plane, band);
            ComputeBand(plane, band);
        }
    }

private:
    // off[kw][wo] = byte offset inside a staged row of input column wo*stride - pad + kw,
    // or of the zero block when that column lies in the padding.
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < td.kernel; ++kw) {
            for (uint32_t wo = 0; wo < td.outWAlign; ++wo) {
                int32_t wi = static_cast<int32_t>(wo * td.stride + kw) - static_cast<int32_t>(td.pad);
                uint32_t col = (wo < td.outW && wi >= 0 && wi < static_cast<int32_t>(td.inW))
                                   ? static_cast<uint32_t>(wi) : td.zeroCol;
                off.SetValue(kw * td.outWAlign + wo, col * sizeof(T));
            }
        }
    }

    __aicore__ inline void LoadChannelParams(uint32_t ch)
    {
        LocalTensor<T> w = wBuf.Get<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(kk * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
        DataCopyPad(w, fGm[(uint64_t)ch * kk], cp, noPad);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
        chScale = scaleGm.GetValue(ch);
        chShift = shiftGm.GetValue(ch);
    }

    __aicore__ inline void StageInput(uint32_t plane, uint32_t band)
    {
        const int32_t ho0 = static_cast<int32_t>(band * td.bandRows);
        hiBase = ho0 * static_cast<int32_t>(td.stride) - static_cast<int32_t>(td.pad);
        int32_t lo = hiBase < 0 ? 0 : hiBase;
        int32_t hi = hiBase + static_cast<int32_t>(td.bandInRows);
        if (hi > static_cast<int32_t>(td.inH)) {
            hi = static_cast<int32_t>(td.inH);
        }

        LocalTensor<T> rows = inQ.AllocTensor<T>();
        Duplicate(rows, static_cast<T>(0), td.bandInRows * td.rowPitch);   // zero blocks + out-of-range rows
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(ev);
        WaitFlag<HardEvent::V_MTE2>(ev);
        if (hi > lo) {
            DataCopyExtParams cp;
            cp.blockCount = static_cast<uint16_t>(hi - lo);
            cp.blockLen = td.inW * sizeof(T);
            cp.srcStride = 0;
            cp.dstStride = (td.rowPitch - td.zeroCol) * sizeof(T) / 32;   // skip the zero block
            cp.rsv = 0;
            DataCopyPadExtParams<T> padP{false, 0, 0, 0};
            const uint64_t src = ((uint64_t)plane * td.inH + lo) * td.inW;
            DataCopyPad(rows[(lo - hiBase) * td.rowPitch], xGm[src], cp, padP);
        }
        inQ.EnQue(rows);
    }

    __aicore__ inline void ComputeBand(uint32_t plane, uint32_t band)
    {
        LocalTensor<T> rows = inQ.DeQue<T>();
        LocalTensor<T> out = outQ.AllocTensor<T>();
        LocalTensor<T> tap = tapBuf.Get<T>();
        LocalTensor<T> w = wBuf.Get<T>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();

        const uint32_t ho0 = band * td.bandRows;
        const uint32_t nRows = (td.outH - ho0) < td.bandRows ? (td.outH - ho0) : td.bandRows;
        const uint32_t n = td.outWAlign;
        for (uint32_t r = 0; r < nRows; ++r) {
            LocalTensor<T> acc = out[r * n];
            Duplicate(acc, static_cast<T>(0), n);
            for (uint32_t kh = 0; kh < td.kernel; ++kh) {
                const int32_t hiAbs = hiBase + static_cast<int32_t>(r * td.stride + kh);
                if (hiAbs < 0 || hiAbs >= static_cast<int32_t>(td.inH)) {
                    continue;   // vertical padding contributes nothing
                }
                const uint32_t rowByte = (r * td.stride + kh) * td.rowPitch * sizeof(T);
                for (uint32_t kw = 0; kw < td.kernel; ++kw) {
                    Gather(tap, rows, off[kw * n], rowByte, n);
                    Axpy(acc, tap, w.GetValue(kh * td.kernel + kw), n);
                }
            }
            Muls(acc, acc, chScale, n);
            Adds(acc, acc, chShift, n);
            Maxs(acc, acc, static_cast<T>(0), n);
            Mins(acc, acc, static_cast<T>(td.clipMax), n);
        }
        inQ.FreeTensor(rows);
        outQ.EnQue(out);

        out = outQ.DeQue<T>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(nRows);
        cp.blockLen = td.outW * sizeof(T);
        cp.srcStride = (td.outWAlign - td.outW) * sizeof(T) / 32;
        cp.dstStride = 0;
        cp.rsv = 0;
        DataCopyPad(yGm[((uint64_t)plane * td.outH + ho0) * td.outW], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    DepthwiseConvBnClipTilingData td;
    GlobalTensor<T> xGm, yGm, fGm, scaleGm, shiftGm;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> tapBuf, offBuf, wBuf;
    uint32_t kk = 0;
    int32_t hiBase = 0;
    T chScale;
    T chShift;
};

extern "C" __global__ __aicore__ void depthwise_conv_bn_clip(GM_ADDR x, GM_ADDR filter, GM_ADDR scale,
                                                             GM_ADDR shift, GM_ADDR y, GM_ADDR workspace,
                                                             GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DepthwiseConvBnClipKernel<DTYPE_X> op;
    op.Init(x, filter, scale, shift, y, td);
    op.Process();
}
