/**
 * BiGruSequence kernel – L-layer bidirectional GRU, fp32, time-major.
 *
 * Per layer l, direction d, batch row b and time step t (reverse order for d = 1):
 *     r = σ(W_ir x + b_ir + W_hr h + b_hr)
 *     z = σ(W_iz x + b_iz + W_hz h + b_hz)
 *     n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))
 *     h = (1 - z) ⊙ n + z ⊙ h  =  n + z ⊙ (h - n)
 *     y_l[t, b, d*H:(d+1)*H] = h
 *
 * Phase 0 (all cores): every weight matrix [3H, C] is transposed into the
 *   workspace as [C, 3*Ha] (gate blocks padded to Ha = ceil8(H)) using the
 *   vector Gather instruction, so a mat-vec becomes a sequence of
 *   contiguous-row Axpy's: out += v[c] * Wt[c, :].
 * Phase 1 (per layer): the 2*B independent recurrences (direction, batch row)
 *   are distributed over the cores; each keeps its hidden state in UB and
 *   streams the transposed weights with a double-buffered queue.  Layers are
 *   separated by SyncAll because layer l+1 consumes both directions of layer l.
 */
#include "kernel_operator.h"

using namespace AscendC;

class BiGruSequenceKernel {
public:
    __aicore__ inline BiGruSequenceKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR h0, GM_ADDR params, GM_ADDR y, GM_ADDR hn, GM_ADDR ws,
                                const BiGruSequenceTilingData &td)
    {
        td_ = td;
        T_ = td.seqLen;
        B_ = td.batch;
        I_ = td.inputSize;
        H_ = td.hidden;
        Ha_ = td.hiddenAlign;
        G_ = td.gateWidth;
        L_ = td.numLayers;
        core_ = GetBlockIdx();
        cores_ = GetBlockNum();

        xGm_.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(T_) * B_ * I_);
        h0Gm_.SetGlobalBuffer((__gm__ float *)h0, 2ULL * L_ * B_ * H_);
        pGm_.SetGlobalBuffer((__gm__ float *)params, 2 * td.flatLayer0 + 2ULL * (L_ - 1) * td.flatLayerN);
        yGm_.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(T_) * B_ * 2 * H_);
        hnGm_.SetGlobalBuffer((__gm__ float *)hn, 2ULL * L_ * B_ * H_);
        __gm__ float *wsf = (__gm__ float *)ws;
        packGm_.SetGlobalBuffer(wsf, td.packTotal);
        if (td.seqBufFloats > 0) {
            seqGm_[0].SetGlobalBuffer(wsf + td.packTotal, td.seqBufFloats);
            seqGm_[1].SetGlobalBuffer(wsf + td.packTotal + td.seqBufFloats, td.seqBufFloats);
        }
    }

    __aicore__ inline void Process()
    {
        TransposeAllWeights();
        SyncAll<true>();
        pipe_.Reset();
        SetupRecurrenceBuffers();
        for (uint32_t l = 0; l < L_; ++l) {
            for (uint32_t item = core_; item < 2 * B_; item += cores_) {
                RunSequence(l, item / B_, item % B_);
            }
            SyncAll<true>();
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Fence()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    __aicore__ inline uint32_t Up8(uint32_t v) const { return (v + 7U) / 8U * 8U; }
    __aicore__ inline uint32_t LayerIn(uint32_t l) const { return l == 0 ? I_ : 2 * H_; }

    __aicore__ inline uint64_t FlatBase(uint32_t l, uint32_t d) const
    {
        return l == 0 ? d * td_.flatLayer0
                      : 2 * td_.flatLayer0 + (2ULL * (l - 1) + d) * td_.flatLayerN;
    }

    __aicore__ inline uint64_t PackBase(uint32_t l, uint32_t d) const
    {
        return l == 0 ? d * td_.packLayer0
                      : 2 * td_.packLayer0 + (2ULL * (l - 1) + d) * td_.packLayerN;
    }

    // ------------------------------------------------------------------
    // Phase 0: weight transposition
    // ------------------------------------------------------------------
    __aicore__ inline void TransposeAllWeights()
    {
        const uint32_t R = td_.transRows;
        const uint32_t inMax = td_.inMaxAlign;
        pipe_.InitBuffer(srcBuf_, R * inMax * sizeof(float));
        pipe_.InitBuffer(dstBuf_, inMax * R * sizeof(float));
        pipe_.InitBuffer(offBuf_, R * sizeof(uint32_t));

        const uint32_t perGate = (H_ + R - 1) / R;
        const uint32_t perDir = 2 * 3 * perGate;          // {ih, hh} x gates x row blocks
        const uint32_t total = L_ * 2 * perDir;
        for (uint32_t u = core_; u < total; u += cores_) {
            uint32_t ld = u / perDir;
            uint32_t rem = u % perDir;
            uint32_t mat = rem / (3 * perGate);
            uint32_t g = (rem % (3 * perGate)) / perGate;
            uint32_t j0 = (rem % perGate) * R;
            TransposeBlock(ld / 2, ld % 2, mat, g, j0);
        }
    }

    __aicore__ inline void TransposeBlock(uint32_t l, uint32_t d, uint32_t mat, uint32_t g, uint32_t j0)
    {
        const uint32_t R = td_.transRows;
        const uint32_t inL = LayerIn(l);
        const uint32_t C = mat == 0 ? inL : H_;
        const uint32_t Ca = Up8(C);
        const uint32_t rr = (H_ - j0) < R ? (H_ - j0) : R;

        uint64_t src = FlatBase(l, d) + (mat == 0 ? 0ULL : 3ULL * H_ * inL) +
                       static_cast<uint64_t>(g * H_ + j0) * C;
        uint64_t dst = PackBase(l, d) + (mat == 0 ? 0ULL : static_cast<uint64_t>(inL) * G_) + g * Ha_ + j0;

        LocalTensor<float> blk = srcBuf_.Get<float>();
        LocalTensor<float> tile = dstBuf_.Get<float>();
        LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();

        // previous block: gathers done before tables / source are rewritten,
        // its store finished before the tile is rewritten
        Fence<HardEvent::V_S>();
        Fence<HardEvent::V_MTE2>();
        Fence<HardEvent::MTE3_V>();
        for (uint32_t r = 0; r < R; ++r) {
            off.SetValue(r, r < rr ? r * Ca * static_cast<uint32_t>(sizeof(float)) : 0U);
        }
        DataCopyExtParams in{static_cast<uint16_t>(rr), static_cast<uint32_t>(C * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(blk, pGm_[src], in, pad);
        Fence<HardEvent::S_V>();
        Fence<HardEvent::MTE2_V>();

        for (uint32_t c = 0; c < C; ++c) {
            Gather(tile[c * R], blk, off, c * static_cast<uint32_t>(sizeof(float)), R);
        }
        Fence<HardEvent::V_MTE3>();
        DataCopyExtParams out{static_cast<uint16_t>(C), static_cast<uint32_t>(rr * sizeof(float)),
                              static_cast<uint32_t>((R - Up8(rr)) / 8),
                              static_cast<uint32_t>((G_ - rr) * sizeof(float)), 0};
        DataCopyPad(packGm_[dst], tile, out);
    }

    // ------------------------------------------------------------------
    // Phase 1: recurrences
    // ------------------------------------------------------------------
    __aicore__ inline void SetupRecurrenceBuffers()
    {
        pipe_.InitBuffer(wQ_, 2, td_.streamRows * G_ * sizeof(float));
        pipe_.InitBuffer(xBuf_, td_.inMaxAlign * sizeof(float));
        pipe_.InitBuffer(giBuf_, G_ * sizeof(float));
        pipe_.InitBuffer(ghBuf_, G_ * sizeof(float));
        pipe_.InitBuffer(biBuf_, G_ * sizeof(float));
        pipe_.InitBuffer(bhBuf_, G_ * sizeof(float));
        pipe_.InitBuffer(hBuf_, Ha_ * sizeof(float));
        pipe_.InitBuffer(rBuf_, Ha_ * sizeof(float));
        pipe_.InitBuffer(zBuf_, Ha_ * sizeof(float));
        pipe_.InitBuffer(nBuf_, Ha_ * sizeof(float));
        pipe_.InitBuffer(tBuf_, Ha_ * sizeof(float));
        pipe_.InitBuffer(oneBuf_, Ha_ * sizeof(float));
        pipe_.InitBuffer(stBuf_, Ha_ * sizeof(float));
        Duplicate(oneBuf_.Get<float>(), 1.0f, Ha_);
    }

    __aicore__ inline void LoadRow(const LocalTensor<float> &dst, const GlobalTensor<float> &src, uint32_t len)
    {
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(Up8(len) - len), 0.0f};
        DataCopyPad(dst, src, p, pad);
    }

    __aicore__ inline void LoadGateBiases(uint32_t l, uint32_t d)
    {
        LocalTensor<float> bi = biBuf_.Get<float>();
        LocalTensor<float> bh = bhBuf_.Get<float>();
        Fence<HardEvent::V_MTE2>();
        Duplicate(bi, 0.0f, G_);
        Duplicate(bh, 0.0f, G_);
        if (td_.hasBias == 0) {
            return;
        }
        Fence<HardEvent::V_MTE2>();
        const uint32_t inL = LayerIn(l);
        uint64_t base = FlatBase(l, d) + 3ULL * H_ * inL + 3ULL * H_ * H_;
        for (uint32_t g = 0; g < 3; ++g) {
            LoadRow(bi[g * Ha_], pGm_[base + g * H_], H_);
            LoadRow(bh[g * Ha_], pGm_[base + 3ULL * H_ + g * H_], H_);
        }
        Fence<HardEvent::MTE2_V>();
    }

    __aicore__ inline void IssueRows(uint64_t gmRow, uint32_t cnt)
    {
        LocalTensor<float> w = wQ_.AllocTensor<float>();
        // cnt transposed rows are contiguous in the workspace: one burst
        DataCopyExtParams p{1, static_cast<uint32_t>(cnt * G_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(w, packGm_[gmRow], p, pad);
        wQ_.EnQue(w);
    }

    // acc[0:G) += Σ_{c < rows} v[c] * Wt[c, 0:G), Wt rows streamed from the workspace.
    __aicore__ inline void MatVec(const LocalTensor<float> &acc, uint64_t packOff, uint32_t rows,
                                  const LocalTensor<float> &v)
    {
        const uint32_t cr = td_.streamRows;
        uint32_t chunks = (rows + cr - 1) / cr;
        IssueRows(packOff, rows < cr ? rows : cr);
        for (uint32_t k = 0; k < chunks; ++k) {
            uint32_t r0 = k * cr;
            uint32_t cnt = (rows - r0) < cr ? (rows - r0) : cr;
            if (k + 1 < chunks) {
                uint32_t n0 = r0 + cr;
                uint32_t ncnt = (rows - n0) < cr ? (rows - n0) : cr;
                IssueRows(packOff + static_cast<uint64_t>(n0) * G_, ncnt);
            }
            LocalTensor<float> w = wQ_.DeQue<float>();
            for (uint32_t i = 0; i < cnt; ++i) {
                Axpy(acc, w[i * G_], v.GetValue(r0 + i), G_);
            }
            wQ_.FreeTensor(w);
        }
    }

    __aicore__ inline void Sigmoid(const LocalTensor<float> &dst, const LocalTensor<float> &src)
    {
        Muls(dst, src, -1.0f, Ha_);
        Exp(dst, dst, Ha_);
        Adds(dst, dst, 1.0f, Ha_);
        Div(dst, oneBuf_.Get<float>(), dst, Ha_);
    }

    __aicore__ inline void TanhInPlace(const LocalTensor<float> &v)
    {
        // tanh(v) = 2 * sigmoid(2v) - 1
        Muls(v, v, 2.0f, Ha_);
        Sigmoid(v, v);
        Muls(v, v, 2.0f, Ha_);
        Adds(v, v, -1.0f, Ha_);
    }

    __aicore__ inline void RunSequence(uint32_t l, uint32_t d, uint32_t b)
    {
        const uint32_t inL = LayerIn(l);
        const bool last = (l + 1 == L_);
        const GlobalTensor<float> &src = (l == 0) ? xGm_ : seqGm_[(l - 1) & 1];
        const GlobalTensor<float> &dst = last ? yGm_ : seqGm_[l & 1];
        const uint64_t ihOff = PackBase(l, d);
        const uint64_t hhOff = ihOff + static_cast<uint64_t>(inL) * G_;

        LocalTensor<float> xr = xBuf_.Get<float>();
        LocalTensor<float> gi = giBuf_.Get<float>();
        LocalTensor<float> gh = ghBuf_.Get<float>();
        LocalTensor<float> bi = biBuf_.Get<float>();
        LocalTensor<float> bh = bhBuf_.Get<float>();
        LocalTensor<float> h = hBuf_.Get<float>();
        LocalTensor<float> r = rBuf_.Get<float>();
        LocalTensor<float> z = zBuf_.Get<float>();
        LocalTensor<float> n = nBuf_.Get<float>();
        LocalTensor<float> tmp = tBuf_.Get<float>();
        LocalTensor<float> st = stBuf_.Get<float>();

        LoadGateBiases(l, d);
        Fence<HardEvent::V_MTE2>();
        LoadRow(h, h0Gm_[(static_cast<uint64_t>(2 * l + d) * B_ + b) * H_], H_);
        Fence<HardEvent::MTE2_V>();

        for (uint32_t s = 0; s < T_; ++s) {
            uint32_t t = (d == 0) ? s : (T_ - 1 - s);
            // input row for this step (read as scalars)
            Fence<HardEvent::S_MTE2>();
            LoadRow(xr, src[(static_cast<uint64_t>(t) * B_ + b) * inL], inL);
            Fence<HardEvent::MTE2_S>();

            Adds(gi, bi, 0.0f, G_);
            Adds(gh, bh, 0.0f, G_);
            MatVec(gi, ihOff, inL, xr);
            Fence<HardEvent::V_S>();              // h of the previous step visible to scalar
            MatVec(gh, hhOff, H_, h);

            Add(r, gi, gh, Ha_);
            Sigmoid(r, r);
            Add(z, gi[Ha_], gh[Ha_], Ha_);
            Sigmoid(z, z);
            Mul(n, r, gh[2 * Ha_], Ha_);
            Add(n, n, gi[2 * Ha_], Ha_);
            TanhInPlace(n);
            Sub(tmp, h, n, Ha_);
            Mul(tmp, tmp, z, Ha_);
            Add(h, n, tmp, Ha_);

            Fence<HardEvent::MTE3_V>();           // staging row free again
            Adds(st, h, 0.0f, Ha_);
            Fence<HardEvent::V_MTE3>();
            DataCopyExtParams p{1, static_cast<uint32_t>(H_ * sizeof(float)), 0, 0, 0};
            DataCopyPad(dst[(static_cast<uint64_t>(t) * B_ + b) * 2 * H_ + d * H_], st, p);
        }
        Fence<HardEvent::MTE3_V>();
        Adds(st, h, 0.0f, Ha_);
        Fence<HardEvent::V_MTE3>();
        DataCopyExtParams p{1, static_cast<uint32_t>(H_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(hnGm_[(static_cast<uint64_t>(2 * l + d) * B_ + b) * H_], st, p);
        Fence<HardEvent::MTE3_V>();
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> srcBuf_, dstBuf_, offBuf_;
    TQue<QuePosition::VECIN, 2> wQ_;
    TBuf<TPosition::VECCALC> xBuf_, giBuf_, ghBuf_, biBuf_, bhBuf_;
    TBuf<TPosition::VECCALC> hBuf_, rBuf_, zBuf_, nBuf_, tBuf_, oneBuf_, stBuf_;

    GlobalTensor<float> xGm_, h0Gm_, pGm_, yGm_, hnGm_, packGm_;
    GlobalTensor<float> seqGm_[2];
    BiGruSequenceTilingData td_;
    uint32_t T_ = 0, B_ = 0, I_ = 0, H_ = 0, Ha_ = 0, G_ = 0, L_ = 0;
    uint32_t core_ = 0, cores_ = 1;
};

extern "C" __global__ __aicore__ void bi_gru_sequence(GM_ADDR x, GM_ADDR h0, GM_ADDR params, GM_ADDR y,
                                                      GM_ADDR hn, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    BiGruSequenceKernel op;
    op.Init(x, h0, params, y, hn, usr, td);
    op.Process();
}
