/**
 * CausalMhaBlock kernel.
 *
 *   qkv   = x * Wqkv^T + bqkv           (split into q, k, v per head)
 *   att   = softmax(mask(q k^T * scale)) (mask: key index > query index)
 *   ctx   = att * v                      (heads merged back side by side)
 *   y     = ctx * Wproj^T + bproj
 *
 * Cube work goes through the Matmul high level API, the softmax and the head
 * merge run on the vector unit. Phases are separated by SyncAll because each
 * one consumes what every core produced in the previous one.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
constexpr uint32_t ALIGN = 16;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t AlignU(uint32_t a, uint32_t b) { return CeilDivU(a, b) * b; }
__aicore__ inline uint32_t MinU(uint32_t a, uint32_t b) { return a < b ? a : b; }
}  // namespace

template <typename T>
class CausalMhaBlockKernel {
    using GmT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using GmTt = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;

public:
    // q/k/v projection and output projection read the weight transposed (Linear layout)
    Matmul<GmT, GmTt, GmT, GmT> qkvMm;
    Matmul<GmT, GmTt, GmT, GmT> scoreMm;
    Matmul<GmT, GmT, GmT, GmT> ctxMm;
    Matmul<GmT, GmTt, GmT, GmT> projMm;

    __aicore__ inline CausalMhaBlockKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wqkv, GM_ADDR bqkv, GM_ADDR wproj, GM_ADDR bproj,
                                GM_ADDR y, GM_ADDR usrWs, const CausalMhaBlockTilingData *td, TPipe *pipe)
    {
        td_ = td;
        B_ = td->batch;
        T_ = td->seqLen;
        C_ = td->embed;
        nh_ = td->numHeads;
        hs_ = td->headDim;
        qBlock_ = td->qBlock;
        keyStride_ = td->keyStride;
        scale_ = td->scale;
        core_ = GetBlockIdx();
        cores_ = GetBlockNum();

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        wqkvGm_.SetGlobalBuffer((__gm__ T *)wqkv);
        bqkvGm_.SetGlobalBuffer((__gm__ T *)bqkv);
        wprojGm_.SetGlobalBuffer((__gm__ T *)wproj);
        bprojGm_.SetGlobalBuffer((__gm__ T *)bproj);
        yGm_.SetGlobalBuffer((__gm__ T *)y);

        // workspace layout: [3][B][nh][T][hs] | [B][T][C] | per-core scratch
        uint64_t rows = static_cast<uint64_t>(B_) * T_;
        __gm__ T *ws = (__gm__ T *)usrWs;
        qkvWs_.SetGlobalBuffer(ws);
        ctxWs_.SetGlobalBuffer(ws + rows * 3 * C_);
        uint64_t scratchPerCore = static_cast<uint64_t>(qBlock_) * (keyStride_ + hs_);
        __gm__ T *scratch = ws + rows * 4 * C_ + scratchPerCore * core_;
        scoreWs_.SetGlobalBuffer(scratch);
        headOutWs_.SetGlobalBuffer(scratch + static_cast<uint64_t>(qBlock_) * keyStride_);

        pipe->InitBuffer(rowIn_, 2, keyStride_ * sizeof(T));
        pipe->InitBuffer(rowOut_, 2, keyStride_ * sizeof(T));
        pipe->InitBuffer(calc_, keyStride_ * sizeof(float));
        pipe->InitBuffer(reduceTmp_, keyStride_ * sizeof(float));
        pipe->InitBuffer(scalarBuf_, ALIGN * sizeof(float));
        pipe->InitBuffer(moveBuf_, qBlock_ * hs_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        ProjectQkv();
        SyncAll();
        Attend();
        SyncAll();
        ProjectOut();
    }

private:
    // ---------------------------------------------------------------- phase 1
    __aicore__ inline void ProjectQkv()
    {
        const uint32_t units = B_ * 3 * nh_;
        const uint64_t headElems = static_cast<uint64_t>(T_) * hs_;
        for (uint32_t u = core_; u < units; u += cores_) {
            uint32_t b = u / (3 * nh_);
            uint32_t part = (u / nh_) % 3;   // 0 = q, 1 = k, 2 = v
            uint32_t h = u % nh_;
            uint64_t wRow = static_cast<uint64_t>(part) * C_ + h * hs_;
            uint64_t dst = ((static_cast<uint64_t>(part) * B_ + b) * nh_ + h) * headElems;

            qkvMm.SetTensorA(xGm_[static_cast<uint64_t>(b) * T_ * C_]);
            qkvMm.SetTensorB(wqkvGm_[wRow * C_], true);
            qkvMm.SetBias(bqkvGm_[wRow]);
            qkvMm.SetTail(T_, hs_, C_);
            qkvMm.IterateAll(qkvWs_[dst]);
            qkvMm.End();
        }
    }

    // ---------------------------------------------------------------- phase 2
    __aicore__ inline void Attend()
    {
        const uint32_t qBlocks = CeilDivU(T_, qBlock_);
        const uint32_t units = B_ * nh_ * qBlocks;
        const uint64_t headElems = static_cast<uint64_t>(T_) * hs_;
        const uint64_t partElems = static_cast<uint64_t>(B_) * nh_ * headElems;

        for (uint32_t u = core_; u < units; u += cores_) {
            uint32_t bh = u / qBlocks;
            uint32_t qb = u % qBlocks;
            uint32_t q0 = qb * qBlock_;
            uint32_t rows = MinU(qBlock_, T_ - q0);
            // causal: keys beyond the last query of the block are never visible
            uint32_t kvLen = q0 + rows;
            uint64_t headBase = static_cast<uint64_t>(bh) * headElems;

            scoreMm.SetTensorA(qkvWs_[headBase + static_cast<uint64_t>(q0) * hs_]);
            scoreMm.SetTensorB(qkvWs_[partElems + headBase], true);
            scoreMm.SetTail(rows, kvLen, hs_);
            scoreMm.IterateAll(scoreWs_);
            scoreMm.End();
            PipeBarrier<PIPE_ALL>();

            for (uint32_t r = 0; r < rows; ++r) {
                SoftmaxRow(r, q0 + r + 1, AlignU(kvLen, ALIGN));
            }
            PipeBarrier<PIPE_ALL>();

            ctxMm.SetTensorA(scoreWs_);
            ctxMm.SetTensorB(qkvWs_[2 * partElems + headBase]);
            ctxMm.SetTail(rows, hs_, kvLen);
            ctxMm.IterateAll(headOutWs_);
            ctxMm.End();
            PipeBarrier<PIPE_ALL>();

            MergeHead(bh / nh_, bh % nh_, q0, rows);
        }
    }

    // one score row: scale, softmax over the first `valid` keys, zero the rest
    __aicore__ inline void SoftmaxRow(uint32_t r, uint32_t valid, uint32_t width)
    {
        LocalTensor<T> in = rowIn_.AllocTensor<T>();
        DataCopy(in, scoreWs_[static_cast<uint64_t>(r) * keyStride_], width);
        rowIn_.EnQue(in);
        in = rowIn_.DeQue<T>();

        LocalTensor<float> v = calc_.Get<float>();
        LocalTensor<float> tmp = reduceTmp_.Get<float>();
        LocalTensor<float> sc = scalarBuf_.Get<float>();
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(v, in, width);
        } else {
            Cast(v, in, RoundMode::CAST_NONE, width);
        }
        rowIn_.FreeTensor(in);

        Muls(v, v, scale_, valid);
        ReduceMax(sc, v, tmp, valid, false);
        float mx = sc.GetValue(0);
        Adds(v, v, -mx, valid);
        Exp(v, v, valid);
        ReduceSum(sc, v, tmp, valid);
        float inv = 1.0f / sc.GetValue(0);
        Muls(v, v, inv, valid);
        for (uint32_t j = valid; j < width; ++j) {
            v.SetValue(j, 0.0f);  // masked (future) positions and pad columns
        }

        LocalTensor<T> out = rowOut_.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(out, v, width);
        } else {
            Cast(out, v, RoundMode::CAST_ROUND, width);
        }
        rowOut_.EnQue(out);
        out = rowOut_.DeQue<T>();
        DataCopy(scoreWs_[static_cast<uint64_t>(r) * keyStride_], out, width);
        rowOut_.FreeTensor(out);
    }

    // [rows, hs] head result -> columns h*hs .. h*hs+hs of ctx[b, q0 + r, :]
    __aicore__ inline void MergeHead(uint32_t b, uint32_t h, uint32_t q0, uint32_t rows)
    {
        LocalTensor<T> buf = moveBuf_.Get<T>();
        DataCopyExtParams inParams{1, static_cast<uint32_t>(rows * hs_ * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(buf, headOutWs_, inParams, pad);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_MTE3));
        SetFlag<HardEvent::MTE2_MTE3>(ev);
        WaitFlag<HardEvent::MTE2_MTE3>(ev);
        DataCopyExtParams outParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(hs_ * sizeof(T)), 0,
                                    static_cast<uint32_t>((C_ - hs_) * sizeof(T)), 0};
        uint64_t dst = (static_cast<uint64_t>(b) * T_ + q0) * C_ + static_cast<uint64_t>(h) * hs_;
        DataCopyPad(ctxWs_[dst], buf, outParams);
        PipeBarrier<PIPE_ALL>();
    }

    // ---------------------------------------------------------------- phase 3
    __aicore__ inline void ProjectOut()
    {
        const uint32_t total = B_ * T_;
        const uint32_t slab = td_->rowsPerCore;
        uint32_t r0 = core_ * slab;
        if (r0 >= total) {
            return;
        }
        uint32_t rows = MinU(slab, total - r0);
        projMm.SetTensorA(ctxWs_[static_cast<uint64_t>(r0) * C_]);
        projMm.SetTensorB(wprojGm_, true);
        projMm.SetBias(bprojGm_);
        projMm.SetTail(rows, C_, C_);
        projMm.IterateAll(yGm_[static_cast<uint64_t>(r0) * C_]);
        projMm.End();
    }

private:
    const CausalMhaBlockTilingData *td_;
    uint32_t B_, T_, C_, nh_, hs_, qBlock_, keyStride_;
    uint32_t core_, cores_;
    float scale_;

    GlobalTensor<T> xGm_, wqkvGm_, bqkvGm_, wprojGm_, bprojGm_, yGm_;
    GlobalTensor<T> qkvWs_, ctxWs_, scoreWs_, headOutWs_;

    TQue<QuePosition::VECIN, 2> rowIn_;
    TQue<QuePosition::VECOUT, 2> rowOut_;
    TBuf<TPosition::VECCALC> calc_, reduceTmp_, scalarBuf_, moveBuf_;
};

extern "C" __global__ __aicore__ void causal_mha_block(GM_ADDR x, GM_ADDR qkv_weight, GM_ADDR qkv_bias,
                                                       GM_ADDR proj_weight, GM_ADDR proj_bias, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    TPipe pipe;
    CausalMhaBlockKernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.qkvMm, &td.qkvMm, op.scoreMm, &td.scoreMm,
                      op.ctxMm, &td.ctxMm, op.projMm, &td.projMm);
    op.Init(x, qkv_weight, qkv_bias, proj_weight, proj_bias, y, usrWs, &td, &pipe);
    op.Process();
}
