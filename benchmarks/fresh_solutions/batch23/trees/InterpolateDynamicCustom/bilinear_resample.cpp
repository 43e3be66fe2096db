/**
 * bilinear_resample
 *
 * Resizes every (n, c) plane of an NCHW float tensor to (outH, outW) with
 * bilinear weights, half-pixel centres (src = (dst + 0.5) * in/out - 0.5,
 * clamped at 0), i.e. the "align corners off" convention.
 *
 * Work unit = one output row of one plane:
 *   1. the two source rows are fetched and blended vertically (Muls + Axpy);
 *   2. the blended row is sampled horizontally with two Gathers whose byte
 *      offsets, like the horizontal weights, are built once per core because
 *      they only depend on the column.
 * The output size travels in the tiling, so one binary serves any target size.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct BilinearResampleTiling {
    uint32_t planes;       // N * C
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t inWAlign;     // inW rounded to 8
    uint32_t outWAlign;    // outW rounded to 8
    uint32_t rowsPerCore;  // output rows (plane-major) per core
    uint32_t totalRows;
    float scaleH;          // inH / outH
    float scaleW;          // inW / outW
};

class BilinearResample {
public:
    __aicore__ inline BilinearResample() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const BilinearResampleTiling &tiling)
    {
        tl_ = tiling;
        xGm_.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tl_.planes * tl_.inH * tl_.inW);
        yGm_.SetGlobalBuffer((__gm__ float *)y, (uint64_t)tl_.planes * tl_.outH * tl_.outW);

        pipe_.InitBuffer(srcQ_, 2, 2 * tl_.inWAlign * sizeof(float));   // top | bottom row
        pipe_.InitBuffer(dstQ_, 2, tl_.outWAlign * sizeof(float));
        pipe_.InitBuffer(blendBuf_, tl_.inWAlign * sizeof(float));
        pipe_.InitBuffer(leftBuf_, tl_.outWAlign * sizeof(float));
        pipe_.InitBuffer(rightBuf_, tl_.outWAlign * sizeof(float));
        pipe_.InitBuffer(offBuf_, 2 * tl_.outWAlign * sizeof(uint32_t));
        pipe_.InitBuffer(wtBuf_, 2 * tl_.outWAlign * sizeof(float));

        BuildColumnTables();
    }

    __aicore__ inline void Process()
    {
        uint32_t first = GetBlockIdx() * tl_.rowsPerCore;
        uint32_t last = first + tl_.rowsPerCore;
        if (last > tl_.totalRows) {
            last = tl_.totalRows;
        }
        for (uint32_t g = first; g < last; ++g) {
            uint32_t plane = g / tl_.outH;
            uint32_t oh = g % tl_.outH;

            uint32_t h0, h1;
            float lh;
            SourceCoord(oh, tl_.scaleH, tl_.inH, h0, h1, lh);

            FetchRows(plane, h0, h1);
            Blend(lh);
            Store(plane, oh);
        }
    }

private:
    __aicore__ inline void SourceCoord(uint32_t o, float scale, uint32_t inLen, uint32_t &i0, uint32_t &i1,
                                       float &frac) const
    {
        float src = (static_cast<float>(o) + 0.5f) * scale - 0.5f;
        if (src < 0.0f) {
            src = 0.0f;
        }
        i0 = static_cast<uint32_t>(src);
        if (i0 > inLen - 1) {
            i0 = inLen - 1;
        }
        i1 = (i0 < inLen - 1) ? i0 + 1 : i0;
        frac = src - static_cast<float>(i0);
    }

    __aicore__ inline void BuildColumnTables()
    {
        LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
        LocalTensor<float> wt = wtBuf_.Get<float>();
        const uint32_t a = tl_.outWAlign;
        for (uint32_t ow = 0; ow < a; ++ow) {
            uint32_t w0 = 0, w1 = 0;
            float lw = 0.0f;
            if (ow < tl_.outW) {
                SourceCoord(ow, tl_.scaleW, tl_.inW, w0, w1, lw);
            }
            off.SetValue(ow, w0 * static_cast<uint32_t>(sizeof(float)));       // Gather wants byte offsets
            off.SetValue(a + ow, w1 * static_cast<uint32_t>(sizeof(float)));
            wt.SetValue(ow, 1.0f - lw);
            wt.SetValue(a + ow, lw);
        }
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void FetchRows(uint32_t plane, uint32_t h0, uint32_t h1)
    {
        LocalTensor<float> rows = srcQ_.AllocTensor<float>();
        uint64_t base = (uint64_t)plane * tl_.inH * tl_.inW;
        DataCopyExtParams cp{1, tl_.inW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(rows, xGm_[base + (uint64_t)h0 * tl_.inW], cp, pad);
        DataCopyPad(rows[tl_.inWAlign], xGm_[base + (uint64_t)h1 * tl_.inW], cp, pad);
        srcQ_.EnQue(rows);
    }

    __aicore__ inline void Blend(float lh)
    {
        LocalTensor<float> rows = srcQ_.DeQue<float>();
        LocalTensor<float> mid = blendBuf_.Get<float>();
        LocalTensor<float> left = leftBuf_.Get<float>();
        LocalTensor<float> right = rightBuf_.Get<float>();
        LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
        LocalTensor<float> wt = wtBuf_.Get<float>();
        LocalTensor<float> res = dstQ_.AllocTensor<float>();
        const int32_t inLen = (int32_t)tl_.inWAlign;
        const uint32_t a = tl_.outWAlign;

        // vertical: mid = (1 - lh) * top + lh * bottom
        Muls(mid, rows, 1.0f - lh, inLen);
        Axpy(mid, rows[tl_.inWAlign], lh, inLen);
        srcQ_.FreeTensor(rows);

        // horizontal: pick the two neighbours of every output column
        Gather(left, mid, off, (uint32_t)0, a);
        Gather(right, mid, off[a], (uint32_t)0, a);
        Mul(left, left, wt, (int32_t)a);
        Mul(right, right, wt[a], (int32_t)a);
        Add(res, left, right, (int32_t)a);
        dstQ_.EnQue(res);
    }

    __aicore__ inline void Store(uint32_t plane, uint32_t oh)
    {
        LocalTensor<float> res = dstQ_.DeQue<float>();
        uint64_t dst = ((uint64_t)plane * tl_.outH + oh) * tl_.outW;
        DataCopyExtParams cp{1, tl_.outW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm_[dst], res, cp);
        dstQ_.FreeTensor(res);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> srcQ_;
    TQue<QuePosition::VECOUT, 2> dstQ_;
    TBuf<TPosition::VECCALC> blendBuf_, leftBuf_, rightBuf_, offBuf_, wtBuf_;
    GlobalTensor<float> xGm_, yGm_;
    BilinearResampleTiling tl_;
};

extern "C" __global__ __aicore__ void bilinear_resample(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    BilinearResampleTiling tl;
    auto in = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto out = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(BilinearResampleTiling) / sizeof(uint32_t); ++i) {
        out[i] = in[i];
    }
    BilinearResample op;
    op.Init(x, y, tl);
    op.Process();
}
