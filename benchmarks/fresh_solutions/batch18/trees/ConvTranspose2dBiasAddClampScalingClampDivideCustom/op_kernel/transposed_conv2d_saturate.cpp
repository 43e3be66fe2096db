/*
 * Transposed 2-D convolution + two biases + saturate/scale/saturate/unscale.
 *
 * Each core handles output rows (n, co, oh). Along the width the output is
 * split into `stride` phases: column ow = j * stride + r belongs to phase r.
 * For a tap kw every contribution lands in a single phase r(kw) and is a plain
 * shifted copy of the input row, so
 *     acc[r(kw)][j] += w[ci][co][kh][kw] * x[ci][ih][j - e(kw)]
 * The shifted rows are produced with Gather from a zero-padded staging row,
 * and a final Gather interleaves the phases back into natural column order.
 */
#include "kernel_operator.h"

using namespace AscendC;

class TransposedConv2dSaturateKernel {
public:
    __aicore__ inline TransposedConv2dSaturateKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR convBias, GM_ADDR chBias, GM_ADDR y,
                                const TransposedConv2dSaturateTilingData &tiling)
    {
        t = tiling;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)weight);
        cbGm.SetGlobalBuffer((__gm__ float *)convBias, t.outC);
        chGm.SetGlobalBuffer((__gm__ float *)chBias, t.outC);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(stageQ, 2, t.stageLen * sizeof(float));
        pipe.InitBuffer(outQ, 2, t.outWAlign * sizeof(float));
        pipe.InitBuffer(shiftTblBuf, t.kW * t.phaseAlign * sizeof(uint32_t));
        pipe.InitBuffer(mergeTblBuf, t.outWAlign * sizeof(uint32_t));
        pipe.InitBuffer(shiftedBuf, t.phaseAlign * sizeof(float));
        pipe.InitBuffer(accBuf, t.stride * t.phaseAlign * sizeof(float));
        pipe.InitBuffer(weightBuf, t.inC * t.tapStride * sizeof(float));

        rowLo = GetBlockIdx() * t.rowsPerCore;
        rowHi = rowLo + t.rowsPerCore;
        if (rowHi > t.totalRows) {
            rowHi = t.totalRows;
        }
    }

    __aicore__ inline void Process()
    {
        if (rowLo >= rowHi) {
            return;
        }
        BuildTables();
        uint32_t loadedCo = 0xFFFFFFFFU;
        float chanShift = 0.0f;
        for (uint32_t row = rowLo; row < rowHi; ++row) {
            uint32_t oh = row % t.outH;
            uint32_t co = (row / t.outH) % t.outC;
            uint32_t n = row / (t.outH * t.outC);
            if (co != loadedCo) {
                LoadChannelWeights(co);
                chanShift = cbGm.GetValue(co) + chGm.GetValue(co);
                loadedCo = co;
            }
            AccumulateRow(n, oh);
            EmitRow(row, chanShift);
        }
    }

private:
    __aicore__ inline int32_t PhaseOf(uint32_t kw)
    {
        int32_t s = static_cast<int32_t>(t.stride);
        int32_t r = (static_cast<int32_t>(kw) - static_cast<int32_t>(t.pad)) % s;
        return r < 0 ? r + s : r;
    }

    // e(kw) = (kw - pad - r) / stride, exact by construction
    __aicore__ inline int32_t ShiftOf(uint32_t kw)
    {
        return (static_cast<int32_t>(kw) - static_cast<int32_t>(t.pad) - PhaseOf(kw)) /
               static_cast<int32_t>(t.stride);
    }

    __aicore__ inline void BuildTables()
    {
        LocalTensor<uint32_t> shiftTbl = shiftTblBuf.Get<uint32_t>();
        int32_t zeroSlot = 0;  // staging[0] is always zero (inside the lead-in)
        for (uint32_t kw = 0; kw < t.kW; ++kw) {
            int32_t e = ShiftOf(kw);
            for (uint32_t j = 0; j < t.phaseAlign; ++j) {
                int32_t iw = static_cast<int32_t>(j) - e;
                int32_t slot = (iw >= 0 && iw < static_cast<int32_t>(t.inW) && j < t.phaseLen)
                                   ? static_cast<int32_t>(t.leadPad) + iw
                                   : zeroSlot;
                shiftTbl.SetValue(kw * t.phaseAlign + j, static_cast<uint32_t>(slot) * 4U);
            }
        }
        LocalTensor<uint32_t> mergeTbl = mergeTblBuf.Get<uint32_t>();
        for (uint32_t ow = 0; ow < t.outWAlign; ++ow) {
            uint32_t src = ow < t.outW ? ((ow % t.stride) * t.phaseAlign + ow / t.stride) : 0;
            mergeTbl.SetValue(ow, src * 4U);
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    // weights of one output channel: [ci][kh*kW] with pitch tapStride
    __aicore__ inline void LoadChannelWeights(uint32_t co)
    {
        uint32_t taps = t.kH * t.kW;
        LocalTensor<float> wl = weightBuf.Get<float>();
        event_t sm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
        SetFlag<HardEvent::S_MTE2>(sm);
        WaitFlag<HardEvent::S_MTE2>(sm);
        DataCopyExtParams cp{static_cast<uint16_t>(t.inC), taps * 4U, (t.outC - 1) * taps * 4U,
                             (t.tapStride * 4U - (taps * 4U + 31U) / 32U * 32U) / 32U, 0};
        DataCopyPad(wl, wGm[static_cast<uint64_t>(co) * taps], cp, {false, 0, 0, 0.0f});
        event_t ms = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ms);
        WaitFlag<HardEvent::MTE2_S>(ms);
    }

    __aicore__ inline void AccumulateRow(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> shifted = shiftedBuf.Get<float>();
        LocalTensor<uint32_t> shiftTbl = shiftTblBuf.Get<uint32_t>();
        LocalTensor<float> wl = weightBuf.Get<float>();
        Duplicate(acc, 0.0f, t.stride * t.phaseAlign);

        for (uint32_t kh = 0; kh < t.kH; ++kh) {
            int32_t num = static_cast<int32_t>(oh) + static_cast<int32_t>(t.pad) - static_cast<int32_t>(kh);
            if (num < 0 || num % static_cast<int32_t>(t.stride) != 0) {
                continue;
            }
            uint32_t ih = static_cast<uint32_t>(num) / t.stride;
            if (ih >= t.inH) {
                continue;
            }
            for (uint32_t ci = 0; ci < t.inC; ++ci) {
                LocalTensor<float> stage = stageQ.AllocTensor<float>();
                Duplicate(stage, 0.0f, t.stageLen);
                event_t vm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
                SetFlag<HardEvent::V_MTE2>(vm);
                WaitFlag<HardEvent::V_MTE2>(vm);
                uint64_t src = ((static_cast<uint64_t>(n) * t.inC + ci) * t.inH + ih) * t.inW;
                DataCopyPad(stage[t.leadPad], xGm[src], {1, t.inW * 4U, 0, 0, 0}, {false, 0, 0, 0.0f});
                stageQ.EnQue(stage);
                stage = stageQ.DeQue<float>();

                uint32_t wRow = ci * t.tapStride + kh * t.kW;
                for (uint32_t kw = 0; kw < t.kW; ++kw) {
                    float coef = wl.GetValue(wRow + kw);
                    Gather(shifted, stage, shiftTbl[kw * t.phaseAlign], 0U, t.phaseAlign);
                    Axpy(acc[static_cast<uint32_t>(PhaseOf(kw)) * t.phaseAlign], shifted, coef, t.phaseAlign);
                }
                stageQ.FreeTensor(stage);
            }
        }
    }

    __aicore__ inline void EmitRow(uint32_t row, float chanShift)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<uint32_t> mergeTbl = mergeTblBuf.Get<uint32_t>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        uint32_t len = t.outWAlign;
        float s = t.scale;

        Gather(out, acc, mergeTbl, 0U, len);
        Adds(out, out, chanShift, len);
        Maxs(out, out, 0.0f, len);
        Mins(out, out, 1.0f, len);
        Muls(out, out, s, len);
        Maxs(out, out, 0.0f, len);
        Mins(out, out, 1.0f, len);
        Muls(out, out, 1.0f / s, len);
        outQ.EnQue(out);

        out = outQ.DeQue<float>();
        DataCopyPad(yGm[static_cast<uint64_t>(row) * t.outW], out, {1, t.outW * 4U, 0, 0, 0});
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> stageQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> shiftTblBuf, mergeTblBuf, shiftedBuf, accBuf, weightBuf;
    GlobalTensor<float> xGm, wGm, cbGm, chGm, yGm;
    TransposedConv2dSaturateTilingData t;
    uint32_t rowLo = 0, rowHi = 0;
};

extern "C" __global__ __aicore__ void transposed_conv2d_saturate(GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias,
                                                                 GM_ADDR channel_bias, GM_ADDR y, GM_ADDR workspace,
                                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TransposedConv2dSaturateKernel op;
    op.Init(x, weight, conv_bias, channel_bias, y, td);
    op.Process();
}
