// StackedLstmLastStepDense: multi-layer unidirectional LSTM (batch first) whose last-step hidden
// state of the top layer is projected by a dense layer.
//
// Parallelisation: the hidden units of a layer are split across vector cores. A core keeps the
// 4 gate rows of its units (input and recurrent weights side by side, [W_ih | W_hh]) resident in
// UB, so every step is: fetch [x_t | h_{t-1}] for the whole batch, 4*units dot products per batch
// row, gate math on the vector unit, publish its slice of h_t to GM, then a core barrier.
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr uint32_t GATES = 4;
constexpr uint32_t RED_STRIDE = 8;   // one 32B slot per reduction result
}

class StackedLstmKernel {
public:
    __aicore__ inline StackedLstmKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR h0, GM_ADDR c0, GM_ADDR wIh0, GM_ADDR wIhN, GM_ADDR wHh,
                                GM_ADDR bias, GM_ADDR fcW, GM_ADDR fcB, GM_ADDR y, GM_ADDR ws,
                                const StackedLstmLastStepDenseTilingData &tdIn)
    {
        td = tdIn;
        B = td.batch; T = td.steps; H = td.hidden;
        hOff = td.rowLen - td.hidPad;
        j0 = GetBlockIdx() * td.unitsPerCore;
        u = (H > j0) ? ((H - j0) < td.unitsPerCore ? (H - j0) : td.unitsPerCore) : 0;
        uPad = (td.unitsPerCore + 7) / 8 * 8;
        rows = GATES * u;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        h0Gm.SetGlobalBuffer((__gm__ float *)h0);
        c0Gm.SetGlobalBuffer((__gm__ float *)c0);
        wIh0Gm.SetGlobalBuffer((__gm__ float *)wIh0);
        wIhNGm.SetGlobalBuffer((__gm__ float *)wIhN);
        wHhGm.SetGlobalBuffer((__gm__ float *)wHh);
        biasGm.SetGlobalBuffer((__gm__ float *)bias);
        fcWGm.SetGlobalBuffer((__gm__ float *)fcW);
        fcBGm.SetGlobalBuffer((__gm__ float *)fcB);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        const uint64_t seqLen = (uint64_t)B * T * H;
        seqGm[0].SetGlobalBuffer((__gm__ float *)ws);
        seqGm[1].SetGlobalBuffer((__gm__ float *)ws + seqLen);
        hStateGm.SetGlobalBuffer((__gm__ float *)ws + 2 * seqLen);   // 2 slots of [B, H]

        pipe.InitBuffer(wBuf, GATES * td.unitsPerCore * td.rowLen * sizeof(float));
        pipe.InitBuffer(zBuf, B * td.rowLen * sizeof(float));
        pipe.InitBuffer(prodBuf, td.rowLen * sizeof(float));
        pipe.InitBuffer(workBuf, td.rowLen * sizeof(float));
        pipe.InitBuffer(redBuf, B * GATES * td.unitsPerCore * RED_STRIDE * sizeof(float));
        pipe.InitBuffer(gateBuf, GATES * B * uPad * sizeof(float));
        pipe.InitBuffer(cBuf, B * uPad * sizeof(float));
        pipe.InitBuffer(hQue, 1, B * uPad * sizeof(float));
        pipe.InitBuffer(biasBuf, (GATES * td.unitsPerCore + 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t l = 0; l < td.layers; ++l) {
            const uint32_t inLen = (l == 0) ? td.inputSize : H;
            if (u > 0) {
                LoadLayer(l, inLen);
            }
            for (uint32_t t = 0; t < T; ++t) {
                if (u > 0) {
                    Step(l, t, inLen);
                }
                SyncAll();   // h_t complete before anyone starts t + 1
            }
        }
        if (GetBlockIdx() == 0) {
            Project();
        }
    }

private:
    __aicore__ inline void WaitMte2ForV()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
    }

    __aicore__ inline void LoadLayer(uint32_t l, uint32_t inLen)
    {
        LocalTensor<float> w = wBuf.Get<float>();
        LocalTensor<float> z = zBuf.Get<float>();
        Duplicate(w, 0.0f, rows * td.rowLen);
        Duplicate(z, 0.0f, B * td.rowLen);
        PipeBarrier<PIPE_ALL>();

        const uint64_t g4 = (uint64_t)GATES * H;
        DataCopyPadExtParams<float> zeroPad{true, 0, 0, 0.0f};
        for (uint32_t q = 0; q < GATES; ++q) {
            const uint64_t firstRow = (uint64_t)q * H + j0;
            // input weights -> columns [0, inLen)
            DataCopyExtParams ip{(uint16_t)u, inLen * (uint32_t)sizeof(float), 0,
                                 (td.rowLen - (inLen + 7) / 8 * 8) / 8, 0};
            if (l == 0) {
                DataCopyPad(w[q * u * td.rowLen], wIh0Gm[firstRow * inLen], ip, zeroPad);
            } else {
                DataCopyPad(w[q * u * td.rowLen], wIhNGm[((uint64_t)(l - 1) * g4 + firstRow) * H], ip, zeroPad);
            }
            // recurrent weights -> columns [hOff, hOff + H)
            DataCopyExtParams hp{(uint16_t)u, H * (uint32_t)sizeof(float), 0, (td.rowLen - td.hidPad) / 8, 0};
            DataCopyPad(w[q * u * td.rowLen + hOff], wHhGm[((uint64_t)l * g4 + firstRow) * H], hp, zeroPad);
        }
        // gate biases of my units, order [q][j]
        LocalTensor<float> bl = biasBuf.Get<float>();
        for (uint32_t q = 0; q < GATES; ++q) {
            for (uint32_t j = 0; j < u; ++j) {
                bl.SetValue(q * u + j, biasGm.GetValue((uint64_t)l * GATES * H + q * H + j0 + j));
            }
        }
        // cell state slice from c0[l]
        LocalTensor<float> c = cBuf.Get<float>();
        DataCopyExtParams cp{(uint16_t)B, u * (uint32_t)sizeof(float), (H - u) * (uint32_t)sizeof(float),
                             (uPad - (u + 7) / 8 * 8) / 8, 0};
        DataCopyPad(c, c0Gm[(uint64_t)l * B * H + j0], cp, zeroPad);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Step(uint32_t l, uint32_t t, uint32_t inLen)
    {
        LocalTensor<float> z = zBuf.Get<float>();
        LocalTensor<float> w = wBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        DataCopyPadExtParams<float> zeroPad{true, 0, 0, 0.0f};

        // z[b] = [x_t[b] | h_{t-1}[b]]
        DataCopyExtParams xp{(uint16_t)B, inLen * (uint32_t)sizeof(float),
                             ((uint32_t)T * inLen - inLen) * (uint32_t)sizeof(float),
                             (td.rowLen - (inLen + 7) / 8 * 8) / 8, 0};
        if (l == 0) {
            DataCopyPad(z, xGm[(uint64_t)t * inLen], xp, zeroPad);
        } else {
            DataCopyPad(z, seqGm[(l - 1) & 1][(uint64_t)t * inLen], xp, zeroPad);
        }
        DataCopyExtParams hp{(uint16_t)B, H * (uint32_t)sizeof(float), 0, (td.rowLen - td.hidPad) / 8, 0};
        if (t == 0) {
            DataCopyPad(z[hOff], h0Gm[(uint64_t)l * B * H], hp, zeroPad);
        } else {
            DataCopyPad(z[hOff], hStateGm[(uint64_t)((t - 1) & 1) * B * H], hp, zeroPad);
        }
        WaitMte2ForV();

        // pre-activations: one dot product per (b, gate row)
        for (uint32_t b = 0; b < B; ++b) {
            for (uint32_t r = 0; r < rows; ++r) {
                Mul(prod, w[r * td.rowLen], z[b * td.rowLen], td.rowLen);
                ReduceSum(red[(b * rows + r) * RED_STRIDE], prod, work, td.rowLen);
            }
        }
        event_t v2s = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(v2s);
        WaitFlag<HardEvent::V_S>(v2s);

        LocalTensor<float> gate = gateBuf.Get<float>();   // [q][b][uPad]
        LocalTensor<float> bl = biasBuf.Get<float>();
        const uint32_t gLen = B * uPad;
        for (uint32_t q = 0; q < GATES; ++q) {
            for (uint32_t b = 0; b < B; ++b) {
                for (uint32_t j = 0; j < uPad; ++j) {
                    float v = 0.0f;
                    if (j < u) {
                        v = red.GetValue((b * rows + q * u + j) * RED_STRIDE) + bl.GetValue(q * u + j);
                    }
                    gate.SetValue(q * gLen + b * uPad + j, v);
                }
            }
        }
        event_t s2v = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(s2v);
        WaitFlag<HardEvent::S_V>(s2v);

        LocalTensor<float> ig = gate;
        LocalTensor<float> fg = gate[gLen];
        LocalTensor<float> gg = gate[2 * gLen];
        LocalTensor<float> og = gate[3 * gLen];
        LocalTensor<float> c = cBuf.Get<float>();
        Sigmoid(ig, ig, gLen);
        Sigmoid(fg, fg, gLen);
        Tanh(gg, gg, gLen);
        Sigmoid(og, og, gLen);
        Mul(c, c, fg, gLen);           // c = f * c + i * g
        Mul(ig, ig, gg, gLen);
        Add(c, c, ig, gLen);

        LocalTensor<float> h = hQue.AllocTensor<float>();
        Tanh(h, c, gLen);
        Mul(h, h, og, gLen);           // h = o * tanh(c)
        hQue.EnQue(h);
        h = hQue.DeQue<float>();

        DataCopyExtParams op{(uint16_t)B, u * (uint32_t)sizeof(float), (uPad - (u + 7) / 8 * 8) / 8,
                             (H - u) * (uint32_t)sizeof(float), 0};
        DataCopyPad(hStateGm[(uint64_t)(t & 1) * B * H + j0], h, op);
        if (l + 1 < td.layers) {
            DataCopyExtParams sp{(uint16_t)B, u * (uint32_t)sizeof(float), (uPad - (u + 7) / 8 * 8) / 8,
                                 ((uint32_t)T * H - u) * (uint32_t)sizeof(float), 0};
            DataCopyPad(seqGm[l & 1][(uint64_t)t * H + j0], h, sp);
        }
        hQue.FreeTensor(h);
    }

    // y[b, o] = fc_bias[o] + <fc_weight[o], h_T[b]> on core 0
    __aicore__ inline void Project()
    {
        LocalTensor<float> z = zBuf.Get<float>();       // reuse: h_T rows, pitch rowLen
        LocalTensor<float> fw = prodBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> out = gateBuf.Get<float>();
        const uint32_t O = td.outSize;
        const uint32_t oPad = (O + 7) / 8 * 8;
        DataCopyPadExtParams<float> zeroPad{true, 0, 0, 0.0f};

        DataCopyExtParams hp{(uint16_t)B, H * (uint32_t)sizeof(float), 0, (td.rowLen - td.hidPad) / 8, 0};
        DataCopyPad(z, hStateGm[(uint64_t)((T - 1) & 1) * B * H], hp, zeroPad);
        for (uint32_t o = 0; o < O; ++o) {
            DataCopyExtParams wp{1, H * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPad(fw, fcWGm[(uint64_t)o * H], wp, zeroPad);
            WaitMte2ForV();
            for (uint32_t b = 0; b < B; ++b) {
                Mul(work, fw, z[b * td.rowLen], td.hidPad);
                ReduceSum(red[b * RED_STRIDE], work, work, td.hidPad);
            }
            event_t v2s = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(v2s);
            WaitFlag<HardEvent::V_S>(v2s);
            const float bo = fcBGm.GetValue(o);
            for (uint32_t b = 0; b < B; ++b) {
                out.SetValue(b * oPad + o, red.GetValue(b * RED_STRIDE) + bo);
            }
            PipeBarrier<PIPE_ALL>();
        }
        event_t s2m = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(s2m);
        WaitFlag<HardEvent::S_MTE3>(s2m);
        DataCopyExtParams yp{(uint16_t)B, O * (uint32_t)sizeof(float), (oPad - (O + 7) / 8 * 8) / 8, 0, 0};
        DataCopyPad(yGm, out, yp);
    }

    TPipe pipe;
    StackedLstmLastStepDenseTilingData td;
    TBuf<TPosition::VECCALC> wBuf, zBuf, prodBuf, workBuf, redBuf, gateBuf, cBuf, biasBuf;
    TQue<QuePosition::VECOUT, 1> hQue;
    GlobalTensor<float> xGm, h0Gm, c0Gm, wIh0Gm, wIhNGm, wHhGm, biasGm, fcWGm, fcBGm, yGm, hStateGm;
    GlobalTensor<float> seqGm[2];
    uint32_t B = 0, T = 0, H = 0, hOff = 0, j0 = 0, u = 0, uPad = 0, rows = 0;
};

extern "C" __global__ __aicore__ void stacked_lstm_last_step_dense(GM_ADDR x, GM_ADDR h0, GM_ADDR c0,
                                                                   GM_ADDR w_ih_first, GM_ADDR w_ih_rest,
                                                                   GM_ADDR w_hh, GM_ADDR bias, GM_ADDR fc_weight,
                                                                   GM_ADDR fc_bias, GM_ADDR y, GM_ADDR workspace,
                                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    StackedLstmKernel op;
    op.Init(x, h0, c0, w_ih_first, w_ih_rest, w_hh, bias, fc_weight, fc_bias, y, usr, td);
    op.Process();
}
