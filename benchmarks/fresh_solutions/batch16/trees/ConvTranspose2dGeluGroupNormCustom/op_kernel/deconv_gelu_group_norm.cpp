/**
 * DeconvGeluGroupNorm kernel (float32, NCHW).
 *
 *   t[n, co, oh, ow] = bias[co] + sum_{ci, kh, kw} x[n, ci, ih, iw] * w[ci, co, kh, kw]
 *                      with oh = ih*s - p + kh, ow = iw*s - p + kw
 *   g = gelu(t) = 0.5 * t * (1 + erf(t / sqrt(2)))
 *   y = (g - mean_{n,grp}) * rsqrt(var_{n,grp} + eps) * gamma[co] + beta[co]
 *
 * Transposed convolution in "gather" form: for an output row oh the contributing input rows
 * are ih = (oh + p - kh) / s when divisible. For each horizontal tap kw a byte offset table
 * maps ow -> lead + (ow + p - kw) / s, or to a zero slot when that position does not exist;
 * Gather + Axpy then accumulates a full output row per (ci, kh, kw).
 *
 * Pass 1 writes gelu(t) to y while accumulating the group sum / sum of squares;
 * pass 2 re-reads the group and applies the per-channel affine normalisation in place.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr float INV_SQRT2 = 0.70710678118654752f;
constexpr int32_t DB = 2;
}

class DeconvGeluGroupNormKernel {
public:
    __aicore__ inline DeconvGeluGroupNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const DeconvGeluGroupNormTilingData &tiling)
    {
        tl = tiling;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        biasGm.SetGlobalBuffer((__gm__ float *)bias);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm.SetGlobalBuffer((__gm__ float *)beta);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(rowQ, DB, tl.rowLen * sizeof(float));
        pipe.InitBuffer(outQ, DB, tl.woutAlign * sizeof(float));
        pipe.InitBuffer(accBuf, tl.woutAlign * sizeof(float));
        pipe.InitBuffer(gatBuf, tl.woutAlign * sizeof(float));
        pipe.InitBuffer(tmpBuf, tl.woutAlign * sizeof(float));
        pipe.InitBuffer(redBuf, tl.woutAlign * sizeof(float));
        pipe.InitBuffer(statBuf, 64);
        pipe.InitBuffer(erfTmp, tl.erfTmpBytes);
        pipe.InitBuffer(offBuf, tl.kernel * tl.woutAlign * sizeof(uint32_t));
        pipe.InitBuffer(wBuf, tl.cin * tl.tapStride * sizeof(float));
        pipe.InitBuffer(nInQ, DB, tl.normChunk * sizeof(float));
        pipe.InitBuffer(nOutQ, DB, tl.normChunk * sizeof(float));
        BuildTapOffsets();
    }

    __aicore__ inline void Process()
    {
        uint32_t units = tl.batch * tl.groups;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t n = u / tl.groups;
            uint32_t g = u % tl.groups;
            float sum = 0.0f;
            float sumSq = 0.0f;
            for (uint32_t c = 0; c < tl.chPerGroup; ++c) {
                ChannelForward(n, g * tl.chPerGroup + c, sum, sumSq);
            }
            // the normalisation pass re-reads what pass 1 just stored
            PipeBarrier<PIPE_ALL>();
            float cnt = static_cast<float>(tl.chPerGroup) * static_cast<float>(tl.hout * tl.wout);
            float mean = sum / cnt;
            float var = sumSq / cnt - mean * mean;
            var = var > 0.0f ? var : 0.0f;
            float rstd = InvSqrt(var + tl.eps);
            for (uint32_t c = 0; c < tl.chPerGroup; ++c) {
                NormalizeChannel(n, g * tl.chPerGroup + c, mean, rstd);
            }
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    __aicore__ inline void BuildTapOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < tl.kernel; ++kw) {
            for (uint32_t ow = 0; ow < tl.woutAlign; ++ow) {
                uint32_t slot = 0;   // index 0 lies in the zero margin
                int32_t t = static_cast<int32_t>(ow + tl.pad) - static_cast<int32_t>(kw);
                if (ow < tl.wout && t >= 0 && (t % static_cast<int32_t>(tl.stride)) == 0) {
                    uint32_t iw = static_cast<uint32_t>(t) / tl.stride;
                    if (iw < tl.win) {
                        slot = tl.lead + iw;
                    }
                }
                off.SetValue(kw * tl.woutAlign + ow, slot * static_cast<uint32_t>(sizeof(float)));
            }
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    // weights w[:, co, :, :] -> UB laid out [cin][tapStride]
    __aicore__ inline void LoadChannelWeights(uint32_t co)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        uint32_t taps = tl.kernel * tl.kernel;
        DataCopyExtParams cp{static_cast<uint16_t>(tl.cin), static_cast<uint32_t>(taps * sizeof(float)),
                             static_cast<uint32_t>((tl.cout - 1) * taps * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pp{true, 0, static_cast<uint8_t>(tl.tapStride - taps), 0.0f};
        DataCopyPad(wl, wGm[static_cast<uint64_t>(co) * taps], cp, pp);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void ChannelForward(uint32_t n, uint32_t co, float &sum, float &sumSq)
    {
        LoadChannelWeights(co);
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> gat = gatBuf.Get<float>();
        float b = biasGm.GetValue(co);
        uint64_t yPlane = (static_cast<uint64_t>(n) * tl.cout + co) * tl.hout * tl.wout;
        uint64_t xImg = static_cast<uint64_t>(n) * tl.cin * tl.hin * tl.win;

        for (uint32_t oh = 0; oh < tl.hout; ++oh) {
            Duplicate(acc, b, tl.woutAlign);
            for (uint32_t kh = 0; kh < tl.kernel; ++kh) {
                int32_t t = static_cast<int32_t>(oh + tl.pad) - static_cast<int32_t>(kh);
                if (t < 0 || (t % static_cast<int32_t>(tl.stride)) != 0) {
                    continue;
                }
                uint32_t ih = static_cast<uint32_t>(t) / tl.stride;
                if (ih >= tl.hin) {
                    continue;
                }
                for (uint32_t ci = 0; ci < tl.cin; ++ci) {
                    LocalTensor<float> row = rowQ.AllocTensor<float>();
                    Duplicate(row, 0.0f, tl.rowLen);
                    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
                    SetFlag<HardEvent::V_MTE2>(e);
                    WaitFlag<HardEvent::V_MTE2>(e);
                    DataCopyExtParams cp{1, static_cast<uint32_t>(tl.win * sizeof(float)), 0, 0, 0};
                    DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
                    DataCopyPad(row[tl.lead], xGm[xImg + (static_cast<uint64_t>(ci) * tl.hin + ih) * tl.win], cp, pp);
                    rowQ.EnQue(row);
                    LocalTensor<float> r = rowQ.DeQue<float>();
                    for (uint32_t kw = 0; kw < tl.kernel; ++kw) {
                        float wv = wl.GetValue(ci * tl.tapStride + kh * tl.kernel + kw);
                        Gather(gat, r, off[kw * tl.woutAlign], 0, tl.woutAlign);
                        PipeBarrier<PIPE_V>();
                        Axpy(acc, gat, wv, tl.woutAlign);
                        PipeBarrier<PIPE_V>();
                    }
                    rowQ.FreeTensor(r);
                }
            }
            GeluRowAndStore(yPlane + static_cast<uint64_t>(oh) * tl.wout, sum, sumSq);
        }
    }

    __aicore__ inline void GeluRowAndStore(uint64_t dst, float &sum, float &sumSq)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<uint8_t> etmp = erfTmp.Get<uint8_t>();
        LocalTensor<float> out = outQ.AllocTensor<float>();

        Muls(tmp, acc, INV_SQRT2, tl.woutAlign);
        Erf(tmp, tmp, etmp, tl.woutAlign);
        Adds(tmp, tmp, 1.0f, tl.woutAlign);
        Mul(out, acc, tmp, tl.woutAlign);
        Muls(out, out, 0.5f, tl.woutAlign);

        // row statistics over the valid wout lanes only
        ReduceSum(st, out, red, tl.wout);
        Mul(tmp, out, out, tl.woutAlign);
        ReduceSum(st[8], tmp, red, tl.wout);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        sum += st.GetValue(0);
        sumSq += st.GetValue(8);

        outQ.EnQue(out);
        LocalTensor<float> o = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(tl.wout * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[dst], o, cp);
        outQ.FreeTensor(o);
    }

    __aicore__ inline float InvSqrt(float v)
    {
        LocalTensor<float> st = statBuf.Get<float>();
        Duplicate(st, v, 8);
        Sqrt(st, st, 8);
        Duplicate(st[8], 1.0f, 8);
        Div(st, st[8], st, 8);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return st.GetValue(0);
    }

    __aicore__ inline void NormalizeChannel(uint32_t n, uint32_t co, float mean, float rstd)
    {
        float scale = gammaGm.GetValue(co) * rstd;
        float shift = betaGm.GetValue(co) - mean * scale;
        uint32_t plane = tl.hout * tl.wout;
        uint64_t base = (static_cast<uint64_t>(n) * tl.cout + co) * plane;
        for (uint32_t pos = 0; pos < plane; pos += tl.normChunk) {
            uint32_t len = (plane - pos) < tl.normChunk ? (plane - pos) : tl.normChunk;
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            LocalTensor<float> in = nInQ.AllocTensor<float>();
            DataCopyPad(in, yGm[base + pos], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            nInQ.EnQue(in);
            LocalTensor<float> v = nInQ.DeQue<float>();
            LocalTensor<float> o = nOutQ.AllocTensor<float>();
            Muls(o, v, scale, len);
            Adds(o, o, shift, len);
            nInQ.FreeTensor(v);
            nOutQ.EnQue(o);
            LocalTensor<float> r = nOutQ.DeQue<float>();
            DataCopyPad(yGm[base + pos], r, cp);
            nOutQ.FreeTensor(r);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DB> rowQ, nInQ;
    TQue<QuePosition::VECOUT, DB> outQ, nOutQ;
    TBuf<TPosition::VECCALC> accBuf, gatBuf, tmpBuf, redBuf, statBuf, erfTmp, offBuf, wBuf;
    GlobalTensor<float> xGm, wGm, biasGm, gammaGm, betaGm, yGm;
    DeconvGeluGroupNormTilingData tl;
};

extern "C" __global__ __aicore__ void deconv_gelu_group_norm(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma,
                                                             GM_ADDR beta, GM_ADDR y, GM_ADDR workspace,
                                                             GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    DeconvGeluGroupNormKernel op;
    op.Init(x, weight, bias, gamma, beta, y, tilingData);
    op.Process();
}
