/**
 * SlidingWindowSelfAttention kernel.
 *
 *   stage 1 (cube)   : Q/K/V = x W^T + b            -> workspace, layout (B, N, H*dh)
 *   stage 2 (vector) : per (b, h, query block) windowed softmax(QK^T * scale) V -> workspace
 *   stage 3 (cube)   : y = attn W_o^T + b_o
 * Stages are separated by a full-core barrier.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using ProjA = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using ProjB = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using ProjC = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using ProjBias = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using ProjMatmul = Matmul<ProjA, ProjB, ProjC, ProjBias>;

namespace {
constexpr uint32_t KEY_CHUNK = 64;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }
}

class SlidingWindowSelfAttentionKernel {
public:
    __aicore__ inline SlidingWindowSelfAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR ws, const SlidingWindowSelfAttentionTilingData &td)
    {
        td_ = &td;
        mmTiling_ = &td.projTiling;
        uint64_t plane = static_cast<uint64_t>(td.batch) * td.seqLen * td.modelDim;
        qWs_.SetGlobalBuffer((__gm__ float *)ws, plane);
        kWs_.SetGlobalBuffer((__gm__ float *)ws + plane, plane);
        vWs_.SetGlobalBuffer((__gm__ float *)ws + 2 * plane, plane);
        aWs_.SetGlobalBuffer((__gm__ float *)ws + 3 * plane, plane);
    }

    // One output tile of y = a * w^T + bias for this core.
    __aicore__ inline void Project(ProjMatmul &mm, GM_ADDR a, GM_ADDR w, GM_ADDR bias, GlobalTensor<float> &dst)
    {
        const TCubeTiling &t = *mmTiling_;
        uint32_t blk = GetBlockIdx() / GetTaskRation();
        if (blk >= static_cast<uint32_t>(t.usedCoreNum)) {
            return;
        }
        uint32_t mBlocks = CeilDiv(t.M, t.singleCoreM);
        uint32_t mIdx = blk % mBlocks;
        uint32_t nIdx = blk / mBlocks;
        int32_t tailM = t.M - mIdx * t.singleCoreM;
        int32_t tailN = t.N - nIdx * t.singleCoreN;
        tailM = tailM < t.singleCoreM ? tailM : t.singleCoreM;
        tailN = tailN < t.singleCoreN ? tailN : t.singleCoreN;
        if (tailM <= 0 || tailN <= 0) {
            return;
        }

        GlobalTensor<float> aGm, wGm, bGm;
        aGm.SetGlobalBuffer((__gm__ float *)a);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        uint64_t offA = static_cast<uint64_t>(mIdx) * t.singleCoreM * t.Ka;
        uint64_t offW = static_cast<uint64_t>(nIdx) * t.singleCoreN * t.Kb;   // W is (N, K)
        uint64_t offC = static_cast<uint64_t>(mIdx) * t.singleCoreM * t.N + nIdx * t.singleCoreN;

        mm.SetTail(tailM, tailN);
        mm.SetTensorA(aGm[offA]);
        mm.SetTensorB(wGm[offW], true);
        mm.SetBias(bGm[nIdx * t.singleCoreN]);
        mm.IterateAll(dst[offC]);
        mm.End();
    }

    GlobalTensor<float> qWs_, kWs_, vWs_, aWs_;

    // ------------------------------------------------------------------ attention (vector)
    __aicore__ inline void Attention()
    {
        const SlidingWindowSelfAttentionTilingData &td = *td_;
        dh_ = td.headDim;
        d_ = td.modelDim;
        qb_ = td.queryBlock;
        win_ = td.window;
        uint32_t maxKeys = win_ + qb_;

        pipe_.InitBuffer(kBuf_, maxKeys * dh_ * sizeof(float));
        pipe_.InitBuffer(vBuf_, maxKeys * dh_ * sizeof(float));
        pipe_.InitBuffer(qBuf_, qb_ * dh_ * sizeof(float));
        pipe_.InitBuffer(oQue_, 1, qb_ * dh_ * sizeof(float));
        pipe_.InitBuffer(prodBuf_, KEY_CHUNK * dh_ * sizeof(float));
        pipe_.InitBuffer(scoreBuf_, Align8(win_ + 1) * sizeof(float));
        pipe_.InitBuffer(workBuf_, (Align8(win_ + 1) + 64) * sizeof(float));

        uint32_t vecIdx = GetBlockIdx();
        uint32_t vecNum = GetBlockNum() * GetTaskRation();
        for (uint32_t u = vecIdx; u < td.unitCount; u += vecNum) {
            uint32_t blkInSeq = u % td.blocksPerSeq;
            uint32_t bh = u / td.blocksPerSeq;
            uint32_t h = bh % td.numHeads;
            uint32_t b = bh / td.numHeads;
            RunUnit(b, h, blkInSeq * qb_);
        }
    }

private:
    // Strided load of `rows` head-slices (each dh floats, row pitch d) starting at token `tok`.
    __aicore__ inline void LoadHeadRows(const LocalTensor<float> &dst, GlobalTensor<float> &src,
                                        uint32_t b, uint32_t h, uint32_t tok, uint32_t rows)
    {
        uint64_t off = (static_cast<uint64_t>(b) * td_->seqLen + tok) * d_ + h * dh_;
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(rows);
        p.blockLen = static_cast<uint16_t>(dh_ / 8);            // 32B units
        p.srcStride = static_cast<uint16_t>((d_ - dh_) / 8);
        p.dstStride = 0;
        DataCopy(dst, src[off], p);
    }

    __aicore__ inline void RunUnit(uint32_t b, uint32_t h, uint32_t q0)
    {
        uint32_t n = td_->seqLen;
        uint32_t qCnt = (n - q0) < qb_ ? (n - q0) : qb_;
        uint32_t kBegin = q0 > win_ ? q0 - win_ : 0;
        uint32_t kCnt = q0 + qCnt - kBegin;

        LocalTensor<float> kL = kBuf_.Get<float>();
        LocalTensor<float> vL = vBuf_.Get<float>();
        LocalTensor<float> qL = qBuf_.Get<float>();
        LocalTensor<float> prod = prodBuf_.Get<float>();
        LocalTensor<float> sc = scoreBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> red = work[Align8(win_ + 1)];

        LoadHeadRows(kL, kWs_, b, h, kBegin, kCnt);
        LoadHeadRows(vL, vWs_, b, h, kBegin, kCnt);
        LoadHeadRows(qL, qWs_, b, h, q0, qCnt);
        event_t evLoad = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evLoad);
        WaitFlag<HardEvent::MTE2_V>(evLoad);

        LocalTensor<float> oL = oQue_.AllocTensor<float>();
        uint8_t rep = static_cast<uint8_t>(dh_ / 8);
        for (uint32_t qi = 0; qi < qCnt; ++qi) {
            uint32_t tok = q0 + qi;
            uint32_t ks = tok > win_ ? tok - win_ : 0;
            uint32_t cnt = tok - ks + 1;
            uint32_t local = ks - kBegin;
            LocalTensor<float> qRow = qL[qi * dh_];

            // scores[j] = <K[ks + j], q>, 64 keys per Mul/WholeReduceSum pair
            for (uint32_t c = 0; c < cnt; c += KEY_CHUNK) {
                uint32_t rows = (cnt - c) < KEY_CHUNK ? (cnt - c) : KEY_CHUNK;
                Mul(prod, kL[(local + c) * dh_], qRow, static_cast<uint64_t>(dh_), static_cast<uint8_t>(rows),
                    BinaryRepeatParams(1, 1, 1, rep, rep, 0));
                PipeBarrier<PIPE_V>();
                WholeReduceSum<float>(sc[c], prod, static_cast<int32_t>(dh_), static_cast<int32_t>(rows), 1, 1, rep);
                PipeBarrier<PIPE_V>();
            }
            Muls(sc, sc, td_->scale, cnt);

            // softmax over the visible keys
            ReduceMax(red, sc, work, cnt);
            event_t evVS = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            float mx = red.GetValue(0);
            event_t evSV = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(evSV);
            WaitFlag<HardEvent::S_V>(evSV);
            Adds(sc, sc, -mx, cnt);
            Exp(sc, sc, cnt);
            ReduceSum(red, sc, work, cnt);
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            float inv = 1.0f / red.GetValue(0);
            SetFlag<HardEvent::S_V>(evSV);
            WaitFlag<HardEvent::S_V>(evSV);
            Muls(sc, sc, inv, cnt);
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);

            // o = sum_j p_j * V[ks + j]
            LocalTensor<float> oRow = oL[qi * dh_];
            Duplicate(oRow, 0.0f, dh_);
            for (uint32_t j = 0; j < cnt; ++j) {
                Axpy(oRow, vL[(local + j) * dh_], sc.GetValue(j), dh_);
            }
        }

        oQue_.EnQue(oL);
        oL = oQue_.DeQue<float>();
        uint64_t off = (static_cast<uint64_t>(b) * n + q0) * d_ + h * dh_;
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(qCnt);
        p.blockLen = static_cast<uint16_t>(dh_ / 8);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((d_ - dh_) / 8);
        DataCopy(aWs_[off], oL, p);
        oQue_.FreeTensor(oL);
        // the slabs are overwritten by the next unit's loads
        event_t evWb = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE3_MTE2));
        SetFlag<HardEvent::MTE3_MTE2>(evWb);
        WaitFlag<HardEvent::MTE3_MTE2>(evWb);
        event_t evVM = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(evVM);
        WaitFlag<HardEvent::V_MTE2>(evVM);
    }

public:
    TPipe pipe_;

private:
    const SlidingWindowSelfAttentionTilingData *td_;
    const TCubeTiling *mmTiling_;
    TBuf<TPosition::VECCALC> kBuf_, vBuf_, qBuf_, prodBuf_, scoreBuf_, workBuf_;
    TQue<TPosition::VECOUT, 1> oQue_;
    uint32_t dh_, d_, qb_, win_;
};

extern "C" __global__ __aicore__ void sliding_window_self_attention(
    GM_ADDR x, GM_ADDR qW, GM_ADDR qB, GM_ADDR kW, GM_ADDR kB, GM_ADDR vW, GM_ADDR vB,
    GM_ADDR oW, GM_ADDR oB, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (usr == nullptr) {
        return;
    }

    SlidingWindowSelfAttentionKernel op;
    op.Init(usr, td);

    ProjMatmul mm;
    REGIST_MATMUL_OBJ(&op.pipe_, GetSysWorkSpacePtr(), mm, &td.projTiling);

    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y);

    // stage 1: projections
    op.Project(mm, x, qW, qB, op.qWs_);
    op.Project(mm, x, kW, kB, op.kWs_);
    op.Project(mm, x, vW, vB, op.vWs_);
    SyncAll();

    // stage 2: windowed attention on the vector cores
    if ASCEND_IS_AIV {
        op.Attention();
    }
    SyncAll();

    // stage 3: output projection
    op.Project(mm, usr + 3ULL * td.batch * td.seqLen * td.modelDim * sizeof(float), oW, oB, yGm);
}
