/*
 * VolumeConvMishTanh: y = tanh(mish(conv3d(x, w) + b)), float32, NCDHW.
 *
 * A core takes output lines (n, od, oh). For a line, a block of output channels is
 * accumulated in UB: for each (ci, kd, kh) the input line is loaded once, and for each
 * kw the strided/padded tap line xs[ow] = x[ow*sW - pW + kw] is formed; that tap line is
 * then Axpy'd into every channel of the block with its scalar weight.
 *
 * Activation, with e = exp(v) (v clamped at 20, where mish(v) == v to fp32 precision):
 *   mish(v) = v * tanh(log1p(e)) = v * e(e+2) / (e(e+2) + 2)
 *   tanh(m) = 1 - 2 / (exp(2m) + 1)
 */
#include "kernel_operator.h"

using namespace AscendC;

class VolumeConvMishTanhKernel {
public:
    __aicore__ inline VolumeConvMishTanhKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const VolumeConvMishTanhTilingData &tl)
    {
        t = tl;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        kVol = t.kD * t.kH * t.kW;
        kVolA = (kVol + 7) / 8 * 8;
        owA = t.outWAlign;
        const uint32_t inWA = (t.inW + 7) / 8 * 8;
        pipe.InitBuffer(lineQue, 2, inWA * sizeof(float));
        pipe.InitBuffer(tapBuf, owA * sizeof(float));
        pipe.InitBuffer(accBuf, t.coBlock * owA * sizeof(float));
        pipe.InitBuffer(wBuf, t.coBlock * kVolA * sizeof(float));
        pipe.InitBuffer(tmpBuf, 2 * t.coBlock * owA * sizeof(float));
        pipe.InitBuffer(outQue, 2, t.coBlock * owA * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t core = GetBlockIdx();
        const uint32_t cores = GetBlockNum();
        for (uint32_t line = core; line < t.lineCount; line += cores) {
            const uint32_t oh = line % t.outH;
            const uint32_t od = (line / t.outH) % t.outD;
            const uint32_t n = line / (t.outH * t.outD);
            for (uint32_t co0 = 0; co0 < t.cout; co0 += t.coBlock) {
                const uint32_t cnt = (t.cout - co0) < t.coBlock ? (t.cout - co0) : t.coBlock;
                Accumulate(n, od, oh, co0, cnt);
                Activate(cnt);
                Store(n, od, oh, co0, cnt);
            }
        }
    }

private:
    template <HardEvent EV>
    __aicore__ inline void Wait()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(EV));
        SetFlag<EV>(e);
        WaitFlag<EV>(e);
    }

    __aicore__ inline void Accumulate(uint32_t n, uint32_t od, uint32_t oh, uint32_t co0, uint32_t cnt)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tap = tapBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        Wait<HardEvent::S_V>();
        for (uint32_t c = 0; c < cnt; ++c) {
            Duplicate(acc[c * owA], bGm.GetValue(co0 + c), owA);
        }
        const int32_t d0 = static_cast<int32_t>(od * t.sD) - static_cast<int32_t>(t.pD);
        const int32_t h0 = static_cast<int32_t>(oh * t.sH) - static_cast<int32_t>(t.pH);

        for (uint32_t ci = 0; ci < t.cin; ++ci) {
            // weights [Cout, Cin, kD, kH, kW]: cnt strided slices of kVol values
            Wait<HardEvent::V_MTE2>();
            DataCopyExtParams wp{static_cast<uint16_t>(cnt), kVol * static_cast<uint32_t>(sizeof(float)),
                                 (t.cin - 1) * kVol * static_cast<uint32_t>(sizeof(float)), 0, 0};
            DataCopyPad(wl, wGm[(static_cast<uint64_t>(co0) * t.cin + ci) * kVol], wp,
                        DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            Wait<HardEvent::MTE2_S>();

            for (uint32_t kd = 0; kd < t.kD; ++kd) {
                const int32_t id = d0 + static_cast<int32_t>(kd);
                if (id < 0 || id >= static_cast<int32_t>(t.inD)) {
                    continue;
                }
                for (uint32_t kh = 0; kh < t.kH; ++kh) {
                    const int32_t ih = h0 + static_cast<int32_t>(kh);
                    if (ih < 0 || ih >= static_cast<int32_t>(t.inH)) {
                        continue;
                    }
                    LocalTensor<float> xl = lineQue.AllocTensor<float>();
                    const uint64_t src = (((static_cast<uint64_t>(n) * t.cin + ci) * t.inD + id) * t.inH + ih) * t.inW;
                    DataCopyPad(xl, xGm[src], DataCopyExtParams{1, t.inW * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                                DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                    lineQue.EnQue(xl);
                    xl = lineQue.DeQue<float>();
                    Wait<HardEvent::MTE2_S>();

                    for (uint32_t kw = 0; kw < t.kW; ++kw) {
                        Wait<HardEvent::V_S>();   // previous Axpys done reading tap
                        int32_t iw = static_cast<int32_t>(kw) - static_cast<int32_t>(t.pW);
                        for (uint32_t ow = 0; ow < t.outW; ++ow, iw += t.sW) {
                            tap.SetValue(ow, (iw >= 0 && iw < static_cast<int32_t>(t.inW)) ? xl.GetValue(iw) : 0.0f);
                        }
                        Wait<HardEvent::S_V>();
                        const uint32_t k = (kd * t.kH + kh) * t.kW + kw;
                        for (uint32_t c = 0; c < cnt; ++c) {
                            Axpy(acc[c * owA], tap, wl.GetValue(c * kVolA + k), t.outW);
                        }
                    }
                    lineQue.FreeTensor(xl);
                }
            }
        }
    }

    __aicore__ inline void Activate(uint32_t cnt)
    {
        LocalTensor<float> v = accBuf.Get<float>();
        LocalTensor<float> e = tmpBuf.Get<float>();
        LocalTensor<float> q = e[t.coBlock * owA];
        LocalTensor<float> out = outQue.AllocTensor<float>();
        const uint32_t len = cnt * owA;

        // mish
        Mins(e, v, 20.0f, len);
        Exp(e, e, len);            // e
        Adds(q, e, 2.0f, len);
        Mul(e, e, q, len);         // e(e+2)
        Adds(q, e, 2.0f, len);
        Div(e, e, q, len);         // tanh(softplus(v))
        Mul(e, v, e, len);         // m = mish(v)
        // tanh(m) = 1 - 2 / (exp(2m) + 1)
        Muls(e, e, 2.0f, len);
        Exp(e, e, len);
        Adds(e, e, 1.0f, len);
        Duplicate(q, -2.0f, len);
        Div(out, q, e, len);
        Adds(out, out, 1.0f, len);
        outQue.EnQue(out);
    }

    __aicore__ inline void Store(uint32_t n, uint32_t od, uint32_t oh, uint32_t co0, uint32_t cnt)
    {
        LocalTensor<float> out = outQue.DeQue<float>();
        const uint64_t plane = static_cast<uint64_t>(t.outD) * t.outH * t.outW;
        const uint64_t dst = (static_cast<uint64_t>(n) * t.cout + co0) * plane +
                             (static_cast<uint64_t>(od) * t.outH + oh) * t.outW;
        DataCopyExtParams p{static_cast<uint16_t>(cnt), t.outW * static_cast<uint32_t>(sizeof(float)),
                            (owA - (t.outW + 7) / 8 * 8) * static_cast<uint32_t>(sizeof(float)) / 32,
                            static_cast<uint32_t>((plane - t.outW) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], out, p);
        outQue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> lineQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> tapBuf, accBuf, wBuf, tmpBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    VolumeConvMishTanhTilingData t;
    uint32_t kVol = 0, kVolA = 0, owA = 0;
};

extern "C" __global__ __aicore__ void volume_conv_mish_tanh(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    VolumeConvMishTanhKernel op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
