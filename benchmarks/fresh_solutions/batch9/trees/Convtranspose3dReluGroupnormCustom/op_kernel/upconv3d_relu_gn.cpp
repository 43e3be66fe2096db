/*
 * Upconv3dReluGn: unit-stride transposed 3-D convolution (no padding, no bias)
 * -> ReLU -> GroupNorm with per-channel affine.
 *
 * Work item = (sample n, group g). The core owning it:
 *   pass 1: builds every output depth-plane of the group's channels in UB,
 *           applies ReLU, accumulates sum / sum of squares and writes the plane to y;
 *   pass 2: re-reads the group's slab of y and applies (x - mean) * rstd * gamma + beta.
 *
 * A transposed conv with unit stride is a "full" correlation:
 *   y[co, od, oh, ow] = sum_{ci,kd,kh,kw} x[ci, od-kd, oh-kh, ow-kw] * w[ci, co, kd, kh, kw]
 * Planes are stored with a 32B aligned row pitch. The kw shift is realised while
 * loading (DataCopyPad left padding), the kh shift as an aligned row offset, so each
 * tap is one Axpy over a whole input plane.
 */
#include "kernel_operator.h"

using namespace AscendC;

class Upconv3dReluGnKernel {
public:
    __aicore__ inline Upconv3dReluGnKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const Upconv3dReluGnTiling &t)
    {
        tl = t;
        kk = t.k * t.k * t.k;
        inPlane = t.hIn * t.rowPitch;
        accPlane = t.hOut * t.rowPitch;
        outPlane = t.hOut * t.wOut;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm.SetGlobalBuffer((__gm__ float *)beta);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(shiftBuf, t.k * inPlane * sizeof(float));
        pipe.InitBuffer(wBuf, Pad8(t.chPerGroup * kk) * sizeof(float));
        pipe.InitBuffer(accBuf, t.chPerGroup * accPlane * sizeof(float));
        pipe.InitBuffer(statBuf, 2 * accPlane * sizeof(float));
        pipe.InitBuffer(tmpBuf, (accPlane + 64) * sizeof(float));
        pipe.InitBuffer(normIn, 2, t.normChunk * sizeof(float));
        pipe.InitBuffer(normOut, 2, t.normChunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t items = tl.n * tl.groups;
        // the gaps of the shifted planes stay zero for the whole launch
        Duplicate(shiftBuf.Get<float>(), 0.0f, tl.k * inPlane);
        for (uint32_t it = GetBlockIdx(); it < items; it += GetBlockNum()) {
            uint32_t n = it / tl.groups;
            uint32_t g = it % tl.groups;
            float mean = 0.0f;
            float rstd = 0.0f;
            ConvReluPass(n, g, mean, rstd);
            PipeBarrier<PIPE_ALL>();  // y written by MTE3 is read back by MTE2
            NormalizePass(n, g, mean, rstd);
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    __aicore__ inline uint32_t Pad8(uint32_t v) { return (v + 7) / 8 * 8; }

    template <HardEvent E>
    __aicore__ inline void Fence()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    __aicore__ inline void ConvReluPass(uint32_t n, uint32_t g, float &mean, float &rstd)
    {
        uint32_t cg = tl.chPerGroup;
        uint32_t co0 = g * cg;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> stats = statBuf.Get<float>();
        LocalTensor<float> sumV = stats;
        LocalTensor<float> sqV = stats[accPlane];
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> shifted = shiftBuf.Get<float>();
        Duplicate(stats, 0.0f, 2 * accPlane);

        for (uint32_t od = 0; od < tl.dOut; ++od) {
            Duplicate(acc, 0.0f, cg * accPlane);
            for (uint32_t ci = 0; ci < tl.cIn; ++ci) {
                // weights of this input channel for the group's output channels (contiguous)
                Fence<HardEvent::S_MTE2>();
                uint64_t wOff = (static_cast<uint64_t>(ci) * tl.cOut + co0) * kk;
                DataCopyPad(wl, wGm[wOff], {1, static_cast<uint32_t>(cg * kk * sizeof(float)), 0, 0, 0},
                            {false, 0, 0, 0.0f});
                Fence<HardEvent::MTE2_S>();

                for (uint32_t kd = 0; kd < tl.k; ++kd) {
                    if (od < kd || od - kd >= tl.dIn) {
                        continue;
                    }
                    uint32_t id = od - kd;
                    LoadShiftedPlanes(n, ci, id);
                    for (uint32_t c = 0; c < cg; ++c) {
                        for (uint32_t kh = 0; kh < tl.k; ++kh) {
                            for (uint32_t kw = 0; kw < tl.k; ++kw) {
                                float wv = wl.GetValue(c * kk + (kd * tl.k + kh) * tl.k + kw);
                                Axpy(acc[c * accPlane + kh * tl.rowPitch], shifted[kw * inPlane], wv, inPlane);
                            }
                        }
                    }
                }
            }

            // ReLU, statistics, store the plane of every channel
            for (uint32_t c = 0; c < cg; ++c) {
                LocalTensor<float> plane = acc[c * accPlane];
                Relu(plane, plane, accPlane);
                Add(sumV, sumV, plane, accPlane);
                Mul(tmp, plane, plane, accPlane);
                Add(sqV, sqV, tmp, accPlane);
            }
            Fence<HardEvent::V_MTE3>();
            for (uint32_t c = 0; c < cg; ++c) {
                uint64_t yOff = ((static_cast<uint64_t>(n) * tl.cOut + co0 + c) * tl.dOut + od) * outPlane;
                DataCopyPad(yGm[yOff], acc[c * accPlane],
                            {static_cast<uint16_t>(tl.hOut), static_cast<uint32_t>(tl.wOut * sizeof(float)),
                             static_cast<uint32_t>((tl.rowPitch - Pad8(tl.wOut)) / 8), 0, 0});
            }
            Fence<HardEvent::MTE3_V>();
        }

        // pitch gaps are exactly zero after ReLU, so a flat reduction is exact
        LocalTensor<float> work = tmp[64];
        ReduceSum<float>(tmp, sumV, work, accPlane);
        Fence<HardEvent::V_S>();
        float s = tmp.GetValue(0);
        Fence<HardEvent::S_V>();
        ReduceSum<float>(tmp, sqV, work, accPlane);
        Fence<HardEvent::V_S>();
        float sq = tmp.GetValue(0);

        float cnt = static_cast<float>(cg) * tl.dOut * outPlane;
        mean = s / cnt;
        float var = sq / cnt - mean * mean;
        var = var < 0.0f ? 0.0f : var;
        // 1/sqrt via a one-element vector op keeps the scalar unit free of libm
        tmp.SetValue(0, var + tl.eps);
        Fence<HardEvent::S_V>();
        Sqrt(tmp, tmp, 8);
        Fence<HardEvent::V_S>();
        rstd = 1.0f / tmp.GetValue(0);
    }

    // shifted[kw][ih * pitch + c] = x[n, ci, id, ih, c - kw]  (zero outside)
    __aicore__ inline void LoadShiftedPlanes(uint32_t n, uint32_t ci, uint32_t id)
    {
        LocalTensor<float> shifted = shiftBuf.Get<float>();
        uint64_t xOff = ((static_cast<uint64_t>(n) * tl.cIn + ci) * tl.dIn + id) * tl.hIn * tl.wIn;
        Fence<HardEvent::V_MTE2>();  // previous Axpys must be done with the old planes
        for (uint32_t kw = 0; kw < tl.k; ++kw) {
            uint32_t used = tl.wIn + kw;
            uint8_t rightPad = static_cast<uint8_t>(Pad8(used) - used);
            uint32_t gapBlocks = (tl.rowPitch - Pad8(used)) / 8;
            DataCopyExtParams cp{static_cast<uint16_t>(tl.hIn), static_cast<uint32_t>(tl.wIn * sizeof(float)), 0,
                                 gapBlocks, 0};
            DataCopyPadExtParams<float> pad{true, static_cast<uint8_t>(kw), rightPad, 0.0f};
            DataCopyPad(shifted[kw * inPlane], xGm[xOff], cp, pad);
        }
        Fence<HardEvent::MTE2_V>();
    }

    __aicore__ inline void NormalizePass(uint32_t n, uint32_t g, float mean, float rstd)
    {
        uint32_t cg = tl.chPerGroup;
        uint32_t chanLen = tl.dOut * outPlane;
        for (uint32_t c = 0; c < cg; ++c) {
            uint32_t co = g * cg + c;
            float scale = gammaGm.GetValue(co) * rstd;
            float shift = betaGm.GetValue(co) - mean * scale;
            uint64_t base = (static_cast<uint64_t>(n) * tl.cOut + co) * chanLen;
            for (uint32_t off = 0; off < chanLen; off += tl.normChunk) {
                uint32_t len = (chanLen - off) < tl.normChunk ? (chanLen - off) : tl.normChunk;
                LocalTensor<float> in = normIn.AllocTensor<float>();
                DataCopyPad(in, yGm[base + off], {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0},
                            {false, 0, 0, 0.0f});
                normIn.EnQue(in);
                in = normIn.DeQue<float>();
                LocalTensor<float> out = normOut.AllocTensor<float>();
                Muls(out, in, scale, len);
                Adds(out, out, shift, len);
                normIn.FreeTensor(in);
                normOut.EnQue(out);
                out = normOut.DeQue<float>();
                DataCopyPad(yGm[base + off], out, {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0});
                normOut.FreeTensor(out);
            }
        }
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> shiftBuf, wBuf, accBuf, statBuf, tmpBuf;
    TQue<QuePosition::VECIN, 2> normIn;
    TQue<QuePosition::VECOUT, 2> normOut;
    GlobalTensor<float> xGm, wGm, gammaGm, betaGm, yGm;
    Upconv3dReluGnTiling tl;
    uint32_t kk, inPlane, accPlane, outPlane;
};

extern "C" __global__ __aicore__ void upconv3d_relu_gn(GM_ADDR x, GM_ADDR weight, GM_ADDR gamma, GM_ADDR beta,
                                                       GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Upconv3dReluGnKernel op;
    op.Init(x, weight, gamma, beta, y, tilingData);
    op.Process();
}
