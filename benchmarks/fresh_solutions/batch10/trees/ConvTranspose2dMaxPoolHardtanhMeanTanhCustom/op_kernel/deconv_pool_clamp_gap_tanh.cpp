/**
 * DeconvPoolClampGapTanh kernel.
 *
 *   y[n, co] = tanh( mean_{ph, pw} clamp( maxpool( deconv(x)[n, co] ), lo, hi ) )
 *
 * Stride-1 transposed convolution is evaluated as a correlation with the
 * kernel read flipped: output row oh gathers input row ih = oh + pad - kh and
 * input column iw = ow + pad - kw.  Each (ci, kh, kw) tap is DMA'd as one
 * shifted row of outW elements (left/right zero fill handled by DataCopyPad
 * padding and a Duplicate on the aligned tail) and broadcast-accumulated into
 * the coBlock output rows with Axpy.  Only poolK conv rows live in UB at a
 * time; the pooled/clamped values are reduced straight into per-channel sums,
 * so the full deconv output never touches global memory.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t TAP_BUFS = 2;
constexpr uint32_t ELEMS_PER_BLOCK = 8;
}

class DeconvPoolClampGapTanhKernel {
public:
    __aicore__ inline DeconvPoolClampGapTanhKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                const DeconvPoolClampGapTanhTilingData& t)
    {
        cin = t.cin; cout = t.cout; inH = t.inH; inW = t.inW;
        k = t.kSize; stride = t.stride; pad = t.pad;
        outH = t.outH; outW = t.outW; rowAlign = t.rowAlign;
        poolK = t.poolK; poolS = t.poolS; poolH = t.poolH; poolW = t.poolW;
        coBlock = t.coBlock; lo = t.clampLo; hi = t.clampHi;

        // balanced batch split: the first samplesTail cores get one extra sample
        uint32_t idx = GetBlockIdx();
        sampleCnt = t.samplesPerCore + (idx < t.samplesTail ? 1 : 0);
        sampleBeg = idx * t.samplesPerCore + (idx < t.samplesTail ? idx : t.samplesTail);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)weight);
        bGm.SetGlobalBuffer((__gm__ float*)bias);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(tapQue, TAP_BUFS, rowAlign * sizeof(float));
        pipe.InitBuffer(accBuf, poolK * coBlock * rowAlign * sizeof(float));
        uint32_t resLen = (cout + ELEMS_PER_BLOCK - 1) / ELEMS_PER_BLOCK * ELEMS_PER_BLOCK;
        pipe.InitBuffer(resBuf, resLen * sizeof(float));
    }

    __aicore__ inline void ProcessVector()
    {
        for (uint32_t s = 0; s < sampleCnt; ++s) {
            uint32_t n = sampleBeg + s;
            LocalTensor<float> res = resBuf.Get<float>();
            for (uint32_t cb = 0; cb < cout; cb += coBlock) {
                uint32_t nb = (cout - cb) < coBlock ? (cout - cb) : coBlock;
                ReduceBlock(n, cb, nb, res);
            }
            Finish(n, res);
        }
    }

    __aicore__ inline void ProcessScalar()
    {
        for (uint32_t s = 0; s < sampleCnt; ++s) {
            uint32_t n = sampleBeg + s;
            LocalTensor<float> res = resBuf.Get<float>();
            for (uint32_t co = 0; co < cout; ++co) {
                float acc = 0.0f;
                for (uint32_t ph = 0; ph < poolH; ++ph) {
                    for (uint32_t pw = 0; pw < poolW; ++pw) {
                        float m = -3.4e38f;
                        for (uint32_t i = 0; i < poolK; ++i) {
                            for (uint32_t j = 0; j < poolK; ++j) {
                                float v = DeconvAt(n, co, ph * poolS + i, pw * poolS + j);
                                m = v > m ? v : m;
                            }
                        }
                        acc += Clamp(m);
                    }
                }
                res.SetValue(co, acc);
            }
            Finish(n, res);
        }
    }

private:
    __aicore__ inline float Clamp(float v) const
    {
        return v < lo ? lo : (v > hi ? hi : v);
    }

    // Direct (scatter-inverted) definition of the transposed convolution, any stride.
    __aicore__ inline float DeconvAt(uint32_t n, uint32_t co, uint32_t oh, uint32_t ow)
    {
        float v = bGm.GetValue(co);
        for (uint32_t kh = 0; kh < k; ++kh) {
            int32_t th = static_cast<int32_t>(oh) + static_cast<int32_t>(pad) - static_cast<int32_t>(kh);
            if (th < 0 || th % static_cast<int32_t>(stride) != 0) continue;
            int32_t ih = th / static_cast<int32_t>(stride);
            if (ih >= static_cast<int32_t>(inH)) continue;
            for (uint32_t kw = 0; kw < k; ++kw) {
                int32_t tw = static_cast<int32_t>(ow) + static_cast<int32_t>(pad) - static_cast<int32_t>(kw);
                if (tw < 0 || tw % static_cast<int32_t>(stride) != 0) continue;
                int32_t iw = tw / static_cast<int32_t>(stride);
                if (iw >= static_cast<int32_t>(inW)) continue;
                for (uint32_t ci = 0; ci < cin; ++ci) {
                    uint64_t xo = ((static_cast<uint64_t>(n) * cin + ci) * inH + ih) * inW + iw;
                    uint64_t wo = ((static_cast<uint64_t>(ci) * cout + co) * k + kh) * k + kw;
                    v += xGm.GetValue(xo) * wGm.GetValue(wo);
                }
            }
        }
        return v;
    }

    // Sum of clamp(maxpool(.)) over the pooled map for channels [cb, cb + nb).
    __aicore__ inline void ReduceBlock(uint32_t n, uint32_t cb, uint32_t nb, LocalTensor<float>& res)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        const uint32_t planeStride = coBlock * rowAlign;   // distance between pooled-window rows
        for (uint32_t c = 0; c < nb; ++c) {
            res.SetValue(cb + c, 0.0f);
        }
        for (uint32_t ph = 0; ph < poolH; ++ph) {
            for (uint32_t i = 0; i < poolK; ++i) {
                ConvRow(n, cb, nb, ph * poolS + i, acc[i * planeStride]);
            }
            // vertical max over the poolK rows of the window
            for (uint32_t i = 1; i < poolK; ++i) {
                for (uint32_t c = 0; c < nb; ++c) {
                    Max(acc[c * rowAlign], acc[c * rowAlign], acc[i * planeStride + c * rowAlign], outW);
                }
            }
            event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            // horizontal max + clamp + running sum on the scalar unit (poolW * poolK per channel)
            for (uint32_t c = 0; c < nb; ++c) {
                float sum = res.GetValue(cb + c);
                uint32_t base = c * rowAlign;
                for (uint32_t pw = 0; pw < poolW; ++pw) {
                    uint32_t col = pw * poolS;
                    float m = acc.GetValue(base + col);
                    for (uint32_t j = 1; j < poolK; ++j) {
                        float v = acc.GetValue(base + col + j);
                        m = v > m ? v : m;
                    }
                    sum += Clamp(m);
                }
                res.SetValue(cb + c, sum);
            }
            event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(sv);
            WaitFlag<HardEvent::S_V>(sv);
        }
    }

    // One deconv output row (stride 1) for nb channels into dst[c * rowAlign].
    __aicore__ inline void ConvRow(uint32_t n, uint32_t cb, uint32_t nb, uint32_t oh, LocalTensor<float> dst)
    {
        for (uint32_t c = 0; c < nb; ++c) {
            Duplicate(dst[c * rowAlign], bGm.GetValue(cb + c), outW);
        }
        for (uint32_t kh = 0; kh < k; ++kh) {
            int32_t ih = static_cast<int32_t>(oh) + static_cast<int32_t>(pad) - static_cast<int32_t>(kh);
            if (ih < 0 || ih >= static_cast<int32_t>(inH)) {
                continue;
            }
            for (uint32_t ci = 0; ci < cin; ++ci) {
                uint64_t rowOff = ((static_cast<uint64_t>(n) * cin + ci) * inH + ih) * inW;
                for (uint32_t kw = 0; kw < k; ++kw) {
                    int32_t c0 = static_cast<int32_t>(pad) - static_cast<int32_t>(kw);
                    if (!LoadTap(rowOff, c0)) {
                        continue;
                    }
                    LocalTensor<float> tap = tapQue.DeQue<float>();
                    FillTail(tap);
                    uint64_t wBase = ((static_cast<uint64_t>(ci) * cout + cb) * k + kh) * k + kw;
                    for (uint32_t c = 0; c < nb; ++c) {
                        float wv = wGm.GetValue(wBase + static_cast<uint64_t>(c) * k * k);
                        Axpy(dst[c * rowAlign], tap, wv, outW);
                    }
                    tapQue.FreeTensor(tap);
                }
            }
        }
    }

    // Row segment x[rowOff + c0 .. c0 + outW) with zeros outside [0, inW).
    __aicore__ inline bool LoadTap(uint64_t rowOff, int32_t c0)
    {
        int32_t first = c0 < 0 ? 0 : c0;
        int32_t last = c0 + static_cast<int32_t>(outW);
        last = last > static_cast<int32_t>(inW) ? static_cast<int32_t>(inW) : last;
        if (last <= first) {
            return false;   // the whole tap reads padding
        }
        lead = static_cast<uint32_t>(first - c0);
        valid = static_cast<uint32_t>(last - first);
        uint32_t filled = lead + valid;
        uint32_t blockEnd = (filled + ELEMS_PER_BLOCK - 1) / ELEMS_PER_BLOCK * ELEMS_PER_BLOCK;

        LocalTensor<float> tap = tapQue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(valid * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pp{true, static_cast<uint8_t>(lead),
                                       static_cast<uint8_t>(blockEnd - filled), 0.0f};
        DataCopyPad(tap, xGm[rowOff + first], cp, pp);
        tapQue.EnQue(tap);
        tailStart = blockEnd;
        return true;
    }

    __aicore__ inline void FillTail(LocalTensor<float>& tap)
    {
        if (tailStart < outW) {
            Duplicate(tap[tailStart], 0.0f, outW - tailStart);
        }
    }

    // mean -> tanh -> store one sample's Cout values
    __aicore__ inline void Finish(uint32_t n, LocalTensor<float>& res)
    {
        float inv = 1.0f / static_cast<float>(poolH * poolW);
        for (uint32_t c = 0; c < cout; ++c) {
            res.SetValue(c, res.GetValue(c) * inv);
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Tanh(res, res, cout);
        event_t vm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vm);
        WaitFlag<HardEvent::V_MTE3>(vm);
        DataCopyExtParams cp{1, static_cast<uint32_t>(cout * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(n) * cout], res, cp);
        event_t ms = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(ms);
        WaitFlag<HardEvent::MTE3_S>(ms);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, TAP_BUFS> tapQue;
    TBuf<TPosition::VECCALC> accBuf;
    TBuf<TPosition::VECCALC> resBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;

    uint32_t cin, cout, inH, inW, k, stride, pad;
    uint32_t outH, outW, rowAlign;
    uint32_t poolK, poolS, poolH, poolW, coBlock;
    uint32_t sampleBeg, sampleCnt;
    uint32_t lead = 0, valid = 0, tailStart = 0;
    float lo, hi;
};

extern "C" __global__ __aicore__ void deconv_pool_clamp_gap_tanh(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                  GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    DeconvPoolClampGapTanhKernel op;
    op.Init(x, weight, bias, y, t);
    if (TILING_KEY_IS(1)) {
        op.ProcessVector();
    } else if (TILING_KEY_IS(2)) {
        op.ProcessScalar();
    }
}
