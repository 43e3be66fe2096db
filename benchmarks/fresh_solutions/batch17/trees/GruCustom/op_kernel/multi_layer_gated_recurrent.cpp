/*
 * Stacked GRU, forward direction, time-major.
 *
 * Work split: each AIV core owns a contiguous slice of hidden units [j0, j0 + S). For its
 * slice it keeps the r/z/n rows of W_ih and W_hh of the current layer resident in UB and
 * computes, for every (t, b), the 6*S dot products it needs. Because step t+1 needs the
 * whole h_t, the cores meet at a SyncAll() after every time step.
 *
 *   r = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
 *   z = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
 *   n = tanh  (W_in x + b_in + r * (W_hn h + b_hn))
 *   h' = (1 - z) * n + z * h  =  n + z * (h - n)
 *
 * Layer outputs ping-pong between two workspace sequences; the last layer writes y.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t SLOT = 8;   // floats per dot-product result slot (32 bytes)
}

class GatedRecurrentKernel {
public:
    __aicore__ inline GatedRecurrentKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR h0, GM_ADDR wIh0, GM_ADDR wIhN, GM_ADDR wHh,
                                GM_ADDR bIh, GM_ADDR bHh, GM_ADDR y, GM_ADDR hn, GM_ADDR usrWs,
                                const GatedRecurrentTiling &td)
    {
        T_ = td.seqLen;
        B_ = td.batch;
        I_ = td.inputSize;
        H_ = td.hiddenSize;
        L_ = td.numLayers;
        S_ = td.sliceLen;
        maxFeat_ = td.maxFeat;

        uint32_t core = GetBlockIdx();
        j0_ = core * S_;
        mySlice_ = (j0_ < H_) ? ((H_ - j0_) < S_ ? (H_ - j0_) : S_) : 0;

        uint64_t seqElems = static_cast<uint64_t>(T_) * B_ * H_;
        xGm_.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(T_) * B_ * I_);
        h0Gm_.SetGlobalBuffer((__gm__ float *)h0, static_cast<uint64_t>(L_) * B_ * H_);
        wIh0Gm_.SetGlobalBuffer((__gm__ float *)wIh0, 3ULL * H_ * I_);
        wIhNGm_.SetGlobalBuffer((__gm__ float *)wIhN);
        wHhGm_.SetGlobalBuffer((__gm__ float *)wHh, 3ULL * L_ * H_ * H_);
        bIhGm_.SetGlobalBuffer((__gm__ float *)bIh, 3ULL * L_ * H_);
        bHhGm_.SetGlobalBuffer((__gm__ float *)bHh, 3ULL * L_ * H_);
        yGm_.SetGlobalBuffer((__gm__ float *)y, seqElems);
        hnGm_.SetGlobalBuffer((__gm__ float *)hn, static_cast<uint64_t>(L_) * B_ * H_);
        seqGm_[0].SetGlobalBuffer((__gm__ float *)usrWs, seqElems);
        seqGm_[1].SetGlobalBuffer((__gm__ float *)usrWs + seqElems, seqElems);

        uint32_t inMax = I_ > H_ ? I_ : H_;
        pitchH_ = (H_ + 7) / 8 * 8;
        pipe_.InitBuffer(wIhBuf_, 3 * S_ * ((inMax + 7) / 8 * 8) * sizeof(float));
        pipe_.InitBuffer(wHhBuf_, 3 * S_ * pitchH_ * sizeof(float));
        pipe_.InitBuffer(biasBuf_, 2 * 3 * S_ * sizeof(float));
        pipe_.InitBuffer(xRowBuf_, maxFeat_ * sizeof(float));
        pipe_.InitBuffer(hRowBuf_, maxFeat_ * sizeof(float));
        pipe_.InitBuffer(prodBuf_, maxFeat_ * sizeof(float));
        pipe_.InitBuffer(slotBuf_, 6 * S_ * SLOT * sizeof(float));
        pipe_.InitBuffer(gateBuf_, 6 * S_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, 6 * S_ * sizeof(float));
        pipe_.InitBuffer(redBuf_, 256 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t l = 0; l < L_; ++l) {
            uint32_t inFeat = (l == 0) ? I_ : H_;
            if (mySlice_ > 0) {
                LoadLayerParams(l, inFeat);
            }
            GlobalTensor<float> &src = (l == 0) ? xGm_ : seqGm_[(l - 1) & 1];
            GlobalTensor<float> &dst = (l == L_ - 1) ? yGm_ : seqGm_[l & 1];
            for (uint32_t t = 0; t < T_; ++t) {
                if (mySlice_ > 0) {
                    for (uint32_t b = 0; b < B_; ++b) {
                        Step(l, t, b, inFeat, src, dst);
                    }
                }
                // h_t of every slice must be in GM before anybody starts t+1
                PipeBarrier<PIPE_ALL>();
                SyncAll();
            }
            if (mySlice_ > 0) {
                SaveFinalState(l, dst);
            }
        }
    }

private:
    template <HardEvent EVT>
    __aicore__ inline void Fence()
    {
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(EVT));
        SetFlag<EVT>(ev);
        WaitFlag<EVT>(ev);
    }

    __aicore__ inline void LoadLayerParams(uint32_t l, uint32_t inFeat)
    {
        LocalTensor<float> wIh = wIhBuf_.Get<float>();
        LocalTensor<float> wHh = wHhBuf_.Get<float>();
        LocalTensor<float> bias = biasBuf_.Get<float>();
        GlobalTensor<float> wIhSrc = (l == 0) ? wIh0Gm_ : wIhNGm_[static_cast<uint64_t>(l - 1) * 3 * H_ * H_];
        GlobalTensor<float> wHhSrc = wHhGm_[static_cast<uint64_t>(l) * 3 * H_ * H_];

        PipeBarrier<PIPE_ALL>();   // previous layer's weights may still be read by the vector unit
        pitchIn_ = (inFeat + 7) / 8 * 8;
        for (uint32_t g = 0; g < 3; ++g) {
            // rows g*H + j0 .. g*H + j0 + mySlice of each gate are contiguous in GM; DataCopyPad
            // lands every row on a 32B boundary in UB (row pitch = inFeat / H rounded up to 8)
            DataCopyExtParams ci{static_cast<uint16_t>(mySlice_), static_cast<uint32_t>(inFeat * sizeof(float)), 0, 0, 0};
            DataCopyPad(wIh[g * S_ * pitchIn_], wIhSrc[(static_cast<uint64_t>(g) * H_ + j0_) * inFeat], ci,
                        DataCopyPadExtParams<float>{false, 0, 0, 0});
            DataCopyExtParams ch{static_cast<uint16_t>(mySlice_), static_cast<uint32_t>(H_ * sizeof(float)), 0, 0, 0};
            DataCopyPad(wHh[g * S_ * pitchH_], wHhSrc[(static_cast<uint64_t>(g) * H_ + j0_) * H_], ch,
                        DataCopyPadExtParams<float>{false, 0, 0, 0});
            DataCopyExtParams cb{1, static_cast<uint32_t>(mySlice_ * sizeof(float)), 0, 0, 0};
            DataCopyPad(bias[g * S_], bIhGm_[static_cast<uint64_t>(l) * 3 * H_ + g * H_ + j0_], cb,
                        DataCopyPadExtParams<float>{false, 0, 0, 0});
            DataCopyPad(bias[3 * S_ + g * S_], bHhGm_[static_cast<uint64_t>(l) * 3 * H_ + g * H_ + j0_], cb,
                        DataCopyPadExtParams<float>{false, 0, 0, 0});
        }
        Fence<HardEvent::MTE2_V>();
    }

    __aicore__ inline void LoadRow(LocalTensor<float> &dst, GlobalTensor<float> src, uint32_t len)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(dst, src, cp, DataCopyPadExtParams<float>{false, 0, 0, 0});
    }

    // sigmoid(v) = 1 / (1 + exp(-v)), in place
    __aicore__ inline void SigmoidInPlace(LocalTensor<float> v, uint32_t n)
    {
        Muls(v, v, -1.0f, n);
        Exp(v, v, n);
        Adds(v, v, 1.0f, n);
        Reciprocal(v, v, n);
    }

    // tanh(v) = 2 * sigmoid(2v) - 1
    __aicore__ inline void TanhInPlace(LocalTensor<float> v, uint32_t n)
    {
        Muls(v, v, 2.0f, n);
        SigmoidInPlace(v, n);
        Muls(v, v, 2.0f, n);
        Adds(v, v, -1.0f, n);
    }

    __aicore__ inline void Step(uint32_t l, uint32_t t, uint32_t b, uint32_t inFeat,
                                GlobalTensor<float> &src, GlobalTensor<float> &dst)
    {
        LocalTensor<float> wIh = wIhBuf_.Get<float>();
        LocalTensor<float> wHh = wHhBuf_.Get<float>();
        LocalTensor<float> bias = biasBuf_.Get<float>();
        LocalTensor<float> xRow = xRowBuf_.Get<float>();
        LocalTensor<float> hRow = hRowBuf_.Get<float>();
        LocalTensor<float> prod = prodBuf_.Get<float>();
        LocalTensor<float> slots = slotBuf_.Get<float>();
        LocalTensor<float> gate = gateBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        LocalTensor<float> red = redBuf_.Get<float>();

        // inputs of this step: layer input at t and the layer's own state at t-1
        LoadRow(xRow, src[(static_cast<uint64_t>(t) * B_ + b) * inFeat], inFeat);
        if (t == 0) {
            LoadRow(hRow, h0Gm_[(static_cast<uint64_t>(l) * B_ + b) * H_], H_);
        } else {
            LoadRow(hRow, dst[(static_cast<uint64_t>(t - 1) * B_ + b) * H_], H_);
        }
        Fence<HardEvent::MTE2_V>();

        // 3*S input dot products followed by 3*S recurrent ones, each into its own 32B slot
        for (uint32_t g = 0; g < 3; ++g) {
            for (uint32_t j = 0; j < mySlice_; ++j) {
                uint32_t row = g * S_ + j;
                Mul(prod, wIh[row * pitchIn_], xRow, inFeat);
                ReduceSum<float>(slots[row * SLOT], prod, red, inFeat);
                Mul(prod, wHh[row * pitchH_], hRow, H_);
                ReduceSum<float>(slots[(3 * S_ + row) * SLOT], prod, red, H_);
            }
        }
        // compact the slot results into gate[0:3S] (input side) and gate[3S:6S] (hidden side)
        Fence<HardEvent::V_S>();
        for (uint32_t k = 0; k < 6 * S_; ++k) {
            gate.SetValue(k, slots.GetValue(k * SLOT));
        }
        Fence<HardEvent::S_V>();

        Add(gate, gate, bias, 6 * S_);   // both bias vectors share the same 6S layout
        LocalTensor<float> gi = gate;
        LocalTensor<float> gh = gate[3 * S_];
        LocalTensor<float> r = tmp;
        LocalTensor<float> z = tmp[S_];
        LocalTensor<float> n = tmp[2 * S_];
        LocalTensor<float> hNew = tmp[3 * S_];

        Add(r, gi, gh, S_);
        SigmoidInPlace(r, S_);
        Add(z, gi[S_], gh[S_], S_);
        SigmoidInPlace(z, S_);
        Mul(n, r, gh[2 * S_], S_);
        Add(n, n, gi[2 * S_], S_);
        TanhInPlace(n, S_);
        // h' = n + z * (h - n)
        Sub(hNew, hRow[j0_], n, S_);
        Mul(hNew, hNew, z, S_);
        Add(hNew, hNew, n, S_);

        Fence<HardEvent::V_MTE3>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(mySlice_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(dst[(static_cast<uint64_t>(t) * B_ + b) * H_ + j0_], hNew, cp);
        // the next iteration overwrites xRow/hRow/tmp; make sure the store is done
        Fence<HardEvent::MTE3_MTE2>();
        Fence<HardEvent::MTE3_V>();
    }

    __aicore__ inline void SaveFinalState(uint32_t l, GlobalTensor<float> &seq)
    {
        LocalTensor<float> row = hRowBuf_.Get<float>();
        for (uint32_t b = 0; b < B_; ++b) {
            LoadRow(row, seq[(static_cast<uint64_t>(T_ - 1) * B_ + b) * H_ + j0_], mySlice_);
            Fence<HardEvent::MTE2_MTE3>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(mySlice_ * sizeof(float)), 0, 0, 0};
            DataCopyPad(hnGm_[(static_cast<uint64_t>(l) * B_ + b) * H_ + j0_], row, cp);
            Fence<HardEvent::MTE3_MTE2>();
        }
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> wIhBuf_, wHhBuf_, biasBuf_, xRowBuf_, hRowBuf_, prodBuf_;
    TBuf<TPosition::VECCALC> slotBuf_, gateBuf_, tmpBuf_, redBuf_;

    GlobalTensor<float> xGm_, h0Gm_, wIh0Gm_, wIhNGm_, wHhGm_, bIhGm_, bHhGm_, yGm_, hnGm_;
    GlobalTensor<float> seqGm_[2];

    uint32_t T_ = 0, B_ = 0, I_ = 0, H_ = 0, L_ = 0, S_ = 0, maxFeat_ = 0;
    uint32_t j0_ = 0, mySlice_ = 0, pitchIn_ = 0, pitchH_ = 0;
};

extern "C" __global__ __aicore__ void multi_layer_gated_recurrent(GM_ADDR x, GM_ADDR h0, GM_ADDR w_ih_first,
                                                                  GM_ADDR w_ih_deep, GM_ADDR w_hh, GM_ADDR b_ih,
                                                                  GM_ADDR b_hh, GM_ADDR y, GM_ADDR h_n,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    GatedRecurrentKernel op;
    op.Init(x, h0, w_ih_first, w_ih_deep, w_hh, b_ih, b_hh, y, h_n, usrWs, td);
    op.Process();
}
