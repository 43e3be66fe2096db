/*
 * BiGruFinalState kernel (mixed cube / vector).
 *
 * GRU cell (gate order r, z, n as in the weight layout):
 *   r  = sigmoid(gi_r + W_hr h + b_hr)
 *   z  = sigmoid(gi_z + W_hz h + b_hz)
 *   n  = tanh  (gi_n + r * (W_hn h + b_hn))
 *   h' = n + z * (h - n)
 * gi = W_ih x + b_ih is computed for the whole sequence up front with the Matmul API.
 *
 * Workspace (float): gi[2][T*B][3H] | seq[2][T*B][2H] (ping-pong between layers) | h[2 dir][2 parity][B][H]
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using MmA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MmB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using MmC = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MmBias = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using Projection = matmul::Matmul<MmA, MmB, MmC, MmBias>;

class BiGruFinalStateKernel {
public:
    __aicore__ inline BiGruFinalStateKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR h0, GM_ADDR wihFirst, GM_ADDR wihRest, GM_ADDR whh, GM_ADDR bih,
                                GM_ADDR bhh, GM_ADDR hn, GM_ADDR usr, const BiGruFinalStateTiling *td, TPipe *pipe)
    {
        td_ = td;
        T_ = td->seqLen;
        B_ = td->batch;
        I_ = td->inputSize;
        H_ = td->hidden;
        Hp_ = td->hiddenPad;
        L_ = td->layers;
        S_ = td->unitsPerCore;
        pipe_ = pipe;

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        h0Gm_.SetGlobalBuffer((__gm__ float *)h0);
        wihFirstGm_.SetGlobalBuffer((__gm__ float *)wihFirst);
        wihRestGm_.SetGlobalBuffer((__gm__ float *)wihRest);
        whhGm_.SetGlobalBuffer((__gm__ float *)whh);
        bihGm_.SetGlobalBuffer((__gm__ float *)bih);
        bhhGm_.SetGlobalBuffer((__gm__ float *)bhh);
        hnGm_.SetGlobalBuffer((__gm__ float *)hn);
        giGm_.SetGlobalBuffer((__gm__ float *)usr + td->wsGiOffset);
        seqGm_.SetGlobalBuffer((__gm__ float *)usr + td->wsSeqOffset);
        hGm_.SetGlobalBuffer((__gm__ float *)usr + td->wsHOffset);

        // which (direction, slice of hidden units) this vector core owns in the recurrence
        uint32_t v = GetBlockIdx();
        active_ = v < 2 * td->coresPerDir;
        dir_ = active_ ? v / td->coresPerDir : 0;
        j0_ = active_ ? (v % td->coresPerDir) * S_ : 0;
        len_ = (active_ && j0_ < H_) ? ((H_ - j0_) < S_ ? (H_ - j0_) : S_) : 0;
        active_ = active_ && len_ > 0;

        pipe_->InitBuffer(whhBuf_, 3 * S_ * Hp_ * sizeof(float));
        pipe_->InitBuffer(hPrevBuf_, B_ * Hp_ * sizeof(float));
        pipe_->InitBuffer(giQ_, 1, B_ * 3 * S_ * sizeof(float));
        pipe_->InitBuffer(ghBuf_, B_ * 3 * S_ * sizeof(float));
        pipe_->InitBuffer(bhhBuf_, 3 * S_ * sizeof(float));
        pipe_->InitBuffer(accBuf_, 3 * S_ * 64 * sizeof(float));
        pipe_->InitBuffer(prodBuf_, 3 * S_ * 64 * sizeof(float));
        pipe_->InitBuffer(gateBuf_, 4 * S_ * sizeof(float));
        pipe_->InitBuffer(outQ_, 1, B_ * S_ * sizeof(float));
    }

    __aicore__ inline void Run(Projection &projFirst, Projection &projRest)
    {
        for (uint32_t l = 0; l < L_; ++l) {
            Project(l, l == 0 ? projFirst : projRest);
            SyncAll();
            if (active_) {
                LoadRecurrentWeights(l);
            }
            for (uint32_t step = 0; step < T_; ++step) {
                if (active_) {
                    Step(l, step);
                }
                SyncAll();
            }
        }
    }

private:
    // ---------------- input projection on the cube ----------------
    __aicore__ inline void Project(uint32_t l, Projection &mm)
    {
        if (GetSubBlockIdx() != 0) {
            return;
        }
        const TCubeTiling &t = (l == 0) ? td_->projFirst : td_->projRest;
        uint32_t cube = GetBlockIdx() / GetTaskRation();
        uint32_t mBlk = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        uint32_t nBlk = (t.N + t.singleCoreN - 1) / t.singleCoreN;
        if (cube >= mBlk * nBlk) {
            return;
        }
        uint32_t mi = cube % mBlk, ni = cube / mBlk;
        int32_t tm = t.M - mi * t.singleCoreM;
        int32_t tn = t.N - ni * t.singleCoreN;
        tm = tm < t.singleCoreM ? tm : t.singleCoreM;
        tn = tn < t.singleCoreN ? tn : t.singleCoreN;

        uint32_t kIn = (l == 0) ? I_ : 2 * H_;
        uint64_t rows = static_cast<uint64_t>(T_) * B_;
        GlobalTensor<float> src = (l == 0) ? xGm_ : seqGm_[((l - 1) & 1) * rows * 2 * H_];
        for (uint32_t d = 0; d < 2; ++d) {
            GlobalTensor<float> w = (l == 0) ? wihFirstGm_[static_cast<uint64_t>(d) * 3 * H_ * I_]
                                             : wihRestGm_[(static_cast<uint64_t>(l - 1) * 2 + d) * 3 * H_ * 2 * H_];
            GlobalTensor<float> bias = bihGm_[(static_cast<uint64_t>(l) * 2 + d) * 3 * H_];
            GlobalTensor<float> dst = giGm_[d * rows * 3 * H_];
            mm.SetTail(tm, tn);
            mm.SetTensorA(src[static_cast<uint64_t>(mi) * t.singleCoreM * kIn]);
            mm.SetTensorB(w[static_cast<uint64_t>(ni) * t.singleCoreN * kIn], true);
            mm.SetBias(bias[ni * t.singleCoreN]);
            mm.IterateAll(dst[static_cast<uint64_t>(mi) * t.singleCoreM * 3 * H_ + ni * t.singleCoreN]);
        }
        mm.End();
    }

    // ---------------- recurrence on the vector cores ----------------
    __aicore__ inline void LoadRecurrentWeights(uint32_t l)
    {
        LocalTensor<float> w = whhBuf_.Get<float>();
        LocalTensor<float> hp = hPrevBuf_.Get<float>();
        Duplicate(w, 0.0f, 3 * S_ * Hp_);     // padding columns / rows must read as zero
        Duplicate(hp, 0.0f, B_ * Hp_);
        PipeSync<HardEvent::V_MTE2>();
        uint64_t base = (static_cast<uint64_t>(l) * 2 + dir_) * 3 * H_;
        DataCopyExtParams rowCp(static_cast<uint16_t>(len_), H_ * sizeof(float), 0,
                                static_cast<uint32_t>((Hp_ - H_) * sizeof(float) / 32), 0);
        DataCopyPadExtParams<float> zeroPad(true, 0, 0, 0.0f);
        LocalTensor<float> bh = bhhBuf_.Get<float>();
        for (uint32_t g = 0; g < 3; ++g) {
            DataCopyPad(w[g * S_ * Hp_], whhGm_[(base + g * H_ + j0_) * H_], rowCp, zeroPad);
            DataCopyPad(bh[g * S_], bhhGm_[base + g * H_ + j0_],
                        DataCopyExtParams(1, len_ * sizeof(float), 0, 0, 0), zeroPad);
        }
        PipeSync<HardEvent::MTE2_V>();
    }

    __aicore__ inline void Step(uint32_t l, uint32_t step)
    {
        uint32_t t = (dir_ == 0) ? step : (T_ - 1 - step);
        uint32_t parity = step & 1;
        uint64_t rows = static_cast<uint64_t>(T_) * B_;

        // previous hidden state of the full direction (B x H)
        GlobalTensor<float> hSrc = (step == 0) ? h0Gm_[(static_cast<uint64_t>(l) * 2 + dir_) * B_ * H_]
                                               : hGm_[((dir_ * 2 + parity) * B_) * static_cast<uint64_t>(H_)];
        LocalTensor<float> hp = hPrevBuf_.Get<float>();
        DataCopyPad(hp, hSrc,
                    DataCopyExtParams(static_cast<uint16_t>(B_), H_ * sizeof(float), 0,
                                      static_cast<uint32_t>((Hp_ - H_) * sizeof(float) / 32), 0),
                    DataCopyPadExtParams<float>(true, 0, 0, 0.0f));

        // input-side gates for this timestep: blocks (b, g) of len_ floats, uniform gap H - len_
        LocalTensor<float> gi = giQ_.AllocTensor<float>();
        DataCopyPad(gi, giGm_[dir_ * rows * 3 * H_ + static_cast<uint64_t>(t) * B_ * 3 * H_ + j0_],
                    DataCopyExtParams(static_cast<uint16_t>(B_ * 3), len_ * sizeof(float),
                                      (H_ - len_) * sizeof(float), static_cast<uint32_t>((S_ - len_) * sizeof(float) / 32), 0),
                    DataCopyPadExtParams<float>(true, 0, 0, 0.0f));
        giQ_.EnQue(gi);
        PipeSync<HardEvent::MTE2_V>();

        HiddenProjection();

        gi = giQ_.DeQue<float>();
        LocalTensor<float> gh = ghBuf_.Get<float>();
        LocalTensor<float> bh = bhhBuf_.Get<float>();
        LocalTensor<float> gate = gateBuf_.Get<float>();
        LocalTensor<float> r = gate;
        LocalTensor<float> z = gate[S_];
        LocalTensor<float> n = gate[2 * S_];
        LocalTensor<float> tmp = gate[3 * S_];
        LocalTensor<float> hNew = outQ_.AllocTensor<float>();

        for (uint32_t b = 0; b < B_; ++b) {
            LocalTensor<float> ghB = gh[b * 3 * S_];
            LocalTensor<float> giB = gi[b * 3 * S_];
            Add(ghB, ghB, bh, 3 * S_);                 // + b_hh (all gates)
            Add(r, giB, ghB, S_);
            Sigmoid(r);
            Add(z, giB[S_], ghB[S_], S_);
            Sigmoid(z);
            Mul(n, r, ghB[2 * S_], S_);
            Add(n, n, giB[2 * S_], S_);
            TanhInPlace(n, tmp);
            // h' = n + z * (h - n)
            Sub(tmp, hp[b * Hp_ + j0_], n, S_);
            Mul(tmp, tmp, z, S_);
            Add(hNew[b * S_], n, tmp, S_);
        }
        giQ_.FreeTensor(gi);
        outQ_.EnQue(hNew);
        hNew = outQ_.DeQue<float>();

        uint32_t gap = (H_ - len_) * sizeof(float);
        uint32_t srcGapBlk = static_cast<uint32_t>((S_ - len_) * sizeof(float) / 32);
        // next hidden state for the other cores
        DataCopyPad(hGm_[((dir_ * 2 + (parity ^ 1)) * B_) * static_cast<uint64_t>(H_) + j0_], hNew,
                    DataCopyExtParams(static_cast<uint16_t>(B_), len_ * sizeof(float), srcGapBlk, gap, 0));
        // layer output sequence, needed as input of the next layer
        DataCopyPad(seqGm_[(l & 1) * rows * 2 * H_ + static_cast<uint64_t>(t) * B_ * 2 * H_ + dir_ * H_ + j0_], hNew,
                    DataCopyExtParams(static_cast<uint16_t>(B_), len_ * sizeof(float), srcGapBlk,
                                      (2 * H_ - len_) * sizeof(float), 0));
        if (step + 1 == T_) {
            DataCopyPad(hnGm_[(static_cast<uint64_t>(l) * 2 + dir_) * B_ * H_ + j0_], hNew,
                        DataCopyExtParams(static_cast<uint16_t>(B_), len_ * sizeof(float), srcGapBlk, gap, 0));
        }
        outQ_.FreeTensor(hNew);
    }

    // gh[b][g*S + s] = sum_k W_hh[g*H + j0 + s][k] * h[b][k]
    // The rows are processed 64 columns at a time: one Mul with the h chunk broadcast
    // over all 3*S rows (src1 repeat stride 0), accumulated, then one WholeReduceSum.
    __aicore__ inline void HiddenProjection()
    {
        LocalTensor<float> w = whhBuf_.Get<float>();
        LocalTensor<float> hp = hPrevBuf_.Get<float>();
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> prod = prodBuf_.Get<float>();
        LocalTensor<float> gh = ghBuf_.Get<float>();
        uint8_t rowsRep = static_cast<uint8_t>(3 * S_);
        uint8_t wRowBlk = static_cast<uint8_t>(Hp_ / 8);
        uint32_t chunks = Hp_ / 64;
        for (uint32_t b = 0; b < B_; ++b) {
            for (uint32_t c = 0; c < chunks; ++c) {
                LocalTensor<float> dst = (c == 0) ? acc : prod;
                Mul(dst, w[c * 64], hp[b * Hp_ + c * 64], 64, rowsRep, BinaryRepeatParams(1, 1, 1, 8, wRowBlk, 0));
                if (c != 0) {
                    Add(acc, acc, prod, 3 * S_ * 64);
                }
            }
            WholeReduceSum<float>(gh[b * 3 * S_], acc, 64, rowsRep, 1, 1, 8);
        }
    }

    __aicore__ inline void Sigmoid(LocalTensor<float> &v)
    {
        Muls(v, v, -1.0f, S_);
        Exp(v, v, S_);
        Adds(v, v, 1.0f, S_);
        Reciprocal(v, v, S_);
    }

    // tanh(x) = 2 * sigmoid(2x) - 1
    __aicore__ inline void TanhInPlace(LocalTensor<float> &v, LocalTensor<float> &scratch)
    {
        Muls(v, v, 2.0f, S_);
        Sigmoid(v);
        Muls(v, v, 2.0f, S_);
        Adds(v, v, -1.0f, S_);
        (void)scratch;
    }

    template <HardEvent EV>
    __aicore__ inline void PipeSync()
    {
        event_t e = static_cast<event_t>(pipe_->FetchEventID(EV));
        SetFlag<EV>(e);
        WaitFlag<EV>(e);
    }

    TPipe *pipe_ = nullptr;
    const BiGruFinalStateTiling *td_ = nullptr;
    TBuf<TPosition::VECCALC> whhBuf_, hPrevBuf_, ghBuf_, bhhBuf_, accBuf_, prodBuf_, gateBuf_;
    TQue<QuePosition::VECIN, 1> giQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    GlobalTensor<float> xGm_, h0Gm_, wihFirstGm_, wihRestGm_, whhGm_, bihGm_, bhhGm_, hnGm_;
    GlobalTensor<float> giGm_, seqGm_, hGm_;
    uint32_t T_ = 0, B_ = 0, I_ = 0, H_ = 0, Hp_ = 0, L_ = 0, S_ = 0;
    uint32_t dir_ = 0, j0_ = 0, len_ = 0;
    bool active_ = false;
};

extern "C" __global__ __aicore__ void bi_gru_final_state(GM_ADDR x, GM_ADDR h0, GM_ADDR w_ih_first, GM_ADDR w_ih_rest,
                                                         GM_ADDR w_hh, GM_ADDR b_ih, GM_ADDR b_hh, GM_ADDR h_n,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    TPipe pipe;
    Projection projFirst;
    Projection projRest;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), projFirst, &td.projFirst, projRest, &td.projRest);

    BiGruFinalStateKernel op;
    op.Init(x, h0, w_ih_first, w_ih_rest, w_hh, b_ih, b_hh, h_n, usr, &td, &pipe);
    op.Run(projFirst, projRest);
}
