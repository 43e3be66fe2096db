/*
 * VolumeTransposedConv: direct (gather-form) 3-D transposed convolution on the vector unit.
 *
 *   y[n, co, od, oh, ow] = bias[co] + sum_{ci in group(co)} sum_{kd, kh, kw}
 *                          x[n, ci, id, ih, iw] * w[ci, co % CoG, kd, kh, kw]
 *   with od = id * sd - pd + kd * dd  (same for h, w), i.e. id = (od + pd - kd * dd) / sd
 *   when the division is exact and in range.
 *
 * One work unit = one output row (n, od, oh, :) for a block of output channels. For every
 * contributing (ci, kd, kh) the input row is staged once in fp32; for every kw a Gather with
 * a precomputed offset table lays the row out in output-column space (missing taps point at a
 * zero element), and then each output channel of the block receives one Axpy with the
 * matching weight. Accumulation is fp32; bias is added at the end.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class VolumeTransposedConvKernel {
public:
    __aicore__ inline VolumeTransposedConvKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const VolumeTransposedConvTiling &td)
    {
        t_ = td;
        k3_ = t_.kd * t_.kh * t_.kw;
        coPerGroup_ = t_.cout / t_.groups;
        ciPerGroup_ = t_.cin / t_.groups;
        zeroSlot_ = t_.wiAligned - 1;

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        wGm_.SetGlobalBuffer((__gm__ T *)w);
        if (t_.hasBias) {
            biasGm_.SetGlobalBuffer((__gm__ T *)bias, t_.cout);
        }
        yGm_.SetGlobalBuffer((__gm__ T *)y);

        uint32_t wBlk = (t_.coTile * k3_ + 15) / 16 * 16;
        pipe_.InitBuffer(rowQue_, 2, t_.wiAligned * sizeof(T));
        pipe_.InitBuffer(rowF32_, t_.wiAligned * sizeof(float));
        pipe_.InitBuffer(gathBuf_, t_.woAligned * sizeof(float));
        pipe_.InitBuffer(offBuf_, t_.kw * t_.woAligned * sizeof(uint32_t));
        pipe_.InitBuffer(wRawBuf_, wBlk * sizeof(T));
        pipe_.InitBuffer(wF32_, wBlk * sizeof(float));
        pipe_.InitBuffer(accBuf_, t_.coTile * t_.woAligned * sizeof(float));
        pipe_.InitBuffer(outQue_, 1, t_.coTile * t_.woAligned * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        BuildGatherTables();
        uint32_t first = GetBlockIdx() * t_.unitsPerCore;
        uint32_t last = first + t_.unitsPerCore;
        if (last > t_.totalUnits) {
            last = t_.totalUnits;
        }
        for (uint32_t u = first; u < last; ++u) {
            uint32_t rest = u;
            uint32_t cb = rest % t_.coBlocks;
            rest /= t_.coBlocks;
            uint32_t oh = rest % t_.hout;
            rest /= t_.hout;
            uint32_t od = rest % t_.dout;
            uint32_t n = rest / t_.dout;
            ComputeRowBlock(n, od, oh, cb);
        }
    }

private:
    template <HardEvent EVT>
    __aicore__ inline void Fence()
    {
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(EVT));
        SetFlag<EVT>(ev);
        WaitFlag<EVT>(ev);
    }

    // off[kw][ow] = byte offset into the staged row of the input column feeding output
    // column ow through kernel tap kw, or of the zero slot when there is none.
    __aicore__ inline void BuildGatherTables()
    {
        LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
        for (uint32_t k = 0; k < t_.kw; ++k) {
            for (uint32_t ow = 0; ow < t_.woAligned; ++ow) {
                int32_t pos = static_cast<int32_t>(ow) + static_cast<int32_t>(t_.pw) -
                              static_cast<int32_t>(k * t_.dw);
                uint32_t idx = zeroSlot_;
                if (ow < t_.wout && pos >= 0 && pos % static_cast<int32_t>(t_.sw) == 0) {
                    uint32_t iw = static_cast<uint32_t>(pos) / t_.sw;
                    if (iw < t_.win) {
                        idx = iw;
                    }
                }
                off.SetValue(k * t_.woAligned + ow, idx * static_cast<uint32_t>(sizeof(float)));
            }
        }
        LocalTensor<float> row = rowF32_.Get<float>();
        Duplicate(row, 0.0f, t_.wiAligned);
        Fence<HardEvent::S_V>();
    }

    // input index along one axis for output index o and tap k; -1 if the tap does not hit
    __aicore__ inline int32_t SourceIndex(uint32_t o, uint32_t k, uint32_t pad, uint32_t dil, uint32_t stride,
                                          uint32_t inLen)
    {
        int32_t pos = static_cast<int32_t>(o + pad) - static_cast<int32_t>(k * dil);
        if (pos < 0 || pos % static_cast<int32_t>(stride) != 0) {
            return -1;
        }
        int32_t i = pos / static_cast<int32_t>(stride);
        return i < static_cast<int32_t>(inLen) ? i : -1;
    }

    __aicore__ inline void LoadWeights(uint32_t ci, uint32_t colBase)
    {
        uint32_t cnt = t_.coTile * k3_;
        LocalTensor<T> raw = wRawBuf_.Get<T>();
        LocalTensor<float> wf = wF32_.Get<float>();
        uint64_t src = (static_cast<uint64_t>(ci) * coPerGroup_ + colBase) * k3_;
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(raw, wGm_[src], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        Fence<HardEvent::MTE2_V>();
        if constexpr (std::is_same<T, float>::value) {
            Adds(wf, raw, 0.0f, cnt);
        } else {
            Cast(wf, raw, RoundMode::CAST_NONE, cnt);
        }
        Fence<HardEvent::V_S>();
    }

    __aicore__ inline void StageRow(uint64_t gmOffset)
    {
        LocalTensor<T> raw = rowQue_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(t_.win * sizeof(T)), 0, 0, 0};
        DataCopyPad(raw, xGm_[gmOffset], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        rowQue_.EnQue(raw);
        raw = rowQue_.DeQue<T>();
        LocalTensor<float> row = rowF32_.Get<float>();
        // exact-count writes keep the zero slot at the end of the row intact
        if constexpr (std::is_same<T, float>::value) {
            Adds(row, raw, 0.0f, t_.win);
        } else {
            Cast(row, raw, RoundMode::CAST_NONE, t_.win);
        }
        rowQue_.FreeTensor(raw);
    }

    __aicore__ inline void ComputeRowBlock(uint32_t n, uint32_t od, uint32_t oh, uint32_t cb)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> gath = gathBuf_.Get<float>();
        LocalTensor<float> row = rowF32_.Get<float>();
        LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
        LocalTensor<float> wf = wF32_.Get<float>();

        uint32_t co0 = cb * t_.coTile;
        uint32_t g = co0 / coPerGroup_;
        uint32_t colBase = co0 - g * coPerGroup_;
        const uint32_t woA = t_.woAligned;

        Duplicate(acc, 0.0f, t_.coTile * woA);

        for (uint32_t ci = g * ciPerGroup_; ci < (g + 1) * ciPerGroup_; ++ci) {
            bool weightsReady = false;
            for (uint32_t kd = 0; kd < t_.kd; ++kd) {
                int32_t id = SourceIndex(od, kd, t_.pd, t_.dd, t_.sd, t_.din);
                if (id < 0) {
                    continue;
                }
                for (uint32_t kh = 0; kh < t_.kh; ++kh) {
                    int32_t ih = SourceIndex(oh, kh, t_.ph, t_.dh, t_.sh, t_.hin);
                    if (ih < 0) {
                        continue;
                    }
                    if (!weightsReady) {
                        PipeBarrier<PIPE_V>();
                        LoadWeights(ci, colBase);
                        weightsReady = true;
                    }
                    uint64_t xOff = (((static_cast<uint64_t>(n) * t_.cin + ci) * t_.din + id) * t_.hin + ih) * t_.win;
                    StageRow(xOff);
                    uint32_t tapBase = (kd * t_.kh + kh) * t_.kw;
                    for (uint32_t kw = 0; kw < t_.kw; ++kw) {
                        Gather(gath, row, off[kw * woA], 0, t_.wout);
                        PipeBarrier<PIPE_V>();
                        for (uint32_t c = 0; c < t_.coTile; ++c) {
                            float wv = wf.GetValue(c * k3_ + tapBase + kw);
                            Axpy(acc[c * woA], gath, wv, t_.wout);
                        }
                        PipeBarrier<PIPE_V>();
                    }
                }
            }
        }

        // epilogue: bias, cast, one strided store for the whole channel block
        LocalTensor<T> out = outQue_.AllocTensor<T>();
        for (uint32_t c = 0; c < t_.coTile; ++c) {
            if (t_.hasBias) {
                float b = static_cast<float>(biasGm_.GetValue(co0 + c));
                Adds(acc[c * woA], acc[c * woA], b, t_.wout);
            }
        }
        PipeBarrier<PIPE_V>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(out, acc, t_.coTile * woA);
        } else {
            Cast(out, acc, RoundMode::CAST_ROUND, t_.coTile * woA);
        }
        outQue_.EnQue(out);
        out = outQue_.DeQue<T>();

        uint64_t plane = static_cast<uint64_t>(t_.dout) * t_.hout * t_.wout;
        uint64_t dst = ((static_cast<uint64_t>(n) * t_.cout + co0) * t_.dout + od) * t_.hout * t_.wout +
                       static_cast<uint64_t>(oh) * t_.wout;
        uint32_t rowBytes = t_.wout * sizeof(T);
        uint32_t rowBytesAl = (rowBytes + 31) / 32 * 32;
        DataCopyExtParams st{static_cast<uint16_t>(t_.coTile), rowBytes,
                             static_cast<uint32_t>((woA * sizeof(T) - rowBytesAl) / 32),
                             static_cast<uint32_t>((plane - t_.wout) * sizeof(T)), 0};
        DataCopyPad(yGm_[dst], out, st);
        outQue_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> rowQue_;
    TQue<QuePosition::VECOUT, 1> outQue_;
    TBuf<TPosition::VECCALC> rowF32_, gathBuf_, offBuf_, wRawBuf_, wF32_, accBuf_;
    GlobalTensor<T> xGm_, wGm_, biasGm_, yGm_;
    VolumeTransposedConvTiling t_;
    uint32_t k3_ = 0, coPerGroup_ = 0, ciPerGroup_ = 0, zeroSlot_ = 0;
};

extern "C" __global__ __aicore__ void volume_transposed_conv(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(td, tiling);
    VolumeTransposedConvKernel<DTYPE_X> op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
