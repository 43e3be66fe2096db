/*
 * upvolume_channel_peak.cpp
 *
 * For a 5D input x (N, Ci, D, H, W):
 *   v   = conv_transpose3d(x, w, bias)         stride s, kernel K, padding p, output padding
 *   q   = max_pool3d(v, window s, stride s)    (pool window equal to the up-sampling stride)
 *   r   = softmax over channels of q
 *   g   = (r - shift[c]) * sigmoid(r - shift[c])
 *   out = max over channels of g               -> (N, PD, PH, PW)
 *
 * Because the pooling window equals the transposed-conv stride, pooled voxel (pd, ph, pw)
 * covers exactly one "phase" combination (a, b, c) in [0, s)^3 of the up-sampled grid.
 * The kernel computes each phase of the up-sampled volume for one pooled row (n, pd, ph)
 * and all channels, keeps the running maximum, then finishes the channel-wise part of the
 * chain in UB. Nothing of the large up-sampled volume is ever written to GM.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t MAX_OC = 64;

struct UpvolumeChannelPeakTiling {
    uint32_t batch;
    uint32_t inC;
    uint32_t outC;
    uint32_t inD, inH, inW;
    uint32_t poolD, poolH, poolW;
    uint32_t rowLen;       // poolW rounded up to 8
    uint32_t kSize;
    uint32_t stride;       // conv-transpose stride == pool window == pool stride
    uint32_t pad;
    uint32_t tasksPerCore;
    uint32_t totalTasks;   // batch * poolD * poolH
};

class UpvolumeChannelPeak {
public:
    __aicore__ inline UpvolumeChannelPeak() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR shift, GM_ADDR y,
                                const UpvolumeChannelPeakTiling &tiling)
    {
        tl = tiling;
        k3 = tl.kSize * tl.kSize * tl.kSize;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        sGm.SetGlobalBuffer((__gm__ float *)shift);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        first = GetBlockIdx() * tl.tasksPerCore;
        last = first + tl.tasksPerCore;
        if (last > tl.totalTasks) {
            last = tl.totalTasks;
        }

        wElems = AlignUp(tl.inC * tl.outC * k3);
        uint32_t rowBytes = tl.rowLen * sizeof(float);
        pipe.InitBuffer(paramBuf, (wElems + 2 * AlignUp(tl.outC)) * sizeof(float));
        pipe.InitBuffer(inQue, 2, AlignUp(tl.inW) * sizeof(float));
        pipe.InitBuffer(outQue, 2, rowBytes);
        pipe.InitBuffer(shiftRows, 3 * rowBytes);                  // input row shifted by -1, 0, +1
        pipe.InitBuffer(phaseBuf, tl.stride * tl.outC * rowBytes);  // one accumulator per w-phase
        pipe.InitBuffer(peakBuf, tl.outC * rowBytes);
        pipe.InitBuffer(workBuf, 2 * rowBytes);
    }

    __aicore__ inline void Process()
    {
        if (first >= last) {
            return;
        }
        LoadParams();
        for (uint32_t task = first; task < last; ++task) {
            uint32_t ph = task % tl.poolH;
            uint32_t pd = (task / tl.poolH) % tl.poolD;
            uint32_t n = task / (tl.poolH * tl.poolD);
            PooledUpconv(n, pd, ph);
            ChannelTail(n, pd, ph);
        }
    }

private:
    __aicore__ inline uint32_t AlignUp(uint32_t v) { return (v + 7) / 8 * 8; }

    template <HardEvent EVT>
    __aicore__ inline void Barrier()
    {
        event_t id = static_cast<event_t>(pipe.FetchEventID(EVT));
        SetFlag<EVT>(id);
        WaitFlag<EVT>(id);
    }

    __aicore__ inline void LoadParams()
    {
        LocalTensor<float> prm = paramBuf.Get<float>();
        DataCopy(prm, wGm, wElems);
        DataCopy(prm[wElems], bGm, AlignUp(tl.outC));
        DataCopy(prm[wElems + AlignUp(tl.outC)], sGm, AlignUp(tl.outC));
        Barrier<HardEvent::MTE2_S>();
    }

    // input index offset for output coordinate (s*j + phase) and tap k, or a sentinel if no hit
    __aicore__ inline bool TapOffset(uint32_t phase, uint32_t k, int32_t &off)
    {
        int32_t num = (int32_t)phase + (int32_t)tl.pad - (int32_t)k;
        int32_t s = (int32_t)tl.stride;
        int32_t rem = ((num % s) + s) % s;
        if (rem != 0) {
            return false;
        }
        off = (num - rem) / s;  // floor division
        return true;
    }

    // peak[oc][pw] = max over the s^3 phases of the up-sampled value (bias excluded)
    __aicore__ inline void PooledUpconv(uint32_t n, uint32_t pd, uint32_t ph)
    {
        LocalTensor<float> prm = paramBuf.Get<float>();
        LocalTensor<float> peak = peakBuf.Get<float>();
        LocalTensor<float> phs = phaseBuf.Get<float>();
        LocalTensor<float> sh = shiftRows.Get<float>();
        const uint32_t L = tl.rowLen;
        const uint32_t K = tl.kSize;

        Duplicate(peak, -3.0e38f, tl.outC * L);

        for (uint32_t a = 0; a < tl.stride; ++a) {
            for (uint32_t b = 0; b < tl.stride; ++b) {
                Duplicate(phs, 0.0f, tl.stride * tl.outC * L);
                for (uint32_t kd = 0; kd < K; ++kd) {
                    int32_t offD;
                    if (!TapOffset(a, kd, offD)) {
                        continue;
                    }
                    int32_t id = (int32_t)pd + offD;
                    if (id < 0 || id >= (int32_t)tl.inD) {
                        continue;
                    }
                    for (uint32_t kh = 0; kh < K; ++kh) {
                        int32_t offH;
                        if (!TapOffset(b, kh, offH)) {
                            continue;
                        }
                        int32_t ih = (int32_t)ph + offH;
                        if (ih < 0 || ih >= (int32_t)tl.inH) {
                            continue;
                        }
                        for (uint32_t ic = 0; ic < tl.inC; ++ic) {
                            LoadShiftedRow(n, ic, (uint32_t)id, (uint32_t)ih, sh);
                            for (uint32_t c = 0; c < tl.stride; ++c) {
                                for (uint32_t kw = 0; kw < K; ++kw) {
                                    int32_t offW;
                                    if (!TapOffset(c, kw, offW) || offW < -1 || offW > 1) {
                                        continue;
                                    }
                                    LocalTensor<float> src = sh[(uint32_t)(offW + 1) * L];
                                    for (uint32_t oc = 0; oc < tl.outC; ++oc) {
                                        // w layout (Ci, Co, K, K, K)
                                        uint32_t wi = (ic * tl.outC + oc) * k3 + (kd * K + kh) * K + kw;
                                        Axpy(phs[(c * tl.outC + oc) * L], src, prm.GetValue(wi), tl.poolW);
                                    }
                                }
                            }
                        }
                    }
                }
                for (uint32_t c = 0; c < tl.stride; ++c) {
                    Max(peak, peak, phs[c * tl.outC * L], tl.outC * L);
                }
            }
        }
    }

    // sh[0] = x[j-1], sh[1] = x[j], sh[2] = x[j+1] (zero outside the row)
    __aicore__ inline void LoadShiftedRow(uint32_t n, uint32_t ic, uint32_t id, uint32_t ih,
                                          LocalTensor<float> &sh)
    {
        LocalTensor<float> row = inQue.AllocTensor<float>();
        uint64_t base = (((uint64_t)n * tl.inC + ic) * tl.inD + id) * tl.inH * tl.inW + (uint64_t)ih * tl.inW;
        DataCopy(row, xGm[base], AlignUp(tl.inW));
        inQue.EnQue(row);
        row = inQue.DeQue<float>();

        Barrier<HardEvent::V_S>();   // earlier Axpy may still read sh
        const uint32_t L = tl.rowLen;
        for (uint32_t j = 0; j < tl.poolW; ++j) {
            float centre = j < tl.inW ? row.GetValue(j) : 0.0f;
            float left = (j >= 1 && j - 1 < tl.inW) ? row.GetValue(j - 1) : 0.0f;
            float right = (j + 1 < tl.inW) ? row.GetValue(j + 1) : 0.0f;
            sh.SetValue(j, left);
            sh.SetValue(L + j, centre);
            sh.SetValue(2 * L + j, right);
        }
        inQue.FreeTensor(row);
        Barrier<HardEvent::S_V>();
    }

    // bias, channel softmax, shift, swish, channel max
    __aicore__ inline void ChannelTail(uint32_t n, uint32_t pd, uint32_t ph)
    {
        LocalTensor<float> prm = paramBuf.Get<float>();
        LocalTensor<float> peak = peakBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> colMax = work;
        LocalTensor<float> colSum = work[tl.rowLen];
        const uint32_t L = tl.rowLen;
        const uint32_t biasOff = wElems;
        const uint32_t shiftOff = wElems + AlignUp(tl.outC);

        for (uint32_t oc = 0; oc < tl.outC; ++oc) {
            Adds(peak[oc * L], peak[oc * L], prm.GetValue(biasOff + oc), L);
        }
        // softmax over channels, column-wise
        DataCopy(colMax, peak, L);
        for (uint32_t oc = 1; oc < tl.outC; ++oc) {
            Max(colMax, colMax, peak[oc * L], L);
        }
        Duplicate(colSum, 0.0f, L);
        for (uint32_t oc = 0; oc < tl.outC; ++oc) {
            Sub(peak[oc * L], peak[oc * L], colMax, L);
            Exp(peak[oc * L], peak[oc * L], L);
            Add(colSum, colSum, peak[oc * L], L);
        }

        LocalTensor<float> out = outQue.AllocTensor<float>();
        Duplicate(out, -3.0e38f, L);
        for (uint32_t oc = 0; oc < tl.outC; ++oc) {
            LocalTensor<float> v = peak[oc * L];
            Div(v, v, colSum, L);
            Adds(v, v, -prm.GetValue(shiftOff + oc), L);
            // swish: v / (1 + exp(-v)); colMax is free now and serves as scratch
            Muls(colMax, v, -1.0f, L);
            Exp(colMax, colMax, L);
            Adds(colMax, colMax, 1.0f, L);
            Div(v, v, colMax, L);
            Max(out, out, v, L);
        }
        outQue.EnQue(out);

        out = outQue.DeQue<float>();
        uint64_t dst = (((uint64_t)n * tl.poolD + pd) * tl.poolH + ph) * tl.poolW;
        DataCopyExtParams cp{1, tl.poolW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[dst], out, cp);
        outQue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> paramBuf, shiftRows, phaseBuf, peakBuf, workBuf;
    GlobalTensor<float> xGm, wGm, bGm, sGm, yGm;
    UpvolumeChannelPeakTiling tl;
    uint32_t k3 = 0, wElems = 0;
    uint32_t first = 0, last = 0;
};

extern "C" __global__ __aicore__ void upvolume_channel_peak(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR shift,
                                                            GM_ADDR y, GM_ADDR tiling)
{
    UpvolumeChannelPeakTiling tl;
    __gm__ uint32_t *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(UpvolumeChannelPeakTiling) / 4; ++i) {
        dst[i] = src[i];
    }
    UpvolumeChannelPeak kernel;
    kernel.Init(x, w, bias, shift, y, tl);
    kernel.Process();
}
