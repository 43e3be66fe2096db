// Multi-layer GRU, returns only the last hidden state of every layer.
//   r = sigmoid(Wir x + bir + Whr h + bhr)
//   z = sigmoid(Wiz x + biz + Whz h + bhz)
//   n = tanh(Win x + bin + r * (Whn h + bhn))
//   h' = n + z * (h - n)
// One vector core owns one batch row at a time and runs its whole recurrence
// (all layers, all steps); the per-layer output sequence lives in workspace.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t WBUF = 2;

class StackedGruKernel {
public:
    __aicore__ inline StackedGruKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR h0, GM_ADDR wih, GM_ADDR whh, GM_ADDR bih, GM_ADDR bhh,
                                GM_ADDR hn, GM_ADDR usrWs, const StackedGruFinalStateTilingData &td)
    {
        T_ = td.seqLen;
        B_ = td.batch;
        I_ = td.inputSize;
        H_ = td.hiddenSize;
        L_ = td.numLayers;
        G_ = 3 * H_;
        rowsPerTile_ = td.rowsPerTile;
        cores_ = td.usedCores;

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        h0Gm_.SetGlobalBuffer((__gm__ float *)h0);
        wihGm_.SetGlobalBuffer((__gm__ float *)wih);
        whhGm_.SetGlobalBuffer((__gm__ float *)whh);
        bihGm_.SetGlobalBuffer((__gm__ float *)bih);
        bhhGm_.SetGlobalBuffer((__gm__ float *)bhh);
        hnGm_.SetGlobalBuffer((__gm__ float *)hn);
        seqGm_.SetGlobalBuffer((__gm__ float *)usrWs);

        uint32_t maxIn = I_ > H_ ? I_ : H_;
        gStride_ = Align8(G_);
        pipe_.InitBuffer(vecInQ_, 1, Align8(maxIn) * sizeof(float));
        pipe_.InitBuffer(wQ_, WBUF, rowsPerTile_ * gStride_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, Align8(H_) * sizeof(float));
        pipe_.InitBuffer(hBuf_, Align8(H_) * sizeof(float));
        pipe_.InitBuffer(giBuf_, gStride_ * sizeof(float));
        pipe_.InitBuffer(ghBuf_, gStride_ * sizeof(float));
        pipe_.InitBuffer(biBuf_, gStride_ * sizeof(float));
        pipe_.InitBuffer(bhBuf_, gStride_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, Align8(H_) * sizeof(float) * 2);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t b = GetBlockIdx(); b < B_; b += cores_) {
            for (uint32_t l = 0; l < L_; ++l) {
                RunLayer(b, l);
            }
        }
    }

private:
    __aicore__ inline uint32_t Align8(uint32_t n) { return (n + 7) / 8 * 8; }

    __aicore__ inline void GmToUb(const LocalTensor<float> &dst, const GlobalTensor<float> &src, uint32_t n)
    {
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(dst, src, p, pad);
    }

    __aicore__ inline void UbToGm(const GlobalTensor<float> &dst, const LocalTensor<float> &src, uint32_t n)
    {
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(dst, src, p);
    }

    __aicore__ inline void SyncVToS()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }

    __aicore__ inline void SyncMte2ToV()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
    }

    // acc[0:3H] += sum_k vec[k] * W[k, 0:3H]   with W (K, 3H) row major in GM
    __aicore__ inline void GemvAccumulate(const LocalTensor<float> &acc, const LocalTensor<float> &vec,
                                          const GlobalTensor<float> &w, uint32_t K)
    {
        for (uint32_t k0 = 0; k0 < K; k0 += rowsPerTile_) {
            uint32_t rows = (K - k0) < rowsPerTile_ ? (K - k0) : rowsPerTile_;
            LocalTensor<float> wt = wQ_.AllocTensor<float>();
            DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(G_ * sizeof(float)), 0,
                                static_cast<uint32_t>((gStride_ - G_) * sizeof(float) / 32), 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(wt, w[static_cast<uint64_t>(k0) * G_], p, pad);
            wQ_.EnQue(wt);
            wt = wQ_.DeQue<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                float s = vec.GetValue(k0 + r);
                Axpy(acc, wt[r * gStride_], s, G_);
            }
            wQ_.FreeTensor(wt);
        }
    }

    // 1 / (1 + exp(-v)), in place
    __aicore__ inline void SigmoidInPlace(const LocalTensor<float> &v, uint32_t n)
    {
        Muls(v, v, -1.0f, n);
        Exp(v, v, n);
        Adds(v, v, 1.0f, n);
        Reciprocal(v, v, n);
    }

    __aicore__ inline void RunLayer(uint32_t b, uint32_t l)
    {
        uint32_t inDim = (l == 0) ? I_ : H_;
        uint64_t wihOff = (l == 0) ? 0 : static_cast<uint64_t>(I_) * G_ + static_cast<uint64_t>(l - 1) * H_ * G_;
        GlobalTensor<float> wih = wihGm_[wihOff];
        GlobalTensor<float> whh = whhGm_[static_cast<uint64_t>(l) * H_ * G_];

        LocalTensor<float> h = hBuf_.Get<float>();
        LocalTensor<float> gi = giBuf_.Get<float>();
        LocalTensor<float> gh = ghBuf_.Get<float>();
        LocalTensor<float> bi = biBuf_.Get<float>();
        LocalTensor<float> bh = bhBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();

        // initial state and the two biases of this layer
        GmToUb(h, h0Gm_[(static_cast<uint64_t>(l) * B_ + b) * H_], H_);
        GmToUb(bi, bihGm_[static_cast<uint64_t>(l) * G_], G_);
        GmToUb(bh, bhhGm_[static_cast<uint64_t>(l) * G_], G_);
        SyncMte2ToV();

        for (uint32_t t = 0; t < T_; ++t) {
            // stage x_t: the raw input for layer 0, the previous layer's h_t otherwise
            LocalTensor<float> xv = vecInQ_.AllocTensor<float>();
            if (l == 0) {
                GmToUb(xv, xGm_[(static_cast<uint64_t>(t) * B_ + b) * I_], I_);
            } else {
                GmToUb(xv, seqGm_[(static_cast<uint64_t>(b) * T_ + t) * H_], H_);
            }
            vecInQ_.EnQue(xv);
            xv = vecInQ_.DeQue<float>();

            Adds(gi, bi, 0.0f, G_);
            Adds(gh, bh, 0.0f, G_);
            SyncVToS();
            GemvAccumulate(gi, xv, wih, inDim);
            GemvAccumulate(gh, h, whh, H_);
            vecInQ_.FreeTensor(xv);

            LocalTensor<float> rg = gi;            // r  (first H)
            LocalTensor<float> zg = gi[H_];        // z  (second H)
            LocalTensor<float> ng = gi[2 * H_];    // n  (third H)
            Add(rg, rg, gh, 2 * H_);               // r and z pre-activations together
            SigmoidInPlace(rg, 2 * H_);
            Mul(tmp, rg, gh[2 * H_], H_);          // r * (Whn h + bhn)
            Add(ng, ng, tmp, H_);
            // tanh(v) = 2 * sigmoid(2v) - 1
            Muls(ng, ng, 2.0f, H_);
            SigmoidInPlace(ng, H_);
            Muls(ng, ng, 2.0f, H_);
            Adds(ng, ng, -1.0f, H_);
            // h = n + z * (h - n)
            Sub(tmp, h, ng, H_);
            Mul(tmp, tmp, zg, H_);
            Add(h, ng, tmp, H_);

            // publish h_t: for the next layer (sequence buffer) and, at the end, as h_n
            bool lastStep = (t + 1 == T_);
            bool needSeq = (l + 1 < L_);
            if (needSeq || lastStep) {
                LocalTensor<float> o = outQ_.AllocTensor<float>();
                Adds(o, h, 0.0f, H_);
                outQ_.EnQue(o);
                o = outQ_.DeQue<float>();
                if (needSeq) {
                    UbToGm(seqGm_[(static_cast<uint64_t>(b) * T_ + t) * H_], o, H_);
                }
                if (lastStep) {
                    UbToGm(hnGm_[(static_cast<uint64_t>(l) * B_ + b) * H_], o, H_);
                }
                outQ_.FreeTensor(o);
            }
            // the next step reads h and the staged input through the scalar unit
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> vecInQ_;
    TQue<QuePosition::VECIN, WBUF> wQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<QuePosition::VECCALC> hBuf_, giBuf_, ghBuf_, biBuf_, bhBuf_, tmpBuf_;

    GlobalTensor<float> xGm_, h0Gm_, wihGm_, whhGm_, bihGm_, bhhGm_, hnGm_, seqGm_;
    uint32_t T_ = 0, B_ = 0, I_ = 0, H_ = 0, L_ = 0, G_ = 0;
    uint32_t gStride_ = 0, rowsPerTile_ = 0, cores_ = 1;
};
}  // namespace

extern "C" __global__ __aicore__ void stacked_gru_final_state(GM_ADDR x, GM_ADDR h0, GM_ADDR weight_ih,
                                                              GM_ADDR weight_hh, GM_ADDR bias_ih, GM_ADDR bias_hh,
                                                              GM_ADDR h_n, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    StackedGruKernel op;
    op.Init(x, h0, weight_ih, weight_hh, bias_ih, bias_hh, h_n, usrWs, td);
    op.Process();
}
