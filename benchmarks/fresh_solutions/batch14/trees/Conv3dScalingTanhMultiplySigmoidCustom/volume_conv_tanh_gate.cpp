/**
 * volume_conv_tanh_gate.cpp
 *
 * Device code: valid (no padding, stride 1) 3-D convolution followed by a
 * per-channel gated squash:
 *     y = sigmoid( tanh( conv(x)[oc] * alpha[oc] ) * beta[oc] )
 *
 * Work split: one "plane" = one (n, oc, od) output slice of OH x OW values.
 * Planes are dealt out to AI cores round-robin. Inside a plane the
 * convolution is done as a sum of shifted input windows: for every
 * (ic, kd, kh, kw) tap we pull OH rows of the input (row pitch = W) starting
 * at (kh, kw) and Axpy them into an accumulator that also uses pitch W.
 * Columns ow >= OW of the accumulator are junk and are never stored.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct VolumeConvTanhGateTiling {
    uint32_t batch;
    uint32_t inChannels;
    uint32_t outChannels;
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t ksize;
    uint32_t outD;
    uint32_t outH;
    uint32_t outW;
    uint32_t planeElems;   // outH * inW, accumulator length (pitch inW)
    uint32_t windowElems;  // (outH - 1) * inW + outW, elements fetched per tap
    uint32_t totalPlanes;  // batch * outChannels * outD
};

__aicore__ inline void LoadTiling(VolumeConvTanhGateTiling *dst, GM_ADDR src)
{
    auto words = reinterpret_cast<__gm__ uint32_t *>(src);
    auto out = reinterpret_cast<uint32_t *>(dst);
    for (uint32_t i = 0; i < sizeof(VolumeConvTanhGateTiling) / sizeof(uint32_t); ++i) {
        out[i] = words[i];
    }
}

class VolumeConvTanhGate {
public:
    __aicore__ inline VolumeConvTanhGate() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR convBias, GM_ADDR alpha, GM_ADDR beta,
                                GM_ADDR y, const VolumeConvTanhGateTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)weight);
        cbGm.SetGlobalBuffer((__gm__ float *)convBias);
        alphaGm.SetGlobalBuffer((__gm__ float *)alpha);
        betaGm.SetGlobalBuffer((__gm__ float *)beta);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        // accumulator / window buffers are rounded up to a full 32B block
        uint32_t accBytes = AlignUp(tl.planeElems * sizeof(float), 32);
        pipe.InitBuffer(winQue, 2, accBytes);
        pipe.InitBuffer(outQue, 1, accBytes);
        pipe.InitBuffer(accBuf, accBytes);
    }

    __aicore__ inline void Process()
    {
        uint32_t core = GetBlockIdx();
        uint32_t cores = GetBlockNum();
        for (uint32_t p = core; p < tl.totalPlanes; p += cores) {
            ComputePlane(p);
        }
    }

private:
    __aicore__ inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

    __aicore__ inline void ComputePlane(uint32_t plane)
    {
        uint32_t od = plane % tl.outD;
        uint32_t oc = (plane / tl.outD) % tl.outChannels;
        uint32_t n = plane / (tl.outD * tl.outChannels);

        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, cbGm.GetValue(oc), tl.planeElems);

        const uint32_t k = tl.ksize;
        const uint32_t hw = tl.inH * tl.inW;
        const uint32_t taps = k * k * k;
        for (uint32_t ic = 0; ic < tl.inChannels; ++ic) {
            uint64_t chanBase = (static_cast<uint64_t>(n) * tl.inChannels + ic) * tl.inD * hw;
            uint64_t wBase = (static_cast<uint64_t>(oc) * tl.inChannels + ic) * taps;
            for (uint32_t kd = 0; kd < k; ++kd) {
                for (uint32_t kh = 0; kh < k; ++kh) {
                    for (uint32_t kw = 0; kw < k; ++kw) {
                        uint64_t src = chanBase + static_cast<uint64_t>(od + kd) * hw + kh * tl.inW + kw;
                        float wv = wGm.GetValue(wBase + (kd * k + kh) * k + kw);
                        FetchWindow(src);
                        LocalTensor<float> win = winQue.DeQue<float>();
                        Axpy(acc, win, wv, tl.planeElems);
                        winQue.FreeTensor(win);
                    }
                }
            }
        }

        // epilogue: alpha scale -> tanh -> beta scale -> sigmoid
        LocalTensor<float> res = outQue.AllocTensor<float>();
        Muls(acc, acc, alphaGm.GetValue(oc), tl.planeElems);
        Tanh(res, acc, tl.planeElems);
        Muls(res, res, betaGm.GetValue(oc), tl.planeElems);
        Sigmoid(acc, res, tl.planeElems);
        DataCopy(res, acc, tl.planeElems);
        outQue.EnQue(res);
        StorePlane(plane);
    }

    __aicore__ inline void FetchWindow(uint64_t src)
    {
        LocalTensor<float> win = winQue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(tl.windowElems * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(win, xGm[src], cp, pad);
        winQue.EnQue(win);
    }

    __aicore__ inline void StorePlane(uint32_t plane)
    {
        LocalTensor<float> res = outQue.DeQue<float>();
        // rows of OW valid values, UB pitch inW (multiple of 8 floats -> no gap between 32B blocks)
        uint32_t ubGapBlocks = (tl.inW * sizeof(float) - AlignUp(tl.outW * sizeof(float), 32)) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(tl.outH), static_cast<uint32_t>(tl.outW * sizeof(float)),
                             ubGapBlocks, 0, 0};
        uint64_t dst = static_cast<uint64_t>(plane) * tl.outH * tl.outW;
        DataCopyPad(yGm[dst], res, cp);
        outQue.FreeTensor(res);
    }

    VolumeConvTanhGateTiling tl;
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> winQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<TPosition::VECCALC> accBuf;
    GlobalTensor<float> xGm, wGm, cbGm, alphaGm, betaGm, yGm;
};

extern "C" __global__ __aicore__ void volume_conv_tanh_gate(GM_ADDR x, GM_ADDR weight, GM_ADDR convBias,
                                                            GM_ADDR alpha, GM_ADDR beta, GM_ADDR y,
                                                            GM_ADDR tiling)
{
    VolumeConvTanhGateTiling t;
    LoadTiling(&t, tiling);
    VolumeConvTanhGate op;
    op.Init(x, weight, convBias, alpha, beta, y, t);
    op.Process();
}
