// kernel: min over depth of conv output, then softmax over channels
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF = 2;

class KMinSoftmax {
public:
    __aicore__ inline KMinSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n_, uint32_t c_, uint32_t d_, uint32_t hw_,
                                uint32_t tl_, uint32_t tpi_, uint32_t tot)
    {
        n = n_; c = c_; d = d_; hw = hw_; tl = tl_; tpi = tpi_;
        uint32_t bn = GetBlockNum(), bi = GetBlockIdx();
        uint32_t per = tot / bn, rem = tot % bn;
        st = bi * per + (bi < rem ? bi : rem);
        cnt = per + (bi < rem ? 1 : 0);
        xg.SetGlobalBuffer((__gm__ float *)x);
        yg.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(qi, BUF, d * tl * sizeof(float));
        pipe.InitBuffer(qo, BUF, tl * sizeof(float));
        pipe.InitBuffer(mb, c * tl * sizeof(float));
        pipe.InitBuffer(rb, 2 * tl * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < cnt; i++) {
            uint32_t g = st + i;
            uint32_t b = g / tpi, p0 = (g % tpi) * tl;
            uint32_t len = (hw - p0) < tl ? (hw - p0) : tl;
            Tile(b, p0, len);
        }
    }

private:
    __aicore__ inline void Load(uint32_t b, uint32_t ci, uint32_t p0, uint32_t len)
    {
        LocalTensor<float> in = qi.AllocTensor<float>();
        uint64_t base = ((uint64_t)b * c + ci) * d * hw + p0;
        DataCopyExtParams cp{(uint16_t)d, len * (uint32_t)sizeof(float), (hw - len) * (uint32_t)sizeof(float), 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0};
        DataCopyPad(in, xg[base], cp, pd);
        qi.EnQue(in);
    }
    __aicore__ inline void Tile(uint32_t b, uint32_t p0, uint32_t len)
    {
        uint32_t al = (len + 7) / 8 * 8;
        LocalTensor<float> m = mb.Get<float>();
        LocalTensor<float> r = rb.Get<float>();
        LocalTensor<float> mx = r;
        LocalTensor<float> sm = r[tl];
        Load(b, 0, p0, len);
        for (uint32_t ci = 0; ci < c; ci++) {
            if (ci + 1 < c) Load(b, ci + 1, p0, len);
            LocalTensor<float> in = qi.DeQue<float>();
            LocalTensor<float> mc = m[ci * tl];
            Adds(mc, in, 0.0f, al);
            for (uint32_t di = 1; di < d; di++) {
                Min(mc, mc, in[di * al], al);
            }
            qi.FreeTensor(in);
        }
        Adds(mx, m, 0.0f, al);
        for (uint32_t ci = 1; ci < c; ci++) {
            Max(mx, mx, m[ci * tl], al);
        }
        Duplicate(sm, 0.0f, al);
        for (uint32_t ci = 0; ci < c; ci++) {
            LocalTensor<float> mc = m[ci * tl];
            Sub(mc, mc, mx, al);
            Exp(mc, mc, al);
            Add(sm, sm, mc, al);
        }
        DataCopyExtParams op{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        for (uint32_t ci = 0; ci < c; ci++) {
            LocalTensor<float> o = qo.AllocTensor<float>();
            Div(o, m[ci * tl], sm, al);
            qo.EnQue(o);
            o = qo.DeQue<float>();
            DataCopyPad(yg[((uint64_t)b * c + ci) * hw + p0], o, op);
            qo.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUF> qi;
    TQue<QuePosition::VECOUT, BUF> qo;
    TBuf<TPosition::VECCALC> mb, rb;
    GlobalTensor<float> xg, yg;
    uint32_t n, c, d, hw, tl, tpi, st, cnt;
};

extern "C" __global__ __aicore__ void conv3d_min_softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KMinSoftmax op;
    op.Init(x, y, td.n, td.c, td.d, td.hw, td.tileLen, td.tilesPerImg, td.totalTiles);
    op.Process();
}
