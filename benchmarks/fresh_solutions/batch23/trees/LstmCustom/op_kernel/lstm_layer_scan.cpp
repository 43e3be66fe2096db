// One unidirectional LSTM layer scanned over the whole sequence.
// Each AI vector core owns a few independent sequences (batch items) and runs the
// recurrence locally, so no cross-core synchronisation is needed inside the time loop.
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr int32_t BUF = 2;
}

class LstmLayerScanKernel {
public:
    __aicore__ inline LstmLayerScanKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR h0, GM_ADDR c0, GM_ADDR wih, GM_ADDR whh, GM_ADDR bih,
                                GM_ADDR bhh, GM_ADDR y, GM_ADDR hn, GM_ADDR cn, const LstmLayerScanTilingData& t)
    {
        B = t.batch; T = t.seqLen; I = t.inputSize; H = t.hiddenSize;
        IA = t.inputAlign; HA = t.hiddenAlign; R = t.rowsPerLoad;
        G = 4 * H;
        uint32_t widest = IA > HA ? IA : HA;
        first = GetBlockIdx() * t.seqPerCore;
        last = first + t.seqPerCore > B ? B : first + t.seqPerCore;

        xg.SetGlobalBuffer((__gm__ float*)x);
        h0g.SetGlobalBuffer((__gm__ float*)h0);
        c0g.SetGlobalBuffer((__gm__ float*)c0);
        wihg.SetGlobalBuffer((__gm__ float*)wih);
        whhg.SetGlobalBuffer((__gm__ float*)whh);
        bihg.SetGlobalBuffer((__gm__ float*)bih);
        bhhg.SetGlobalBuffer((__gm__ float*)bhh);
        yg.SetGlobalBuffer((__gm__ float*)y);
        hng.SetGlobalBuffer((__gm__ float*)hn);
        cng.SetGlobalBuffer((__gm__ float*)cn);

        pipe.InitBuffer(wQue, BUF, R * widest * sizeof(float));
        pipe.InitBuffer(outQue, BUF, HA * sizeof(float));
        pipe.InitBuffer(prodBuf, R * widest * sizeof(float));
        pipe.InitBuffer(gateBuf, 4 * HA * sizeof(float));
        pipe.InitBuffer(biasBuf, 4 * HA * sizeof(float));
        pipe.InitBuffer(xBuf, IA * sizeof(float));
        pipe.InitBuffer(hBuf, HA * sizeof(float));
        pipe.InitBuffer(cBuf, HA * sizeof(float));
        pipe.InitBuffer(tmpBuf, 2 * HA * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (first >= last) {
            return;
        }
        LoadBias();
        for (uint32_t b = first; b < last; ++b) {
            RunSequence(b);
        }
    }

private:
    __aicore__ inline void Copy(const LocalTensor<float>& dst, const GlobalTensor<float>& src, uint32_t n)
    {
        DataCopyPad(dst, src, {1, (uint32_t)(n * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0.0f});
    }

    __aicore__ inline void SyncMte2ToV()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
    }

    // gate bias = b_ih + b_hh, each gate block starts at a 32B aligned offset q*HA
    __aicore__ inline void LoadBias()
    {
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        for (uint32_t q = 0; q < 4; ++q) {
            Copy(bias[q * HA], bihg[q * H], H);
            Copy(tmp, bhhg[q * H], H);
            SyncMte2ToV();
            Add(bias[q * HA], bias[q * HA], tmp, H);
            PipeBarrier<PIPE_V>();
        }
    }

    // gates[j] += dot(W[j, :], v) for all 4H rows, W has `cols` columns in GM
    __aicore__ inline void AccumulateMatVec(const GlobalTensor<float>& w, const LocalTensor<float>& v,
                                            uint32_t cols, uint32_t colsAlign)
    {
        LocalTensor<float> gates = gateBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        for (uint32_t r0 = 0; r0 < G; r0 += R) {
            uint32_t rows = (G - r0) < R ? (G - r0) : R;
            LocalTensor<float> wl = wQue.AllocTensor<float>();
            // DataCopyPad pads every row to 32B in UB, so rows land at colsAlign stride
            DataCopyExtParams cp{(uint16_t)rows, (uint32_t)(cols * sizeof(float)), 0, 0, 0};
            DataCopyPad(wl, w[(uint64_t)r0 * cols], cp, {false, 0, 0, 0.0f});
            wQue.EnQue(wl);
            wl = wQue.DeQue<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                Mul(prod[r * colsAlign], wl[r * colsAlign], v, cols);
            }
            PipeBarrier<PIPE_V>();
            for (uint32_t r = 0; r < rows; ++r) {
                ReduceSum<float>(red[(r & 7)], prod[r * colsAlign], prod[r * colsAlign], cols);
                PipeBarrier<PIPE_V>();
                if ((r & 7) == 7 || r + 1 == rows) {
                    event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
                    SetFlag<HardEvent::V_S>(vs);
                    WaitFlag<HardEvent::V_S>(vs);
                    uint32_t base = r & ~7U;
                    for (uint32_t k = base; k <= r; ++k) {
                        uint32_t j = r0 + k;
                        uint32_t pos = (j / H) * HA + (j % H);
                        gates.SetValue(pos, gates.GetValue(pos) + red.GetValue(k - base));
                    }
                    event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
                    SetFlag<HardEvent::S_V>(sv);
                    WaitFlag<HardEvent::S_V>(sv);
                }
            }
            wQue.FreeTensor(wl);
        }
    }

    // sigmoid(x) = 1 / (1 + exp(-x)), in place
    __aicore__ inline void SigmoidInPlace(const LocalTensor<float>& t, uint32_t n)
    {
        Muls(t, t, -1.0f, n);
        PipeBarrier<PIPE_V>();
        Exp(t, t, n);
        PipeBarrier<PIPE_V>();
        Adds(t, t, 1.0f, n);
        PipeBarrier<PIPE_V>();
        Reciprocal(t, t, n);
        PipeBarrier<PIPE_V>();
    }

    // tanh(x) = 2 * sigmoid(2x) - 1
    __aicore__ inline void TanhInto(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t n)
    {
        Muls(dst, src, 2.0f, n);
        PipeBarrier<PIPE_V>();
        SigmoidInPlace(dst, n);
        Muls(dst, dst, 2.0f, n);
        PipeBarrier<PIPE_V>();
        Adds(dst, dst, -1.0f, n);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void RunSequence(uint32_t b)
    {
        LocalTensor<float> h = hBuf.Get<float>();
        LocalTensor<float> c = cBuf.Get<float>();
        LocalTensor<float> x = xBuf.Get<float>();
        LocalTensor<float> gates = gateBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> tmp2 = tmp[HA];
        Copy(h, h0g[(uint64_t)b * H], H);
        Copy(c, c0g[(uint64_t)b * H], H);

        for (uint32_t t = 0; t < T; ++t) {
            Copy(x, xg[((uint64_t)b * T + t) * I], I);
            SyncMte2ToV();
            DataCopy(gates, bias, 4 * HA);
            PipeBarrier<PIPE_V>();
            AccumulateMatVec(wihg, x, I, IA);
            AccumulateMatVec(whhg, h, H, HA);

            LocalTensor<float> gi = gates;
            LocalTensor<float> gf = gates[HA];
            LocalTensor<float> gg = gates[2 * HA];
            LocalTensor<float> go = gates[3 * HA];
            SigmoidInPlace(gi, H);
            SigmoidInPlace(gf, H);
            SigmoidInPlace(go, H);
            TanhInto(tmp, gg, H);
            // c = f * c + i * g
            Mul(c, c, gf, H);
            Mul(tmp2, gi, tmp, H);
            PipeBarrier<PIPE_V>();
            Add(c, c, tmp2, H);
            PipeBarrier<PIPE_V>();
            // h = o * tanh(c)
            TanhInto(tmp, c, H);
            Mul(h, go, tmp, H);
            PipeBarrier<PIPE_V>();

            LocalTensor<float> out = outQue.AllocTensor<float>();
            DataCopy(out, h, HA);
            outQue.EnQue(out);
            out = outQue.DeQue<float>();
            DataCopyPad(yg[((uint64_t)b * T + t) * H], out, {1, (uint32_t)(H * sizeof(float)), 0, 0, 0});
            outQue.FreeTensor(out);
            // next x load overwrites xBuf only after vector reads of this step are done
            event_t vm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
            SetFlag<HardEvent::V_MTE2>(vm);
            WaitFlag<HardEvent::V_MTE2>(vm);
        }

        event_t vm3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vm3);
        WaitFlag<HardEvent::V_MTE3>(vm3);
        DataCopyPad(hng[(uint64_t)b * H], h, {1, (uint32_t)(H * sizeof(float)), 0, 0, 0});
        DataCopyPad(cng[(uint64_t)b * H], c, {1, (uint32_t)(H * sizeof(float)), 0, 0, 0});
        event_t m3v = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_MTE2));
        SetFlag<HardEvent::MTE3_MTE2>(m3v);
        WaitFlag<HardEvent::MTE3_MTE2>(m3v);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUF> wQue;
    TQue<QuePosition::VECOUT, BUF> outQue;
    TBuf<TPosition::VECCALC> prodBuf, gateBuf, biasBuf, xBuf, hBuf, cBuf, tmpBuf, redBuf;
    GlobalTensor<float> xg, h0g, c0g, wihg, whhg, bihg, bhhg, yg, hng, cng;
    uint32_t B, T, I, H, IA, HA, R, G;
    uint32_t first, last;
};

extern "C" __global__ __aicore__ void lstm_layer_scan(GM_ADDR x, GM_ADDR h0, GM_ADDR c0, GM_ADDR w_ih, GM_ADDR w_hh,
                                                      GM_ADDR b_ih, GM_ADDR b_hh, GM_ADDR y, GM_ADDR h_n,
                                                      GM_ADDR c_n, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    LstmLayerScanKernel k;
    k.Init(x, h0, c0, w_ih, w_hh, b_ih, b_hh, y, h_n, c_n, t);
    k.Process();
}
