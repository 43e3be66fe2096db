// kernel: depthwise 3x3 conv, pad 1, stride 1/2, then y = relu?(conv * scale[c] + shift[c])
#include "kernel_operator.h"
using namespace AscendC;

class KDw3x3 {
public:
    __aicore__ inline KDw3x3() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR sc, GM_ADDR sh, GM_ADDR y,
                                const MobilenetV1CustomTilingData &t)
    {
        c = t.c; h = t.h; w = t.w; ho = t.ho; wo = t.wo; st = t.stride; relu = t.relu;
        rb = t.bandRows; bpp = t.bandsPerPlane;
        wa = (w + 7) / 8 * 8;
        woa = (wo + 7) / 8 * 8;
        acl = (w + 63) / 64 * 64;
        nimax = (rb - 1) * st + 3;
        uint32_t bn = GetBlockNum(), bi = GetBlockIdx();
        uint32_t per = t.totalBands / bn, rem = t.totalBands % bn;
        b0 = bi * per + (bi < rem ? bi : rem);
        nb = per + (bi < rem ? 1 : 0);
        xg.SetGlobalBuffer((__gm__ float *)x);
        wg.SetGlobalBuffer((__gm__ float *)wt);
        sg.SetGlobalBuffer((__gm__ float *)sc);
        hg.SetGlobalBuffer((__gm__ float *)sh);
        yg.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(qi, 2, 3 * nimax * wa * sizeof(float));
        pipe.InitBuffer(qo, 2, (rb * woa + 64) * sizeof(float));
        pipe.InitBuffer(ab, acl * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < nb; i++) {
            uint32_t g = b0 + i;
            uint32_t p = g / bpp;
            uint32_t r0 = (g % bpp) * rb;
            uint32_t nr = (ho - r0) < rb ? (ho - r0) : rb;
            int32_t lo = (int32_t)(r0 * st) - 1;
            int32_t hi = (int32_t)((r0 + nr - 1) * st) + 1;
            uint32_t his = lo < 0 ? 0 : (uint32_t)lo;
            uint32_t hie = hi > (int32_t)h - 1 ? h - 1 : (uint32_t)hi;
            Load(p, his, hie - his + 1);
            Compute(p, r0, nr, his);
            Store(p, r0, nr);
        }
    }

private:
    __aicore__ inline void Load(uint32_t p, uint32_t his, uint32_t ni)
    {
        LocalTensor<float> in = qi.AllocTensor<float>();
        uint64_t base = ((uint64_t)p * h + his) * w;
        uint32_t seg = nimax * wa;
        DataCopyExtParams full{(uint16_t)ni, w * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyExtParams part{(uint16_t)ni, (w - 1) * (uint32_t)sizeof(float), (uint32_t)sizeof(float), 0, 0};
        DataCopyPadExtParams<float> lp{true, 1, 0, 0.0f};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPadExtParams<float> rp{true, 0, 1, 0.0f};
        DataCopyPad(in, xg[base], part, lp);
        DataCopyPad(in[seg], xg[base], full, np);
        DataCopyPad(in[2 * seg], xg[base + 1], part, rp);
        qi.EnQue(in);
    }
    __aicore__ inline void Compute(uint32_t p, uint32_t r0, uint32_t nr, uint32_t his)
    {
        LocalTensor<float> in = qi.DeQue<float>();
        LocalTensor<float> o = qo.AllocTensor<float>();
        LocalTensor<float> acc = ab.Get<float>();
        uint32_t ch = p % c;
        uint32_t seg = nimax * wa;
        float k[9];
        for (int32_t i = 0; i < 9; i++) k[i] = wg.GetValue(ch * 9 + i);
        float sc = sg.GetValue(ch);
        float sh = hg.GetValue(ch);
        uint64_t cnt = 0;
        GatherMaskParams gp{1, (uint16_t)(acl / 64), 8, 0};
        for (uint32_t r = 0; r < nr; r++) {
            Duplicate(acc, 0.0f, acl);
            int32_t hc = (int32_t)((r0 + r) * st);
            for (int32_t kh = 0; kh < 3; kh++) {
                int32_t hi = hc + kh - 1;
                if (hi < 0 || hi >= (int32_t)h) continue;
                uint32_t li = (uint32_t)hi - his;
                Axpy(acc, in[li * wa], k[kh * 3], w);
                Axpy(acc, in[seg + li * wa], k[kh * 3 + 1], w);
                Axpy(acc, in[2 * seg + li * wa], k[kh * 3 + 2], w);
            }
            if (st == 1) {
                Muls(o[r * woa], acc, 1.0f, w);
            } else {
                GatherMask(o[r * woa], acc, (uint8_t)1, false, (uint32_t)0, gp, cnt);
            }
        }
        uint32_t tot = nr * woa;
        Muls(o, o, sc, tot);
        Adds(o, o, sh, tot);
        if (relu) Relu(o, o, tot);
        qo.EnQue(o);
        qi.FreeTensor(in);
    }
    __aicore__ inline void Store(uint32_t p, uint32_t r0, uint32_t nr)
    {
        LocalTensor<float> o = qo.DeQue<float>();
        DataCopyExtParams cp{(uint16_t)nr, wo * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yg[((uint64_t)p * ho + r0) * wo], o, cp);
        qo.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qi;
    TQue<QuePosition::VECOUT, 2> qo;
    TBuf<TPosition::VECCALC> ab;
    GlobalTensor<float> xg, wg, sg, hg, yg;
    uint32_t c, h, w, ho, wo, st, relu, rb, bpp, wa, woa, acl, nimax, b0, nb;
};

extern "C" __global__ __aicore__ void mobilenet_v1_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR scale, GM_ADDR shift,
                                                          GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KDw3x3 op;
    op.Init(x, weight, scale, shift, y, td);
    op.Process();
}
