/*
 * TinyConvNetForward: conv(k)->relu->maxpool2 -> conv(k)->relu->maxpool2 -> flatten
 *                     -> dense->relu -> dense->relu -> dense
 *
 * Each vector core owns a contiguous range of samples.
 *  - Convolutions run per sample on whole feature planes held in UB with a row pitch
 *    of 16 floats-multiple. For every (input channel, kw) a horizontally shifted copy of
 *    the input plane is loaded, so one kernel tap becomes a single Axpy over a plane.
 *  - 2x2 max pooling: vertical pairs with Max, horizontal pairs by splitting even/odd
 *    lanes with GatherMask and taking Max again.
 *  - Pooled conv1 planes go through a small GM scratch area to build the shifted copies
 *    for conv2; the flattened conv2 features of a tile of samples are collected there too.
 *  - The dense head works on a tile of samples: weight rows are streamed in groups,
 *    multiplied with each sample's feature row and row-reduced with Sum.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
__aicore__ inline uint32_t Up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
__aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }
__aicore__ inline void FullSync() { PipeBarrier<PIPE_ALL>(); }
}

class TinyConvNet {
public:
    __aicore__ inline TinyConvNet() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR cw1, GM_ADDR cb1, GM_ADDR cw2, GM_ADDR cb2,
                                GM_ADDR fw1, GM_ADDR fb1, GM_ADDR fw2, GM_ADDR fb2, GM_ADDR fw3, GM_ADDR fb3,
                                GM_ADDR y, GM_ADDR ws, const TinyConvNetTilingData &t)
    {
        td = t;
        uint32_t core = GetBlockIdx();
        first = core * t.samplesPerCore + Min(core, t.samplesRem);
        count = t.samplesPerCore + (core < t.samplesRem ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        cw1Gm.SetGlobalBuffer((__gm__ float *)cw1);
        cb1Gm.SetGlobalBuffer((__gm__ float *)cb1);
        cw2Gm.SetGlobalBuffer((__gm__ float *)cw2);
        cb2Gm.SetGlobalBuffer((__gm__ float *)cb2);
        fw1Gm.SetGlobalBuffer((__gm__ float *)fw1);
        fb1Gm.SetGlobalBuffer((__gm__ float *)fb1);
        fw2Gm.SetGlobalBuffer((__gm__ float *)fw2);
        fb2Gm.SetGlobalBuffer((__gm__ float *)fb2);
        fw3Gm.SetGlobalBuffer((__gm__ float *)fw3);
        fb3Gm.SetGlobalBuffer((__gm__ float *)fb3);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        scratchGm.SetGlobalBuffer((__gm__ float *)ws + static_cast<uint64_t>(core) * t.scratchPerCore,
                                  t.scratchPerCore);
        pool1Off = 0;
        featOff = Up(t.c1 * t.q1h * t.q1w, 8);

        uint32_t k = t.ksize;
        uint32_t shiftLen = Up(t.inC * k * t.inH * t.pitch1, 64);
        uint32_t shift2 = Up(t.c1 * k * t.q1h * t.pitch2, 64);
        shiftLen = shiftLen > shift2 ? shiftLen : shift2;
        uint32_t accLen = Up(t.c1 * t.o1h * t.pitch1, 64);
        uint32_t acc2 = Up(t.c2 * t.o2h * t.pitch2, 64);
        accLen = accLen > acc2 ? accLen : acc2;
        vLen = Up(t.c1 * t.q1h * t.pitch1, 64);
        uint32_t v2 = Up(t.c2 * t.q2h * t.pitch2, 64);
        vLen = vLen > v2 ? vLen : v2;

        featPitch = Up(t.featLen, 8);
        h1Pitch = Up(t.hid1, 8);
        h2Pitch = Up(t.hid2, 8);
        outPitch = Up(t.classes, 8);
        uint32_t widest = featPitch > h1Pitch ? featPitch : h1Pitch;
        widest = widest > h2Pitch ? widest : h2Pitch;

        cw1Len = t.c1 * t.inC * k * k;
        cw2Len = t.c2 * t.c1 * k * k;
        paramOffB1 = Up(cw1Len, 8);
        paramOffW2 = paramOffB1 + Up(t.c1, 8);
        paramOffB2 = paramOffW2 + Up(cw2Len, 8);
        uint32_t paramLen = paramOffB2 + Up(t.c2, 8);

        pipe.InitBuffer(shiftBuf, shiftLen * sizeof(float));
        pipe.InitBuffer(accBuf, accLen * sizeof(float));
        pipe.InitBuffer(vBuf, vLen * sizeof(float));
        pipe.InitBuffer(evenBuf, (vLen / 2) * sizeof(float));
        pipe.InitBuffer(oddBuf, (vLen / 2) * sizeof(float));
        pipe.InitBuffer(paramBuf, paramLen * sizeof(float));
        pipe.InitBuffer(featBuf, t.tileSamples * featPitch * sizeof(float));
        pipe.InitBuffer(h1Buf, t.tileSamples * h1Pitch * sizeof(float));
        pipe.InitBuffer(h2Buf, t.tileSamples * h2Pitch * sizeof(float));
        pipe.InitBuffer(logitBuf, t.tileSamples * outPitch * sizeof(float));
        pipe.InitBuffer(wRowBuf, t.fcRows * widest * sizeof(float));
        pipe.InitBuffer(prodBuf, t.fcRows * widest * sizeof(float));
        pipe.InitBuffer(biasBuf, widest * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadConvParams();
        for (uint32_t done = 0; done < count; done += td.tileSamples) {
            uint32_t ns = Min(td.tileSamples, count - done);
            for (uint32_t s = 0; s < ns; ++s) {
                Features(first + done + s, s);
            }
            Head(first + done, ns);
        }
    }

private:
    __aicore__ inline void LoadConvParams()
    {
        LocalTensor<float> prm = paramBuf.Get<float>();
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(prm, cw1Gm, DataCopyExtParams{1, cw1Len * 4U, 0, 0, 0}, np);
        DataCopyPad(prm[paramOffB1], cb1Gm, DataCopyExtParams{1, td.c1 * 4U, 0, 0, 0}, np);
        DataCopyPad(prm[paramOffW2], cw2Gm, DataCopyExtParams{1, cw2Len * 4U, 0, 0, 0}, np);
        DataCopyPad(prm[paramOffB2], cb2Gm, DataCopyExtParams{1, td.c2 * 4U, 0, 0, 0}, np);
        FullSync();
    }

    // acc[co] = bias[co] + sum_{ci,kh,kw} w[co,ci,kh,kw] * shift[ci,kw][kh rows down]
    __aicore__ inline void ConvPlanes(uint32_t cin, uint32_t cout, uint32_t inRows, uint32_t outRows,
                                      uint32_t pitch, uint32_t wOff, uint32_t bOff)
    {
        LocalTensor<float> sh = shiftBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> prm = paramBuf.Get<float>();
        uint32_t k = td.ksize;
        uint32_t plane = outRows * pitch;
        for (uint32_t co = 0; co < cout; ++co) {
            LocalTensor<float> dst = acc[co * plane];
            Duplicate(dst, prm.GetValue(bOff + co), plane);
            for (uint32_t ci = 0; ci < cin; ++ci) {
                for (uint32_t kh = 0; kh < k; ++kh) {
                    for (uint32_t kw = 0; kw < k; ++kw) {
                        float wv = prm.GetValue(wOff + ((co * cin + ci) * k + kh) * k + kw);
                        uint32_t src = ((ci * k + kw) * inRows + kh) * pitch;
                        Axpy(dst, sh[src], wv, plane);
                    }
                }
            }
        }
        Relu(acc, acc, cout * plane);
    }

    // 2x2/2 max pool of (ch, rows, pitch) planes in accBuf -> evenBuf with pitch/2
    __aicore__ inline void Pool(uint32_t ch, uint32_t rows, uint32_t pooledRows, uint32_t pitch)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> v = vBuf.Get<float>();
        LocalTensor<float> ev = evenBuf.Get<float>();
        LocalTensor<float> od = oddBuf.Get<float>();
        for (uint32_t c = 0; c < ch; ++c) {
            for (uint32_t i = 0; i < pooledRows; ++i) {
                Max(v[(c * pooledRows + i) * pitch], acc[(c * rows + 2 * i) * pitch],
                    acc[(c * rows + 2 * i + 1) * pitch], pitch);
            }
        }
        uint32_t total = Up(ch * pooledRows * pitch, 64);
        uint64_t kept = 0;
        GatherMaskParams gp(1, static_cast<uint16_t>(total / 64), 8, 0);
        GatherMask(ev, v, 1, false, 0, gp, kept);   // lanes 0,2,4,...
        GatherMask(od, v, 2, false, 0, gp, kept);   // lanes 1,3,5,...
        Max(ev, ev, od, total / 2);
    }

    __aicore__ inline void Features(uint32_t sample, uint32_t slot)
    {
        LocalTensor<float> sh = shiftBuf.Get<float>();
        LocalTensor<float> ev = evenBuf.Get<float>();
        uint32_t k = td.ksize;
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};

        // ---- conv1 : shifted copies of each input plane straight from x
        FullSync();
        for (uint32_t ci = 0; ci < td.inC; ++ci) {
            uint64_t base = (static_cast<uint64_t>(sample) * td.inC + ci) * td.inH * td.inW;
            for (uint32_t kw = 0; kw < k; ++kw) {
                DataCopyExtParams cp{static_cast<uint16_t>(td.inH), td.o1w * 4U, (td.inW - td.o1w) * 4U,
                                     (td.pitch1 - Up(td.o1w, 8)) / 8, 0};
                DataCopyPad(sh[(ci * k + kw) * td.inH * td.pitch1], xGm[base + kw], cp, np);
            }
        }
        FullSync();
        ConvPlanes(td.inC, td.c1, td.inH, td.o1h, td.pitch1, 0, paramOffB1);
        Pool(td.c1, td.o1h, td.q1h, td.pitch1);
        FullSync();
        {
            DataCopyExtParams cp{static_cast<uint16_t>(td.c1 * td.q1h), td.q1w * 4U,
                                 (td.pitch1 / 2 - Up(td.q1w, 8)) / 8, 0, 0};
            DataCopyPad(scratchGm[pool1Off], ev, cp);
        }
        FullSync();

        // ---- conv2 : shifted copies of pooled planes from scratch
        for (uint32_t ci = 0; ci < td.c1; ++ci) {
            for (uint32_t kw = 0; kw < k; ++kw) {
                DataCopyExtParams cp{static_cast<uint16_t>(td.q1h), td.o2w * 4U, (td.q1w - td.o2w) * 4U,
                                     (td.pitch2 - Up(td.o2w, 8)) / 8, 0};
                DataCopyPad(sh[(ci * k + kw) * td.q1h * td.pitch2],
                            scratchGm[pool1Off + ci * td.q1h * td.q1w + kw], cp, np);
            }
        }
        FullSync();
        ConvPlanes(td.c1, td.c2, td.q1h, td.o2h, td.pitch2, paramOffW2, paramOffB2);
        Pool(td.c2, td.o2h, td.q2h, td.pitch2);
        FullSync();
        {
            // flattened (c, h, w) order, same as a row-major view of the pooled tensor
            DataCopyExtParams cp{static_cast<uint16_t>(td.c2 * td.q2h), td.q2w * 4U,
                                 (td.pitch2 / 2 - Up(td.q2w, 8)) / 8, 0, 0};
            DataCopyPad(scratchGm[featOff + slot * td.featLen], ev, cp);
        }
    }

    // out[s, j] = act(bias[j] + sum_i in[s, i] * W[j, i])
    __aicore__ inline void Dense(const LocalTensor<float> &in, uint32_t inLen, uint32_t inPitch,
                                 GlobalTensor<float> &wGm, GlobalTensor<float> &bGm, uint32_t outLen,
                                 const LocalTensor<float> &out, uint32_t outPitch, uint32_t ns, bool relu)
    {
        LocalTensor<float> wr = wRowBuf.Get<float>();
        LocalTensor<float> pr = prodBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        DataCopyPadExtParams<float> zeroPad{true, 0, static_cast<uint8_t>(inPitch - inLen), 0.0f};

        FullSync();
        Duplicate(out, 0.0f, ns * outPitch);
        DataCopyPad(bias, bGm, DataCopyExtParams{1, outLen * 4U, 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        for (uint32_t r0 = 0; r0 < outLen; r0 += td.fcRows) {
            uint32_t rows = Min(td.fcRows, outLen - r0);
            FullSync();
            DataCopyPad(wr, wGm[static_cast<uint64_t>(r0) * inLen],
                        DataCopyExtParams{static_cast<uint16_t>(rows), inLen * 4U, 0, 0, 0}, zeroPad);
            FullSync();
            for (uint32_t s = 0; s < ns; ++s) {
                for (uint32_t j = 0; j < rows; ++j) {
                    Mul(pr[j * inPitch], in[s * inPitch], wr[j * inPitch], inPitch);
                }
                SumParams sp{rows, inPitch, inLen};
                Sum(out[s * outPitch + r0], pr, sp);
            }
        }
        FullSync();
        for (uint32_t s = 0; s < ns; ++s) {
            Add(out[s * outPitch], out[s * outPitch], bias, outLen);
        }
        if (relu) {
            Relu(out, out, ns * outPitch);
        }
    }

    __aicore__ inline void Head(uint32_t sample0, uint32_t ns)
    {
        LocalTensor<float> feat = featBuf.Get<float>();
        LocalTensor<float> h1 = h1Buf.Get<float>();
        LocalTensor<float> h2 = h2Buf.Get<float>();
        LocalTensor<float> lo = logitBuf.Get<float>();

        FullSync();
        DataCopyPadExtParams<float> zeroPad{true, 0, static_cast<uint8_t>(featPitch - td.featLen), 0.0f};
        DataCopyPad(feat, scratchGm[featOff],
                    DataCopyExtParams{static_cast<uint16_t>(ns), td.featLen * 4U, 0, 0, 0}, zeroPad);
        Dense(feat, td.featLen, featPitch, fw1Gm, fb1Gm, td.hid1, h1, h1Pitch, ns, true);
        Dense(h1, td.hid1, h1Pitch, fw2Gm, fb2Gm, td.hid2, h2, h2Pitch, ns, true);
        Dense(h2, td.hid2, h2Pitch, fw3Gm, fb3Gm, td.classes, lo, outPitch, ns, false);
        FullSync();
        DataCopyExtParams cp{static_cast<uint16_t>(ns), td.classes * 4U,
                             (outPitch - Up(td.classes, 8)) / 8, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(sample0) * td.classes], lo, cp);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> shiftBuf, accBuf, vBuf, evenBuf, oddBuf, paramBuf;
    TBuf<TPosition::VECCALC> featBuf, h1Buf, h2Buf, logitBuf, wRowBuf, prodBuf, biasBuf;
    GlobalTensor<float> xGm, cw1Gm, cb1Gm, cw2Gm, cb2Gm, fw1Gm, fb1Gm, fw2Gm, fb2Gm, fw3Gm, fb3Gm, yGm, scratchGm;
    TinyConvNetTilingData td;
    uint32_t first = 0, count = 0;
    uint32_t pool1Off = 0, featOff = 0, vLen = 0;
    uint32_t featPitch = 0, h1Pitch = 0, h2Pitch = 0, outPitch = 0;
    uint32_t cw1Len = 0, cw2Len = 0, paramOffB1 = 0, paramOffW2 = 0, paramOffB2 = 0;
};

extern "C" __global__ __aicore__ void tiny_conv_net_forward(GM_ADDR x, GM_ADDR conv1W, GM_ADDR conv1B,
                                                            GM_ADDR conv2W, GM_ADDR conv2B, GM_ADDR fc1W,
                                                            GM_ADDR fc1B, GM_ADDR fc2W, GM_ADDR fc2B,
                                                            GM_ADDR fc3W, GM_ADDR fc3B, GM_ADDR logits,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    TinyConvNet net;
    net.Init(x, conv1W, conv1B, conv2W, conv2B, fc1W, fc1B, fc2W, fc2B, fc3W, fc3B, logits, userWs, td);
    net.Process();
}
