/*
 * upconv3d_channel_gate
 *
 *   t   = transposed 3-D convolution(x, w, b)   (stride s, padding p, output padding op)
 *   u   = softmax over the channel axis of t
 *   y   = 1 / (1 + exp(-u))
 *
 * Work unit: one output line y[n, :, od, oh, :] (all output channels, one
 * (depth, height) position). The line is accumulated in UB as a
 * [Cout][OWa] block, so the channel softmax becomes plain element-wise vector
 * math across the Cout rows and the final store is one strided copy.
 *
 * Transposed conv is evaluated in "gather" form: output position o receives
 * input i through tap k iff o + p - k == i * s. For each valid (kd, kh) pair we
 * expand the input line into Kw gathered vectors (zeros where the stride does
 * not hit) and fold them into every channel row with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct UpconvChannelGateTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inD, inH, inW;
    uint32_t outD, outH, outW;
    uint32_t outWAligned;   // outW rounded up to 8
    uint32_t inWAligned;    // inW rounded up to 8
    uint32_t kD, kH, kW;
    uint32_t stride;
    uint32_t pad;
    uint32_t linesPerCore;  // (n, od, oh) work units per core
    uint32_t totalLines;
};

__aicore__ inline void CopyTilingFromGm(UpconvChannelGateTiling *dst, GM_ADDR src)
{
    auto s = reinterpret_cast<__gm__ uint32_t *>(src);
    auto d = reinterpret_cast<uint32_t *>(dst);
    for (uint32_t i = 0; i < sizeof(UpconvChannelGateTiling) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

template <HardEvent EV>
__aicore__ inline void PipeSync()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
    SetFlag<EV>(id);
    WaitFlag<EV>(id);
}

class UpconvChannelGate {
public:
    __aicore__ inline UpconvChannelGate() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const UpconvChannelGateTiling &t)
    {
        tl = t;
        kVol = t.kD * t.kH * t.kW;
        inPlane = t.inD * t.inH * t.inW;
        outPlane = t.outD * t.outH * t.outW;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.batch * t.cin * inPlane);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)t.cin * t.cout * kVol);
        bGm.SetGlobalBuffer((__gm__ float *)b, t.cout);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)t.batch * t.cout * outPlane);

        pipe.InitBuffer(accBuf, t.cout * t.outWAligned * sizeof(float));
        pipe.InitBuffer(tmpBuf, 2 * t.outWAligned * sizeof(float));          // running max / sum
        pipe.InitBuffer(gatherBuf, t.kW * t.outWAligned * sizeof(float));
        pipe.InitBuffer(lineBuf, t.inWAligned * sizeof(float));
        pipe.InitBuffer(wBuf, ((t.cout * kVol + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(biasBuf, ((t.cout + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(outQ, 1, t.cout * t.outWAligned * sizeof(float));

        // bias is tiny, keep it resident
        LocalTensor<float> bias = biasBuf.Get<float>();
        DataCopyExtParams cp{1, t.cout * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        DataCopyPad(bias, bGm, cp, pd);
        PipeSync<HardEvent::MTE2_S>();
    }

    __aicore__ inline void Process()
    {
        uint32_t first = GetBlockIdx() * tl.linesPerCore;
        uint32_t last = first + tl.linesPerCore;
        if (last > tl.totalLines) {
            last = tl.totalLines;
        }
        for (uint32_t line = first; line < last; ++line) {
            uint32_t oh = line % tl.outH;
            uint32_t od = (line / tl.outH) % tl.outD;
            uint32_t n = line / (tl.outH * tl.outD);
            Accumulate(n, od, oh);
            NormaliseAndGate();
            Store(n, od, oh);
        }
    }

private:
    // returns the input index hit by tap k for output o, or -1
    __aicore__ inline int32_t SourceIndex(int32_t o, int32_t k, int32_t limit) const
    {
        int32_t t = o + (int32_t)tl.pad - k;
        if (t < 0 || (t % (int32_t)tl.stride) != 0) {
            return -1;
        }
        t /= (int32_t)tl.stride;
        return t < limit ? t : -1;
    }

    __aicore__ inline void Accumulate(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> xl = lineBuf.Get<float>();
        LocalTensor<float> gx = gatherBuf.Get<float>();
        const uint32_t ow = tl.outW;
        const uint32_t owa = tl.outWAligned;

        for (uint32_t co = 0; co < tl.cout; ++co) {
            Duplicate(acc[co * owa], bias.GetValue(co), owa);
        }

        for (uint32_t ci = 0; ci < tl.cin; ++ci) {
            // weight slab w[ci, :, :, :, :] -> UB
            PipeSync<HardEvent::S_MTE2>();
            PipeSync<HardEvent::V_MTE2>();
            DataCopyExtParams wcp{1, tl.cout * kVol * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
            DataCopyPad(wl, wGm[(uint64_t)ci * tl.cout * kVol], wcp, pd);
            PipeSync<HardEvent::MTE2_S>();

            for (uint32_t kd = 0; kd < tl.kD; ++kd) {
                int32_t id = SourceIndex((int32_t)od, (int32_t)kd, (int32_t)tl.inD);
                if (id < 0) {
                    continue;
                }
                for (uint32_t kh = 0; kh < tl.kH; ++kh) {
                    int32_t ih = SourceIndex((int32_t)oh, (int32_t)kh, (int32_t)tl.inH);
                    if (ih < 0) {
                        continue;
                    }
                    uint64_t src = (((uint64_t)n * tl.cin + ci) * tl.inD + id) * tl.inH * tl.inW +
                                   (uint64_t)ih * tl.inW;
                    PipeSync<HardEvent::S_MTE2>();
                    DataCopyExtParams xcp{1, tl.inW * (uint32_t)sizeof(float), 0, 0, 0};
                    DataCopyPad(xl, xGm[src], xcp, pd);
                    PipeSync<HardEvent::MTE2_S>();
                    PipeSync<HardEvent::V_S>();  // previous Axpy done reading gx

                    // expand the input line into one gathered vector per kw tap
                    for (uint32_t kw = 0; kw < tl.kW; ++kw) {
                        for (uint32_t o = 0; o < owa; ++o) {
                            int32_t iw = (o < ow) ? SourceIndex((int32_t)o, (int32_t)kw, (int32_t)tl.inW) : -1;
                            gx.SetValue(kw * owa + o, iw < 0 ? 0.0f : xl.GetValue(iw));
                        }
                    }
                    PipeSync<HardEvent::S_V>();

                    for (uint32_t co = 0; co < tl.cout; ++co) {
                        uint32_t wBase = co * kVol + (kd * tl.kH + kh) * tl.kW;
                        for (uint32_t kw = 0; kw < tl.kW; ++kw) {
                            Axpy(acc[co * owa], gx[kw * owa], wl.GetValue(wBase + kw), (int32_t)owa);
                        }
                    }
                }
            }
        }
    }

    __aicore__ inline void NormaliseAndGate()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> mx = tmp;
        LocalTensor<float> sum = tmp[tl.outWAligned];
        LocalTensor<float> res = outQ.AllocTensor<float>();
        const int32_t owa = (int32_t)tl.outWAligned;
        const uint32_t c = tl.cout;

        // max over channels, column-wise
        Adds(mx, acc, 0.0f, owa);
        for (uint32_t co = 1; co < c; ++co) {
            Max(mx, mx, acc[co * owa], owa);
        }
        Duplicate(sum, 0.0f, owa);
        for (uint32_t co = 0; co < c; ++co) {
            LocalTensor<float> row = acc[co * owa];
            Sub(row, row, mx, owa);
            Exp(row, row, owa);
            Add(sum, sum, row, owa);
        }
        for (uint32_t co = 0; co < c; ++co) {
            LocalTensor<float> dst = res[co * owa];
            Div(dst, acc[co * owa], sum, owa);
            // logistic gate: 1 / (1 + e^-v)
            Muls(dst, dst, -1.0f, owa);
            Exp(dst, dst, owa);
            Adds(dst, dst, 1.0f, owa);
            Reciprocal(dst, dst, owa);
        }
        outQ.EnQue(res);
    }

    __aicore__ inline void Store(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> res = outQ.DeQue<float>();
        uint64_t dst = (uint64_t)n * tl.cout * outPlane + ((uint64_t)od * tl.outH + oh) * tl.outW;
        // Cout rows of outW floats, consecutive rows are one channel plane apart in GM
        DataCopyExtParams cp{(uint16_t)tl.cout, tl.outW * (uint32_t)sizeof(float), 0,
                             (uint32_t)((outPlane - tl.outW) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], res, cp);
        outQ.FreeTensor(res);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> accBuf, tmpBuf, gatherBuf, lineBuf, wBuf, biasBuf;
    TQue<QuePosition::VECOUT, 1> outQ;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    UpconvChannelGateTiling tl;
    uint32_t kVol = 0;
    uint64_t inPlane = 0;
    uint64_t outPlane = 0;
};

extern "C" __global__ __aicore__ void upconv3d_channel_gate(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                                            GM_ADDR tiling)
{
    UpconvChannelGateTiling t;
    CopyTilingFromGm(&t, tiling);
    UpconvChannelGate op;
    op.Init(x, w, b, y, t);
    op.Process();
}
