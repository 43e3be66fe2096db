// volume_filter_rect_taps.cpp
//
// Direct 3-D convolution (stride 1, no padding, no bias) with a non-cubic
// filter, NCDHW layout:
//   y[n, co, d, h, w] = sum_{ci, a, b, c} x[n, ci, d+a, h+b, w+c] * f[co, ci, a, b, c]
//
// Work split: one "unit" is an output line y[n, :, d, h, :] for all output
// channels at once, so each loaded input line is reused by every filter.
// For a fixed (ci, a, c) the kH input lines needed are copied with a single
// strided DataCopyPad that already applies the width shift c, so every
// vector operand starts 32-byte aligned.  The filter is held in UB re-packed
// as fPack[ci][a][b][c][co] (host side) and read as scalars for Axpy.
#include "kernel_operator.h"

namespace {
constexpr uint32_t LINE_BUF = 2;

struct VolumeFilterRectTapsTiling {
    uint32_t n;
    uint32_t cin;
    uint32_t cout;
    uint32_t inD, inH, inW;
    uint32_t kD, kH, kW;
    uint32_t outD, outH, outW;
    uint32_t lineStride;     // outW rounded up to 8 floats
};
}

class VolumeFilterRectTaps {
public:
    __aicore__ inline VolumeFilterRectTaps() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR f, GM_ADDR y, GM_ADDR tilingGm)
    {
        auto *dst = reinterpret_cast<uint32_t *>(&cfg);
        auto *src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
        for (uint32_t i = 0; i < sizeof(cfg) / sizeof(uint32_t); ++i) {
            dst[i] = src[i];
        }
        taps = cfg.cin * cfg.kD * cfg.kH * cfg.kW;
        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)cfg.n * cfg.cin * cfg.inD * cfg.inH * cfg.inW);
        fGm.SetGlobalBuffer((__gm__ float *)f, (uint64_t)taps * cfg.cout);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)cfg.n * cfg.cout * cfg.outD * cfg.outH * cfg.outW);

        pipe.InitBuffer(filterBuf, taps * cfg.cout * sizeof(float));
        pipe.InitBuffer(lineQue, LINE_BUF, cfg.kH * cfg.lineStride * sizeof(float));
        pipe.InitBuffer(accQue, 1, cfg.cout * cfg.lineStride * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        filt = filterBuf.Get<float>();
        AscendC::DataCopy(filt, fGm, taps * cfg.cout);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(ev);

        const uint32_t units = cfg.n * cfg.outD * cfg.outH;
        for (uint32_t u = AscendC::GetBlockIdx(); u < units; u += AscendC::GetBlockNum()) {
            const uint32_t oh = u % cfg.outH;
            const uint32_t od = (u / cfg.outH) % cfg.outD;
            const uint32_t nb = u / (cfg.outH * cfg.outD);
            ComputeLine(nb, od, oh);
        }
    }

private:
    __aicore__ inline void ComputeLine(uint32_t nb, uint32_t od, uint32_t oh)
    {
        AscendC::LocalTensor<float> acc = accQue.AllocTensor<float>();
        AscendC::Duplicate(acc, 0.0f, cfg.cout * cfg.lineStride);

        for (uint32_t ci = 0; ci < cfg.cin; ++ci) {
            for (uint32_t a = 0; a < cfg.kD; ++a) {
                const uint64_t base = ((((uint64_t)nb * cfg.cin + ci) * cfg.inD + od + a) * cfg.inH + oh) * cfg.inW;
                for (uint32_t c = 0; c < cfg.kW; ++c) {
                    // kH lines, each starting at column c, outW long
                    AscendC::LocalTensor<float> lines = lineQue.AllocTensor<float>();
                    AscendC::DataCopyExtParams cp{static_cast<uint16_t>(cfg.kH),
                                                  static_cast<uint32_t>(cfg.outW * sizeof(float)),
                                                  static_cast<uint32_t>((cfg.inW - cfg.outW) * sizeof(float)),
                                                  0, 0};
                    AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                    AscendC::DataCopyPad(lines, xGm[base + c], cp, pad);
                    lineQue.EnQue(lines);
                    lines = lineQue.DeQue<float>();

                    for (uint32_t b = 0; b < cfg.kH; ++b) {
                        const uint32_t tap = ((ci * cfg.kD + a) * cfg.kH + b) * cfg.kW + c;
                        const uint32_t fOff = tap * cfg.cout;
                        AscendC::LocalTensor<float> src = lines[b * cfg.lineStride];
                        for (uint32_t co = 0; co < cfg.cout; ++co) {
                            AscendC::Axpy(acc[co * cfg.lineStride], src, filt.GetValue(fOff + co), cfg.outW);
                        }
                    }
                    lineQue.FreeTensor(lines);
                }
            }
        }

        accQue.EnQue(acc);
        acc = accQue.DeQue<float>();
        // scatter the cout lines to their planes: gap between consecutive channel lines in GM
        const uint64_t plane = (uint64_t)cfg.outD * cfg.outH * cfg.outW;
        const uint64_t yBase = (((uint64_t)nb * cfg.cout) * cfg.outD + od) * cfg.outH * cfg.outW +
                               (uint64_t)oh * cfg.outW;
        AscendC::DataCopyExtParams out{static_cast<uint16_t>(cfg.cout),
                                       static_cast<uint32_t>(cfg.outW * sizeof(float)),
                                       0,
                                       static_cast<uint32_t>((plane - cfg.outW) * sizeof(float)),
                                       0};
        AscendC::DataCopyPad(yGm[yBase], acc, out);
        accQue.FreeTensor(acc);
    }

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> filterBuf;
    AscendC::TQue<AscendC::TPosition::VECIN, LINE_BUF> lineQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> accQue;
    AscendC::GlobalTensor<float> xGm, fGm, yGm;
    AscendC::LocalTensor<float> filt;
    VolumeFilterRectTapsTiling cfg;
    uint32_t taps = 0;
};

extern "C" __global__ __aicore__ void volume_filter_rect_taps(GM_ADDR x, GM_ADDR fPack, GM_ADDR y, GM_ADDR tiling)
{
    VolumeFilterRectTaps op;
    op.Init(x, fPack, y, tiling);
    op.Process();
}
