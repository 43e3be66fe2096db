// filter_scale_chanmin
//   y[n, 0, oh, ow] = min_co ( scale * (b[co] + sum_{ci,kh,kw} w[co,ci,kh,kw] * x[n,ci,oh+kh,ow+kw]) )
// valid 3x3 convolution, then a constant scale, then the minimum across
// output channels (keepdim -> one channel out).
//
// Work unit = one output row (n, oh).  Output channels are processed in
// groups of CO_BLOCK so that the accumulators fit in UB; a running minimum
// row is kept across groups.  For every input channel the three input rows
// are loaded three times each, shifted by kw, so the convolution becomes a
// sequence of Axpy calls on aligned rows.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t CO_BLOCK = 16;
constexpr uint32_t KS = 3;

struct FilterScaleChanminTiling {
    uint32_t batch, cin, height, width;
    uint32_t cout;
    uint32_t outH, outW, pitch;   // pitch = outW rounded to 8
    uint32_t rowsPerCore;         // output rows (n, oh) per core
    float scale;
};

class FilterScaleChanmin {
public:
    __aicore__ inline FilterScaleChanmin() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const FilterScaleChanminTiling &tl)
    {
        tl_ = tl;
        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tl.batch * tl.cin * tl.height * tl.width);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)tl.cout * tl.cin * KS * KS);
        bGm.SetGlobalBuffer((__gm__ float *)b, tl.cout);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)tl.batch * tl.outH * tl.outW);

        pipe.InitBuffer(rowQ, 2, KS * KS * tl.pitch * sizeof(float));
        pipe.InitBuffer(wQ, 1, CO_BLOCK * tl.cin * KS * KS * sizeof(float));
        pipe.InitBuffer(outQ, 2, tl.pitch * sizeof(float));
        pipe.InitBuffer(accBuf, CO_BLOCK * tl.pitch * sizeof(float));

        uint32_t total = tl.batch * tl.outH;
        first = GetBlockIdx() * tl.rowsPerCore;
        last = first + tl.rowsPerCore;
        if (last > total) last = total;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = first; r < last; ++r) {
            uint32_t n = r / tl_.outH;
            uint32_t oh = r % tl_.outH;
            LocalTensor<float> runMin = outQ.AllocTensor<float>();
            Duplicate(runMin, 3.0e38f, tl_.pitch);
            for (uint32_t co0 = 0; co0 < tl_.cout; co0 += CO_BLOCK) {
                uint32_t nco = tl_.cout - co0 < CO_BLOCK ? tl_.cout - co0 : CO_BLOCK;
                AccumulateGroup(n, oh, co0, nco);
                LocalTensor<float> acc = accBuf.Get<float>();
                for (uint32_t j = 0; j < nco; ++j) {
                    Muls(acc[j * tl_.pitch], acc[j * tl_.pitch], tl_.scale, tl_.pitch);
                    Min(runMin, runMin, acc[j * tl_.pitch], tl_.pitch);
                }
            }
            outQ.EnQue(runMin);
            LocalTensor<float> res = outQ.DeQue<float>();
            DataCopyExtParams cp{1, tl_.outW * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPad(yGm[(uint64_t)n * tl_.outH * tl_.outW + (uint64_t)oh * tl_.outW], res, cp);
            outQ.FreeTensor(res);
        }
    }

private:
    __aicore__ inline void AccumulateGroup(uint32_t n, uint32_t oh, uint32_t co0, uint32_t nco)
    {
        const uint32_t P = tl_.pitch;
        const uint32_t wPerCo = tl_.cin * KS * KS;

        // weights of this channel group (contiguous in [co][ci][kh][kw])
        LocalTensor<float> wl = wQ.AllocTensor<float>();
        DataCopyExtParams wcp{1, nco * wPerCo * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(wl, wGm[(uint64_t)co0 * wPerCo], wcp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        wQ.EnQue(wl);
        wl = wQ.DeQue<float>();

        LocalTensor<float> acc = accBuf.Get<float>();
        for (uint32_t j = 0; j < nco; ++j) {
            Duplicate(acc[j * P], bGm.GetValue(co0 + j), P);
        }

        for (uint32_t ci = 0; ci < tl_.cin; ++ci) {
            LocalTensor<float> rows = rowQ.AllocTensor<float>();
            uint64_t plane = ((uint64_t)n * tl_.cin + ci) * tl_.height * tl_.width;
            for (uint32_t kh = 0; kh < KS; ++kh) {
                for (uint32_t kw = 0; kw < KS; ++kw) {
                    DataCopyExtParams cp{1, tl_.outW * (uint32_t)sizeof(float), 0, 0, 0};
                    DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(P - tl_.outW), 0.0f};
                    DataCopyPad(rows[(kh * KS + kw) * P],
                                xGm[plane + (uint64_t)(oh + kh) * tl_.width + kw], cp, pad);
                }
            }
            rowQ.EnQue(rows);
            rows = rowQ.DeQue<float>();
            for (uint32_t j = 0; j < nco; ++j) {
                uint32_t wBase = j * wPerCo + ci * KS * KS;
                for (uint32_t t = 0; t < KS * KS; ++t) {
                    Axpy(acc[j * P], rows[t * P], wl.GetValue(wBase + t), P);
                }
            }
            rowQ.FreeTensor(rows);
        }
        wQ.FreeTensor(wl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQ;
    TQue<QuePosition::VECIN, 1> wQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> accBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    FilterScaleChanminTiling tl_;
    uint32_t first = 0, last = 0;
};

extern "C" __global__ __aicore__ void filter_scale_chanmin(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                                           GM_ADDR tiling)
{
    FilterScaleChanminTiling tl;
    __gm__ uint32_t *src = (__gm__ uint32_t *)tiling;
    uint32_t *dst = (uint32_t *)&tl;
    for (uint32_t i = 0; i < sizeof(tl) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    FilterScaleChanmin k;
    k.Init(x, w, b, y, tl);
    k.Process();
}
