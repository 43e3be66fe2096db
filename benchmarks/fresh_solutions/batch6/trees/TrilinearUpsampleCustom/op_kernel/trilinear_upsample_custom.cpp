// kernel: trilinear upsample, align_corners=True, one output depth plane per step
#include "kernel_operator.h"
using namespace AscendC;

class Trilerp {
public:
    __aicore__ inline Trilerp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t nc, uint32_t id, uint32_t ih, uint32_t iw,
                                uint32_t od, uint32_t oh, uint32_t ow, uint32_t planes, uint32_t ppc,
                                float rd, float rh, float rw)
    {
        ID = id; IH = ih; IW = iw; OD = od; OH = oh; OW = ow;
        RD = rd; RH = rh; RW = rw;
        iwA = (iw + 7) / 8 * 8;
        owA = (ow + 7) / 8 * 8;
        p0 = ppc * GetBlockIdx();
        p1 = p0 + ppc;
        if (p1 > planes) p1 = planes;
        xG.SetGlobalBuffer((__gm__ float*)x);
        yG.SetGlobalBuffer((__gm__ float*)y);
        uint32_t inSz = ih * iwA * sizeof(float);
        pipe.InitBuffer(qa, 2, inSz);
        pipe.InitBuffer(qb, 2, inSz);
        pipe.InitBuffer(qo, 2, oh * owA * sizeof(float));
        pipe.InitBuffer(pB, inSz);
        pipe.InitBuffer(rB, iwA * sizeof(float));
        pipe.InitBuffer(g0B, owA * sizeof(float));
        pipe.InitBuffer(g1B, owA * sizeof(float));
        pipe.InitBuffer(o0B, owA * sizeof(uint32_t));
        pipe.InitBuffer(o1B, owA * sizeof(uint32_t));
        pipe.InitBuffer(lwB, owA * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (p0 >= p1) return;
        BuildW();
        for (uint32_t p = p0; p < p1; p++) {
            uint32_t q = p / OD;
            uint32_t d = p % OD;
            float sd = d * RD;
            uint32_t d0 = static_cast<uint32_t>(sd);
            if (d0 > ID - 1) d0 = ID - 1;
            uint32_t d1 = (d0 + 1 < ID) ? d0 + 1 : ID - 1;
            float ld = sd - static_cast<float>(d0);
            CopyIn(q, d0, d1);
            Compute(ld);
            CopyOut(p);
        }
    }

private:
    __aicore__ inline void BuildW()
    {
        LocalTensor<uint32_t> o0 = o0B.Get<uint32_t>();
        LocalTensor<uint32_t> o1 = o1B.Get<uint32_t>();
        LocalTensor<float> lw = lwB.Get<float>();
        for (uint32_t i = 0; i < OW; i++) {
            float s = i * RW;
            uint32_t a = static_cast<uint32_t>(s);
            if (a > IW - 1) a = IW - 1;
            uint32_t b = (a + 1 < IW) ? a + 1 : IW - 1;
            o0.SetValue(i, a * sizeof(float));
            o1.SetValue(i, b * sizeof(float));
            lw.SetValue(i, s - static_cast<float>(a));
        }
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
    }
    __aicore__ inline void CopyIn(uint32_t q, uint32_t d0, uint32_t d1)
    {
        LocalTensor<float> a = qa.AllocTensor<float>();
        LocalTensor<float> b = qb.AllocTensor<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(IH), static_cast<uint32_t>(IW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        uint64_t base = (uint64_t)q * ID * IH * IW;
        DataCopyPad(a, xG[base + (uint64_t)d0 * IH * IW], cp, pd);
        DataCopyPad(b, xG[base + (uint64_t)d1 * IH * IW], cp, pd);
        qa.EnQue(a);
        qb.EnQue(b);
    }
    __aicore__ inline void Compute(float ld)
    {
        LocalTensor<float> a = qa.DeQue<float>();
        LocalTensor<float> b = qb.DeQue<float>();
        LocalTensor<float> P = pB.Get<float>();
        LocalTensor<float> row = rB.Get<float>();
        LocalTensor<float> g0 = g0B.Get<float>();
        LocalTensor<float> g1 = g1B.Get<float>();
        LocalTensor<uint32_t> o0 = o0B.Get<uint32_t>();
        LocalTensor<uint32_t> o1 = o1B.Get<uint32_t>();
        LocalTensor<float> lw = lwB.Get<float>();
        LocalTensor<float> out = qo.AllocTensor<float>();
        uint32_t n = IH * iwA;
        Sub(b, b, a, n);
        Muls(b, b, ld, n);
        Add(P, a, b, n);
        for (uint32_t h = 0; h < OH; h++) {
            float sh = h * RH;
            uint32_t h0 = static_cast<uint32_t>(sh);
            if (h0 > IH - 1) h0 = IH - 1;
            uint32_t h1 = (h0 + 1 < IH) ? h0 + 1 : IH - 1;
            float lh = sh - static_cast<float>(h0);
            Sub(row, P[h1 * iwA], P[h0 * iwA], iwA);
            Muls(row, row, lh, iwA);
            Add(row, row, P[h0 * iwA], iwA);
            Gather(g0, row, o0, 0, OW);
            Gather(g1, row, o1, 0, OW);
            Sub(g1, g1, g0, OW);
            Mul(g1, g1, lw, OW);
            Add(out[h * owA], g0, g1, OW);
        }
        qo.EnQue(out);
        qa.FreeTensor(a);
        qb.FreeTensor(b);
    }
    __aicore__ inline void CopyOut(uint32_t p)
    {
        LocalTensor<float> out = qo.DeQue<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(OH), static_cast<uint32_t>(OW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yG[(uint64_t)p * OH * OW], out, cp);
        qo.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qa, qb;
    TQue<QuePosition::VECOUT, 2> qo;
    TBuf<TPosition::VECCALC> pB, rB, g0B, g1B, o0B, o1B, lwB;
    GlobalTensor<float> xG, yG;
    uint32_t ID, IH, IW, OD, OH, OW, iwA, owA, p0, p1;
    float RD, RH, RW;
};

extern "C" __global__ __aicore__ void trilinear_upsample_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Trilerp op;
    op.Init(x, y, td.nc, td.id, td.ih, td.iw, td.od, td.oh, td.ow, td.planes, td.planesPerCore,
            td.rd, td.rh, td.rw);
    op.Process();
}
