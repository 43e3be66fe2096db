/*
 * vol_filter_dmin_softmax.cpp
 *
 *   z[n, co, d, h, w] = b[co] + sum_{ci,kd,kh,kw} W[co,ci,kd,kh,kw] * x[n,ci,d+kd,h+kh,w+kw]   (valid 3x3x3)
 *   m[n, co, h, w]    = min_d z[n, co, d, h, w]
 *   y[n, :, h, w]     = softmax over co of m[n, :, h, w]
 *
 * Work unit = one (n, h) output row: all output channels, all depths, all w.
 * For every (ci, kh, kw) one strided DataCopyPad brings the D input rows
 * x[n, ci, :, h+kh, kw : kw+Wo] into UB ("slab", one padded row per depth).
 * Because the depth rows are stacked contiguously, a single Axpy of length
 * Do*WoPad starting at depth kd updates the conv result for every output depth
 * at once. The bias does not depend on depth, so it is added after the min.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct VolFilterDminSoftmaxTiling {
    uint32_t batch;
    uint32_t inC;
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t outC;
    uint32_t outD;
    uint32_t outH;
    uint32_t outW;
    uint32_t wPad;    // outW rounded up to 8 floats
    uint32_t ksize;   // 3
};

class VolFilterDminSoftmax {
public:
    __aicore__ inline VolFilterDminSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                const VolFilterDminSoftmaxTiling &tiling)
    {
        tl = tiling;
        k3 = tl.ksize * tl.ksize * tl.ksize;
        slabLen = tl.inD * tl.wPad;
        planeLen = tl.outD * tl.wPad;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)weight);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(slabQ, 1, tl.inC * tl.ksize * tl.ksize * slabLen * sizeof(float));
        pipe.InitBuffer(outQ, 1, tl.outC * tl.wPad * sizeof(float));
        pipe.InitBuffer(convBuf, tl.outC * planeLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, 2 * tl.wPad * sizeof(float));
        pipe.InitBuffer(paramBuf, ((tl.outC * tl.inC * k3 + tl.outC) + 7) / 8 * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadParams();
        const uint32_t units = tl.batch * tl.outH;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t n = u / tl.outH;
            uint32_t h = u % tl.outH;
            LoadSlabs(n, h);
            Convolve();
            DepthMinSoftmax(n, h);
        }
    }

private:
    // weights + bias are tiny (a few KB): keep them in UB for scalar reads
    __aicore__ inline void LoadParams()
    {
        params = paramBuf.Get<float>();
        uint32_t wCount = tl.outC * tl.inC * k3;
        DataCopyExtParams cw{1, wCount * 4U, 0, 0, 0};
        DataCopyExtParams cb{1, tl.outC * 4U, 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(params, wGm, cw, np);
        biasOff = (wCount + 7) / 8 * 8;  // bias starts on a 32-byte boundary
        DataCopyPad(params[biasOff], bGm, cb, np);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void LoadSlabs(uint32_t n, uint32_t h)
    {
        LocalTensor<float> slab = slabQ.AllocTensor<float>();
        const uint32_t hw = tl.inH * tl.inW;
        // D rows of outW floats, separated by one HxW plane in GM
        DataCopyExtParams cp{static_cast<uint16_t>(tl.inD), tl.outW * 4U, (hw - tl.outW) * 4U, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        for (uint32_t ci = 0; ci < tl.inC; ++ci) {
            for (uint32_t kh = 0; kh < tl.ksize; ++kh) {
                for (uint32_t kw = 0; kw < tl.ksize; ++kw) {
                    uint64_t src = ((uint64_t)(n * tl.inC + ci) * tl.inD * tl.inH + (h + kh)) * tl.inW + kw;
                    uint32_t dst = ((ci * tl.ksize + kh) * tl.ksize + kw) * slabLen;
                    DataCopyPad(slab[dst], xGm[src], cp, np);
                }
            }
        }
        slabQ.EnQue(slab);
    }

    __aicore__ inline void Convolve()
    {
        LocalTensor<float> slab = slabQ.DeQue<float>();
        LocalTensor<float> conv = convBuf.Get<float>();
        Duplicate(conv, 0.0f, tl.outC * planeLen);
        for (uint32_t ci = 0; ci < tl.inC; ++ci) {
            for (uint32_t kd = 0; kd < tl.ksize; ++kd) {
                for (uint32_t kh = 0; kh < tl.ksize; ++kh) {
                    for (uint32_t kw = 0; kw < tl.ksize; ++kw) {
                        LocalTensor<float> src = slab[((ci * tl.ksize + kh) * tl.ksize + kw) * slabLen + kd * tl.wPad];
                        uint32_t tap = ((ci * tl.ksize + kd) * tl.ksize + kh) * tl.ksize + kw;
                        for (uint32_t co = 0; co < tl.outC; ++co) {
                            float wv = params.GetValue(co * tl.inC * k3 + tap);
                            Axpy(conv[co * planeLen], src, wv, planeLen);
                        }
                    }
                }
            }
        }
        slabQ.FreeTensor(slab);
    }

    __aicore__ inline void DepthMinSoftmax(uint32_t n, uint32_t h)
    {
        LocalTensor<float> conv = convBuf.Get<float>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> rowMax = tmp;
        LocalTensor<float> rowSum = tmp[tl.wPad];
        const uint32_t wp = tl.wPad;

        // min over depth, then bias
        for (uint32_t co = 0; co < tl.outC; ++co) {
            LocalTensor<float> dst = out[co * wp];
            DataCopy(dst, conv[co * planeLen], wp);
            for (uint32_t d = 1; d < tl.outD; ++d) {
                Min(dst, dst, conv[co * planeLen + d * wp], wp);
            }
            Adds(dst, dst, params.GetValue(biasOff + co), wp);
        }

        // softmax across channels: rows of `out` are channels, lanes are w
        DataCopy(rowMax, out, wp);
        for (uint32_t co = 1; co < tl.outC; ++co) {
            Max(rowMax, rowMax, out[co * wp], wp);
        }
        Duplicate(rowSum, 0.0f, wp);
        for (uint32_t co = 0; co < tl.outC; ++co) {
            Sub(out[co * wp], out[co * wp], rowMax, wp);
            Exp(out[co * wp], out[co * wp], wp);
            Add(rowSum, rowSum, out[co * wp], wp);
        }
        for (uint32_t co = 0; co < tl.outC; ++co) {
            Div(out[co * wp], out[co * wp], rowSum, wp);
        }
        outQ.EnQue(out);

        out = outQ.DeQue<float>();
        const uint32_t planeOut = tl.outH * tl.outW;
        DataCopyExtParams cp{static_cast<uint16_t>(tl.outC), tl.outW * 4U, 0, (planeOut - tl.outW) * 4U, 0};
        DataCopyPad(yGm[((uint64_t)n * tl.outC * tl.outH + h) * tl.outW], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> slabQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<QuePosition::VECCALC> convBuf, tmpBuf, paramBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    LocalTensor<float> params;
    VolFilterDminSoftmaxTiling tl;
    uint32_t k3 = 0, slabLen = 0, planeLen = 0, biasOff = 0;
};

extern "C" __global__ __aicore__ void vol_filter_dmin_softmax(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                              GM_ADDR tiling)
{
    VolFilterDminSoftmaxTiling tl;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(tl) / 4; ++i) {
        dst[i] = src[i];
    }
    VolFilterDminSoftmax op;
    op.Init(x, weight, bias, y, tl);
    op.Process();
}
