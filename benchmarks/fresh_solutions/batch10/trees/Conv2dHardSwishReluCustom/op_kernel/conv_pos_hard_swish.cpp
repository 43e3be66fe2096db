// ConvPosHardSwish: y = max(hardswish(conv2d(x, w) + b), 0)
//
// Since hardswish(v) < 0 only for v in (-3, 0), the composite is simply
//   v <= 0 : 0
//   v >  0 : v * min(v + 3, 6) / 6
// which is evaluated as r = max(v, 0); r * min(r + 3, 6) / 6.
//
// Work split: the N*OH output rows are dealt to cores in contiguous ranges.
// For one output row all KH*KW*Cin shifted input segments are fetched once per
// channel tile and accumulated into chanTile rows with Axpy; the finished tile is
// written back with a single strided DataCopyPad (one burst per channel).
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t SEG_BUFS = 2;
constexpr int32_t OUT_BUFS = 2;

class ConvPosHardSwishKernel {
public:
    __aicore__ inline ConvPosHardSwishKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const ConvPosHardSwishTilingData& td)
    {
        p = td;
        uint32_t core = GetBlockIdx();
        rowFirst = core * td.rowsPerCore + (core < td.rowsExtra ? core : td.rowsExtra);
        rowNum = td.rowsPerCore + (core < td.rowsExtra ? 1 : 0);
        tapNum = td.cin * td.kh * td.kw;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        bGm.SetGlobalBuffer((__gm__ float*)b);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(segQ, SEG_BUFS, td.lineLen * sizeof(float));
        pipe.InitBuffer(outQ, OUT_BUFS, td.chanTile * td.lineLen * sizeof(float));
        pipe.InitBuffer(accTmp, td.chanTile * td.lineLen * sizeof(float));
        pipe.InitBuffer(scratch, td.lineLen * sizeof(float));
        pipe.InitBuffer(filterBuf, ((td.chanTile * tapNum + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = (p.cout + p.chanTile - 1) / p.chanTile;
        if (tiles == 1) {
            LoadFilters(0, p.cout);   // resident for the whole kernel
        }
        for (uint32_t row = rowFirst; row < rowFirst + rowNum; ++row) {
            const uint32_t n = row / p.outH;
            const uint32_t oh = row % p.outH;
            for (uint32_t t = 0; t < tiles; ++t) {
                const uint32_t c0 = t * p.chanTile;
                const uint32_t cnt = (p.cout - c0) < p.chanTile ? (p.cout - c0) : p.chanTile;
                if (tiles > 1) {
                    LoadFilters(c0, cnt);
                }
                Accumulate(n, oh, c0, cnt);
                Activate(cnt);
                Store(n, oh, c0, cnt);
            }
        }
    }

private:
    __aicore__ inline void LoadFilters(uint32_t c0, uint32_t cnt)
    {
        // previous vector work may still read the filter values through the scalar unit only,
        // so a scalar->MTE2 ordering is enough here
        event_t e0 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
        SetFlag<HardEvent::S_MTE2>(e0);
        WaitFlag<HardEvent::S_MTE2>(e0);
        LocalTensor<float> f = filterBuf.Get<float>();
        DataCopyPad(f, wGm[static_cast<uint64_t>(c0) * tapNum],
                    DataCopyExtParams{1, cnt * tapNum * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0});
        event_t e1 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e1);
        WaitFlag<HardEvent::MTE2_S>(e1);
    }

    __aicore__ inline void Accumulate(uint32_t n, uint32_t oh, uint32_t c0, uint32_t cnt)
    {
        LocalTensor<float> acc = accTmp.Get<float>();
        LocalTensor<float> f = filterBuf.Get<float>();
        const uint32_t ow = p.outW;
        for (uint32_t c = 0; c < cnt; ++c) {
            Duplicate(acc[c * p.lineLen], bGm.GetValue(c0 + c), ow);
        }
        uint32_t tap = 0;
        for (uint32_t ci = 0; ci < p.cin; ++ci) {
            const uint64_t plane = (static_cast<uint64_t>(n) * p.cin + ci) * p.inH;
            for (uint32_t i = 0; i < p.kh; ++i) {
                const uint64_t src = (plane + oh + i) * p.inW;
                for (uint32_t j = 0; j < p.kw; ++j, ++tap) {
                    LocalTensor<float> seg = segQ.AllocTensor<float>();
                    DataCopyPad(seg, xGm[src + j], DataCopyExtParams{1, ow * 4u, 0, 0, 0},
                                DataCopyPadExtParams<float>{false, 0, 0, 0});
                    segQ.EnQue(seg);
                    LocalTensor<float> in = segQ.DeQue<float>();
                    for (uint32_t c = 0; c < cnt; ++c) {
                        Axpy(acc[c * p.lineLen], in, f.GetValue(c * tapNum + tap), ow);
                    }
                    segQ.FreeTensor(in);
                }
            }
        }
    }

    __aicore__ inline void Activate(uint32_t cnt)
    {
        LocalTensor<float> acc = accTmp.Get<float>();
        LocalTensor<float> t = scratch.Get<float>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        const uint32_t ow = p.outW;
        for (uint32_t c = 0; c < cnt; ++c) {
            LocalTensor<float> r = out[c * p.lineLen];
            Maxs(r, acc[c * p.lineLen], 0.0f, ow);   // relu first: negative inputs end at 0 anyway
            Adds(t, r, 3.0f, ow);
            Mins(t, t, 6.0f, ow);
            Mul(r, r, t, ow);
            Muls(r, r, 1.0f / 6.0f, ow);
        }
        outQ.EnQue(out);
    }

    __aicore__ inline void Store(uint32_t n, uint32_t oh, uint32_t c0, uint32_t cnt)
    {
        LocalTensor<float> out = outQ.DeQue<float>();
        const uint64_t planeSize = static_cast<uint64_t>(p.outH) * p.outW;
        const uint64_t dst = (static_cast<uint64_t>(n) * p.cout + c0) * planeSize + static_cast<uint64_t>(oh) * p.outW;
        // cnt bursts of outW floats; UB rows are lineLen apart (contiguous 32B blocks),
        // GM rows are one channel plane apart
        DataCopyExtParams cp{static_cast<uint16_t>(cnt), p.outW * 4u, 0,
                             static_cast<uint32_t>((planeSize - p.outW) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], out, cp);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, SEG_BUFS> segQ;
    TQue<QuePosition::VECOUT, OUT_BUFS> outQ;
    TBuf<TPosition::VECCALC> accTmp, scratch, filterBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    ConvPosHardSwishTilingData p;
    uint32_t rowFirst = 0, rowNum = 0, tapNum = 0;
};

extern "C" __global__ __aicore__ void conv_pos_hard_swish(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ConvPosHardSwishKernel op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
