// CausalReluAttention kernel (mixed cube + vector).
//
//   qkv = x @ W^T + b                         cube, all cores
//   --- SyncAll ---
//   for each (batch, head) owned by this core:
//     s   = q_h @ k_h^T                       cube -> per-core scratch [T, T]
//     s   = relu(s * scale), s[i, j>i] = 0    vector, in place (the -inf mask
//                                             becomes 0 after relu)
//     y_h = s @ v_h                           cube -> y[b, :, h*hs : (h+1)*hs]
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
using GmNd = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using GmNdT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
}

class CausalReluAttentionKernel {
public:
    __aicore__ inline CausalReluAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR usrWs,
                                const CausalReluAttentionTilingData *td, TPipe *pipe)
    {
        td_ = td;
        B_ = td->batch;
        T_ = td->seqLen;
        C_ = td->embed;
        nh_ = td->numHeads;
        hs_ = td->headDim;
        chunk_ = td->rowChunk;
        scale_ = td->scale;

        xGm_.SetGlobalBuffer((__gm__ float *)x, (uint64_t)B_ * T_ * C_);
        wGm_.SetGlobalBuffer((__gm__ float *)w, (uint64_t)3 * C_ * C_);
        biasGm_.SetGlobalBuffer((__gm__ float *)bias, (uint64_t)3 * C_);
        yGm_.SetGlobalBuffer((__gm__ float *)y, (uint64_t)B_ * T_ * C_);
        qkvGm_.SetGlobalBuffer((__gm__ float *)(usrWs + td->qkvOffset), (uint64_t)B_ * T_ * 3 * C_);

        coreIdx_ = GetBlockIdx();
        if ASCEND_IS_AIV {
            coreIdx_ = coreIdx_ / GetTaskRation();
        }
        const uint64_t scoreStride = ((uint64_t)T_ * T_ * sizeof(float) + 511) / 512 * 512 / sizeof(float);
        scoreGm_.SetGlobalBuffer((__gm__ float *)(usrWs + td->scoreOffset) + scoreStride * coreIdx_,
                                 (uint64_t)T_ * T_);

        pipe->InitBuffer(rowQue_, 2, chunk_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        Project();
        SyncAll();

        const uint32_t pairs = B_ * nh_;
        for (uint32_t p = coreIdx_; p < pairs; p += td_->coreNum) {
            const uint32_t b = p / nh_;
            const uint32_t h = p % nh_;
            Scores(b, h);
            MaskScaleRelu();
            Context(b, h);
        }
    }

    Matmul<GmNd, GmNdT, GmNd, GmNd> projMm;
    Matmul<GmNd, GmNdT, GmNd, GmNd> scoreMm;
    Matmul<GmNd, GmNd, GmNd, GmNd> ctxMm;

private:
    __aicore__ inline void Project()
    {
        const TCubeTiling &t = td_->projTiling;
        const int32_t mBlocks = Ceil(t.M, t.singleCoreM);
        const int32_t nBlocks = Ceil(t.N, t.singleCoreN);
        if ((int32_t)coreIdx_ >= mBlocks * nBlocks) {
            return;
        }
        const int32_t mIdx = coreIdx_ % mBlocks;
        const int32_t nIdx = coreIdx_ / mBlocks;
        const int32_t m0 = mIdx * t.singleCoreM;
        const int32_t n0 = nIdx * t.singleCoreN;
        const int32_t mLen = (t.M - m0) < t.singleCoreM ? (t.M - m0) : t.singleCoreM;
        const int32_t nLen = (t.N - n0) < t.singleCoreN ? (t.N - n0) : t.singleCoreN;

        projMm.SetTensorA(xGm_[(uint64_t)m0 * t.Ka]);
        projMm.SetTensorB(wGm_[(uint64_t)n0 * t.Kb], true);   // W rows = output features
        projMm.SetBias(biasGm_[n0]);
        projMm.SetTail(mLen, nLen);
        projMm.IterateAll(qkvGm_[(uint64_t)m0 * t.N + n0]);
        projMm.End();
    }

    __aicore__ inline void Scores(uint32_t b, uint32_t h)
    {
        const uint64_t base = (uint64_t)b * T_ * 3 * C_;
        scoreMm.SetTensorA(qkvGm_[base + h * hs_]);
        scoreMm.SetTensorB(qkvGm_[base + C_ + h * hs_], true);
        scoreMm.IterateAll(scoreGm_);
        scoreMm.End();
        PipeBarrier<PIPE_ALL>();
    }

    // Row i keeps columns 0..i; everything to the right is masked to zero.
    __aicore__ inline void MaskScaleRelu()
    {
        for (uint32_t row = 0; row < T_; ++row) {
            const uint32_t keep = row + 1;
            for (uint32_t c0 = 0; c0 < T_; c0 += chunk_) {
                const uint32_t len = (T_ - c0) < chunk_ ? (T_ - c0) : chunk_;
                const uint64_t off = (uint64_t)row * T_ + c0;
                DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};

                LocalTensor<float> buf = rowQue_.AllocTensor<float>();
                if (c0 >= keep) {
                    Duplicate(buf, 0.0f, len);
                } else {
                    DataCopyPad(buf, scoreGm_[off], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                    rowQue_.EnQue(buf);
                    buf = rowQue_.DeQue<float>();
                    Muls(buf, buf, scale_, len);
                    Relu(buf, buf, len);
                    const uint32_t visible = keep - c0;
                    if (visible < len) {
                        Duplicate(buf[visible], 0.0f, len - visible);
                    }
                }
                rowQue_.EnQue(buf);
                buf = rowQue_.DeQue<float>();
                DataCopyPad(scoreGm_[off], buf, cp);
                rowQue_.FreeTensor(buf);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Context(uint32_t b, uint32_t h)
    {
        const uint64_t base = (uint64_t)b * T_ * 3 * C_;
        ctxMm.SetTensorA(scoreGm_);
        ctxMm.SetTensorB(qkvGm_[base + 2 * C_ + h * hs_]);
        ctxMm.IterateAll(yGm_[(uint64_t)b * T_ * C_ + h * hs_]);
        ctxMm.End();
    }

    const CausalReluAttentionTilingData *td_ = nullptr;
    GlobalTensor<float> xGm_, wGm_, biasGm_, yGm_, qkvGm_, scoreGm_;
    TQue<QuePosition::VECIN, 2> rowQue_;
    uint32_t B_ = 0, T_ = 0, C_ = 0, nh_ = 0, hs_ = 0, chunk_ = 0, coreIdx_ = 0;
    float scale_ = 1.0f;
};

extern "C" __global__ __aicore__ void causal_relu_attention(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    TPipe pipe;
    CausalReluAttentionKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.projMm, &td.projTiling, op.scoreMm, &td.scoreTiling,
                      op.ctxMm, &td.ctxTiling);
    op.Init(x, weight, bias, y, usrWs, &td, &pipe);
    op.Process();
}
