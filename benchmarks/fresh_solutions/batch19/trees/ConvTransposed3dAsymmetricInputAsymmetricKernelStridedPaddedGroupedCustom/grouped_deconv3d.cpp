/*
 * grouped_deconv3d.cpp
 *
 * 3-D transposed convolution ("deconvolution") with per-axis stride, padding,
 * output padding and channel groups, no bias.
 *
 *   x : (N, Cin, D, H, W)
 *   w : (Cin, Cout/groups, KD, KH, KW)        (PyTorch ConvTranspose3d layout)
 *   y : (N, Cout, OD, OH, OW)
 *
 * Gather formulation: for an output row (n, g, od, oh) the contributing input rows are
 * those (ic, id, ih) with od = id*sD - pD + kd and oh = ih*sH - pH + kh. Along W the
 * mapping ow -> iw = (ow + pW - kw) / sW is irregular, so for every kw a byte-offset
 * table is built once and the vector Gather instruction expands an input row into an
 * OW-long vector (positions that receive nothing point at a zero slot). That vector is
 * reused by all output channels of the group through Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct GroupedDeconv3dTiling {
    uint32_t batch;
    uint32_t inC, inD, inH, inW;
    uint32_t outC, outD, outH, outW;
    uint32_t kD, kH, kW;
    uint32_t sD, sH, sW;
    uint32_t pD, pH, pW;
    uint32_t groups;
    uint32_t icPerGroup;
    uint32_t ocPerGroup;
    uint32_t inWAlign;      // inW rounded up to 8
    uint32_t outWAlign;     // outW rounded up to 8
    uint32_t unitsPerCore;  // output rows (n, g, od, oh) per core
    uint32_t totalUnits;
};

class GroupedDeconv3d {
public:
    __aicore__ inline GroupedDeconv3d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const GroupedDeconv3dTiling &tiling)
    {
        tp = tiling;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        kVol = tp.kD * tp.kH * tp.kW;
        groupW = tp.icPerGroup * tp.ocPerGroup * kVol;   // weights of one group
        uint32_t groupWAlign = (groupW + 7) / 8 * 8;

        pipe.InitBuffer(rowQ, 2, (tp.inWAlign + 8) * sizeof(float));
        pipe.InitBuffer(accQ, 1, tp.ocPerGroup * tp.outWAlign * sizeof(float));
        pipe.InitBuffer(wBuf, groupWAlign * sizeof(float));
        pipe.InitBuffer(tblBuf, tp.kW * tp.outWAlign * sizeof(uint32_t));
        pipe.InitBuffer(expBuf, tp.outWAlign * sizeof(float));

        BuildTables();

        first = GetBlockIdx() * tp.unitsPerCore;
        last = first + tp.unitsPerCore;
        if (last > tp.totalUnits) last = tp.totalUnits;
    }

    __aicore__ inline void Process()
    {
        int32_t loadedGroup = -1;
        for (uint32_t u = first; u < last; ++u) {
            uint32_t oh = u % tp.outH;
            uint32_t rest = u / tp.outH;
            uint32_t od = rest % tp.outD;
            rest /= tp.outD;
            uint32_t g = rest % tp.groups;
            uint32_t n = rest / tp.groups;
            if ((int32_t)g != loadedGroup) {
                LoadGroupWeights(g);
                loadedGroup = (int32_t)g;
            }
            ComputeRow(n, g, od, oh);
            StoreRow(n, g, od, oh);
        }
    }

private:
    // tbl[kw][ow] = byte offset into the staged input row that feeds y[.., ow] through tap kw,
    // or the zero slot at inWAlign when no input column lands there.
    __aicore__ inline void BuildTables()
    {
        LocalTensor<uint32_t> tbl = tblBuf.Get<uint32_t>();
        const uint32_t zeroSlot = tp.inWAlign * sizeof(float);
        for (uint32_t kw = 0; kw < tp.kW; ++kw) {
            for (uint32_t ow = 0; ow < tp.outWAlign; ++ow) {
                uint32_t off = zeroSlot;
                int32_t num = (int32_t)ow + (int32_t)tp.pW - (int32_t)kw;
                if (ow < tp.outW && num >= 0 && num % (int32_t)tp.sW == 0) {
                    int32_t iw = num / (int32_t)tp.sW;
                    if (iw < (int32_t)tp.inW) {
                        off = (uint32_t)iw * sizeof(float);
                    }
                }
                tbl.SetValue(kw * tp.outWAlign + ow, off);
            }
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    // Weights for group g: w[g*icPerGroup + ic, oc, kd, kh, kw] are contiguous in GM.
    __aicore__ inline void LoadGroupWeights(uint32_t g)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        event_t evSM = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE2));
        SetFlag<HardEvent::S_MTE2>(evSM);
        WaitFlag<HardEvent::S_MTE2>(evSM);
        DataCopyExtParams cp{1, groupW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm[(uint64_t)g * groupW], cp, pad);
        event_t evMS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evMS);
        WaitFlag<HardEvent::MTE2_S>(evMS);
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t g, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accQ.AllocTensor<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<uint32_t> tbl = tblBuf.Get<uint32_t>();
        LocalTensor<float> expanded = expBuf.Get<float>();
        const uint32_t owA = tp.outWAlign;
        Duplicate(acc, 0.0f, tp.ocPerGroup * owA);

        for (uint32_t kd = 0; kd < tp.kD; ++kd) {
            int32_t nd = (int32_t)od + (int32_t)tp.pD - (int32_t)kd;
            if (nd < 0 || nd % (int32_t)tp.sD != 0) continue;
            uint32_t id = (uint32_t)nd / tp.sD;
            if (id >= tp.inD) continue;
            for (uint32_t kh = 0; kh < tp.kH; ++kh) {
                int32_t nh = (int32_t)oh + (int32_t)tp.pH - (int32_t)kh;
                if (nh < 0 || nh % (int32_t)tp.sH != 0) continue;
                uint32_t ih = (uint32_t)nh / tp.sH;
                if (ih >= tp.inH) continue;

                for (uint32_t icl = 0; icl < tp.icPerGroup; ++icl) {
                    uint32_t ic = g * tp.icPerGroup + icl;
                    uint64_t src = ((((uint64_t)n * tp.inC + ic) * tp.inD + id) * tp.inH + ih) * tp.inW;
                    FetchRow(src);
                    LocalTensor<float> xr = rowQ.DeQue<float>();
                    Duplicate(xr[tp.inWAlign], 0.0f, 8);   // the zero slot
                    uint32_t wBase = (icl * tp.ocPerGroup * tp.kD + kd) * tp.kH * tp.kW + kh * tp.kW;
                    for (uint32_t kw = 0; kw < tp.kW; ++kw) {
                        Gather(expanded, xr, tbl[kw * owA], (uint32_t)0, owA);
                        for (uint32_t oc = 0; oc < tp.ocPerGroup; ++oc) {
                            float wv = wl.GetValue(wBase + oc * kVol + kw);
                            Axpy(acc[oc * owA], expanded, wv, owA);
                        }
                    }
                    rowQ.FreeTensor(xr);
                }
            }
        }
        accQ.EnQue(acc);
    }

    __aicore__ inline void FetchRow(uint64_t src)
    {
        LocalTensor<float> xr = rowQ.AllocTensor<float>();
        DataCopyExtParams cp{1, tp.inW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xr, xGm[src], cp, pad);
        rowQ.EnQue(xr);
    }

    __aicore__ inline void StoreRow(uint32_t n, uint32_t g, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accQ.DeQue<float>();
        DataCopyExtParams cp{1, tp.outW * (uint32_t)sizeof(float), 0, 0, 0};
        for (uint32_t oc = 0; oc < tp.ocPerGroup; ++oc) {
            uint32_t c = g * tp.ocPerGroup + oc;
            uint64_t dst = ((((uint64_t)n * tp.outC + c) * tp.outD + od) * tp.outH + oh) * tp.outW;
            DataCopyPad(yGm[dst], acc[oc * tp.outWAlign], cp);
        }
        accQ.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQ;
    TQue<QuePosition::VECOUT, 1> accQ;
    TBuf<TPosition::VECCALC> wBuf, tblBuf, expBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    GroupedDeconv3dTiling tp;
    uint32_t kVol = 0, groupW = 0;
    uint32_t first = 0, last = 0;
};

extern "C" __global__ __aicore__ void grouped_deconv3d(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR tiling)
{
    GroupedDeconv3dTiling tp;
    __gm__ uint32_t *g = (__gm__ uint32_t *)tiling;
    uint32_t *l = (uint32_t *)&tp;
    for (uint32_t i = 0; i < sizeof(GroupedDeconv3dTiling) / 4; ++i) {
        l[i] = g[i];
    }
    GroupedDeconv3d op;
    op.Init(x, w, y, tp);
    op.Process();
}
