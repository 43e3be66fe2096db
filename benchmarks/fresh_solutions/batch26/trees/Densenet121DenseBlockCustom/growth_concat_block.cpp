// One layer of a feature-growing block: y = conv3x3(relu(x * scale + shift)), pad 1, no bias.
// x is the first `inC` channels of a shared [N, totalC, H, W] buffer; the `growth` new channels are
// written straight into the same buffer at channel offset `inC`, so no concatenation copy is needed.
#include "kernel_operator.h"

using namespace AscendC;

struct GrowthConcatBlockTiling {
    uint32_t n;
    uint32_t totalC;   // channel count of the shared buffer
    uint32_t inC;      // channels read by this layer
    uint32_t growth;   // channels produced (32)
    uint32_t h;
    uint32_t w;
    uint32_t wAlign;   // w rounded up to 8
};

class GrowthLayer {
public:
    __aicore__ inline GrowthLayer() {}
    __aicore__ inline void Init(GM_ADDR feat, GM_ADDR weight, GM_ADDR scale, GM_ADDR shift,
                                GrowthConcatBlockTiling *tp)
    {
        tl = *tp;
        featGm.SetGlobalBuffer((__gm__ float *)feat);
        wGm.SetGlobalBuffer((__gm__ float *)weight);       // [growth, inC, 3, 3]
        scGm.SetGlobalBuffer((__gm__ float *)scale);
        shGm.SetGlobalBuffer((__gm__ float *)shift);
        pipe.InitBuffer(tapQ, 2, 3 * tl.wAlign * sizeof(float));
        pipe.InitBuffer(outQ, 2, tl.wAlign * sizeof(float));
        pipe.InitBuffer(accBuf, tl.growth * tl.wAlign * sizeof(float));
        pipe.InitBuffer(wCache, tl.growth * 9 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t items = tl.n * tl.h;                   // one output row (all growth channels) per item
        for (uint32_t it = GetBlockIdx(); it < items; it += GetBlockNum()) {
            uint32_t b = it / tl.h;
            uint32_t oh = it % tl.h;
            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, tl.growth * tl.wAlign);
            for (uint32_t ci = 0; ci < tl.inC; ++ci) {
                LoadWeights(ci);
                for (uint32_t kh = 0; kh < 3; ++kh) {
                    int32_t ih = (int32_t)oh + (int32_t)kh - 1;
                    if (ih < 0 || ih >= (int32_t)tl.h) continue;
                    LoadTaps(b, ci, (uint32_t)ih);
                    Accumulate(kh);
                }
            }
            WriteRow(b, oh);
        }
    }

private:
    // the 3x3 kernels of all growth channels for input channel ci: wc[co*9 + kh*3 + kw]
    __aicore__ inline void LoadWeights(uint32_t ci)
    {
        LocalTensor<float> wc = wCache.Get<float>();
        for (uint32_t co = 0; co < tl.growth; ++co) {
            for (uint32_t k = 0; k < 9; ++k) {
                wc.SetValue(co * 9 + k, wGm.GetValue(((uint64_t)co * tl.inC + ci) * 9 + k));
            }
        }
        curScale = scGm.GetValue(ci);
        curShift = shGm.GetValue(ci);
    }

    // taps[kw][ow] = relu(bn(x[ih, ow + kw - 1])), zero outside the row
    __aicore__ inline void LoadTaps(uint32_t b, uint32_t ci, uint32_t ih)
    {
        LocalTensor<float> taps = tapQ.AllocTensor<float>();
        uint64_t row = (((uint64_t)b * tl.totalC + ci) * tl.h + ih) * tl.w;
        DataCopyExtParams full{1, tl.w * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyExtParams shortRow{1, (tl.w - 1) * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(taps, featGm[row], shortRow, DataCopyPadExtParams<float>{true, 1, 0, 0.0f});
        DataCopyPad(taps[tl.wAlign], featGm[row], full, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        DataCopyPad(taps[2 * tl.wAlign], featGm[row + 1], shortRow, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        tapQ.EnQue(taps);
        taps = tapQ.DeQue<float>();

        Muls(taps, taps, curScale, 3 * tl.wAlign);
        Adds(taps, taps, curShift, 3 * tl.wAlign);
        Relu(taps, taps, 3 * tl.wAlign);
        // the padded border must stay zero after the affine
        event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        taps.SetValue(0, 0.0f);
        taps.SetValue(2 * tl.wAlign + tl.w - 1, 0.0f);
        event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        curTaps = taps;
    }

    __aicore__ inline void Accumulate(uint32_t kh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> wc = wCache.Get<float>();
        for (uint32_t co = 0; co < tl.growth; ++co) {
            for (uint32_t kw = 0; kw < 3; ++kw) {
                Axpy(acc[co * tl.wAlign], curTaps[kw * tl.wAlign], wc.GetValue(co * 9 + kh * 3 + kw), tl.w);
            }
        }
        tapQ.FreeTensor(curTaps);
    }

    __aicore__ inline void WriteRow(uint32_t b, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        DataCopyExtParams cp{1, tl.w * (uint32_t)sizeof(float), 0, 0, 0};
        for (uint32_t co = 0; co < tl.growth; ++co) {
            LocalTensor<float> o = outQ.AllocTensor<float>();
            Adds(o, acc[co * tl.wAlign], 0.0f, tl.w);
            outQ.EnQue(o);
            o = outQ.DeQue<float>();
            uint64_t dst = (((uint64_t)b * tl.totalC + tl.inC + co) * tl.h + oh) * tl.w;
            DataCopyPad(featGm[dst], o, cp);
            outQ.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> tapQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> accBuf, wCache;
    GlobalTensor<float> featGm, wGm, scGm, shGm;
    LocalTensor<float> curTaps;
    GrowthConcatBlockTiling tl;
    float curScale = 1.0f, curShift = 0.0f;
};

extern "C" __global__ __aicore__ void growth_concat_block(GM_ADDR feat, GM_ADDR weight, GM_ADDR scale,
                                                          GM_ADDR shift, GM_ADDR tiling)
{
    GrowthConcatBlockTiling t;
    __gm__ uint32_t *src = (__gm__ uint32_t *)tiling;
    uint32_t *dst = (uint32_t *)&t;
    for (uint32_t i = 0; i < sizeof(t) / 4; ++i) dst[i] = src[i];
    GrowthLayer layer;
    layer.Init(feat, weight, scale, shift, &t);
    layer.Process();
}
