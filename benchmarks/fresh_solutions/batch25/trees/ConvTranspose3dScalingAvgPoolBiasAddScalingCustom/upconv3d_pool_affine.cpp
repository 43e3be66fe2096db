/*
 * upconv3d_pool_affine
 *
 *   t   = transposed 3-D convolution of x (kernel 3, stride 2, padding 1) + convBias
 *   t   = t * scale1
 *   p   = 2x2x2 mean pooling of t
 *   out = (p + bias[c]) * scale2
 *
 * The full-resolution upsampled volume is never materialised. One work unit is
 * (n, pd, ph): the pooled output row out[n, :, pd, ph, :]. Such a row only
 * depends on the two transposed-conv depth slices od = 2pd, 2pd+1 and the two
 * rows oh = 2ph, 2ph+1. Along W the stride-2 scatter is split into phases so
 * that every vector op works on aligned, unit-stride data:
 *
 *     ow = 2*iw - 1 + kw      kw = 0 -> odd  ow = 2iw-1   -> accumulator A[iw]
 *                             kw = 1 -> even ow = 2iw     -> accumulator E[iw]
 *                             kw = 2 -> odd  ow = 2iw+1   -> accumulator B[iw]
 *
 * and the pooled column pw sums ow = 2pw (E[pw]) and ow = 2pw+1 (A[pw+1] + B[pw]).
 */
#include "kernel_operator.h"

using namespace AscendC;

struct UpConv3dPoolAffineTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t wAlign;      // inW rounded to 8 floats
    uint32_t poolD;       // pooled output extents
    uint32_t poolH;
    uint32_t poolW;
    uint32_t pwAlign;     // poolW rounded to 8 floats
    uint32_t convStride;  // 2
    uint32_t convPad;     // 1
    uint32_t ksize;       // 3
    uint32_t unitsPerCore;
    uint32_t totalUnits;  // batch * poolD * poolH
    float scale1;
    float scale2;
};

class UpConv3dPoolAffine {
public:
    __aicore__ inline UpConv3dPoolAffine() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR convBias, GM_ADDR bias, GM_ADDR out,
                                const UpConv3dPoolAffineTiling &tiling)
    {
        tl = tiling;
        kVol = tl.ksize * tl.ksize * tl.ksize;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)weight);
        cbGm.SetGlobalBuffer((__gm__ float *)convBias);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        oGm.SetGlobalBuffer((__gm__ float *)out);

        uint32_t wCount = tl.cin * tl.cout * kVol;
        wElems = (wCount + 7) / 8 * 8;
        chanAlign = (tl.cout + 7) / 8 * 8;
        pipe.InitBuffer(paramBuf, (wElems + 2 * chanAlign) * sizeof(float));
        // 2 (depth) x 2 (rows) input rows per input channel
        pipe.InitBuffer(xQue, 1, tl.cin * 4 * tl.wAlign * sizeof(float));
        pipe.InitBuffer(accBuf, 3 * tl.wAlign * sizeof(float));
        pipe.InitBuffer(oQue, 2, tl.pwAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadParams();
        uint32_t begin = GetBlockIdx() * tl.unitsPerCore;
        uint32_t end = begin + tl.unitsPerCore;
        if (end > tl.totalUnits) {
            end = tl.totalUnits;
        }
        for (uint32_t u = begin; u < end; ++u) {
            uint32_t ph = u % tl.poolH;
            uint32_t rest = u / tl.poolH;
            uint32_t pd = rest % tl.poolD;
            uint32_t n = rest / tl.poolD;
            LoadSlab(n, pd, ph);
            ComputeUnit(n, pd, ph);
        }
    }

private:
    __aicore__ inline void LoadParams()
    {
        params = paramBuf.Get<float>();
        uint32_t wCount = tl.cin * tl.cout * kVol;
        DataCopyExtParams cpw{1, wCount * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyExtParams cpc{1, tl.cout * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(params, wGm, cpw, noPad);
        DataCopyPad(params[wElems], cbGm, cpc, noPad);
        DataCopyPad(params[wElems + chanAlign], bGm, cpc, noPad);
        // weights are consumed as scalars
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    // rows x[n, ci, pd + dd, ph + hh, :] for dd, hh in {0, 1}
    __aicore__ inline void LoadSlab(uint32_t n, uint32_t pd, uint32_t ph)
    {
        LocalTensor<float> slab = xQue.AllocTensor<float>();
        DataCopyExtParams cp{1, tl.inW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        for (uint32_t ci = 0; ci < tl.cin; ++ci) {
            for (uint32_t dd = 0; dd < 2; ++dd) {
                uint32_t id = pd + dd;
                if (id >= tl.inD) {
                    continue;
                }
                for (uint32_t hh = 0; hh < 2; ++hh) {
                    uint32_t ih = ph + hh;
                    if (ih >= tl.inH) {
                        continue;
                    }
                    uint64_t src = ((((uint64_t)n * tl.cin + ci) * tl.inD + id) * tl.inH + ih) * tl.inW;
                    DataCopyPad(slab[((ci * 2 + dd) * 2 + hh) * tl.wAlign], xGm[src], cp, noPad);
                }
            }
        }
        xQue.EnQue(slab);
    }

    __aicore__ inline void ComputeUnit(uint32_t n, uint32_t pd, uint32_t ph)
    {
        LocalTensor<float> slab = xQue.DeQue<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> accE = acc;
        LocalTensor<float> accA = acc[tl.wAlign];
        LocalTensor<float> accB = acc[2 * tl.wAlign];
        const uint32_t k = tl.ksize;
        const float poolInv = 0.125f;

        for (uint32_t co = 0; co < tl.cout; ++co) {
            Duplicate(acc, 0.0f, 3 * tl.wAlign);

            for (uint32_t sd = 0; sd < 2; ++sd) {
                int32_t od = (int32_t)(2 * pd + sd);
                for (uint32_t kd = 0; kd < k; ++kd) {
                    int32_t td = od + (int32_t)tl.convPad - (int32_t)kd;
                    if (td < 0 || (td % (int32_t)tl.convStride) != 0) {
                        continue;
                    }
                    uint32_t id = (uint32_t)td / tl.convStride;
                    if (id >= tl.inD) {
                        continue;
                    }
                    for (uint32_t sh = 0; sh < 2; ++sh) {
                        int32_t oh = (int32_t)(2 * ph + sh);
                        for (uint32_t kh = 0; kh < k; ++kh) {
                            int32_t th = oh + (int32_t)tl.convPad - (int32_t)kh;
                            if (th < 0 || (th % (int32_t)tl.convStride) != 0) {
                                continue;
                            }
                            uint32_t ih = (uint32_t)th / tl.convStride;
                            if (ih >= tl.inH) {
                                continue;
                            }
                            uint32_t slot = (id - pd) * 2 + (ih - ph);
                            for (uint32_t ci = 0; ci < tl.cin; ++ci) {
                                LocalTensor<float> row = slab[(ci * 4 + slot) * tl.wAlign];
                                uint32_t wBase = ((ci * tl.cout + co) * k + kd) * k * k + kh * k;
                                float w0 = params.GetValue(wBase + 0);
                                float w1 = params.GetValue(wBase + 1);
                                float w2 = params.GetValue(wBase + 2);
                                Axpy(accA, row, w0, tl.inW);
                                Axpy(accE, row, w1, tl.inW);
                                Axpy(accB, row, w2, tl.inW);
                            }
                        }
                    }
                }
            }

            event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);

            LocalTensor<float> o = oQue.AllocTensor<float>();
            float cb = params.GetValue(wElems + co);
            float bb = params.GetValue(wElems + chanAlign + co);
            for (uint32_t pw = 0; pw < tl.poolW; ++pw) {
                float s = accE.GetValue(pw) + accA.GetValue(pw + 1) + accB.GetValue(pw);
                float pooled = tl.scale1 * (s * poolInv + cb);
                o.SetValue(pw, (pooled + bb) * tl.scale2);
            }
            event_t sm = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
            SetFlag<HardEvent::S_MTE3>(sm);
            WaitFlag<HardEvent::S_MTE3>(sm);
            oQue.EnQue(o);
            StoreRow(n, co, pd, ph);
        }
        xQue.FreeTensor(slab);
    }

    __aicore__ inline void StoreRow(uint32_t n, uint32_t co, uint32_t pd, uint32_t ph)
    {
        LocalTensor<float> o = oQue.DeQue<float>();
        uint64_t dst = ((((uint64_t)n * tl.cout + co) * tl.poolD + pd) * tl.poolH + ph) * tl.poolW;
        DataCopyExtParams cp{1, tl.poolW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(oGm[dst], o, cp);
        oQue.FreeTensor(o);
        // the next row is written by the scalar unit into a recycled buffer
        event_t ms = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(ms);
        WaitFlag<HardEvent::MTE3_S>(ms);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> xQue;
    TQue<QuePosition::VECOUT, 2> oQue;
    TBuf<QuePosition::VECCALC> paramBuf;
    TBuf<QuePosition::VECCALC> accBuf;
    LocalTensor<float> params;
    GlobalTensor<float> xGm, wGm, cbGm, bGm, oGm;
    UpConv3dPoolAffineTiling tl;
    uint32_t kVol = 27;
    uint32_t wElems = 0;
    uint32_t chanAlign = 8;
};

extern "C" __global__ __aicore__ void upconv3d_pool_affine(GM_ADDR x, GM_ADDR weight, GM_ADDR convBias,
                                                           GM_ADDR bias, GM_ADDR out, GM_ADDR tiling)
{
    UpConv3dPoolAffineTiling tl;
    uint32_t *dst = reinterpret_cast<uint32_t *>(&tl);
    __gm__ uint32_t *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    for (uint32_t i = 0; i < sizeof(UpConv3dPoolAffineTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    UpConv3dPoolAffine op;
    op.Init(x, weight, convBias, bias, out, tl);
    op.Process();
}
