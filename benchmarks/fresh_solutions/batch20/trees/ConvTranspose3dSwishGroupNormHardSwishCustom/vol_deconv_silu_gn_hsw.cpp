/*
 * vol_deconv_silu_gn_hsw.cpp
 *
 * Device code: 3D transposed convolution (stride s, padding p, cubic kernel K)
 * followed by SiLU (x * sigmoid(x)), GroupNorm over (C/G, D, H, W) and the
 * hard-swish activation.
 *
 * Work split: one work item = one (batch, group) pair. Each AI core takes a
 * contiguous range of items. For every item we run two passes:
 *   pass 1: build each output row (fixed channel, od, oh) in UB, apply bias
 *           and SiLU, accumulate sum / sum of squares, park the row in y.
 *   pass 2: re-read the parked rows in large chunks, normalize with the
 *           group statistics plus the per-channel affine, apply hard-swish
 *           and write the final value back in place.
 *
 * The transposed conv along W is done in "phase" form: with stride s, output
 * column ow maps to phase r = (ow + p) % s and slot q = (ow + p) / s, and tap
 * kw contributes x[q - kw / s] into phase kw % s. So every tap becomes one Axpy
 * over a shifted copy of the input row, and a final Gather interleaves the
 * phases back into natural column order.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct VolDeconvSiluGnHswTiling {
    uint32_t batch;
    uint32_t inCh;
    uint32_t outCh;
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t outD;
    uint32_t outH;
    uint32_t outW;
    uint32_t ksize;
    uint32_t stride;
    uint32_t pad;
    uint32_t groups;
    uint32_t phaseLen;    // slots per phase, multiple of 8
    uint32_t rowAlign;    // outW rounded up to 8
    uint32_t chunkLen;    // elements per chunk in pass 2
    uint32_t itemsPerCore;
    uint32_t itemsTail;   // first itemsTail cores take one extra item
    float eps;
};

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TAPS_W = 8;   // enough for K <= 8

class VolDeconvSiluGnHsw {
public:
    __aicore__ inline VolDeconvSiluGnHsw() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR y, const VolDeconvSiluGnHswTiling &t)
    {
        tl = t;
        uint32_t blk = GetBlockIdx();
        itemBegin = blk * tl.itemsPerCore + (blk < tl.itemsTail ? blk : tl.itemsTail);
        itemCount = tl.itemsPerCore + (blk < tl.itemsTail ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        gGm.SetGlobalBuffer((__gm__ float *)gamma);
        btGm.SetGlobalBuffer((__gm__ float *)beta);

        wCount = tl.inCh * tl.outCh * tl.ksize * tl.ksize * tl.ksize;
        uint32_t wAlign = (wCount + 7) / 8 * 8;
        uint32_t chAlign = (tl.outCh + 7) / 8 * 8;
        uint32_t inWAlign = (tl.inW + 7) / 8 * 8;
        uint32_t maxShift = (tl.ksize + tl.stride - 1) / tl.stride;

        pipe.InitBuffer(wBuf, wAlign * sizeof(float));
        pipe.InitBuffer(paramBuf, 3 * chAlign * sizeof(float));
        pipe.InitBuffer(xRowQ, BUFFER_NUM, inWAlign * sizeof(float));
        pipe.InitBuffer(shiftBuf, maxShift * tl.phaseLen * sizeof(float));
        pipe.InitBuffer(phaseBuf, tl.stride * tl.phaseLen * sizeof(float));
        pipe.InitBuffer(offsetBuf, tl.rowAlign * sizeof(uint32_t));
        pipe.InitBuffer(rowQ, BUFFER_NUM, tl.rowAlign * sizeof(float));
        pipe.InitBuffer(tmpBuf, tl.chunkLen * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(inQ, BUFFER_NUM, tl.chunkLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tl.chunkLen * sizeof(float));

        // small parameters stay resident in UB for the whole kernel
        wLocal = wBuf.Get<float>();
        DataCopyPad(wLocal, wGm, DataCopyExtParams{1, wCount * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        paramLocal = paramBuf.Get<float>();
        DataCopyExtParams pc{1, tl.outCh * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(paramLocal, bGm, pc, np);
        DataCopyPad(paramLocal[chAlign], gGm, pc, np);
        DataCopyPad(paramLocal[2 * chAlign], btGm, pc, np);
        chStride = chAlign;

        // byte offsets used by Gather to interleave the phases into a row
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        for (uint32_t ow = 0; ow < tl.outW; ++ow) {
            uint32_t r = (ow + tl.pad) % tl.stride;
            uint32_t q = (ow + tl.pad) / tl.stride;
            offs.SetValue(ow, (r * tl.phaseLen + q) * (uint32_t)sizeof(float));
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < itemCount; ++i) {
            uint32_t item = itemBegin + i;
            uint32_t n = item / tl.groups;
            uint32_t g = item % tl.groups;
            float sum = 0.0f;
            float sq = 0.0f;
            DeconvSiluPass(n, g, sum, sq);
            // the rows written by MTE3 must land before pass 2 reads them back
            PipeBarrier<PIPE_ALL>();
            NormHswPass(n, g, sum, sq);
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    __aicore__ inline void DeconvSiluPass(uint32_t n, uint32_t g, float &sum, float &sq)
    {
        uint32_t cpg = tl.outCh / tl.groups;
        uint32_t K = tl.ksize;
        uint32_t maxShift = (K + tl.stride - 1) / tl.stride;
        uint64_t planeIn = (uint64_t)tl.inH * tl.inW;
        uint64_t volIn = planeIn * tl.inD;
        uint64_t volOut = (uint64_t)tl.outD * tl.outH * tl.outW;

        LocalTensor<float> phase = phaseBuf.Get<float>();
        LocalTensor<float> shifted = shiftBuf.Get<float>();
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();

        for (uint32_t cl = 0; cl < cpg; ++cl) {
            uint32_t co = g * cpg + cl;
            float bias = paramLocal.GetValue(co);
            for (uint32_t od = 0; od < tl.outD; ++od) {
                for (uint32_t oh = 0; oh < tl.outH; ++oh) {
                    Duplicate(phase, 0.0f, tl.stride * tl.phaseLen);
                    for (uint32_t kd = 0; kd < K; ++kd) {
                        int32_t td = (int32_t)od + (int32_t)tl.pad - (int32_t)kd;
                        if (td < 0 || td % (int32_t)tl.stride != 0) continue;
                        uint32_t id = td / tl.stride;
                        if (id >= tl.inD) continue;
                        for (uint32_t kh = 0; kh < K; ++kh) {
                            int32_t th = (int32_t)oh + (int32_t)tl.pad - (int32_t)kh;
                            if (th < 0 || th % (int32_t)tl.stride != 0) continue;
                            uint32_t ih = th / tl.stride;
                            if (ih >= tl.inH) continue;
                            for (uint32_t ci = 0; ci < tl.inCh; ++ci) {
                                uint64_t src = ((uint64_t)n * tl.inCh + ci) * volIn + id * planeIn + ih * tl.inW;
                                LoadInputRow(src);
                                LocalTensor<float> xr = xRowQ.DeQue<float>();
                                // shifted[sh][q] = x[q - sh], zero outside the row
                                for (uint32_t sh = 0; sh < maxShift; ++sh) {
                                    for (uint32_t q = 0; q < tl.phaseLen; ++q) {
                                        int32_t iw = (int32_t)q - (int32_t)sh;
                                        float v = (iw >= 0 && iw < (int32_t)tl.inW) ? xr.GetValue(iw) : 0.0f;
                                        shifted.SetValue(sh * tl.phaseLen + q, v);
                                    }
                                }
                                xRowQ.FreeTensor(xr);
                                uint32_t wBase = (((ci * tl.outCh + co) * K + kd) * K + kh) * K;
                                for (uint32_t kw = 0; kw < K; ++kw) {
                                    float wv = wLocal.GetValue(wBase + kw);
                                    uint32_t r = kw % tl.stride;
                                    uint32_t sh = kw / tl.stride;
                                    Axpy(phase[r * tl.phaseLen], shifted[sh * tl.phaseLen], wv, tl.phaseLen);
                                }
                            }
                        }
                    }
                    // interleave phases -> natural order, then bias + SiLU
                    LocalTensor<float> row = rowQ.AllocTensor<float>();
                    Gather(row, phase, offs, (uint32_t)0, tl.outW);
                    Adds(row, row, bias, tl.outW);
                    Muls(tmp, row, -1.0f, tl.outW);
                    Exp(tmp, tmp, tl.outW);
                    Adds(tmp, tmp, 1.0f, tl.outW);
                    Div(row, row, tmp, tl.outW);
                    // running statistics for the group
                    ReduceSum(red, row, tmp, tl.outW);
                    sum += red.GetValue(0);
                    Mul(tmp, row, row, tl.outW);
                    ReduceSum(red, tmp, tmp, tl.outW);
                    sq += red.GetValue(0);
                    rowQ.EnQue(row);

                    LocalTensor<float> done = rowQ.DeQue<float>();
                    uint64_t dst = ((uint64_t)n * tl.outCh + co) * volOut +
                                   ((uint64_t)od * tl.outH + oh) * tl.outW;
                    DataCopyPad(yGm[dst], done, DataCopyExtParams{1, tl.outW * (uint32_t)sizeof(float), 0, 0, 0});
                    rowQ.FreeTensor(done);
                }
            }
        }
    }

    __aicore__ inline void LoadInputRow(uint64_t src)
    {
        LocalTensor<float> xr = xRowQ.AllocTensor<float>();
        DataCopyPad(xr, xGm[src], DataCopyExtParams{1, tl.inW * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        xRowQ.EnQue(xr);
    }

    __aicore__ inline void NormHswPass(uint32_t n, uint32_t g, float sum, float sq)
    {
        uint32_t cpg = tl.outCh / tl.groups;
        uint64_t volOut = (uint64_t)tl.outD * tl.outH * tl.outW;
        float cnt = (float)(volOut * cpg);
        float mean = sum / cnt;
        float var = sq / cnt - mean * mean;
        if (var < 0.0f) var = 0.0f;
        // rstd = 1/sqrt(var + eps) through a one-element vector op
        LocalTensor<float> red = redBuf.Get<float>();
        Duplicate(red, var + tl.eps, 8);
        Sqrt(red, red, 8);
        float rstd = 1.0f / red.GetValue(0);

        for (uint32_t cl = 0; cl < cpg; ++cl) {
            uint32_t co = g * cpg + cl;
            float scale = paramLocal.GetValue(chStride + co) * rstd;
            float shift = paramLocal.GetValue(2 * chStride + co) - mean * scale;
            uint64_t base = ((uint64_t)n * tl.outCh + co) * volOut;
            for (uint64_t off = 0; off < volOut; off += tl.chunkLen) {
                uint32_t len = (volOut - off) < tl.chunkLen ? (uint32_t)(volOut - off) : tl.chunkLen;
                LocalTensor<float> a = inQ.AllocTensor<float>();
                DataCopyPad(a, yGm[base + off], DataCopyExtParams{1, len * (uint32_t)sizeof(float), 0, 0, 0},
                            DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                inQ.EnQue(a);
                a = inQ.DeQue<float>();
                LocalTensor<float> b = outQ.AllocTensor<float>();
                LocalTensor<float> t = tmpBuf.Get<float>();
                Muls(b, a, scale, len);
                Adds(b, b, shift, len);
                // hard-swish: v * clamp(v + 3, 0, 6) / 6
                Adds(t, b, 3.0f, len);
                Maxs(t, t, 0.0f, len);
                Mins(t, t, 6.0f, len);
                Mul(b, b, t, len);
                Muls(b, b, 1.0f / 6.0f, len);
                inQ.FreeTensor(a);
                outQ.EnQue(b);
                b = outQ.DeQue<float>();
                DataCopyPad(yGm[base + off], b, DataCopyExtParams{1, len * (uint32_t)sizeof(float), 0, 0, 0});
                outQ.FreeTensor(b);
            }
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> wBuf, paramBuf, shiftBuf, phaseBuf, offsetBuf, tmpBuf, redBuf;
    TQue<QuePosition::VECIN, BUFFER_NUM> xRowQ, inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> rowQ, outQ;
    GlobalTensor<float> xGm, yGm, wGm, bGm, gGm, btGm;
    LocalTensor<float> wLocal, paramLocal;
    VolDeconvSiluGnHswTiling tl;
    uint32_t itemBegin = 0, itemCount = 0, wCount = 0, chStride = 0;
};

__aicore__ inline void CopyTiling(VolDeconvSiluGnHswTiling *t, GM_ADDR tiling)
{
    auto dst = reinterpret_cast<uint32_t *>(t);
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    for (uint32_t i = 0; i < sizeof(VolDeconvSiluGnHswTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
}

extern "C" __global__ __aicore__ void vol_deconv_silu_gn_hsw(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR gamma,
                                                             GM_ADDR beta, GM_ADDR y, GM_ADDR tiling)
{
    VolDeconvSiluGnHswTiling t;
    CopyTiling(&t, tiling);
    VolDeconvSiluGnHsw op;
    op.Init(x, w, bias, gamma, beta, y, t);
    op.Process();
}
