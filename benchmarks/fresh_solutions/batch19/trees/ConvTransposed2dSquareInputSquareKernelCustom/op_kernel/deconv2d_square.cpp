// Transposed 2-D convolution, square kernel, groups = 1.
//   y[n, co, oh, ow] = bias[co] + sum_{ci, kh, kw} x[n, ci, ih, iw] * w[ci, co, kh, kw]
//   with oh = ih * s - p + kh, ow = iw * s - p + kw.
// Gather form per output row: for a fixed oh only kernel rows with (oh + p - kh) % s == 0 hit.
// Columns are split into s phases (ow = r + s * t); inside a phase each kw that hits is a plain
// shifted input row, fetched from GM already shifted (zero-filled at the borders), so every tap is
// one Axpy. A group of output channels shares each fetched row.
#include "kernel_operator.h"
using namespace AscendC;

class Deconv2dSquareKernel {
public:
    __aicore__ inline Deconv2dSquareKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const Deconv2dSquareTilingData &t)
    {
        td = t;
        kk = td.k * td.k;
        wPitch = (td.coGroup * kk + 7) / 8 * 8;
        outPitch = (td.outW + 7) / 8 * 8;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        if (td.hasBias) {
            bGm.SetGlobalBuffer((__gm__ float *)b);
        }
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(rowQ, 2, (td.phasePitch + 8) * sizeof(float));
        pipe.InitBuffer(outQ, 1, td.coGroup * outPitch * sizeof(float));
        pipe.InitBuffer(accBuf, td.coGroup * td.rowPitch * sizeof(float));
        pipe.InitBuffer(wBuf, td.cin * wPitch * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t items = td.batch * td.outH * td.coGroups;
        const uint32_t i0 = GetBlockIdx() * td.itemsPerCore;
        const uint32_t i1 = (i0 + td.itemsPerCore) < items ? (i0 + td.itemsPerCore) : items;
        int32_t curGroup = -1;
        for (uint32_t it = i0; it < i1; ++it) {
            // group is the slowest index so a core rarely reloads weights
            const uint32_t grp = it / (td.batch * td.outH);
            const uint32_t rem = it % (td.batch * td.outH);
            const uint32_t n = rem / td.outH;
            const uint32_t oh = rem % td.outH;
            const uint32_t co0 = grp * td.coGroup;
            const uint32_t gc = (td.cout - co0) < td.coGroup ? (td.cout - co0) : td.coGroup;
            if ((int32_t)grp != curGroup) {
                LoadWeights(co0, gc);
                curGroup = (int32_t)grp;
            }
            OutputRow(n, oh, co0, gc);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t co0, uint32_t gc)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        DataCopyExtParams cp{(uint16_t)td.cin, gc * kk * (uint32_t)sizeof(float),
                             (td.cout - gc) * kk * (uint32_t)sizeof(float),
                             (wPitch - (gc * kk + 7) / 8 * 8) / 8, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(wl, wGm[(uint64_t)co0 * kk], cp, pad);
        if (td.hasBias) {
            for (uint32_t g = 0; g < gc; ++g) {
                biasCache[g] = bGm.GetValue(co0 + g);
            }
        }
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    // dst[t] = x_row[t + d] for 0 <= t < len, zero where t + d falls outside [0, W)
    __aicore__ inline void LoadShifted(LocalTensor<float> &dst, uint64_t rowOff, int32_t d, uint32_t len)
    {
        const int32_t lo = d < 0 ? -d : 0;
        int32_t hi = (int32_t)td.inW - d;
        if (hi > (int32_t)len) hi = (int32_t)len;
        if (hi <= lo) {
            Duplicate(dst, 0.0f, len);
            return;
        }
        const uint32_t cnt = (uint32_t)(hi - lo);
        const uint8_t left = (uint8_t)lo;
        const uint8_t right = (uint8_t)((8 - (lo + cnt) % 8) % 8);
        DataCopyExtParams cp{1, cnt * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, left, right, 0.0f};
        DataCopyPad(dst, xGm[rowOff + (uint64_t)(lo + d)], cp, pad);
        tailStart = (uint32_t)(lo + cnt + right);
    }

    __aicore__ inline void OutputRow(uint32_t n, uint32_t oh, uint32_t co0, uint32_t gc)
    {
        const int32_t s = (int32_t)td.stride;
        const int32_t p = (int32_t)td.pad;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        for (uint32_t g = 0; g < gc; ++g) {
            Duplicate(acc[g * td.rowPitch], td.hasBias ? biasCache[g] : 0.0f, td.rowPitch);
        }

        for (uint32_t kh = 0; kh < td.k; ++kh) {
            const int32_t dh = (int32_t)oh + p - (int32_t)kh;
            if (dh < 0 || dh % s != 0) continue;
            const int32_t ih = dh / s;
            if (ih >= (int32_t)td.inH) continue;
            for (uint32_t ci = 0; ci < td.cin; ++ci) {
                const uint64_t rowOff = (((uint64_t)n * td.cin + ci) * td.inH + ih) * td.inW;
                for (int32_t r = 0; r < s; ++r) {
                    if (r >= (int32_t)td.outW) break;
                    const uint32_t len = ((int32_t)td.outW - r + s - 1) / s;
                    for (uint32_t kw = 0; kw < td.k; ++kw) {
                        const int32_t dw = r + p - (int32_t)kw;
                        if (((dw % s) + s) % s != 0) continue;
                        const int32_t d = (dw >= 0) ? dw / s : -((-dw) / s);
                        LocalTensor<float> row = rowQ.AllocTensor<float>();
                        tailStart = len;
                        LoadShifted(row, rowOff, d, len);
                        rowQ.EnQue(row);
                        row = rowQ.DeQue<float>();
                        if (tailStart < len) {
                            Duplicate(row[tailStart], 0.0f, len - tailStart);
                        }
                        for (uint32_t g = 0; g < gc; ++g) {
                            const float wv = wl.GetValue(ci * wPitch + (g * td.k + kh) * td.k + kw);
                            Axpy(acc[g * td.rowPitch + r * td.phasePitch], row, wv, len);
                        }
                        rowQ.FreeTensor(row);
                    }
                }
            }
        }
        StoreRow(n, oh, co0, gc);
    }

    __aicore__ inline void StoreRow(uint32_t n, uint32_t oh, uint32_t co0, uint32_t gc)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> o = outQ.AllocTensor<float>();
        if (td.stride == 1) {
            DataCopy(o, acc, gc * outPitch);   // rowPitch == outPitch when s == 1
        } else {
            // undo the phase split: o[g][r + s*t] = acc[g][r][t]
            event_t v2s = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(v2s);
            WaitFlag<HardEvent::V_S>(v2s);
            for (uint32_t g = 0; g < gc; ++g) {
                for (uint32_t ow = 0; ow < td.outW; ++ow) {
                    const uint32_t r = ow % td.stride;
                    const uint32_t t = ow / td.stride;
                    o.SetValue(g * outPitch + ow, acc.GetValue(g * td.rowPitch + r * td.phasePitch + t));
                }
            }
            event_t s2v = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(s2v);
            WaitFlag<HardEvent::S_V>(s2v);
        }
        outQ.EnQue(o);
        o = outQ.DeQue<float>();
        const uint64_t plane = (uint64_t)td.outH * td.outW;
        const uint64_t dst = ((uint64_t)n * td.cout + co0) * plane + (uint64_t)oh * td.outW;
        DataCopyExtParams cp{(uint16_t)gc, td.outW * (uint32_t)sizeof(float),
                             (outPitch - (td.outW + 7) / 8 * 8) / 8,
                             (uint32_t)((plane - td.outW) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], o, cp);
        outQ.FreeTensor(o);
    }

    static constexpr uint32_t MAX_GROUP = 32;
    TPipe pipe;
    Deconv2dSquareTilingData td;
    TQue<QuePosition::VECIN, 2> rowQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> accBuf, wBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    float biasCache[MAX_GROUP];
    uint32_t kk = 0, wPitch = 0, outPitch = 0, tailStart = 0;
};

extern "C" __global__ __aicore__ void deconv2d_square(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Deconv2dSquareKernel op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
