/**
 * grouped_volume_upsample.cpp
 *
 * Grouped, strided 3-D transposed convolution (no bias), NCDHW:
 *   out[n, g*OCg+o, od, oh, ow] = sum_{i<ICg, kd, kh, kw}
 *       x[n, g*ICg+i, id, ih, iw] * w[g*ICg+i, o, kd, kh, kw]
 *   where od = id*S - P + kd (same for h, w).
 *
 * Formulated as a gather: an output line (n, g, od, oh, :) only receives
 * input lines whose (id, ih) satisfy the stride congruence for some (kd, kh).
 * Along the width, the stride "holes" are handled with the vector Gather
 * instruction: for every kw a fixed byte-offset table maps each output column
 * either to its source input column or to a zero slot placed in front of the
 * line. The expanded line is then accumulated into every output channel of the
 * group with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ZERO_SLOT = 8;   // 8 zero floats in front of each staged input line

struct GroupedVolumeUpsampleTiling {
    uint32_t batch;
    uint32_t inCh;
    uint32_t outCh;
    uint32_t groups;
    uint32_t inD, inH, inW;
    uint32_t k;
    uint32_t stride;
    uint32_t pad;
    uint32_t outD, outH, outW;
    uint32_t outWAlign;
};

class GroupedVolumeUpsample {
public:
    __aicore__ inline GroupedVolumeUpsample() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const GroupedVolumeUpsampleTiling &tiling)
    {
        tl = tiling;
        icg = tl.inCh / tl.groups;
        ocg = tl.outCh / tl.groups;
        k3 = tl.k * tl.k * tl.k;
        wCount = tl.inCh * ocg * k3;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w, wCount);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(lineQ, 2, (ZERO_SLOT + tl.inW) * sizeof(float));
        pipe.InitBuffer(accQ, 1, ocg * tl.outWAlign * sizeof(float));
        pipe.InitBuffer(wBuf, (wCount + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(offBuf, tl.k * tl.outWAlign * sizeof(uint32_t));
        pipe.InitBuffer(expBuf, tl.outWAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        BuildOffsets();
        wLocal = wBuf.Get<float>();
        DataCopy(wLocal, wGm, (wCount + 7) / 8 * 8);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);

        uint32_t total = tl.batch * tl.groups * tl.outD * tl.outH;
        for (uint32_t u = GetBlockIdx(); u < total; u += GetBlockNum()) {
            uint32_t oh = u % tl.outH;
            uint32_t od = (u / tl.outH) % tl.outD;
            uint32_t g = (u / (tl.outH * tl.outD)) % tl.groups;
            uint32_t n = u / (tl.outH * tl.outD * tl.groups);
            OneLine(n, g, od, oh);
        }
    }

private:
    // byte offsets into a staged line [zeros(8) | x(inW)] for each (kw, ow)
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < tl.k; ++kw) {
            for (uint32_t ow = 0; ow < tl.outWAlign; ++ow) {
                uint32_t src = 0;  // zero slot
                int32_t t = (int32_t)ow + (int32_t)tl.pad - (int32_t)kw;
                if (ow < tl.outW && t >= 0 && t % (int32_t)tl.stride == 0) {
                    int32_t iw = t / (int32_t)tl.stride;
                    if (iw < (int32_t)tl.inW) {
                        src = (ZERO_SLOT + (uint32_t)iw) * sizeof(float);
                    }
                }
                off.SetValue(kw * tl.outWAlign + ow, src);
            }
        }
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    // input index for output index o and tap kk, or -1 if the tap does not hit o
    __aicore__ inline int32_t SrcIndex(uint32_t o, uint32_t kk, uint32_t inLen)
    {
        int32_t t = (int32_t)o + (int32_t)tl.pad - (int32_t)kk;
        if (t < 0 || t % (int32_t)tl.stride != 0) {
            return -1;
        }
        int32_t i = t / (int32_t)tl.stride;
        return i < (int32_t)inLen ? i : -1;
    }

    __aicore__ inline void OneLine(uint32_t n, uint32_t g, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accQ.AllocTensor<float>();
        Duplicate(acc, 0.0f, ocg * tl.outWAlign);
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<float> expd = expBuf.Get<float>();

        for (uint32_t kd = 0; kd < tl.k; ++kd) {
            int32_t id = SrcIndex(od, kd, tl.inD);
            if (id < 0) continue;
            for (uint32_t kh = 0; kh < tl.k; ++kh) {
                int32_t ih = SrcIndex(oh, kh, tl.inH);
                if (ih < 0) continue;
                for (uint32_t i = 0; i < icg; ++i) {
                    uint32_t ic = g * icg + i;
                    uint64_t src = ((((uint64_t)n * tl.inCh + ic) * tl.inD + id) * tl.inH + ih) * tl.inW;

                    LocalTensor<float> line = lineQ.AllocTensor<float>();
                    Duplicate(line, 0.0f, ZERO_SLOT);
                    DataCopy(line[ZERO_SLOT], xGm[src], tl.inW);
                    lineQ.EnQue(line);
                    line = lineQ.DeQue<float>();

                    for (uint32_t kw = 0; kw < tl.k; ++kw) {
                        Gather(expd, line, off[kw * tl.outWAlign], 0u, tl.outW);
                        // weight index: [ic][o][kd][kh][kw]
                        uint32_t wBase = ic * ocg * k3 + (kd * tl.k + kh) * tl.k + kw;
                        for (uint32_t o = 0; o < ocg; ++o) {
                            Axpy(acc[o * tl.outWAlign], expd, wLocal.GetValue(wBase + o * k3), tl.outW);
                        }
                    }
                    lineQ.FreeTensor(line);
                }
            }
        }

        accQ.EnQue(acc);
        acc = accQ.DeQue<float>();
        uint64_t plane = (uint64_t)tl.outD * tl.outH * tl.outW;
        uint64_t dst = ((uint64_t)n * tl.outCh + g * ocg) * plane + ((uint64_t)od * tl.outH + oh) * tl.outW;
        DataCopyExtParams cp{static_cast<uint16_t>(ocg), static_cast<uint32_t>(tl.outW * sizeof(float)),
                             static_cast<uint32_t>((tl.outWAlign - (tl.outW + 7) / 8 * 8) / 8),
                             static_cast<uint32_t>((plane - tl.outW) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], acc, cp);
        accQ.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> lineQ;
    TQue<QuePosition::VECOUT, 1> accQ;
    TBuf<TPosition::VECCALC> wBuf, offBuf, expBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    LocalTensor<float> wLocal;
    GroupedVolumeUpsampleTiling tl;
    uint32_t icg = 0, ocg = 0, k3 = 0, wCount = 0;
};

extern "C" __global__ __aicore__ void grouped_volume_upsample(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR tiling)
{
    GroupedVolumeUpsampleTiling tl;
    auto *dst = reinterpret_cast<uint32_t *>(&tl);
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    for (uint32_t i = 0; i < sizeof(GroupedVolumeUpsampleTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    GroupedVolumeUpsample op;
    op.Init(x, w, y, tl);
    op.Process();
}
