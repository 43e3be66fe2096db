// slide3x3_rect_hswish.cpp
//
// Valid (unpadded, stride 1) KxK convolution with bias, then ReLU, then
// hard-swish  v * min(max(v + 3, 0), 6) / 6.  After ReLU v >= 0, so only the
// upper clamp is needed.
//
// Work item = (image n, band of `band` output rows). For an item the kernel
// pulls the Cin x (band + K - 1) input rows into UB once, each row stored as K
// copies offset by kw columns (the GM side of DataCopyPad takes any element
// offset, the UB side stays 32-byte aligned). Then for every output channel
// the band is accumulated tap by tap with Axpy, activated and written back.
#include "kernel_operator.h"

using namespace AscendC;

struct Slide3x3RectHswishTiling {
    uint32_t batch;
    uint32_t inCh;
    uint32_t outCh;
    uint32_t inH;
    uint32_t inW;
    uint32_t ksize;
    uint32_t outH;
    uint32_t outW;
    uint32_t rowStride;     // UB row pitch in floats (outW rounded up to 8)
    uint32_t band;          // output rows per work item
    uint32_t bandsPerImage;
    uint32_t itemsPerCore;
    uint32_t itemsLeft;
};

class Slide3x3RectHswish {
public:
    __aicore__ inline Slide3x3RectHswish() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                const Slide3x3RectHswishTiling &tiling)
    {
        p = tiling;
        uint32_t core = GetBlockIdx();
        item0 = core * p.itemsPerCore + (core < p.itemsLeft ? core : p.itemsLeft);
        items = p.itemsPerCore + (core < p.itemsLeft ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        wGm.SetGlobalBuffer((__gm__ float *)weight);
        bGm.SetGlobalBuffer((__gm__ float *)bias);

        uint32_t inRows = p.band + p.ksize - 1;
        pipe.InitBuffer(srcQ, 1, p.inCh * inRows * p.ksize * p.rowStride * sizeof(float));
        pipe.InitBuffer(dstQ, 2, p.band * p.rowStride * sizeof(float));
        pipe.InitBuffer(tmpBuf, p.band * p.rowStride * sizeof(float));
        uint32_t wLen = p.outCh * p.inCh * p.ksize * p.ksize;
        pipe.InitBuffer(wBuf, (wLen + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(bBuf, (p.outCh + 7) / 8 * 8 * sizeof(float));

        wUb = wBuf.Get<float>();
        bUb = bBuf.Get<float>();
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.f};
        DataCopyPad(wUb, wGm, DataCopyExtParams{1, wLen * (uint32_t)sizeof(float), 0, 0, 0}, noPad);
        DataCopyPad(bUb, bGm, DataCopyExtParams{1, p.outCh * (uint32_t)sizeof(float), 0, 0, 0}, noPad);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < items; ++i) {
            uint32_t it = item0 + i;
            uint32_t n = it / p.bandsPerImage;
            uint32_t oh0 = (it % p.bandsPerImage) * p.band;
            uint32_t rows = p.outH - oh0 < p.band ? p.outH - oh0 : p.band;
            FetchRows(n, oh0, rows);
            LocalTensor<float> src = srcQ.DeQue<float>();
            for (uint32_t co = 0; co < p.outCh; ++co) {
                ComputeChannel(src, co, rows);
                WriteChannel(n, co, oh0, rows);
            }
            srcQ.FreeTensor(src);
        }
    }

private:
    __aicore__ inline uint32_t Slot(uint32_t ci, uint32_t r, uint32_t kw) const
    {
        uint32_t inRows = p.band + p.ksize - 1;
        return ((ci * inRows + r) * p.ksize + kw) * p.rowStride;
    }

    __aicore__ inline void FetchRows(uint32_t n, uint32_t oh0, uint32_t rows)
    {
        LocalTensor<float> src = srcQ.AllocTensor<float>();
        uint32_t need = rows + p.ksize - 1;
        DataCopyExtParams cp{1, p.outW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.f};
        for (uint32_t ci = 0; ci < p.inCh; ++ci) {
            uint64_t chBase = ((uint64_t)n * p.inCh + ci) * p.inH * p.inW;
            for (uint32_t r = 0; r < need; ++r) {
                uint64_t rowBase = chBase + (uint64_t)(oh0 + r) * p.inW;
                for (uint32_t kw = 0; kw < p.ksize; ++kw) {
                    DataCopyPad(src[Slot(ci, r, kw)], xGm[rowBase + kw], cp, noPad);
                }
            }
        }
        srcQ.EnQue(src);
    }

    __aicore__ inline void ComputeChannel(const LocalTensor<float> &src, uint32_t co, uint32_t rows)
    {
        LocalTensor<float> acc = dstQ.AllocTensor<float>();
        LocalTensor<float> t = tmpBuf.Get<float>();
        uint32_t k = p.ksize;
        uint32_t total = rows * p.rowStride;

        Duplicate(acc, bUb.GetValue(co), total);
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> line = acc[r * p.rowStride];
            for (uint32_t ci = 0; ci < p.inCh; ++ci) {
                uint32_t wb = ((co * p.inCh + ci) * k) * k;
                for (uint32_t kh = 0; kh < k; ++kh) {
                    for (uint32_t kw = 0; kw < k; ++kw) {
                        Axpy(line, src[Slot(ci, r + kh, kw)], wUb.GetValue(wb + kh * k + kw), p.outW);
                    }
                }
            }
        }
        // ReLU then hard-swish on the whole band (pad columns are ignored on store)
        Relu(acc, acc, total);
        Adds(t, acc, 3.0f, total);
        Mins(t, t, 6.0f, total);
        Mul(acc, acc, t, total);
        Muls(acc, acc, 1.0f / 6.0f, total);
        dstQ.EnQue(acc);
    }

    __aicore__ inline void WriteChannel(uint32_t n, uint32_t co, uint32_t oh0, uint32_t rows)
    {
        LocalTensor<float> acc = dstQ.DeQue<float>();
        uint64_t off = (((uint64_t)n * p.outCh + co) * p.outH + oh0) * p.outW;
        uint32_t srcGap = (p.rowStride - p.outW) * sizeof(float) / 32;
        DataCopyPad(yGm[off], acc, DataCopyExtParams{(uint16_t)rows, p.outW * (uint32_t)sizeof(float), srcGap, 0, 0});
        dstQ.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> srcQ;
    TQue<QuePosition::VECOUT, 2> dstQ;
    TBuf<TPosition::VECCALC> tmpBuf, wBuf, bBuf;
    GlobalTensor<float> xGm, yGm, wGm, bGm;
    LocalTensor<float> wUb, bUb;
    Slide3x3RectHswishTiling p;
    uint32_t item0 = 0, items = 0;
};

extern "C" __global__ __aicore__ void slide3x3_rect_hswish(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                           GM_ADDR tiling)
{
    Slide3x3RectHswishTiling t;
    __gm__ uint32_t *g = reinterpret_cast<__gm__ uint32_t *>(tiling);
    uint32_t *l = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); i++) {
        l[i] = g[i];
    }
    Slide3x3RectHswish k;
    k.Init(x, weight, bias, y, t);
    k.Process();
}
