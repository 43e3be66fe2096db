/*
 * UpsampleConv2d kernel (fp32, NCHW).
 *
 * y[n, oc, oh, ow] = b[oc] + sum_{ic in grp(oc), kh, kw} x[n, ic, ih, iw] * f[ic, oc % Cg, kh, kw]
 *                    with oh = ih*s - pH + kh, ow = iw*s - pW + kw
 *
 * Each core produces whole output planes (n, oc). Per output row the kernel
 * visits the input rows that reach it, stages each one in UB with a block of
 * zero lanes in front, re-grids it to the output columns once per kw with
 * Gather (an offset table per kw encodes stride and padding), and folds it in
 * with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ZERO_LANES = 8;

class UpsampleConv2dKernel {
public:
    __aicore__ inline UpsampleConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                const UpsampleConv2dTilingData &tiling)
    {
        cfg = tiling;
        cinPerGroup = cfg.inC / cfg.groups;
        coutPerGroup = cfg.outC / cfg.groups;
        kArea = cfg.kernelH * cfg.kernelW;
        kAreaAligned = (kArea + 7) / 8 * 8;
        owAligned = (cfg.outW + 7) / 8 * 8;

        planeBegin = GetBlockIdx() * cfg.planesPerCore;
        planeEnd = planeBegin + cfg.planesPerCore;
        if (planeEnd > cfg.planeCount) {
            planeEnd = cfg.planeCount;
        }

        inputGm.SetGlobalBuffer((__gm__ float *)x);
        filterGm.SetGlobalBuffer((__gm__ float *)filter);
        outputGm.SetGlobalBuffer((__gm__ float *)y);
        if (cfg.useBias) {
            biasGm.SetGlobalBuffer((__gm__ float *)bias);
        }

        pipe.InitBuffer(stageBuf, (ZERO_LANES + (cfg.inW + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(shiftedBuf, cfg.kernelW * owAligned * sizeof(float));
        pipe.InitBuffer(offsetBuf, cfg.kernelW * owAligned * sizeof(uint32_t));
        pipe.InitBuffer(filterBuf, cinPerGroup * kAreaAligned * sizeof(float));
        pipe.InitBuffer(outQueue, 2, owAligned * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (planeBegin >= planeEnd) {
            return;
        }
        PrepareOffsets();
        for (uint32_t plane = planeBegin; plane < planeEnd; ++plane) {
            const uint32_t n = plane / cfg.outC;
            const uint32_t oc = plane % cfg.outC;
            LoadFilter(oc);
            const float b = cfg.useBias ? biasGm.GetValue(oc) : 0.0f;
            for (uint32_t oh = 0; oh < cfg.outH; ++oh) {
                ComputeRow(n, oc, oh, b);
                WriteRow(plane, oh);
            }
        }
    }

private:
    __aicore__ inline void PrepareOffsets()
    {
        LocalTensor<uint32_t> offsets = offsetBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < cfg.kernelW; ++kw) {
            for (uint32_t ow = 0; ow < owAligned; ++ow) {
                const int32_t v = static_cast<int32_t>(ow + cfg.padW) - static_cast<int32_t>(kw);
                uint32_t addr = 0;
                if (ow < cfg.outW && v >= 0 && v % static_cast<int32_t>(cfg.stride) == 0) {
                    const uint32_t iw = static_cast<uint32_t>(v) / cfg.stride;
                    addr = iw < cfg.inW ? (ZERO_LANES + iw) * sizeof(float) : 0;
                }
                offsets.SetValue(kw * owAligned + ow, addr);
            }
        }
        LocalTensor<float> stage = stageBuf.Get<float>();
        PipeBarrier<PIPE_ALL>();
        Duplicate(stage, 0.0f, ZERO_LANES);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void LoadFilter(uint32_t oc)
    {
        const uint32_t grp = oc / coutPerGroup;
        const uint64_t src = (static_cast<uint64_t>(grp) * cinPerGroup * coutPerGroup + oc % coutPerGroup) * kArea;
        LocalTensor<float> fl = filterBuf.Get<float>();
        PipeBarrier<PIPE_ALL>();  // previous plane's scalar reads are done
        DataCopyExtParams params{static_cast<uint16_t>(cinPerGroup), kArea * 4U,
                                 (coutPerGroup - 1) * kArea * 4U, 0, 0};
        DataCopyPad(fl, filterGm[src], params, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t oc, uint32_t oh, float b)
    {
        LocalTensor<float> acc = outQueue.AllocTensor<float>();
        Duplicate(acc, b, owAligned);

        LocalTensor<float> stage = stageBuf.Get<float>();
        LocalTensor<float> shifted = shiftedBuf.Get<float>();
        LocalTensor<uint32_t> offsets = offsetBuf.Get<uint32_t>();
        LocalTensor<float> fl = filterBuf.Get<float>();
        const uint32_t icStart = (oc / coutPerGroup) * cinPerGroup;

        for (uint32_t kh = 0; kh < cfg.kernelH; ++kh) {
            const int32_t v = static_cast<int32_t>(oh + cfg.padH) - static_cast<int32_t>(kh);
            if (v < 0 || v % static_cast<int32_t>(cfg.stride) != 0) {
                continue;
            }
            const uint32_t ih = static_cast<uint32_t>(v) / cfg.stride;
            if (ih >= cfg.inH) {
                continue;
            }
            for (uint32_t c = 0; c < cinPerGroup; ++c) {
                const uint64_t src =
                    ((static_cast<uint64_t>(n) * cfg.inC + icStart + c) * cfg.inH + ih) * cfg.inW;
                // stage buffer is reused: wait until the previous gathers are done
                PipeBarrier<PIPE_ALL>();
                DataCopyPad(stage[ZERO_LANES], inputGm[src], DataCopyExtParams{1, cfg.inW * 4U, 0, 0, 0},
                            DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                PipeBarrier<PIPE_ALL>();

                for (uint32_t kw = 0; kw < cfg.kernelW; ++kw) {
                    Gather(shifted[kw * owAligned], stage, offsets[kw * owAligned], 0U, owAligned);
                }
                PipeBarrier<PIPE_V>();
                const uint32_t fBase = c * kAreaAligned + kh * cfg.kernelW;
                for (uint32_t kw = 0; kw < cfg.kernelW; ++kw) {
                    Axpy(acc, shifted[kw * owAligned], fl.GetValue(fBase + kw), owAligned);
                    PipeBarrier<PIPE_V>();
                }
            }
        }
        outQueue.EnQue(acc);
    }

    __aicore__ inline void WriteRow(uint32_t plane, uint32_t oh)
    {
        LocalTensor<float> acc = outQueue.DeQue<float>();
        const uint64_t dst = (static_cast<uint64_t>(plane) * cfg.outH + oh) * cfg.outW;
        DataCopyPad(outputGm[dst], acc, DataCopyExtParams{1, cfg.outW * 4U, 0, 0, 0});
        outQueue.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> stageBuf, shiftedBuf, offsetBuf, filterBuf;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<float> inputGm, filterGm, biasGm, outputGm;
    UpsampleConv2dTilingData cfg;
    uint32_t cinPerGroup = 0, coutPerGroup = 0, kArea = 0, kAreaAligned = 0, owAligned = 0;
    uint32_t planeBegin = 0, planeEnd = 0;
};

extern "C" __global__ __aicore__ void upsample_conv2d(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    UpsampleConv2dKernel kernel;
    kernel.Init(x, filter, bias, y, tilingData);
    kernel.Process();
}
