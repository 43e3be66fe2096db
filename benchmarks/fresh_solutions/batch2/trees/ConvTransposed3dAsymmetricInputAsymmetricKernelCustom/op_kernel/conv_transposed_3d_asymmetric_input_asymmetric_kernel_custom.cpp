#include "kernel_operator.h"

using namespace AscendC;

// Direct transposed 3D convolution, stride 1, no padding.
// One work item = one output row (n, od, oh) for *all* output channels:
//   acc[co][ow] += w[ci,co,kd,kh,kw] * x[n,ci,od-kd,oh-kh,ow-kw]
// The input row sits in UB after `head` zeros (and is followed by zeros), so the shifted
// view x[ow-kw] is a plain Gather with base offset (head-kw)*4 and offsets 0,4,8,...
// Buffers are TBuf's; the MTE2/V/MTE3 ordering is done with explicit hardware flags.

class KernelConvTranspose3d {
public:
    __aicore__ inline KernelConvTranspose3d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed3dAsymmetricInputAsymmetricKernelCustomTilingData& t)
    {
        cin = t.cin; cout = t.cout;
        inD = t.inD; inH = t.inH; inW = t.inW;
        kD = t.kD; kH = t.kH; kW = t.kW;
        outD = t.outD; outH = t.outH; outW = t.outW;
        head = t.head; rowLen = t.rowLen; owAlign = t.owAlign; wSliceLen = t.wSliceLen;

        rowBegin = GetBlockIdx() * t.rowsPerCore;
        rowEnd = rowBegin + t.rowsPerCore;
        if (rowEnd > t.totalRows) rowEnd = t.totalRows;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(wBuf, wSliceLen * sizeof(float));
        pipe.InitBuffer(rowBuf, rowLen * sizeof(float));
        pipe.InitBuffer(tapBuf, owAlign * sizeof(float));
        pipe.InitBuffer(offBuf, owAlign * sizeof(uint32_t));
        pipe.InitBuffer(accBuf, cout * owAlign * sizeof(float));

        // The row buffer is zeroed once; DMA only ever rewrites [head, head + align8(inW)).
        LocalTensor<float> row = rowBuf.Get<float>();
        Duplicate(row, 0.0f, rowLen);

        LocalTensor<int32_t> offs = offBuf.Get<int32_t>();
        CreateVecIndex(offs, (int32_t)0, owAlign);
        PipeBarrier<PIPE_V>();
        ShiftLeft(offs, offs, (int32_t)2, owAlign);   // * sizeof(float)
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            uint32_t oh = r % outH;
            uint32_t od = (r / outH) % outD;
            uint32_t n = r / (outH * outD);
            ComputeRow(n, od, oh);
            WriteRow(n, od, oh);
        }
    }

private:
    __aicore__ inline void ComputeRow(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> tap = tapBuf.Get<float>();
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        LocalTensor<float> wLoc = wBuf.Get<float>();

        Duplicate(acc, 0.0f, cout * owAlign);

        const uint32_t kVol = kD * kH * kW;
        for (uint32_t ci = 0; ci < cin; ++ci) {
            // weights w[ci, :, :, :, :] are contiguous
            WaitVector();
            DataCopyExtParams wcp{1, cout * kVol * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPad(wLoc, wGm[(uint64_t)ci * cout * kVol], wcp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            event_t eWS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(eWS);
            WaitFlag<HardEvent::MTE2_S>(eWS);

            for (uint32_t kd = 0; kd < kD; ++kd) {
                if (od < kd || od - kd >= inD) continue;
                uint32_t id = od - kd;
                for (uint32_t kh = 0; kh < kH; ++kh) {
                    if (oh < kh || oh - kh >= inH) continue;
                    uint32_t ih = oh - kh;

                    uint64_t src = ((((uint64_t)n * cin + ci) * inD + id) * inH + ih) * inW;
                    WaitVector();    // previous Gathers must be done reading the row
                    uint32_t padR = (inW + 7) / 8 * 8 - inW;
                    DataCopyExtParams cp{1, inW * (uint32_t)sizeof(float), 0, 0, 0};
                    DataCopyPad(row[head], xGm[src], cp,
                                DataCopyPadExtParams<float>{true, 0, (uint8_t)padR, 0.0f});
                    event_t eMV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
                    SetFlag<HardEvent::MTE2_V>(eMV);
                    WaitFlag<HardEvent::MTE2_V>(eMV);

                    for (uint32_t kw = 0; kw < kW; ++kw) {
                        Gather(tap, row, offs, (head - kw) * (uint32_t)sizeof(float), outW);
                        PipeBarrier<PIPE_V>();
                        uint32_t wIdx = (kd * kH + kh) * kW + kw;
                        for (uint32_t co = 0; co < cout; ++co) {
                            float wv = wLoc.GetValue(co * kVol + wIdx);
                            Axpy(acc[co * owAlign], tap, wv, outW);
                        }
                        PipeBarrier<PIPE_V>();
                    }
                }
            }
        }
    }

    __aicore__ inline void WriteRow(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        event_t eVM = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(eVM);
        WaitFlag<HardEvent::V_MTE3>(eVM);

        uint64_t planeOut = (uint64_t)outD * outH * outW;
        uint64_t dst = (uint64_t)n * cout * planeOut + ((uint64_t)od * outH + oh) * outW;
        uint32_t rowBytes = outW * sizeof(float);
        uint32_t srcGap = (owAlign * sizeof(float) - (rowBytes + 31) / 32 * 32) / 32;
        uint32_t dstGap = (uint32_t)((planeOut - outW) * sizeof(float));
        DataCopyExtParams cp{(uint16_t)cout, rowBytes, srcGap, dstGap, 0};
        DataCopyPad(yGm[dst], acc, cp);

        // acc is cleared by the next row: wait for the store to drain first
        event_t eMV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_V));
        SetFlag<HardEvent::MTE3_V>(eMV);
        WaitFlag<HardEvent::MTE3_V>(eMV);
    }

    __aicore__ inline void WaitVector()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(e);
        WaitFlag<HardEvent::V_MTE2>(e);
    }

private:
    TPipe pipe;
    TBuf<QuePosition::VECCALC> wBuf, rowBuf, tapBuf, offBuf, accBuf;
    GlobalTensor<float> xGm, wGm, yGm;

    uint32_t cin, cout, inD, inH, inW, kD, kH, kW, outD, outH, outW;
    uint32_t head, rowLen, owAlign, wSliceLen;
    uint32_t rowBegin, rowEnd;
};

extern "C" __global__ __aicore__ void conv_transposed_3d_asymmetric_input_asymmetric_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvTranspose3d op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
