/*
 * StackedGruFinalState: multi-layer unidirectional GRU, returns only h_n.
 *
 * Work split: the hidden units of every layer are partitioned across vector
 * cores (core c owns units [c*hs, c*hs + hs)). At each time step a core
 * computes the r/z/n gates of its units for all batch rows, writes its slice
 * of h_t into the layer output sequence in GM, and then all cores meet at a
 * SyncAll barrier, because every core needs the full h_t for step t+1.
 *
 * Layer l reads its input sequence from x (l == 0) or from the output of layer
 * l-1; two ping-pong (T, B, H) workspace buffers hold the sequences.
 *
 *   r = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
 *   z = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
 *   n = tanh(W_in x + b_in + r * (W_hn h + b_hn))
 *   h' = (1 - z) * n + z * h = n + z * (h - n)
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t GATES = 3;

__aicore__ inline uint32_t Pad8(uint32_t n) { return (n + 7U) & ~7U; }

template <HardEvent E>
__aicore__ inline void Fence()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(id);
    WaitFlag<E>(id);
}
}  // namespace

class StackedGruKernel {
public:
    __aicore__ inline StackedGruKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR h0, GM_ADDR wIh0, GM_ADDR wIhRest, GM_ADDR wHh,
                                GM_ADDR bIh, GM_ADDR bHh, GM_ADDR hn, GM_ADDR usrWs,
                                const StackedGruTilingData &td)
    {
        T = td.seqLen;
        B = td.batch;
        I = td.inputSize;
        H = td.hiddenSize;
        L = td.numLayers;
        batchFirst = td.batchFirst != 0;
        resident = td.weightResident != 0;
        maxInPad = td.maxInPad;
        hPad = Pad8(H);

        uint32_t per = td.unitsPerCore;
        u0 = GetBlockIdx() * per;
        hs = (u0 + per <= H) ? per : (H - u0);
        hsPad = Pad8(hs);

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)T * B * I);
        h0Gm.SetGlobalBuffer((__gm__ float *)h0, (uint64_t)L * B * H);
        wIh0Gm.SetGlobalBuffer((__gm__ float *)wIh0, (uint64_t)GATES * H * I);
        if (L > 1) {
            wIhRestGm.SetGlobalBuffer((__gm__ float *)wIhRest, (uint64_t)(L - 1) * GATES * H * H);
        }
        wHhGm.SetGlobalBuffer((__gm__ float *)wHh, (uint64_t)L * GATES * H * H);
        bIhGm.SetGlobalBuffer((__gm__ float *)bIh, (uint64_t)L * GATES * H);
        bHhGm.SetGlobalBuffer((__gm__ float *)bHh, (uint64_t)L * GATES * H);
        hnGm.SetGlobalBuffer((__gm__ float *)hn, (uint64_t)L * B * H);
        uint64_t seqElems = (uint64_t)T * B * H;
        seqGm[0].SetGlobalBuffer((__gm__ float *)usrWs, seqElems);
        seqGm[1].SetGlobalBuffer((__gm__ float *)usrWs + seqElems, seqElems);

        pipe.InitBuffer(hMatBuf, B * hPad * sizeof(float));
        pipe.InitBuffer(xMatBuf, B * maxInPad * sizeof(float));
        pipe.InitBuffer(prodBuf, maxInPad * sizeof(float));
        pipe.InitBuffer(workBuf, (maxInPad / 8 + 64) * sizeof(float));
        pipe.InitBuffer(slotBuf, 6 * B * hs * 8 * sizeof(float));
        pipe.InitBuffer(vecBuf, 6 * B * hsPad * sizeof(float));
        pipe.InitBuffer(biasBuf, 6 * hsPad * sizeof(float));
        if (resident) {
            pipe.InitBuffer(wBuf, GATES * hs * (maxInPad + hPad) * sizeof(float));
        } else {
            pipe.InitBuffer(wBuf, 2 * (maxInPad + hPad) * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t l = 0; l < L; ++l) {
            RunLayer(l);
        }
    }

private:
    // ------------------------------------------------------------------ helpers
    __aicore__ inline void LoadRow(LocalTensor<float> dst, GlobalTensor<float> src, uint64_t off, uint32_t len)
    {
        DataCopyExtParams p{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(dst, src[off], p, DataCopyPadExtParams<float>{false, 0, 0, 0});
    }

    // rows x len block from GM (row pitch `gmPitch` floats) into UB rows of `ubPitch` floats
    __aicore__ inline void LoadRows(LocalTensor<float> dst, GlobalTensor<float> src, uint64_t off, uint32_t rows,
                                    uint32_t len, uint32_t gmPitch, uint32_t ubPitch)
    {
        DataCopyExtParams p{static_cast<uint16_t>(rows), len * (uint32_t)sizeof(float),
                            (gmPitch - len) * (uint32_t)sizeof(float), (ubPitch - Pad8(len)) / 8, 0};
        DataCopyPad(dst, src[off], p, DataCopyPadExtParams<float>{false, 0, 0, 0});
    }

    __aicore__ inline uint64_t IhRowOffset(uint32_t l, uint32_t row, uint32_t inDim)
    {
        return l == 0 ? (uint64_t)row * inDim : ((uint64_t)(l - 1) * GATES * H + row) * H;
    }

    // sigmoid in place: 1 / (1 + exp(-v))
    __aicore__ inline void SigmoidInPlace(LocalTensor<float> v, uint32_t n)
    {
        Muls(v, v, -1.0f, n);
        Exp(v, v, n);
        Adds(v, v, 1.0f, n);
        Reciprocal(v, v, n);
    }

    // tanh in place: 2 * sigmoid(2v) - 1
    __aicore__ inline void TanhInPlace(LocalTensor<float> v, uint32_t n)
    {
        Muls(v, v, 2.0f, n);
        SigmoidInPlace(v, n);
        Muls(v, v, 2.0f, n);
        Adds(v, v, -1.0f, n);
    }

    // --------------------------------------------------------------- one layer
    __aicore__ inline void RunLayer(uint32_t l)
    {
        uint32_t inDim = (l == 0) ? I : H;
        uint32_t inPad = Pad8(inDim);
        GlobalTensor<float> &wIh = (l == 0) ? wIh0Gm : wIhRestGm;
        GlobalTensor<float> &outSeq = seqGm[l & 1];
        GlobalTensor<float> &inSeq = seqGm[(l + 1) & 1];

        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();

        // biases of the owned units: [b_ih r|z|n][b_hh r|z|n], each hsPad long
        for (uint32_t g = 0; g < GATES; ++g) {
            LoadRow(bias[g * hsPad], bIhGm, (uint64_t)l * GATES * H + g * H + u0, hs);
            LoadRow(bias[(GATES + g) * hsPad], bHhGm, (uint64_t)l * GATES * H + g * H + u0, hs);
        }
        if (resident) {
            // rows g*H+u0 .. g*H+u0+hs-1 are contiguous in GM for every gate
            for (uint32_t g = 0; g < GATES; ++g) {
                uint32_t row0 = g * H + u0;
                LoadRows(wl[g * hs * inPad], wIh, IhRowOffset(l, row0, inDim), hs, inDim, inDim, inPad);
                LoadRows(wl[GATES * hs * inPad + g * hs * hPad], wHhGm, ((uint64_t)l * GATES * H + row0) * H,
                         hs, H, H, hPad);
            }
        }
        Fence<HardEvent::MTE2_S>();
        Fence<HardEvent::MTE2_V>();

        for (uint32_t t = 0; t < T; ++t) {
            Step(l, t, inDim, inPad, wIh, inSeq, outSeq);
            SyncAll();  // h_t must be complete before anyone starts t+1
        }
    }

    __aicore__ inline void Step(uint32_t l, uint32_t t, uint32_t inDim, uint32_t inPad, GlobalTensor<float> &wIh,
                                GlobalTensor<float> &inSeq, GlobalTensor<float> &outSeq)
    {
        LocalTensor<float> hMat = hMatBuf.Get<float>();
        LocalTensor<float> xMat = xMatBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> slot = slotBuf.Get<float>();
        LocalTensor<float> vec = vecBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();

        // previous hidden state (B, H) and the layer input at step t (B, inDim)
        if (t == 0) {
            LoadRows(hMat, h0Gm, (uint64_t)l * B * H, B, H, H, hPad);
        } else {
            LoadRows(hMat, outSeq, (uint64_t)(t - 1) * B * H, B, H, H, hPad);
        }
        if (l == 0) {
            if (batchFirst) {
                LoadRows(xMat, xGm, (uint64_t)t * I, B, I, T * I, inPad);
            } else {
                LoadRows(xMat, xGm, (uint64_t)t * B * I, B, I, I, inPad);
            }
        } else {
            LoadRows(xMat, inSeq, (uint64_t)t * B * H, B, H, H, inPad);
        }
        Fence<HardEvent::MTE2_V>();

        // dot products: slot index ((g*2 + src) * B + b) * hs + j, one 32B slot each
        for (uint32_t j = 0; j < hs; ++j) {
            for (uint32_t g = 0; g < GATES; ++g) {
                LocalTensor<float> wi, wh;
                if (resident) {
                    wi = wl[(g * hs + j) * inPad];
                    wh = wl[GATES * hs * inPad + (g * hs + j) * hPad];
                } else {
                    uint32_t row = g * H + u0 + j;
                    wi = wl;
                    wh = wl[maxInPad];
                    Fence<HardEvent::V_MTE2>();  // previous rows fully consumed
                    LoadRow(wi, wIh, IhRowOffset(l, row, inDim), inDim);
                    LoadRow(wh, wHhGm, ((uint64_t)l * GATES * H + row) * H, H);
                    Fence<HardEvent::MTE2_V>();
                }
                for (uint32_t b = 0; b < B; ++b) {
                    Mul(prod, wi, xMat[b * inPad], inDim);
                    ReduceSum(slot[(((g * 2 + 0) * B + b) * hs + j) * 8], prod, work, inDim);
                    Mul(prod, wh, hMat[b * hPad], H);
                    ReduceSum(slot[(((g * 2 + 1) * B + b) * hs + j) * 8], prod, work, H);
                }
            }
        }
        Fence<HardEvent::V_S>();

        // gather into vectors of length B*hsPad:
        // vec0 = r pre-act, vec1 = z pre-act, vec2 = n input part, vec3 = n hidden part, vec4 = h_prev
        uint32_t vlen = B * hsPad;
        for (uint32_t b = 0; b < B; ++b) {
            for (uint32_t j = 0; j < hs; ++j) {
                uint32_t o = b * hsPad + j;
                float gi[GATES], gh[GATES];
                for (uint32_t g = 0; g < GATES; ++g) {
                    gi[g] = slot.GetValue((((g * 2 + 0) * B + b) * hs + j) * 8) + bias.GetValue(g * hsPad + j);
                    gh[g] = slot.GetValue((((g * 2 + 1) * B + b) * hs + j) * 8) +
                            bias.GetValue((GATES + g) * hsPad + j);
                }
                vec.SetValue(o, gi[0] + gh[0]);
                vec.SetValue(vlen + o, gi[1] + gh[1]);
                vec.SetValue(2 * vlen + o, gi[2]);
                vec.SetValue(3 * vlen + o, gh[2]);
                vec.SetValue(4 * vlen + o, hMat.GetValue(b * hPad + u0 + j));
            }
        }
        Fence<HardEvent::S_V>();

        LocalTensor<float> r = vec;
        LocalTensor<float> z = vec[vlen];
        LocalTensor<float> nIn = vec[2 * vlen];
        LocalTensor<float> nH = vec[3 * vlen];
        LocalTensor<float> hOld = vec[4 * vlen];
        LocalTensor<float> hNew = vec[5 * vlen];

        SigmoidInPlace(r, vlen);
        SigmoidInPlace(z, vlen);
        Mul(nH, nH, r, vlen);
        Add(nIn, nIn, nH, vlen);
        TanhInPlace(nIn, vlen);           // n
        Sub(hNew, hOld, nIn, vlen);       // h - n
        Mul(hNew, hNew, z, vlen);         // z * (h - n)
        Add(hNew, hNew, nIn, vlen);       // n + z * (h - n)
        Fence<HardEvent::V_MTE3>();

        // scatter the owned slice of h_t back to GM
        DataCopyExtParams op{static_cast<uint16_t>(B), hs * (uint32_t)sizeof(float), 0,
                             (H - hs) * (uint32_t)sizeof(float), 0};
        DataCopyPad(outSeq[(uint64_t)t * B * H + u0], hNew, op);
        if (t + 1 == T) {
            DataCopyPad(hnGm[(uint64_t)l * B * H + u0], hNew, op);
        }
        Fence<HardEvent::MTE3_V>();
        Fence<HardEvent::MTE3_MTE2>();
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> hMatBuf, xMatBuf, prodBuf, workBuf, slotBuf, vecBuf, biasBuf, wBuf;
    GlobalTensor<float> xGm, h0Gm, wIh0Gm, wIhRestGm, wHhGm, bIhGm, bHhGm, hnGm;
    GlobalTensor<float> seqGm[2];

    uint32_t T = 0, B = 0, I = 0, H = 0, L = 0;
    uint32_t u0 = 0, hs = 0, hsPad = 0, hPad = 0, maxInPad = 0;
    bool batchFirst = false, resident = false;
};

extern "C" __global__ __aicore__ void stacked_gru_final_state(GM_ADDR x, GM_ADDR h0, GM_ADDR w_ih_first,
                                                              GM_ADDR w_ih_rest, GM_ADDR w_hh, GM_ADDR b_ih,
                                                              GM_ADDR b_hh, GM_ADDR h_n, GM_ADDR workspace,
                                                              GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    StackedGruKernel op;
    op.Init(x, h0, w_ih_first, w_ih_rest, w_hh, b_ih, b_hh, h_n, usrWs, td);
    op.Process();
}
