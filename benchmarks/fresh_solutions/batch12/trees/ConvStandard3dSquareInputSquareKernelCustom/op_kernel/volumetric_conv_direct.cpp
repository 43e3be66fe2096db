/**
 * VolumetricConvDirect kernel.
 *
 * Direct (im2col-free) 3D convolution on the vector unit. Each core owns a range of
 * output lines (n, od, oh). For one line and a block of output channels we keep an
 * fp32 accumulator [ocBlock][outWidthAlign] in UB and, for every input line that
 * contributes (ic, kd, kh), build the K shifted "tap" vectors once and AXPY them into
 * every output channel of the block. The input line is shared by all output channels,
 * so the scalar gather cost is amortised over ocBlock vector instructions.
 */
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;

template <AscendC::HardEvent EVT>
__aicore__ inline void PipeSync()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
    AscendC::SetFlag<EVT>(id);
    AscendC::WaitFlag<EVT>(id);
}
}  // namespace

template <typename T>
class VolumetricConvDirectKernel {
public:
    __aicore__ inline VolumetricConvDirectKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const VolumetricConvDirectTilingData& t)
    {
        td = t;
        const uint32_t core = AscendC::GetBlockIdx();
        rowBegin = core * td.rowsPerCore + (core < td.rowsRemainder ? core : td.rowsRemainder);
        rowCount = td.rowsPerCore + (core < td.rowsRemainder ? 1 : 0);

        icPerGroup = td.inChannels / td.groups;
        ocPerGroup = td.outChannels / td.groups;
        kVol = td.kernelSize * td.kernelSize * td.kernelSize;
        taps = icPerGroup * kVol;
        tapsAlign = (taps + 15) / 16 * 16;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        if (td.hasBias) {
            bGm.SetGlobalBuffer((__gm__ T*)b);
        }
        yGm.SetGlobalBuffer((__gm__ T*)y);

        pipe.InitBuffer(rowQue, BUFFER_NUM, td.inWidthAlign * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, td.ocBlock * td.outWidthAlign * sizeof(T));
        pipe.InitBuffer(rowF32Buf, td.inWidthAlign * sizeof(float));
        pipe.InitBuffer(tapBuf, td.outWidthAlign * sizeof(float));
        pipe.InitBuffer(accBuf, td.ocBlock * td.outWidthAlign * sizeof(float));
        pipe.InitBuffer(wF32Buf, td.ocBlock * tapsAlign * sizeof(float));
        pipe.InitBuffer(wRawBuf, td.ocBlock * tapsAlign * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        const uint32_t ocBlocksPerGroup = (ocPerGroup + td.ocBlock - 1) / td.ocBlock;
        // Common case (one block covers all output channels): load weights once.
        const bool weightsResident = (td.groups == 1 && ocBlocksPerGroup == 1);
        if (weightsResident) {
            LoadWeights(0, ocPerGroup);
        }
        for (uint32_t r = 0; r < rowCount; ++r) {
            const uint32_t row = rowBegin + r;
            const uint32_t oh = row % td.outHeight;
            const uint32_t od = (row / td.outHeight) % td.outDepth;
            const uint32_t n = row / (td.outHeight * td.outDepth);
            for (uint32_t g = 0; g < td.groups; ++g) {
                for (uint32_t ob = 0; ob < ocBlocksPerGroup; ++ob) {
                    const uint32_t ocStart = g * ocPerGroup + ob * td.ocBlock;
                    const uint32_t remain = ocPerGroup - ob * td.ocBlock;
                    const uint32_t ocCnt = remain < td.ocBlock ? remain : td.ocBlock;
                    if (!weightsResident) {
                        LoadWeights(ocStart, ocCnt);
                    }
                    ComputeLine(n, od, oh, g, ocStart, ocCnt);
                    StoreLine(n, od, oh, ocStart, ocCnt);
                }
            }
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t ocStart, uint32_t ocCnt)
    {
        AscendC::LocalTensor<float> wF32 = wF32Buf.Get<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(ocCnt * taps * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        // Any earlier scalar reads of the weights are complete (in-order scalar pipe).
        if constexpr (sizeof(T) == sizeof(float)) {
            AscendC::DataCopyPad(wF32, wGm[static_cast<uint64_t>(ocStart) * taps], cp, pad);
            PipeSync<AscendC::HardEvent::MTE2_S>();
        } else {
            AscendC::LocalTensor<T> wRaw = wRawBuf.Get<T>();
            AscendC::DataCopyPad(wRaw, wGm[static_cast<uint64_t>(ocStart) * taps], cp, pad);
            PipeSync<AscendC::HardEvent::MTE2_V>();
            AscendC::Cast(wF32, wRaw, AscendC::RoundMode::CAST_NONE, ocCnt * tapsAlign);
            PipeSync<AscendC::HardEvent::V_S>();
        }
    }

    __aicore__ inline void ComputeLine(uint32_t n, uint32_t od, uint32_t oh, uint32_t g,
                                       uint32_t ocStart, uint32_t ocCnt)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<float> tap = tapBuf.Get<float>();
        AscendC::LocalTensor<float> wF32 = wF32Buf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, ocCnt * td.outWidthAlign);

        const int32_t K = static_cast<int32_t>(td.kernelSize);
        const int32_t S = static_cast<int32_t>(td.stride);
        const int32_t P = static_cast<int32_t>(td.padding);
        const int32_t DL = static_cast<int32_t>(td.dilation);
        const int32_t OW = static_cast<int32_t>(td.outWidth);
        const int32_t IW = static_cast<int32_t>(td.inWidth);

        for (uint32_t icl = 0; icl < icPerGroup; ++icl) {
            const uint32_t ic = g * icPerGroup + icl;
            for (int32_t kd = 0; kd < K; ++kd) {
                const int32_t id = static_cast<int32_t>(od) * S - P + kd * DL;
                if (id < 0 || id >= static_cast<int32_t>(td.inDepth)) {
                    continue;
                }
                for (int32_t kh = 0; kh < K; ++kh) {
                    const int32_t ih = static_cast<int32_t>(oh) * S - P + kh * DL;
                    if (ih < 0 || ih >= static_cast<int32_t>(td.inHeight)) {
                        continue;
                    }
                    const uint64_t lineOff =
                        (((static_cast<uint64_t>(n) * td.inChannels + ic) * td.inDepth + id) * td.inHeight + ih) *
                        td.inWidth;
                    AscendC::LocalTensor<float> line = FetchLine(lineOff);
                    const uint32_t wBase = icl * kVol + (kd * K + kh) * K;
                    for (int32_t kw = 0; kw < K; ++kw) {
                        // Make sure the previous AXPYs finished reading the tap vector.
                        PipeSync<AscendC::HardEvent::V_S>();
                        const int32_t shift = kw * DL - P;
                        for (int32_t ow = 0; ow < OW; ++ow) {
                            const int32_t iw = ow * S + shift;
                            tap.SetValue(ow, (iw >= 0 && iw < IW) ? line.GetValue(iw) : 0.0f);
                        }
                        PipeSync<AscendC::HardEvent::S_V>();
                        for (uint32_t j = 0; j < ocCnt; ++j) {
                            const float wv = wF32.GetValue(j * taps + wBase + kw);
                            AscendC::Axpy(acc[j * td.outWidthAlign], tap, wv, OW);
                        }
                    }
                    ReleaseLine();
                }
            }
        }
    }

    // Bring one input W-line to UB as fp32.
    __aicore__ inline AscendC::LocalTensor<float> FetchLine(uint64_t off)
    {
        AscendC::LocalTensor<T> raw = rowQue.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(td.inWidth * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        AscendC::DataCopyPad(raw, xGm[off], cp, pad);
        rowQue.EnQue(raw);
        curRaw = rowQue.DeQue<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            PipeSync<AscendC::HardEvent::MTE2_S>();
            return curRaw.template ReinterpretCast<float>();
        } else {
            AscendC::LocalTensor<float> f = rowF32Buf.Get<float>();
            AscendC::Cast(f, curRaw, AscendC::RoundMode::CAST_NONE, td.inWidthAlign);
            PipeSync<AscendC::HardEvent::V_S>();
            return f;
        }
    }

    __aicore__ inline void ReleaseLine() { rowQue.FreeTensor(curRaw); }

    __aicore__ inline void StoreLine(uint32_t n, uint32_t od, uint32_t oh, uint32_t ocStart, uint32_t ocCnt)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<T> out = outQue.AllocTensor<T>();
        for (uint32_t j = 0; j < ocCnt; ++j) {
            const float bv = td.hasBias ? static_cast<float>(bGm.GetValue(ocStart + j)) : 0.0f;
            if constexpr (sizeof(T) == sizeof(float)) {
                AscendC::Adds(out[j * td.outWidthAlign], acc[j * td.outWidthAlign], bv, td.outWidthAlign);
            } else {
                AscendC::Adds(acc[j * td.outWidthAlign], acc[j * td.outWidthAlign], bv, td.outWidthAlign);
            }
        }
        if constexpr (sizeof(T) != sizeof(float)) {
            AscendC::Cast(out, acc, AscendC::RoundMode::CAST_ROUND, ocCnt * td.outWidthAlign);
        }
        outQue.EnQue(out);
        out = outQue.DeQue<T>();
        const uint64_t plane = static_cast<uint64_t>(td.outDepth) * td.outHeight * td.outWidth;
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(td.outWidth * sizeof(T)), 0, 0, 0};
        for (uint32_t j = 0; j < ocCnt; ++j) {
            const uint64_t dst = (static_cast<uint64_t>(n) * td.outChannels + ocStart + j) * plane +
                                 (static_cast<uint64_t>(od) * td.outHeight + oh) * td.outWidth;
            AscendC::DataCopyPad(yGm[dst], out[j * td.outWidthAlign], cp);
        }
        outQue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> rowQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowF32Buf, tapBuf, accBuf, wF32Buf, wRawBuf;
    AscendC::GlobalTensor<T> xGm, wGm, bGm, yGm;
    AscendC::LocalTensor<T> curRaw;
    VolumetricConvDirectTilingData td;
    uint32_t rowBegin = 0, rowCount = 0;
    uint32_t icPerGroup = 1, ocPerGroup = 1, kVol = 1, taps = 1, tapsAlign = 16;
};

extern "C" __global__ __aicore__ void volumetric_conv_direct(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(0)) {
        VolumetricConvDirectKernel<float> op;
        op.Init(x, weight, bias, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        VolumetricConvDirectKernel<half> op;
        op.Init(x, weight, bias, y, tilingData);
        op.Process();
    }
}
