// kernel: mean over the middle axis of [outer, rlen, inner]
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF = 2;

class KMean {
public:
    __aicore__ inline KMean() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MeanReductionOverADimensionCustomTilingData &t)
    {
        outer = t.outer; rlen = t.rlen; inner = t.inner; tl = t.tileLen; rb = t.rowBatch;
        tpo = t.tilesPerOuter; mode = t.mode;
        uint32_t bn = GetBlockNum(), bi = GetBlockIdx();
        uint32_t per = t.totalTiles / bn, rem = t.totalTiles % bn;
        st = bi * per + (bi < rem ? bi : rem);
        cnt = per + (bi < rem ? 1 : 0);
        inv = 1.0f / static_cast<float>(rlen);
        xg.SetGlobalBuffer((__gm__ float *)x);
        yg.SetGlobalBuffer((__gm__ float *)y);
        if (mode == 0) {
            pipe.InitBuffer(qi, BUF, rb * tl * sizeof(float));
        } else {
            pipe.InitBuffer(qi, BUF, tl * sizeof(float));
        }
        pipe.InitBuffer(qo, BUF, (mode == 0 ? tl : rb) * sizeof(float));
        pipe.InitBuffer(ab, tl * sizeof(float));
        pipe.InitBuffer(wb, tl * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (mode == 0) {
            for (uint32_t i = 0; i < cnt; i++) Strided(st + i);
        } else {
            for (uint32_t i = 0; i < cnt; i += rb) {
                uint32_t k = (cnt - i) < rb ? (cnt - i) : rb;
                Rows(st + i, k);
            }
        }
    }

private:
    __aicore__ inline void Strided(uint32_t g)
    {
        uint32_t o = g / tpo, i0 = (g % tpo) * tl;
        uint32_t len = (inner - i0) < tl ? (inner - i0) : tl;
        uint32_t al = (len + 7) / 8 * 8;
        uint64_t base = (uint64_t)o * rlen * inner + i0;
        LocalTensor<float> acc = ab.Get<float>();
        Duplicate(acc, 0.0f, al);
        DataCopyPadExtParams<float> pd{false, 0, 0, 0};
        for (uint32_t r = 0; r < rlen; r += rb) {
            uint32_t k = (rlen - r) < rb ? (rlen - r) : rb;
            LocalTensor<float> in = qi.AllocTensor<float>();
            DataCopyExtParams cp{(uint16_t)k, len * (uint32_t)sizeof(float), (inner - len) * (uint32_t)sizeof(float), 0, 0};
            DataCopyPad(in, xg[base + (uint64_t)r * inner], cp, pd);
            qi.EnQue(in);
            in = qi.DeQue<float>();
            uint32_t h = k;
            while (h > 1) {
                uint32_t half = h / 2;
                Add(in, in, in[(h - half) * al], half * al);
                h -= half;
            }
            Add(acc, acc, in, al);
            qi.FreeTensor(in);
        }
        LocalTensor<float> ot = qo.AllocTensor<float>();
        Muls(ot, acc, inv, al);
        qo.EnQue(ot);
        ot = qo.DeQue<float>();
        DataCopyExtParams op{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yg[(uint64_t)o * inner + i0], ot, op);
        qo.FreeTensor(ot);
    }
    __aicore__ inline void Rows(uint32_t r0, uint32_t k)
    {
        LocalTensor<float> acc = ab.Get<float>();
        LocalTensor<float> wk = wb.Get<float>();
        LocalTensor<float> ot = qo.AllocTensor<float>();
        for (uint32_t j = 0; j < k; j++) {
            uint64_t base = (uint64_t)(r0 + j) * rlen;
            Duplicate(acc, 0.0f, tl);
            for (uint32_t c = 0; c < rlen; c += tl) {
                uint32_t len = (rlen - c) < tl ? (rlen - c) : tl;
                uint32_t al = (len + 7) / 8 * 8;
                LocalTensor<float> in = qi.AllocTensor<float>();
                DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
                DataCopyPadExtParams<float> pd{true, 0, (uint8_t)(al - len), 0.0f};
                DataCopyPad(in, xg[base + c], cp, pd);
                qi.EnQue(in);
                in = qi.DeQue<float>();
                Add(acc, acc, in, al);
                qi.FreeTensor(in);
            }
            ReduceSum(acc, acc, wk, tl);
            Muls(acc, acc, inv, 1);
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            ot.SetValue(j, acc.GetValue(0));
            event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(ev2);
            WaitFlag<HardEvent::S_V>(ev2);
        }
        qo.EnQue(ot);
        ot = qo.DeQue<float>();
        DataCopyExtParams op{1, k * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yg[r0], ot, op);
        qo.FreeTensor(ot);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUF> qi;
    TQue<QuePosition::VECOUT, BUF> qo;
    TBuf<TPosition::VECCALC> ab, wb;
    GlobalTensor<float> xg, yg;
    uint32_t outer, rlen, inner, tl, rb, tpo, mode, st, cnt;
    float inv;
};

extern "C" __global__ __aicore__ void mean_reduction_over_a_dimension_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KMean op;
    op.Init(x, y, td);
    op.Process();
}
