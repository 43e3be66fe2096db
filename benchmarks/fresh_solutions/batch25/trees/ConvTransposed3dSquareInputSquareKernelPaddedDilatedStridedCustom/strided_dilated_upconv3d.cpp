/*
 * strided_dilated_upconv3d
 *
 * 3-D transposed convolution, cubic kernel K=3, stride 2, padding 1, dilation 2,
 * no bias.  Weight layout [Cin, Cout, K, K, K].
 *
 * With stride 2 and dilation 2 an input voxel i and tap k land on
 *     o = 2*i - 1 + 2*k = 2*(i + k) - 1,
 * so only odd output coordinates ever receive a contribution; every output
 * voxel with an even d, h or w index is exactly zero.  The host clears the
 * output once, and this kernel only writes the rows (od, oh) = (2a-1, 2b-1):
 *
 *     y[n, co, 2a-1, 2b-1, 2c-1] = sum_{ci,kd,kh,kw} x[n, ci, a-kd, b-kh, c-kw] * w[ci, co, kd, kh, kw]
 *
 * Work unit = (n, a, b).  For each input channel the <= 9 needed input rows are
 * staged, and for every output channel three width-accumulators (one per kw)
 *     P_kw[i] += w[ci, co, kd, kh, kw] * x[n, ci, a-kd, b-kh, i]
 * are built with Axpy on aligned rows.  The kw shift is applied when the
 * 2*W+1 wide output row is assembled: y(c) = P_0[c] + P_1[c-1] + P_2[c-2].
 */
#include "kernel_operator.h"

using namespace AscendC;

struct StridedDilatedUpconv3dTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t outD;
    uint32_t outH;
    uint32_t outW;
    uint32_t wAlign;       // inW rounded to 8
    uint32_t rowAlign;     // outW rounded to 8
    uint32_t unitCount;    // batch * inD * inH  (a in 1..inD, b in 1..inH)
    uint32_t unitsPerCore;
};

constexpr uint32_t KS = 3;
constexpr uint32_t TAPS = KS * KS * KS;

class StridedDilatedUpconv3d {
public:
    __aicore__ inline StridedDilatedUpconv3d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const StridedDilatedUpconv3dTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        wSlice = tl.cout * TAPS;
        wSliceAlign = (wSlice + 7) / 8 * 8;
        pipe.InitBuffer(rowQ, 1, KS * KS * tl.wAlign * sizeof(float));
        pipe.InitBuffer(wBuf, wSliceAlign * sizeof(float));
        pipe.InitBuffer(accBuf, tl.cout * KS * tl.wAlign * sizeof(float));
        pipe.InitBuffer(outQ, 2, tl.rowAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t first = GetBlockIdx() * tl.unitsPerCore;
        uint32_t last = first + tl.unitsPerCore;
        last = last > tl.unitCount ? tl.unitCount : last;
        for (uint32_t u = first; u < last; ++u) {
            uint32_t b = u % tl.inH + 1;
            uint32_t a = (u / tl.inH) % tl.inD + 1;
            uint32_t n = u / (tl.inH * tl.inD);
            RunUnit(n, a, b);
        }
    }

private:
    __aicore__ inline void RunUnit(uint32_t n, uint32_t a, uint32_t b)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        Duplicate(acc, 0.0f, tl.cout * KS * tl.wAlign);

        for (uint32_t ci = 0; ci < tl.cin; ++ci) {
            // weights w[ci, :, :, :, :] -> UB, read back as scalars
            event_t sToMte2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE2));
            SetFlag<HardEvent::S_MTE2>(sToMte2);
            WaitFlag<HardEvent::S_MTE2>(sToMte2);
            DataCopyExtParams wcp{1, wSlice * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPadExtParams<float> none{false, 0, 0, 0.0f};
            DataCopyPad(wl, wGm[(uint64_t)ci * wSlice], wcp, none);

            // the 3x3 input rows (a-kd, b-kh); missing rows are skipped later
            LocalTensor<float> rows = rowQ.AllocTensor<float>();
            uint8_t valid[KS * KS];
            DataCopyExtParams xcp{1, tl.inW * (uint32_t)sizeof(float), 0, 0, 0};
            for (uint32_t kd = 0; kd < KS; ++kd) {
                for (uint32_t kh = 0; kh < KS; ++kh) {
                    int32_t id = (int32_t)a - (int32_t)kd;
                    int32_t ih = (int32_t)b - (int32_t)kh;
                    bool ok = id >= 0 && id < (int32_t)tl.inD && ih >= 0 && ih < (int32_t)tl.inH;
                    valid[kd * KS + kh] = ok ? 1 : 0;
                    if (ok) {
                        uint64_t src = ((((uint64_t)n * tl.cin + ci) * tl.inD + id) * tl.inH + ih) * tl.inW;
                        DataCopyPad(rows[(kd * KS + kh) * tl.wAlign], xGm[src], xcp, none);
                    }
                }
            }
            rowQ.EnQue(rows);
            rows = rowQ.DeQue<float>();

            event_t mte2ToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(mte2ToS);
            WaitFlag<HardEvent::MTE2_S>(mte2ToS);

            for (uint32_t co = 0; co < tl.cout; ++co) {
                LocalTensor<float> accCo = acc[co * KS * tl.wAlign];
                uint32_t wBase = co * TAPS;
                for (uint32_t r = 0; r < KS * KS; ++r) {
                    if (!valid[r]) {
                        continue;
                    }
                    LocalTensor<float> src = rows[r * tl.wAlign];
                    for (uint32_t kw = 0; kw < KS; ++kw) {
                        float wv = wl.GetValue(wBase + r * KS + kw);
                        Axpy(accCo[kw * tl.wAlign], src, wv, tl.inW);
                    }
                }
            }
            rowQ.FreeTensor(rows);
        }

        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);

        uint32_t od = 2 * a - 1;
        uint32_t oh = 2 * b - 1;
        for (uint32_t co = 0; co < tl.cout; ++co) {
            EmitRow(n, co, od, oh, acc[co * KS * tl.wAlign]);
        }
    }

    // interleave the odd columns into a zero row of outW and store it
    __aicore__ inline void EmitRow(uint32_t n, uint32_t co, uint32_t od, uint32_t oh, const LocalTensor<float> &p)
    {
        LocalTensor<float> row = outQ.AllocTensor<float>();
        Duplicate(row, 0.0f, tl.rowAlign);
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);

        for (uint32_t c = 1; c <= tl.inW; ++c) {
            float v = 0.0f;
            for (uint32_t kw = 0; kw < KS; ++kw) {
                if (c >= kw && c - kw < tl.inW) {
                    v += p.GetValue(kw * tl.wAlign + (c - kw));
                }
            }
            row.SetValue(2 * c - 1, v);
        }
        event_t sToM3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToM3);
        WaitFlag<HardEvent::S_MTE3>(sToM3);
        outQ.EnQue(row);

        row = outQ.DeQue<float>();
        uint64_t dst = ((((uint64_t)n * tl.cout + co) * tl.outD + od) * tl.outH + oh) * tl.outW;
        DataCopyExtParams cp{1, tl.outW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[dst], row, cp);
        outQ.FreeTensor(row);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> rowQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> wBuf;
    TBuf<QuePosition::VECCALC> accBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    StridedDilatedUpconv3dTiling tl;
    uint32_t wSlice = 0;
    uint32_t wSliceAlign = 0;
};

extern "C" __global__ __aicore__ void strided_dilated_upconv3d(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR tiling)
{
    StridedDilatedUpconv3dTiling t;
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto *dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    StridedDilatedUpconv3d op;
    op.Init(x, w, y, t);
    op.Process();
}
