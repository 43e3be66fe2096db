// y = sigmoid( post_scale[c] * tanh( pre_scale[c] * (conv3d(x, w) + conv_bias[c]) ) )
// Direct convolution on the vector unit. A work item is a block of R output rows of one
// (n, c_out, d_out) plane. For every (c_in, kd, kw) the R + kH - 1 input rows needed are
// copied already shifted by kw, so every kh tap is a single Axpy over R * OWa elements.
#include "kernel_operator.h"
using namespace AscendC;

class VolumeConvGateKernel {
public:
    __aicore__ inline VolumeConvGateKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR s1, GM_ADDR s2, GM_ADDR y,
                                const VolumeConvTanhSigmoidGateTiling &t)
    {
        tl = t;
        planeIn = (uint64_t)t.inH * t.inW;
        volIn = planeIn * t.inD;
        taps = t.inC * t.kD * t.kH * t.kW;
        slabRows = t.rowsPerTile + t.kH - 1;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        s1Gm.SetGlobalBuffer((__gm__ float *)s1);
        s2Gm.SetGlobalBuffer((__gm__ float *)s2);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        const uint32_t tileElems = t.rowsPerTile * t.outWAlign;
        pipe.InitBuffer(slabQ, 2, slabRows * t.outWAlign * sizeof(float));
        pipe.InitBuffer(outQ, 1, tileElems * sizeof(float));
        pipe.InitBuffer(accBuf, tileElems * sizeof(float));
        pipe.InitBuffer(wBuf, (taps * sizeof(float) + 31) / 32 * 32);
        pipe.InitBuffer(tmpBuf, tileElems * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t first = GetBlockIdx() * tl.tilesPerCore;
        uint32_t last = first + tl.tilesPerCore;
        if (last > tl.totalTiles) last = tl.totalTiles;
        int64_t loadedCo = -1;
        for (uint32_t id = first; id < last; ++id) {
            uint32_t r = id;
            const uint32_t tile = r % tl.tilesPerPlane; r /= tl.tilesPerPlane;
            const uint32_t od = r % tl.outD;            r /= tl.outD;
            const uint32_t co = r % tl.outC;
            const uint32_t n = r / tl.outC;
            if ((int64_t)co != loadedCo) {
                LoadChannelParams(co);
                loadedCo = co;
            }
            const uint32_t oh0 = tile * tl.rowsPerTile;
            const uint32_t rows = (tl.outH - oh0) < tl.rowsPerTile ? (tl.outH - oh0) : tl.rowsPerTile;
            ConvTile(n, od, oh0, rows);
            Epilogue(rows);
            Store(n, co, od, oh0, rows);
        }
    }

private:
    __aicore__ inline void LoadChannelParams(uint32_t co)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        DataCopyExtParams p{1, taps * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(wl, wGm[(uint64_t)co * taps], p, pad);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
        biasVal = bGm.GetValue(co);
        preScale = s1Gm.GetValue(co);
        postScale = s2Gm.GetValue(co);
    }

    __aicore__ inline void ConvTile(uint32_t n, uint32_t od, uint32_t oh0, uint32_t rows)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        const uint32_t pitch = tl.outWAlign;
        const uint32_t span = rows * pitch;
        const uint32_t inRows = rows + tl.kH - 1;
        Duplicate(acc, biasVal, span);

        for (uint32_t ci = 0; ci < tl.inC; ++ci) {
            for (uint32_t kd = 0; kd < tl.kD; ++kd) {
                const uint64_t rowBase = (uint64_t)n * tl.inC * volIn + (uint64_t)ci * volIn +
                                         (uint64_t)(od + kd) * planeIn + (uint64_t)oh0 * tl.inW;
                for (uint32_t kw = 0; kw < tl.kW; ++kw) {
                    // slab[r][0..OW) = x[.., oh0 + r, kw .. kw + OW)
                    LocalTensor<float> slab = slabQ.AllocTensor<float>();
                    DataCopyExtParams cp{(uint16_t)inRows, tl.outW * (uint32_t)sizeof(float),
                                         (uint32_t)((tl.inW - tl.outW) * sizeof(float)),
                                         (uint32_t)((pitch - tl.outW) * sizeof(float) / 32), 0};
                    DataCopyPadExtParams<float> pad{false, 0, 0, 0};
                    DataCopyPad(slab, xGm[rowBase + kw], cp, pad);
                    slabQ.EnQue(slab);
                    slab = slabQ.DeQue<float>();
                    const uint32_t wIdx0 = ((ci * tl.kD + kd) * tl.kH) * tl.kW + kw;
                    for (uint32_t kh = 0; kh < tl.kH; ++kh) {
                        float wv = wl.GetValue(wIdx0 + kh * tl.kW);
                        Axpy(acc, slab[kh * pitch], wv, span);
                    }
                    slabQ.FreeTensor(slab);
                }
            }
        }
    }

    __aicore__ inline void Epilogue(uint32_t rows)
    {
        const uint32_t span = rows * tl.outWAlign;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        Muls(acc, acc, preScale, span);
        Tanh(tmp, acc, span);
        Muls(tmp, tmp, postScale, span);
        Sigmoid(out, tmp, span);
        outQ.EnQue(out);
    }

    __aicore__ inline void Store(uint32_t n, uint32_t co, uint32_t od, uint32_t oh0, uint32_t rows)
    {
        LocalTensor<float> out = outQ.DeQue<float>();
        const uint64_t dst = ((((uint64_t)n * tl.outC + co) * tl.outD + od) * tl.outH + oh0) * tl.outW;
        DataCopyExtParams cp{(uint16_t)rows, tl.outW * (uint32_t)sizeof(float),
                             (uint32_t)((tl.outWAlign - tl.outW) * sizeof(float) / 32), 0, 0};
        DataCopyPad(yGm[dst], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> slabQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> accBuf, wBuf, tmpBuf;
    GlobalTensor<float> xGm, wGm, bGm, s1Gm, s2Gm, yGm;
    VolumeConvTanhSigmoidGateTiling tl;
    uint64_t planeIn = 0, volIn = 0;
    uint32_t taps = 0, slabRows = 0;
    float biasVal = 0.f, preScale = 1.f, postScale = 1.f;
};

extern "C" __global__ __aicore__ void volume_conv_tanh_sigmoid_gate(GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias,
                                                                    GM_ADDR pre_scale, GM_ADDR post_scale, GM_ADDR y,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    VolumeConvGateKernel k;
    k.Init(x, weight, conv_bias, pre_scale, post_scale, y, td);
    k.Process();
}
