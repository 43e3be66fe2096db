/*
 * PreLnDecoderLayer: one pre-LayerNorm GPT decoder layer, float32.
 *
 *   a = LN1(x)
 *   [q|k|v] = a @ Wqkv^T + bqkv                  (cube)
 *   o = concat_h softmax(q_h k_h^T * s + causal) v_h   (vector)
 *   x1 = x + (o @ Wproj^T + bproj)               (cube + vector)
 *   y  = x1 + GELU_tanh(LN2(x1) @ Wfc^T + bfc) @ Wout^T + bout
 *
 * Launched as a mixed AIC/AIV kernel. The four GEMMs use the high level Matmul API,
 * everything else runs on the vector cores. Phases communicate through the user
 * workspace and are separated by SyncAll().
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
using GmF = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using GmFT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using LinearMm = Matmul<GmF, GmFT, GmF, GmF>;

constexpr float GELU_K = -1.5957691216057308f;  // -2*sqrt(2/pi)
constexpr float GELU_C = 0.044715f;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }

template <HardEvent E>
__aicore__ inline void Wait()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(ev);
    WaitFlag<E>(ev);
}
} // namespace

class PreLnDecoderLayerKernel {
public:
    __aicore__ inline PreLnDecoderLayerKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR g1, GM_ADDR b1, GM_ADDR wqkv, GM_ADDR bqkv, GM_ADDR wp,
                                GM_ADDR bp, GM_ADDR wfc, GM_ADDR bfc, GM_ADDR wout, GM_ADDR bout, GM_ADDR g2,
                                GM_ADDR b2, GM_ADDR y, GM_ADDR usrWs, const PreLnDecoderLayerTilingData* td)
    {
        td_ = td;
        C_ = td->embed;
        H_ = td->hidden;
        T_ = td->seqLen;
        rows_ = td->batch * td->seqLen;
        vecIdx_ = GetBlockIdx();
        vecNum_ = td->vecCores;

        xGm_.SetGlobalBuffer((__gm__ float*)x);
        yGm_.SetGlobalBuffer((__gm__ float*)y);
        g1Gm_.SetGlobalBuffer((__gm__ float*)g1);
        b1Gm_.SetGlobalBuffer((__gm__ float*)b1);
        g2Gm_.SetGlobalBuffer((__gm__ float*)g2);
        b2Gm_.SetGlobalBuffer((__gm__ float*)b2);
        wqkvGm_.SetGlobalBuffer((__gm__ float*)wqkv);
        bqkvGm_.SetGlobalBuffer((__gm__ float*)bqkv);
        wpGm_.SetGlobalBuffer((__gm__ float*)wp);
        bpGm_.SetGlobalBuffer((__gm__ float*)bp);
        wfcGm_.SetGlobalBuffer((__gm__ float*)wfc);
        bfcGm_.SetGlobalBuffer((__gm__ float*)bfc);
        woutGm_.SetGlobalBuffer((__gm__ float*)wout);
        boutGm_.SetGlobalBuffer((__gm__ float*)bout);

        __gm__ float* ws = (__gm__ float*)usrWs;
        uint64_t r = rows_;
        lnGm_.SetGlobalBuffer(ws);
        qkvGm_.SetGlobalBuffer(ws + r * C_);
        attnGm_.SetGlobalBuffer(ws + r * 4 * C_);
        x1Gm_.SetGlobalBuffer(ws + r * 5 * C_);
        hidGm_.SetGlobalBuffer(ws + r * 6 * C_);

        uint32_t cPad = (C_ + 7) / 8 * 8;
        uint32_t hdPad = td->headDimPad;
        uint32_t kb = td->keyBlock;
        uint32_t tPad = (T_ + 7) / 8 * 8;
        pipe_.InitBuffer(rowBuf_, cPad * sizeof(float));
        pipe_.InitBuffer(auxBuf_, cPad * sizeof(float));
        pipe_.InitBuffer(gamBuf_, cPad * sizeof(float));
        pipe_.InitBuffer(betBuf_, cPad * sizeof(float));
        pipe_.InitBuffer(qBuf_, hdPad * sizeof(float));
        pipe_.InitBuffer(accBuf_, hdPad * sizeof(float));
        pipe_.InitBuffer(blkBuf_, kb * hdPad * sizeof(float));
        pipe_.InitBuffer(prodBuf_, kb * hdPad * sizeof(float));
        pipe_.InitBuffer(scoreBuf_, tPad * sizeof(float));
        pipe_.InitBuffer(workBuf_, (tPad > cPad ? tPad : cPad) * sizeof(float));
    }

    __aicore__ inline void Process(LinearMm& mmQkv, LinearMm& mmProj, LinearMm& mmFc, LinearMm& mmOut)
    {
        LayerNormRows(xGm_, g1Gm_, b1Gm_, lnGm_);
        SyncAll();
        Linear(mmQkv, td_->qkvMm, lnGm_, wqkvGm_, bqkvGm_, qkvGm_);
        SyncAll();
        CausalAttention();
        SyncAll();
        Linear(mmProj, td_->projMm, attnGm_, wpGm_, bpGm_, x1Gm_);
        SyncAll();
        ResidualAdd(x1Gm_, xGm_);
        SyncAll();
        LayerNormRows(x1Gm_, g2Gm_, b2Gm_, lnGm_);
        SyncAll();
        Linear(mmFc, td_->fcMm, lnGm_, wfcGm_, bfcGm_, hidGm_);
        SyncAll();
        GeluInPlace(hidGm_, (uint64_t)rows_ * H_);
        SyncAll();
        Linear(mmOut, td_->outMm, hidGm_, woutGm_, boutGm_, yGm_);
        SyncAll();
        ResidualAdd(yGm_, x1Gm_);
    }

private:
    // ---------------------------------------------------------------- cube phase
    // c = a @ w^T + bias; the output is split into singleCoreM x singleCoreN blocks.
    __aicore__ inline void Linear(LinearMm& mm, const TCubeTiling& tl, GlobalTensor<float>& a,
                                  GlobalTensor<float>& w, GlobalTensor<float>& bias, GlobalTensor<float>& c)
    {
        if (GetSubBlockIdx() != 0) {
            return;  // one AIV of each pair drives its cube core
        }
        uint32_t idx = GetBlockIdx() / GetTaskRation();
        uint32_t mBlocks = CeilDiv(tl.M, tl.singleCoreM);
        uint32_t nBlocks = CeilDiv(tl.N, tl.singleCoreN);
        if (idx >= mBlocks * nBlocks || idx >= static_cast<uint32_t>(tl.usedCoreNum)) {
            return;
        }
        uint32_t mi = idx % mBlocks;
        uint32_t ni = idx / mBlocks;
        uint32_t tailM = Min(tl.singleCoreM, tl.M - mi * tl.singleCoreM);
        uint32_t tailN = Min(tl.singleCoreN, tl.N - ni * tl.singleCoreN);
        mm.SetTensorA(a[(uint64_t)mi * tl.singleCoreM * tl.Ka]);
        mm.SetTensorB(w[(uint64_t)ni * tl.singleCoreN * tl.Kb], true);
        mm.SetBias(bias[ni * tl.singleCoreN]);
        mm.SetTail(tailM, tailN);
        mm.IterateAll(c[(uint64_t)mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);
        mm.End();
    }

    // -------------------------------------------------------------- vector phases
    __aicore__ inline void CopyRowIn(LocalTensor<float>& dst, GlobalTensor<float>& src, uint64_t off, uint32_t n)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(dst, src[off], cp, pad);
    }

    __aicore__ inline void CopyRowOut(GlobalTensor<float>& dst, uint64_t off, LocalTensor<float>& src, uint32_t n)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(dst[off], src, cp);
    }

    __aicore__ inline void RowRange(uint32_t total, uint32_t& beg, uint32_t& cnt)
    {
        uint32_t per = total / vecNum_;
        uint32_t rem = total % vecNum_;
        cnt = per + (vecIdx_ < rem ? 1 : 0);
        beg = vecIdx_ * per + (vecIdx_ < rem ? vecIdx_ : rem);
    }

    __aicore__ inline void LayerNormRows(GlobalTensor<float>& src, GlobalTensor<float>& g, GlobalTensor<float>& b,
                                         GlobalTensor<float>& dst)
    {
        uint32_t beg, cnt;
        RowRange(rows_, beg, cnt);
        LocalTensor<float> row = rowBuf_.Get<float>();
        LocalTensor<float> aux = auxBuf_.Get<float>();
        LocalTensor<float> gam = gamBuf_.Get<float>();
        LocalTensor<float> bet = betBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        CopyRowIn(gam, g, 0, C_);
        CopyRowIn(bet, b, 0, C_);
        float invC = 1.0f / static_cast<float>(C_);
        for (uint32_t r = beg; r < beg + cnt; ++r) {
            Wait<HardEvent::MTE3_MTE2>();
            CopyRowIn(row, src, (uint64_t)r * C_, C_);
            Wait<HardEvent::MTE2_V>();
            ReduceSum<float>(aux, row, work, C_);
            Wait<HardEvent::V_S>();
            float mean = aux.GetValue(0) * invC;
            Wait<HardEvent::S_V>();
            Adds(row, row, -mean, C_);
            Mul(aux, row, row, C_);
            ReduceSum<float>(aux, aux, work, C_);
            Wait<HardEvent::V_S>();
            float var = aux.GetValue(0) * invC;
            float rstd = 1.0f / sqrt(var + td_->eps);
            Wait<HardEvent::S_V>();
            Muls(row, row, rstd, C_);
            Mul(row, row, gam, C_);
            Add(row, row, bet, C_);
            Wait<HardEvent::V_MTE3>();
            CopyRowOut(dst, (uint64_t)r * C_, row, C_);
        }
        Wait<HardEvent::MTE3_MTE2>();
    }

    // dst += other, row by row
    __aicore__ inline void ResidualAdd(GlobalTensor<float>& dst, GlobalTensor<float>& other)
    {
        uint32_t beg, cnt;
        RowRange(rows_, beg, cnt);
        LocalTensor<float> row = rowBuf_.Get<float>();
        LocalTensor<float> aux = auxBuf_.Get<float>();
        for (uint32_t r = beg; r < beg + cnt; ++r) {
            Wait<HardEvent::MTE3_MTE2>();
            CopyRowIn(row, dst, (uint64_t)r * C_, C_);
            CopyRowIn(aux, other, (uint64_t)r * C_, C_);
            Wait<HardEvent::MTE2_V>();
            Add(row, row, aux, C_);
            Wait<HardEvent::V_MTE3>();
            CopyRowOut(dst, (uint64_t)r * C_, row, C_);
        }
        Wait<HardEvent::MTE3_MTE2>();
    }

    // tanh-GELU written as x / (1 + exp(-2*sqrt(2/pi)*(x + 0.044715 x^3)))
    __aicore__ inline void GeluInPlace(GlobalTensor<float>& buf, uint64_t total)
    {
        uint32_t chunk = C_;
        uint32_t chunks = static_cast<uint32_t>((total + chunk - 1) / chunk);
        uint32_t beg, cnt;
        RowRange(chunks, beg, cnt);
        LocalTensor<float> v = rowBuf_.Get<float>();
        LocalTensor<float> t = auxBuf_.Get<float>();
        for (uint32_t i = beg; i < beg + cnt; ++i) {
            uint64_t off = (uint64_t)i * chunk;
            uint32_t n = static_cast<uint32_t>((total - off) < chunk ? (total - off) : chunk);
            Wait<HardEvent::MTE3_MTE2>();
            CopyRowIn(v, buf, off, n);
            Wait<HardEvent::MTE2_V>();
            Mul(t, v, v, n);
            Muls(t, t, GELU_C, n);
            Adds(t, t, 1.0f, n);
            Mul(t, t, v, n);
            Muls(t, t, GELU_K, n);
            Exp(t, t, n);
            Adds(t, t, 1.0f, n);
            Div(v, v, t, n);
            Wait<HardEvent::V_MTE3>();
            CopyRowOut(buf, off, v, n);
        }
        Wait<HardEvent::MTE3_MTE2>();
    }

    // One work item = one query row of one head. Keys 0..i are visible.
    __aicore__ inline void CausalAttention()
    {
        const uint32_t nh = td_->numHeads;
        const uint32_t hd = td_->headDim;
        const uint32_t hdPad = td_->headDimPad;
        const uint32_t kb = td_->keyBlock;
        const uint32_t ld = 3 * C_;
        uint32_t beg, cnt;
        RowRange(td_->batch * nh * T_, beg, cnt);

        LocalTensor<float> q = qBuf_.Get<float>();
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> blk = blkBuf_.Get<float>();
        LocalTensor<float> prod = prodBuf_.Get<float>();
        LocalTensor<float> sc = scoreBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();

        for (uint32_t item = beg; item < beg + cnt; ++item) {
            uint32_t i = item % T_;
            uint32_t h = (item / T_) % nh;
            uint32_t bIdx = item / (T_ * nh);
            uint64_t rowBase = (uint64_t)bIdx * T_;
            uint32_t nKeys = i + 1;

            Wait<HardEvent::MTE3_MTE2>();
            CopyRowIn(q, qkvGm_, (rowBase + i) * ld + h * hd, hd);
            Wait<HardEvent::MTE2_V>();
            Muls(q, q, td_->scale, hd);

            // scores[j] = <q, k_j>
            for (uint32_t j0 = 0; j0 < nKeys; j0 += kb) {
                uint32_t nb = Min(kb, nKeys - j0);
                LoadHeadRows(blk, rowBase + j0, C_ + h * hd, nb);
                Wait<HardEvent::MTE2_V>();
                for (uint32_t r = 0; r < nb; ++r) {
                    Mul(prod[r * hdPad], blk[r * hdPad], q, hd);
                }
                if (hdPad != hd) {
                    for (uint32_t r = 0; r < nb; ++r) {
                        Duplicate(prod[r * hdPad + hd], 0.0f, hdPad - hd);
                    }
                }
                SumParams sp{nb, hdPad, hdPad};
                Sum(sc[j0], prod, sp);
                Wait<HardEvent::V_MTE2>();
            }

            // softmax over the visible keys
            ReduceMax<float>(acc, sc, work, nKeys, false);
            Wait<HardEvent::V_S>();
            float mx = acc.GetValue(0);
            Wait<HardEvent::S_V>();
            Adds(sc, sc, -mx, nKeys);
            Exp(sc, sc, nKeys);
            ReduceSum<float>(acc, sc, work, nKeys);
            Wait<HardEvent::V_S>();
            float inv = 1.0f / acc.GetValue(0);
            Wait<HardEvent::S_V>();
            Muls(sc, sc, inv, nKeys);
            Wait<HardEvent::V_S>();

            // out = sum_j p_j v_j
            Duplicate(acc, 0.0f, hdPad);
            for (uint32_t j0 = 0; j0 < nKeys; j0 += kb) {
                uint32_t nb = Min(kb, nKeys - j0);
                LoadHeadRows(blk, rowBase + j0, 2 * C_ + h * hd, nb);
                Wait<HardEvent::MTE2_V>();
                for (uint32_t r = 0; r < nb; ++r) {
                    Axpy(acc, blk[r * hdPad], sc.GetValue(j0 + r), hd);
                }
                Wait<HardEvent::V_MTE2>();
            }
            Wait<HardEvent::V_MTE3>();
            CopyRowOut(attnGm_, (rowBase + i) * C_ + h * hd, acc, hd);
        }
        Wait<HardEvent::MTE3_MTE2>();
    }

    // nb rows of one head slice (hd floats, row stride 3C) -> UB rows of hdPad floats
    __aicore__ inline void LoadHeadRows(LocalTensor<float>& dst, uint64_t row0, uint32_t colOff, uint32_t nb)
    {
        const uint32_t hd = td_->headDim;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(nb);
        cp.blockLen = hd * sizeof(float);
        cp.srcStride = (3 * C_ - hd) * sizeof(float);
        cp.dstStride = (td_->headDimPad - hd) * sizeof(float) / 32;
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(dst, qkvGm_[row0 * 3 * C_ + colOff], cp, pad);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> rowBuf_, auxBuf_, gamBuf_, betBuf_;
    TBuf<TPosition::VECCALC> qBuf_, accBuf_, blkBuf_, prodBuf_, scoreBuf_, workBuf_;
    GlobalTensor<float> xGm_, yGm_, g1Gm_, b1Gm_, g2Gm_, b2Gm_;
    GlobalTensor<float> wqkvGm_, bqkvGm_, wpGm_, bpGm_, wfcGm_, bfcGm_, woutGm_, boutGm_;
    GlobalTensor<float> lnGm_, qkvGm_, attnGm_, x1Gm_, hidGm_;
    const PreLnDecoderLayerTilingData* td_ = nullptr;
    uint32_t C_ = 0, H_ = 0, T_ = 0, rows_ = 0;
    uint32_t vecIdx_ = 0, vecNum_ = 1;

public:
    TPipe* Pipe() { return &pipe_; }
};

extern "C" __global__ __aicore__ void pre_ln_decoder_layer(GM_ADDR x, GM_ADDR ln1_gamma, GM_ADDR ln1_beta,
    GM_ADDR qkv_weight, GM_ADDR qkv_bias, GM_ADDR proj_weight, GM_ADDR proj_bias, GM_ADDR fc_weight,
    GM_ADDR fc_bias, GM_ADDR out_weight, GM_ADDR out_bias, GM_ADDR ln2_gamma, GM_ADDR ln2_beta, GM_ADDR y,
    GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    PreLnDecoderLayerKernel op;
    LinearMm mmQkv, mmProj, mmFc, mmOut;
    REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), mmQkv, &td.qkvMm, mmProj, &td.projMm, mmFc, &td.fcMm,
                      mmOut, &td.outMm);
    op.Init(x, ln1_gamma, ln1_beta, qkv_weight, qkv_bias, proj_weight, proj_bias, fc_weight, fc_bias, out_weight,
            out_bias, ln2_gamma, ln2_beta, y, usrWs, &td);
    op.Process(mmQkv, mmProj, mmFc, mmOut);
}
