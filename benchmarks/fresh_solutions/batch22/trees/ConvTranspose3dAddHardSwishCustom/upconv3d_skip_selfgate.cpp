// upconv3d_skip_selfgate
//
//   t   = transposed_conv3d(x, W, b)   kernel 3, stride 2, pad 1, output_pad 1
//   s   = t + skip
//   out = s * hswish(s) = s * s * clamp(s + 3, 0, 6) / 6
//
// x: [N, Ci, D, H, W]   W: [Ci, Co, 3, 3, 3] (transposed-conv layout)
// skip / out: [N, Co, 2D, 2H, 2W]
//
// Each output row (n, od, oh) is produced for all Co at once (gather form).
// Along depth/height only taps with (o + pad - k) even contribute, which
// leaves 1 or 2 (kd, kh) pairs per axis. Along width the row splits by parity:
//   even ow = 2j   : kw = 1, iw = j
//   odd  ow = 2j+1 : kw = 2, iw = j   and   kw = 0, iw = j + 1
// so two half-width accumulators (even / odd) per channel are filled with
// Axpy on the input row and on the input row shifted by one.
#include "kernel_operator.h"

using namespace AscendC;

struct UpConv3dTiling {
    uint32_t batch, cin, cout;
    uint32_t inD, inH, inW;      // inW multiple of 8
    uint32_t outD, outH, outW;   // outW = 2 * inW
    uint32_t rowsPerCore;
};

class UpConv3dSkipSelfGate {
public:
    __aicore__ inline UpConv3dSkipSelfGate() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR skip, GM_ADDR out, GM_ADDR tilingGm)
    {
        auto raw = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
        uint32_t *d = reinterpret_cast<uint32_t *>(&tl);
        for (uint32_t i = 0; i < sizeof(tl) / sizeof(uint32_t); ++i) {
            d[i] = raw[i];
        }
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        skipGm.SetGlobalBuffer((__gm__ float *)skip);
        outGm.SetGlobalBuffer((__gm__ float *)out);

        half = tl.inW;
        pipe.InitBuffer(xBuf, 2 * half * sizeof(float));              // row + shifted row
        pipe.InitBuffer(wBuf, tl.cout * 8 * sizeof(float));          // 3 taps per co, padded to 8
        pipe.InitBuffer(evenBuf, tl.cout * half * sizeof(float));
        pipe.InitBuffer(oddBuf, tl.cout * half * sizeof(float));
        pipe.InitBuffer(skipQue, 1, tl.cout * tl.outW * sizeof(float));
        pipe.InitBuffer(outQue, 1, tl.cout * tl.outW * sizeof(float));
        pipe.InitBuffer(gateBuf, tl.cout * tl.outW * sizeof(float));
        pipe.InitBuffer(biasBuf, ((tl.cout + 7) / 8 * 8) * sizeof(float));

        LocalTensor<float> bias = biasBuf.Get<float>();
        DataCopyPad(bias, bGm, DataCopyExtParams{1, tl.cout * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0});
        Sync<HardEvent::MTE2_S>();
    }

    __aicore__ inline void Process()
    {
        const uint32_t rows = tl.batch * tl.outD * tl.outH;
        uint32_t r = GetBlockIdx() * tl.rowsPerCore;
        const uint32_t stop = (r + tl.rowsPerCore < rows) ? r + tl.rowsPerCore : rows;
        for (; r < stop; ++r) {
            const uint32_t oh = r % tl.outH;
            const uint32_t od = (r / tl.outH) % tl.outD;
            const uint32_t n = r / (tl.outH * tl.outD);
            PrefetchSkip(n, od, oh);
            Gather(n, od, oh);
            Finish(n, od, oh);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t id = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    // input index feeding output o through tap k (stride 2, pad 1), or -1
    __aicore__ inline int32_t Src(uint32_t o, uint32_t k, uint32_t inLen)
    {
        int32_t v = static_cast<int32_t>(o) + 1 - static_cast<int32_t>(k);
        if (v < 0 || (v & 1)) {
            return -1;
        }
        v >>= 1;
        return v < static_cast<int32_t>(inLen) ? v : -1;
    }

    __aicore__ inline uint64_t RowOffset(uint32_t n, uint32_t c, uint32_t d, uint32_t h)
    {
        return (((uint64_t)n * tl.cout + c) * tl.outD + d) * tl.outH * tl.outW + (uint64_t)h * tl.outW;
    }

    __aicore__ inline void PrefetchSkip(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> s = skipQue.AllocTensor<float>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(tl.cout);
        p.blockLen = static_cast<uint16_t>(tl.outW * sizeof(float) / 32);
        p.srcStride = static_cast<uint16_t>(((uint64_t)tl.outD * tl.outH * tl.outW - tl.outW) * sizeof(float) / 32);
        p.dstStride = 0;
        DataCopy(s, skipGm[RowOffset(n, 0, od, oh)], p);
        skipQue.EnQue(s);
    }

    __aicore__ inline void Gather(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> xr = xBuf.Get<float>();
        LocalTensor<float> wt = wBuf.Get<float>();
        LocalTensor<float> ev = evenBuf.Get<float>();
        LocalTensor<float> odd = oddBuf.Get<float>();
        Duplicate(ev, 0.0f, tl.cout * half);
        Duplicate(odd, 0.0f, tl.cout * half);

        const uint64_t inPlane = (uint64_t)tl.inD * tl.inH * tl.inW;
        for (uint32_t kd = 0; kd < 3; ++kd) {
            const int32_t id = Src(od, kd, tl.inD);
            if (id < 0) {
                continue;
            }
            for (uint32_t kh = 0; kh < 3; ++kh) {
                const int32_t ih = Src(oh, kh, tl.inH);
                if (ih < 0) {
                    continue;
                }
                for (uint32_t ci = 0; ci < tl.cin; ++ci) {
                    Sync<HardEvent::V_MTE2>();   // previous Axpys done with xr / wt
                    DataCopy(xr, xGm[((uint64_t)n * tl.cin + ci) * inPlane + ((uint64_t)id * tl.inH + ih) * tl.inW],
                             tl.inW);
                    // w[ci, co, kd, kh, 0..2] for every co: 64 blocks of 3 floats, stride 27
                    DataCopyExtParams wp{static_cast<uint16_t>(tl.cout), static_cast<uint32_t>(3 * sizeof(float)),
                                         static_cast<uint32_t>(24 * sizeof(float)), 0, 0};
                    DataCopyPad(wt, wGm[(uint64_t)ci * tl.cout * 27 + kd * 9 + kh * 3], wp,
                                DataCopyPadExtParams<float>{false, 0, 0, 0});
                    Sync<HardEvent::MTE2_S>();
                    // shifted copy: xs[j] = x[j + 1], zero past the end
                    for (uint32_t j = 0; j < half; ++j) {
                        xr.SetValue(half + j, (j + 1 < half) ? xr.GetValue(j + 1) : 0.0f);
                    }
                    Sync<HardEvent::S_V>();
                    for (uint32_t co = 0; co < tl.cout; ++co) {
                        const float w0 = wt.GetValue(co * 8);
                        const float w1 = wt.GetValue(co * 8 + 1);
                        const float w2 = wt.GetValue(co * 8 + 2);
                        Axpy(ev[co * half], xr, w1, half);
                        Axpy(odd[co * half], xr, w2, half);
                        Axpy(odd[co * half], xr[half], w0, half);
                    }
                }
            }
        }
        Sync<HardEvent::V_S>();
    }

    __aicore__ inline void Finish(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> ev = evenBuf.Get<float>();
        LocalTensor<float> odd = oddBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> s = skipQue.DeQue<float>();
        LocalTensor<float> o = outQue.AllocTensor<float>();

        // interleave even/odd halves back into full rows, adding the bias
        for (uint32_t co = 0; co < tl.cout; ++co) {
            const float bv = bias.GetValue(co);
            for (uint32_t j = 0; j < half; ++j) {
                o.SetValue(co * tl.outW + 2 * j, ev.GetValue(co * half + j) + bv);
                o.SetValue(co * tl.outW + 2 * j + 1, odd.GetValue(co * half + j) + bv);
            }
        }
        Sync<HardEvent::S_V>();

        const uint32_t cnt = tl.cout * tl.outW;
        LocalTensor<float> g = gateBuf.Get<float>();
        Add(o, o, s, cnt);                 // s = t + skip
        skipQue.FreeTensor(s);
        Adds(g, o, 3.0f, cnt);
        Maxs(g, g, 0.0f, cnt);
        Mins(g, g, 6.0f, cnt);
        Muls(g, g, 1.0f / 6.0f, cnt);
        Mul(g, g, o, cnt);                 // hswish(s)
        Mul(o, o, g, cnt);                 // s * hswish(s)
        outQue.EnQue(o);

        LocalTensor<float> res = outQue.DeQue<float>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(tl.cout);
        p.blockLen = static_cast<uint16_t>(tl.outW * sizeof(float) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>(((uint64_t)tl.outD * tl.outH * tl.outW - tl.outW) * sizeof(float) / 32);
        DataCopy(outGm[RowOffset(n, 0, od, oh)], res, p);
        outQue.FreeTensor(res);
        Sync<HardEvent::MTE3_S>();
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, wBuf, evenBuf, oddBuf, gateBuf, biasBuf;
    TQue<QuePosition::VECIN, 1> skipQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    GlobalTensor<float> xGm, wGm, bGm, skipGm, outGm;
    UpConv3dTiling tl;
    uint32_t half = 0;
};

extern "C" __global__ __aicore__ void upconv3d_skip_selfgate(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR skip,
                                                            GM_ADDR out, GM_ADDR tiling)
{
    UpConv3dSkipSelfGate op;
    op.Init(x, w, b, skip, out, tiling);
    op.Process();
}
