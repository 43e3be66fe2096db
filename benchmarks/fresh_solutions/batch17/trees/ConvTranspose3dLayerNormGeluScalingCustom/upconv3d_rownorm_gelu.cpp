/**
 * upconv3d_rownorm_gelu
 *
 * 3D transposed convolution (kernel 4, stride 2, padding 1) followed by a normalisation
 * over the innermost (W') axis with affine gamma/beta, a GELU and a constant factor.
 *
 * With k=4, s=2, p=1 every output coordinate receives exactly two taps per axis:
 *     o = 2*i - 1 + k   ->   k = o + 1 - 2*i
 * so an output row (n, co, od, oh, :) depends on at most 2x2 (id, ih) input rows per input
 * channel. Along W the even outputs use taps kw = 1, 3 and the odd outputs kw = 0, 2:
 *     out[2m]   = w1 * x[m]   + w3 * x[m-1]
 *     out[2m+1] = w0 * x[m+1] + w2 * x[m]
 * Shifted copies x[m-1] / x[m+1] are produced directly by DataCopyPad with one element of
 * left/right zero padding, and even/odd halves are interleaved with Gather.
 *
 * Work unit = (n, od, oh): all C_out rows of that (od, oh) are produced together, which lets
 * the input rows be loaded once and the row statistics be computed with one WholeReduceSum.
 * The conv bias is a per-row constant and is removed exactly by the mean subtraction, so
 * it is not applied.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct Upconv3dRownormGeluTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t outD;
    uint32_t outH;
    uint32_t outW;   // == 2 * inW == normalised length (64)
    float eps;
    float scale;
};

namespace {
constexpr uint32_t KS = 4;           // kernel size along every axis
constexpr uint32_t MAX_TAPS = 4;     // valid (kd, kh) pairs per output row
constexpr uint32_t VARIANTS = 3;     // x[m-1], x[m], x[m+1]
constexpr float GELU_K = 1.5957691216f;   // 2 * sqrt(2 / pi)
constexpr float GELU_C = 0.044715f;
}  // namespace

class Upconv3dRownormGelu {
public:
    __aicore__ inline Upconv3dRownormGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const Upconv3dRownormGeluTiling &t)
    {
        tiling = t;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        gGm.SetGlobalBuffer((__gm__ float *)gamma);
        bGm.SetGlobalBuffer((__gm__ float *)beta);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        W = tiling.inW;
        OW = tiling.outW;
        uint32_t inElems = tiling.cin * MAX_TAPS * VARIANTS * W;
        pipe.InitBuffer(inQ, 1, inElems * sizeof(float));
        pipe.InitBuffer(outQ, 1, tiling.cout * OW * sizeof(float));
        pipe.InitBuffer(eoBuf, OW * sizeof(float));
        pipe.InitBuffer(tmpBuf, tiling.cout * OW * sizeof(float));
        pipe.InitBuffer(statBuf, 2 * tiling.cout * sizeof(float));
        pipe.InitBuffer(affBuf, 2 * OW * sizeof(float));
        pipe.InitBuffer(idxBuf, OW * sizeof(uint32_t));

        // interleave table: row[o] = eo[(o & 1) * W + (o >> 1)], offsets in bytes
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t o = 0; o < OW; ++o) {
            idx.SetValue(o, ((o & 1u) * W + (o >> 1)) * sizeof(float));
        }
        // gamma / beta of the normalisation, kept resident
        LocalTensor<float> aff = affBuf.Get<float>();
        DataCopy(aff, gGm, OW);
        DataCopy(aff[OW], bGm, OW);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
        event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e2);
        WaitFlag<HardEvent::S_V>(e2);
    }

    __aicore__ inline void Process()
    {
        uint32_t units = tiling.batch * tiling.outD * tiling.outH;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t oh = u % tiling.outH;
            uint32_t od = (u / tiling.outH) % tiling.outD;
            uint32_t n = u / (tiling.outH * tiling.outD);
            DoUnit(n, od, oh);
        }
    }

private:
    // valid (k, i) pairs for one axis: o = 2*i - 1 + k
    __aicore__ inline uint32_t AxisTaps(uint32_t o, uint32_t inLen, uint32_t *ks, uint32_t *is)
    {
        uint32_t cnt = 0;
        for (uint32_t k = 0; k < KS; ++k) {
            int32_t num = static_cast<int32_t>(o) + 1 - static_cast<int32_t>(k);
            if (num < 0 || (num & 1)) {
                continue;
            }
            uint32_t i = static_cast<uint32_t>(num) >> 1;
            if (i < inLen) {
                ks[cnt] = k;
                is[cnt] = i;
                ++cnt;
            }
        }
        return cnt;
    }

    __aicore__ inline void DoUnit(uint32_t n, uint32_t od, uint32_t oh)
    {
        uint32_t kd[2], id[2], kh[2], ih[2];
        uint32_t nd = AxisTaps(od, tiling.inD, kd, id);
        uint32_t nh = AxisTaps(oh, tiling.inH, kh, ih);
        uint32_t taps = nd * nh;

        // ---- load every input row this unit touches, in three shifts
        LocalTensor<float> in = inQ.AllocTensor<float>();
        DataCopyExtParams cpFull{1, static_cast<uint32_t>(W * sizeof(float)), 0, 0, 0};
        DataCopyExtParams cpPart{1, static_cast<uint32_t>((W - 1) * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> none{false, 0, 0, 0.0f};
        DataCopyPadExtParams<float> padL{true, 1, 0, 0.0f};
        DataCopyPadExtParams<float> padR{true, 0, 1, 0.0f};
        for (uint32_t ci = 0; ci < tiling.cin; ++ci) {
            for (uint32_t a = 0; a < nd; ++a) {
                for (uint32_t b = 0; b < nh; ++b) {
                    uint64_t rowOff = ((((uint64_t)n * tiling.cin + ci) * tiling.inD + id[a]) * tiling.inH + ih[b]) * W;
                    uint32_t slot = ((ci * MAX_TAPS) + a * 2 + b) * VARIANTS * W;
                    DataCopyPad(in[slot], xGm[rowOff], cpPart, padL);          // x[m-1]
                    DataCopyPad(in[slot + W], xGm[rowOff], cpFull, none);      // x[m]
                    DataCopyPad(in[slot + 2 * W], xGm[rowOff + 1], cpPart, padR);  // x[m+1]
                }
            }
        }
        inQ.EnQue(in);
        in = inQ.DeQue<float>();

        // ---- transposed conv for every output channel
        LocalTensor<float> rows = outQ.AllocTensor<float>();
        LocalTensor<float> eo = eoBuf.Get<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<float> even = eo;
        LocalTensor<float> odd = eo[W];
        for (uint32_t co = 0; co < tiling.cout; ++co) {
            Duplicate(eo, 0.0f, OW);
            for (uint32_t ci = 0; ci < tiling.cin; ++ci) {
                uint64_t wBase = ((uint64_t)ci * tiling.cout + co) * KS * KS * KS;
                for (uint32_t a = 0; a < nd; ++a) {
                    for (uint32_t b = 0; b < nh; ++b) {
                        uint64_t wo = wBase + (kd[a] * KS + kh[b]) * KS;
                        float w0 = wGm.GetValue(wo + 0);
                        float w1 = wGm.GetValue(wo + 1);
                        float w2 = wGm.GetValue(wo + 2);
                        float w3 = wGm.GetValue(wo + 3);
                        uint32_t slot = ((ci * MAX_TAPS) + a * 2 + b) * VARIANTS * W;
                        Axpy(even, in[slot + W], w1, W);
                        Axpy(even, in[slot], w3, W);
                        Axpy(odd, in[slot + 2 * W], w0, W);
                        Axpy(odd, in[slot + W], w2, W);
                    }
                }
            }
            PipeBarrier<PIPE_V>();
            Gather(rows[co * OW], eo, idx, 0u, OW);
            PipeBarrier<PIPE_V>();
        }
        inQ.FreeTensor(in);
        (void)taps;

        NormalizeActivate(rows);
        outQ.EnQue(rows);

        // ---- store: C_out rows of OW floats, output row pitch is outD*outH*outW
        rows = outQ.DeQue<float>();
        DataCopyParams st;
        st.blockCount = static_cast<uint16_t>(tiling.cout);
        st.blockLen = static_cast<uint16_t>(OW * sizeof(float) / 32);
        st.srcStride = 0;
        st.dstStride = static_cast<uint16_t>(((uint64_t)tiling.outD * tiling.outH * OW - OW) * sizeof(float) / 32);
        uint64_t dst = ((((uint64_t)n * tiling.cout) * tiling.outD + od) * tiling.outH + oh) * OW;
        DataCopy(yGm[dst], rows, st);
        outQ.FreeTensor(rows);
    }

    // rows: [cout, OW]; normalise each row, affine, GELU (tanh form), scale
    __aicore__ inline void NormalizeActivate(LocalTensor<float> &rows)
    {
        uint32_t C = tiling.cout;
        uint32_t total = C * OW;
        uint8_t rowRep = static_cast<uint8_t>(OW * sizeof(float) / 32);
        float invN = 1.0f / static_cast<float>(OW);
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> mean = st;
        LocalTensor<float> rstd = st[C];
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> aff = affBuf.Get<float>();

        WholeReduceSum<float>(mean, rows, static_cast<int32_t>(OW), static_cast<int32_t>(C), 1, 1, rowRep);
        PipeBarrier<PIPE_V>();
        Muls(mean, mean, invN, C);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        for (uint32_t r = 0; r < C; ++r) {
            float m = mean.GetValue(r);
            Adds(rows[r * OW], rows[r * OW], -m, OW);
        }
        PipeBarrier<PIPE_V>();
        Mul(tmp, rows, rows, total);
        PipeBarrier<PIPE_V>();
        WholeReduceSum<float>(rstd, tmp, static_cast<int32_t>(OW), static_cast<int32_t>(C), 1, 1, rowRep);
        PipeBarrier<PIPE_V>();
        Muls(rstd, rstd, invN, C);
        Adds(rstd, rstd, tiling.eps, C);
        Sqrt(rstd, rstd, C);
        Reciprocal(rstd, rstd, C);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        for (uint32_t r = 0; r < C; ++r) {
            float s = rstd.GetValue(r);
            Muls(rows[r * OW], rows[r * OW], s, OW);
        }
        PipeBarrier<PIPE_V>();

        // gamma / beta broadcast over the rows (src1 repeat stride 0)
        BinaryRepeatParams bc(1, 1, 1, rowRep, rowRep, 0);
        Mul(rows, rows, aff, static_cast<uint64_t>(OW), static_cast<uint8_t>(C), bc);
        PipeBarrier<PIPE_V>();
        Add(rows, rows, aff[OW], static_cast<uint64_t>(OW), static_cast<uint8_t>(C), bc);
        PipeBarrier<PIPE_V>();

        // gelu(v) ~= v / (1 + exp(-k * (v + c v^3)))
        Mul(tmp, rows, rows, total);
        Mul(tmp, tmp, rows, total);
        Muls(tmp, tmp, GELU_C, total);
        Add(tmp, tmp, rows, total);
        Muls(tmp, tmp, -GELU_K, total);
        Exp(tmp, tmp, total);
        Adds(tmp, tmp, 1.0f, total);
        Div(rows, rows, tmp, total);
        Muls(rows, rows, tiling.scale, total);
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> eoBuf, tmpBuf, statBuf, affBuf, idxBuf;
    GlobalTensor<float> xGm, wGm, gGm, bGm, yGm;
    Upconv3dRownormGeluTiling tiling;
    uint32_t W = 0;
    uint32_t OW = 0;
};

extern "C" __global__ __aicore__ void upconv3d_rownorm_gelu(GM_ADDR x, GM_ADDR w, GM_ADDR gamma, GM_ADDR beta,
                                                            GM_ADDR y, GM_ADDR tiling)
{
    Upconv3dRownormGeluTiling t;
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) {
        reinterpret_cast<uint32_t *>(&t)[i] = reinterpret_cast<__gm__ uint32_t *>(tiling)[i];
    }
    Upconv3dRownormGelu op;
    op.Init(x, w, gamma, beta, y, t);
    op.Process();
}
