/**
 * LstmLastStepDense: multi-layer unidirectional LSTM (batch-first) followed by a dense
 * projection of the last time step of the top layer.
 *
 * Each sample's recurrence is independent, so a core owns whole samples and runs every
 * layer / time step for them. Gate pre-activations are built as a sum of scaled weight
 * rows (weights are stored transposed, [K, 4H]), streaming the weight rows from GM in slabs.
 */
#include "kernel_operator.h"

using namespace AscendC;

class LstmLastStepDenseKernel {
public:
    __aicore__ inline LstmLastStepDenseKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR h0, GM_ADDR c0, GM_ADDR wIh0, GM_ADDR wIhN,
                                GM_ADDR wHh, GM_ADDR bias, GM_ADDR fcW, GM_ADDR fcB, GM_ADDR y,
                                GM_ADDR ws, const LstmLastStepDenseTilingData &td)
    {
        B = td.batch; T = td.seqLen; I = td.inputSize; H = td.hiddenSize;
        L = td.numLayers; O = td.outputSize;
        G = 4 * H;
        gPad = Pad8(G);
        oPad = Pad8(O);
        slab = td.weightChunkElems;

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
        seqGm[0].SetGlobalBuffer((__gm__ float *)ws);
        seqGm[1].SetGlobalBuffer((__gm__ float *)ws + static_cast<uint64_t>(B) * T * H);

        pipe.InitBuffer(slabQ, 2, slab * sizeof(float));
        pipe.InitBuffer(gatesBuf, gPad * sizeof(float));
        pipe.InitBuffer(biasBuf, gPad * sizeof(float));
        pipe.InitBuffer(inBuf, td.maxInDim * sizeof(float));
        pipe.InitBuffer(hBuf, Pad8(H) * sizeof(float));
        pipe.InitBuffer(cBuf, Pad8(H) * sizeof(float));
        pipe.InitBuffer(actBuf, Pad8(H) * sizeof(float));
        pipe.InitBuffer(outBuf, oPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t b = GetBlockIdx(); b < B; b += GetBlockNum()) {
            RunSample(b);
        }
    }

private:
    __aicore__ inline uint32_t Pad8(uint32_t v) const { return (v + 7) / 8 * 8; }

    template <HardEvent EV>
    __aicore__ inline void Sync()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(EV));
        SetFlag<EV>(e);
        WaitFlag<EV>(e);
    }

    __aicore__ inline void LoadVec(const LocalTensor<float> &dst, const GlobalTensor<float> &src, uint32_t n)
    {
        DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(dst, src, cp, DataCopyPadExtParams<float>{false, 0, 0, 0});
    }

    __aicore__ inline void StoreVec(const GlobalTensor<float> &dst, const LocalTensor<float> &src, uint32_t n)
    {
        DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(dst, src, cp);
    }

    // acc[0:N] += sum_k vec[k] * W[k, 0:N]   with W row-major [K, N] in GM.
    // vec must already be readable by the scalar unit.
    __aicore__ inline void AccumulateRows(const LocalTensor<float> &acc, const LocalTensor<float> &vec,
                                          const GlobalTensor<float> &w, uint32_t K, uint32_t N)
    {
        const uint32_t nPad = Pad8(N);
        uint32_t rowsPerSlab = slab / nPad;
        if (rowsPerSlab == 0) rowsPerSlab = 1;
        for (uint32_t k0 = 0; k0 < K; k0 += rowsPerSlab) {
            const uint32_t rows = (K - k0) < rowsPerSlab ? (K - k0) : rowsPerSlab;
            LocalTensor<float> wl = slabQ.AllocTensor<float>();
            DataCopyExtParams cp{static_cast<uint16_t>(rows), N * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(wl, w[static_cast<uint64_t>(k0) * N], cp, DataCopyPadExtParams<float>{false, 0, 0, 0});
            slabQ.EnQue(wl);
            wl = slabQ.DeQue<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                Axpy(acc, wl[r * nPad], vec.GetValue(k0 + r), N);
            }
            slabQ.FreeTensor(wl);
        }
    }

    __aicore__ inline void RunSample(uint32_t b)
    {
        LocalTensor<float> gates = gatesBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> xin = inBuf.Get<float>();
        LocalTensor<float> h = hBuf.Get<float>();
        LocalTensor<float> c = cBuf.Get<float>();
        LocalTensor<float> act = actBuf.Get<float>();

        for (uint32_t l = 0; l < L; ++l) {
            const uint64_t stateOff = (static_cast<uint64_t>(l) * B + b) * H;
            LoadVec(h, h0Gm[stateOff], H);
            LoadVec(c, c0Gm[stateOff], H);
            LoadVec(bias, biasGm[static_cast<uint64_t>(l) * G], G);

            const uint32_t inDim = (l == 0) ? I : H;
            GlobalTensor<float> wIh = (l == 0) ? wIh0Gm : wIhNGm[static_cast<uint64_t>(l - 1) * H * G];
            GlobalTensor<float> wHh = wHhGm[static_cast<uint64_t>(l) * H * G];
            const bool last = (l + 1 == L);

            for (uint32_t t = 0; t < T; ++t) {
                // layer input at step t
                if (l == 0) {
                    LoadVec(xin, xGm[(static_cast<uint64_t>(b) * T + t) * I], I);
                } else {
                    LoadVec(xin, seqGm[(l - 1) & 1][(static_cast<uint64_t>(b) * T + t) * H], H);
                }
                Sync<HardEvent::MTE2_S>();
                Sync<HardEvent::MTE2_V>();
                Sync<HardEvent::V_S>();   // h from the previous step

                Adds(gates, bias, 0.0f, G);
                AccumulateRows(gates, xin, wIh, inDim, G);
                AccumulateRows(gates, h, wHh, H, G);

                // i, f, o gates -> sigmoid ; g gate -> tanh
                Sigmoid(gates, gates, 2 * H);
                Tanh(gates[2 * H], gates[2 * H], H);
                Sigmoid(gates[3 * H], gates[3 * H], H);
                // c = f * c + i * g
                Mul(c, c, gates[H], H);
                Mul(act, gates, gates[2 * H], H);
                Add(c, c, act, H);
                // h = o * tanh(c)
                Tanh(act, c, H);
                Mul(h, gates[3 * H], act, H);

                if (!last) {
                    Sync<HardEvent::V_MTE3>();
                    StoreVec(seqGm[l & 1][(static_cast<uint64_t>(b) * T + t) * H], h, H);
                    Sync<HardEvent::MTE3_MTE2>();
                }
                Sync<HardEvent::V_MTE2>(); // xin / bias buffers are reused by the next copy
            }
            // the next layer reads what this layer wrote
            PipeBarrier<PIPE_ALL>();
        }

        // dense head on the top layer's final hidden state
        LocalTensor<float> out = outBuf.Get<float>();
        LoadVec(out, fcBGm, O);
        Sync<HardEvent::MTE2_V>();
        Sync<HardEvent::V_S>();
        AccumulateRows(out, h, fcWGm, H, O);
        Sync<HardEvent::V_MTE3>();
        StoreVec(yGm[static_cast<uint64_t>(b) * O], out, O);
        PipeBarrier<PIPE_ALL>();
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> slabQ;
    TBuf<TPosition::VECCALC> gatesBuf, biasBuf, inBuf, hBuf, cBuf, actBuf, outBuf;
    GlobalTensor<float> xGm, h0Gm, c0Gm, wIh0Gm, wIhNGm, wHhGm, biasGm, fcWGm, fcBGm, yGm;
    GlobalTensor<float> seqGm[2];
    uint32_t B = 0, T = 0, I = 0, H = 0, L = 0, O = 0, G = 0, gPad = 0, oPad = 0, slab = 0;
};

extern "C" __global__ __aicore__ void lstm_last_step_dense(GM_ADDR x, GM_ADDR h0, GM_ADDR c0, GM_ADDR w_ih_first,
                                                           GM_ADDR w_ih_rest, GM_ADDR w_hh, GM_ADDR bias,
                                                           GM_ADDR fc_weight, GM_ADDR fc_bias, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = AscendC::GetUserWorkspace(workspace);
    LstmLastStepDenseKernel op;
    op.Init(x, h0, c0, w_ih_first, w_ih_rest, w_hh, bias, fc_weight, fc_bias, y, usrWs, td);
    op.Process();
}
