// box_filter3d_valid: dense 3-D cross-correlation, stride 1, no padding, no bias.
//
//   y[n, co, d, h, w] = sum_{ci, kd, kh, kw} wt[co, ci, kd, kh, kw] * x[n, ci, d + kd, h + kh, w + kw]
//
// One work item = one output line y[n, :, d, h, :] for every output channel.
// The whole filter bank stays resident in UB. For every (ci, kd, kh) the Kw
// shifted copies of the matching input line are fetched straight from GM
// (the shift is done by the DMA, so vector operands stay 32-byte aligned) and
// accumulated into all Cout rows with Axpy.
#include "kernel_operator.h"

using namespace AscendC;

struct BoxFilter3dValidTiling {
    uint32_t batch, cin, cout;
    uint32_t inD, inH, inW;
    uint32_t kD, kH, kW;
    uint32_t outD, outH, outW;
    uint32_t lineStride;     // outW rounded up to 8 floats
    uint32_t itemsPerCore;
    uint32_t totalItems;
    uint32_t filterLen;      // cout * cin * kD * kH * kW
};

class BoxFilter3dValid {
public:
    __aicore__ inline BoxFilter3dValid() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR y, GM_ADDR tilingGm)
    {
        auto src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
        auto dst = reinterpret_cast<uint32_t *>(&tiling_);
        for (uint32_t i = 0; i < sizeof(tiling_) / sizeof(uint32_t); ++i) {
            dst[i] = src[i];
        }
        const auto &t = tiling_;
        inVol_ = static_cast<uint64_t>(t.inD) * t.inH * t.inW;
        outVol_ = static_cast<uint64_t>(t.outD) * t.outH * t.outW;
        taps_ = t.kD * t.kH * t.kW;

        xGm_.SetGlobalBuffer((__gm__ float *)x, t.batch * t.cin * inVol_);
        wGm_.SetGlobalBuffer((__gm__ float *)wt, t.filterLen);
        yGm_.SetGlobalBuffer((__gm__ float *)y, t.batch * t.cout * outVol_);

        pipe_.InitBuffer(filterBuf_, ((t.filterLen + 7) / 8 * 8) * sizeof(float));
        pipe_.InitBuffer(shiftQ_, 2, t.kW * t.lineStride * sizeof(float));
        pipe_.InitBuffer(accQ_, 1, t.cout * t.lineStride * sizeof(float));

        // resident filter bank
        LocalTensor<float> f = filterBuf_.Get<float>();
        DataCopyExtParams cp{1, t.filterLen * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(f, wGm_, cp, pad);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void Process()
    {
        const auto &t = tiling_;
        uint32_t begin = GetBlockIdx() * t.itemsPerCore;
        uint32_t end = begin + t.itemsPerCore;
        if (end > t.totalItems) {
            end = t.totalItems;
        }
        for (uint32_t item = begin; item < end; ++item) {
            uint32_t oh = item % t.outH;
            uint32_t od = (item / t.outH) % t.outD;
            uint32_t n = item / (t.outH * t.outD);
            ComputeLine(n, od, oh);
            WriteLine(n, od, oh);
        }
    }

private:
    __aicore__ inline void FetchShifted(uint32_t n, uint32_t ci, uint32_t id, uint32_t ih)
    {
        const auto &t = tiling_;
        LocalTensor<float> rows = shiftQ_.AllocTensor<float>();
        uint64_t lineStart = (static_cast<uint64_t>(n) * t.cin + ci) * inVol_ +
                             (static_cast<uint64_t>(id) * t.inH + ih) * t.inW;
        DataCopyExtParams cp{1, t.outW * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        // lanes past outW are never stored, so they need no clearing
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t kw = 0; kw < t.kW; ++kw) {
            DataCopyPad(rows[kw * t.lineStride], xGm_[lineStart + kw], cp, pad);
        }
        shiftQ_.EnQue(rows);
    }

    __aicore__ inline void ComputeLine(uint32_t n, uint32_t od, uint32_t oh)
    {
        const auto &t = tiling_;
        const int32_t len = static_cast<int32_t>(t.lineStride);
        LocalTensor<float> acc = accQ_.AllocTensor<float>();
        LocalTensor<float> f = filterBuf_.Get<float>();
        Duplicate(acc, 0.0f, t.cout * t.lineStride);

        for (uint32_t ci = 0; ci < t.cin; ++ci) {
            for (uint32_t kd = 0; kd < t.kD; ++kd) {
                for (uint32_t kh = 0; kh < t.kH; ++kh) {
                    FetchShifted(n, ci, od + kd, oh + kh);
                    LocalTensor<float> rows = shiftQ_.DeQue<float>();
                    uint32_t tapBase = ci * taps_ + (kd * t.kH + kh) * t.kW;
                    for (uint32_t co = 0; co < t.cout; ++co) {
                        uint32_t wIdx = co * t.cin * taps_ + tapBase;
                        LocalTensor<float> dstRow = acc[co * t.lineStride];
                        for (uint32_t kw = 0; kw < t.kW; ++kw) {
                            Axpy(dstRow, rows[kw * t.lineStride], f.GetValue(wIdx + kw), len);
                        }
                    }
                    shiftQ_.FreeTensor(rows);
                }
            }
        }
        accQ_.EnQue(acc);
    }

    __aicore__ inline void WriteLine(uint32_t n, uint32_t od, uint32_t oh)
    {
        const auto &t = tiling_;
        LocalTensor<float> acc = accQ_.DeQue<float>();
        uint64_t dst = static_cast<uint64_t>(n) * t.cout * outVol_ +
                       (static_cast<uint64_t>(od) * t.outH + oh) * t.outW;
        // cout lines of outW floats; neighbouring channels are outVol_ apart
        DataCopyExtParams cp{static_cast<uint16_t>(t.cout), t.outW * static_cast<uint32_t>(sizeof(float)),
                             static_cast<uint32_t>((t.lineStride * sizeof(float) - ((t.outW * sizeof(float) + 31) / 32) * 32) / 32),
                             static_cast<uint32_t>((outVol_ - t.outW) * sizeof(float)), 0};
        DataCopyPad(yGm_[dst], acc, cp);
        accQ_.FreeTensor(acc);
    }

    TPipe pipe_;
    TBuf<TPosition::VECCALC> filterBuf_;
    TQue<QuePosition::VECIN, 2> shiftQ_;
    TQue<QuePosition::VECOUT, 1> accQ_;
    GlobalTensor<float> xGm_, wGm_, yGm_;
    BoxFilter3dValidTiling tiling_;
    uint64_t inVol_ = 0, outVol_ = 0;
    uint32_t taps_ = 0;
};

extern "C" __global__ __aicore__ void box_filter3d_valid(GM_ADDR x, GM_ADDR wt, GM_ADDR y, GM_ADDR tiling)
{
    BoxFilter3dValid op;
    op.Init(x, wt, y, tiling);
    op.Process();
}
