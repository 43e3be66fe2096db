/*
 * DilatedTransposedConv2d kernel, fp32, NCHW.
 *
 * Output-stationary formulation. For output line oh the contributing (kh, ih) pairs are those
 * with (oh + pad - kh*dil) divisible by stride. For each input channel we first gather all
 * K*K "taps" (input line shifted / zero-inserted for column kw) into the cols buffer, then every
 * output channel of the tile accumulates  acc[oc] += w[ic, oc, kh, kw] * cols[kh, kw].
 * Columns that receive nothing from a tap read a zero slot placed after the input line.
 */
#include "kernel_operator.h"

using namespace AscendC;

class DilatedTransposedConv2dKernel {
public:
    __aicore__ inline DilatedTransposedConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const DilatedTransposedConv2dTiling &t)
    {
        tl = t;
        kk = t.ks * t.ks;
        itemLo = GetBlockIdx() * t.itemsPerCore;
        itemHi = itemLo + t.itemsPerCore;
        if (itemHi > t.items) {
            itemHi = t.items;
        }

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        if (t.withBias) {
            bGm.SetGlobalBuffer((__gm__ float *)b);
        }

        pipe.InitBuffer(inQ, 2, (t.wInPad + 8) * sizeof(float));
        pipe.InitBuffer(wQ, 1, t.wTileElems * sizeof(float));
        pipe.InitBuffer(outQ, 1, t.ocTile * t.wOutPad * sizeof(float));
        pipe.InitBuffer(colBuf, kk * t.wOutPad * sizeof(float));
        pipe.InitBuffer(offBuf, t.ks * t.wOutPad * sizeof(uint32_t));
        MakeOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t it = itemLo; it < itemHi; ++it) {
            uint32_t oh = it % tl.hOut;
            uint32_t rest = it / tl.hOut;
            uint32_t tile = rest % tl.ocTiles;
            uint32_t img = rest / tl.ocTiles;
            OneLine(img, tile * tl.ocTile, oh);
        }
    }

private:
    __aicore__ inline void MakeOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        const int32_t s = tl.stride;
        const uint32_t zero = tl.wInPad * sizeof(float);
        for (uint32_t kw = 0; kw < tl.ks; ++kw) {
            int32_t shift = static_cast<int32_t>(tl.pad) - static_cast<int32_t>(kw * tl.dilation);
            for (uint32_t ow = 0; ow < tl.wOutPad; ++ow) {
                int32_t t = static_cast<int32_t>(ow) + shift;
                uint32_t v = zero;
                if (ow < tl.wOut && t >= 0 && t % s == 0 && static_cast<uint32_t>(t / s) < tl.wIn) {
                    v = static_cast<uint32_t>(t / s) * sizeof(float);
                }
                off.SetValue(kw * tl.wOutPad + ow, v);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void OneLine(uint32_t img, uint32_t oc0, uint32_t oh)
    {
        // which kernel rows contribute to this output line
        uint32_t ihOf[16];
        bool live[16];
        uint32_t liveCnt = 0;
        for (uint32_t kh = 0; kh < tl.ks && kh < 16; ++kh) {
            int32_t t = static_cast<int32_t>(oh + tl.pad) - static_cast<int32_t>(kh * tl.dilation);
            live[kh] = t >= 0 && t % static_cast<int32_t>(tl.stride) == 0 &&
                       static_cast<uint32_t>(t) / tl.stride < tl.hIn;
            ihOf[kh] = live[kh] ? static_cast<uint32_t>(t) / tl.stride : 0;
            liveCnt += live[kh] ? 1 : 0;
        }

        LocalTensor<float> acc = outQ.AllocTensor<float>();
        for (uint32_t o = 0; o < tl.ocTile; ++o) {
            Duplicate(acc[o * tl.wOutPad], tl.withBias ? bGm.GetValue(oc0 + o) : 0.0f, tl.wOutPad);
        }

        if (liveCnt > 0) {
            LocalTensor<float> cols = colBuf.Get<float>();
            LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
            for (uint32_t ic = 0; ic < tl.cIn; ++ic) {
                FetchWeights(ic, oc0);
                // taps for this input channel
                for (uint32_t kh = 0; kh < tl.ks; ++kh) {
                    if (!live[kh]) {
                        continue;
                    }
                    LocalTensor<float> line = inQ.AllocTensor<float>();
                    Duplicate(line[tl.wInPad], 0.0f, 8);
                    uint64_t src = ((static_cast<uint64_t>(img) * tl.cIn + ic) * tl.hIn + ihOf[kh]) * tl.wIn;
                    DataCopyExtParams cp{1, tl.wIn * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
                    DataCopyPadExtParams<float> pp{true, 0, static_cast<uint8_t>(tl.wInPad - tl.wIn), 0.0f};
                    DataCopyPad(line, xGm[src], cp, pp);
                    inQ.EnQue(line);
                    line = inQ.DeQue<float>();
                    for (uint32_t kw = 0; kw < tl.ks; ++kw) {
                        Gather(cols[(kh * tl.ks + kw) * tl.wOutPad], line, off[kw * tl.wOutPad], 0, tl.wOutPad);
                    }
                    inQ.FreeTensor(line);
                }
                PipeBarrier<PIPE_V>();

                LocalTensor<float> wl = wQ.DeQue<float>();
                // scalar reads of the weights need MTE2 -> S ordering
                event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
                SetFlag<HardEvent::MTE2_S>(ev);
                WaitFlag<HardEvent::MTE2_S>(ev);
                for (uint32_t o = 0; o < tl.ocTile; ++o) {
                    for (uint32_t kh = 0; kh < tl.ks; ++kh) {
                        if (!live[kh]) {
                            continue;
                        }
                        for (uint32_t kw = 0; kw < tl.ks; ++kw) {
                            float coef = wl.GetValue(o * kk + kh * tl.ks + kw);
                            Axpy(acc[o * tl.wOutPad], cols[(kh * tl.ks + kw) * tl.wOutPad], coef, tl.wOutPad);
                            PipeBarrier<PIPE_V>();
                        }
                    }
                }
                wQ.FreeTensor(wl);
            }
        }

        outQ.EnQue(acc);
        acc = outQ.DeQue<float>();
        uint64_t dst = ((static_cast<uint64_t>(img) * tl.cOut + oc0) * tl.hOut + oh) * tl.wOut;
        DataCopyExtParams cp{static_cast<uint16_t>(tl.ocTile), tl.wOut * static_cast<uint32_t>(sizeof(float)), 0,
                             (tl.hOut - 1) * tl.wOut * static_cast<uint32_t>(sizeof(float)), 0};
        DataCopyPad(yGm[dst], acc, cp);
        outQ.FreeTensor(acc);
    }

    // weight[ic, oc0 : oc0 + ocTile, :, :] is one contiguous run
    __aicore__ inline void FetchWeights(uint32_t ic, uint32_t oc0)
    {
        LocalTensor<float> wl = wQ.AllocTensor<float>();
        uint64_t src = (static_cast<uint64_t>(ic) * tl.cOut + oc0) * kk;
        DataCopyExtParams cp{1, tl.ocTile * kk * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm[src], cp, pp);
        wQ.EnQue(wl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECIN, 1> wQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> colBuf, offBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    DilatedTransposedConv2dTiling tl;
    uint32_t kk;
    uint32_t itemLo, itemHi;
};

extern "C" __global__ __aicore__ void dilated_transposed_conv2d(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    DilatedTransposedConv2dKernel k;
    k.Init(x, weight, bias, y, t);
    k.Process();
}
