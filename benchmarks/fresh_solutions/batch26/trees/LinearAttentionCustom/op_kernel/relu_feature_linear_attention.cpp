/*
 * ReluFeatureLinearAttention
 *
 *   phi(x) = relu(x) + eps
 *   KV     = phi(K)^T V          per batch, [D, Dv]
 *   out    = phi(Q) KV           per batch, [S, Dv]
 *
 * Three phases inside one mixed (cube + vector) kernel:
 *   1. vector cores apply phi to Q and K and stage them in workspace,
 *   2. KV blocks via the Matmul API (A read transposed straight from workspace),
 *   3. output blocks via the Matmul API.
 * A full-core barrier separates the phases because every KV block needs all of
 * phi(K) and every output block needs a complete KV.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class ReluFeatureLinearAttentionKernel {
    using ATypeT = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    Matmul<ATypeT, BType, CType, BiasType> kvMm;
    Matmul<AType, BType, CType, BiasType> outMm;

    __aicore__ inline ReluFeatureLinearAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out, GM_ADDR usrWs,
                                const ReluFeatureLinearAttentionTilingData *td, TPipe *pipe)
    {
        td_ = td;
        B_ = td->batch;
        S_ = td->seqLen;
        D_ = td->featDim;
        Dv_ = td->valDim;
        eps_ = td->eps;
        tile_ = td->mapTile;

        uint64_t qkElems = static_cast<uint64_t>(B_) * S_ * D_;
        qGm_.SetGlobalBuffer((__gm__ T *)q, qkElems);
        kGm_.SetGlobalBuffer((__gm__ T *)k, qkElems);
        vGm_.SetGlobalBuffer((__gm__ T *)v, static_cast<uint64_t>(B_) * S_ * Dv_);
        outGm_.SetGlobalBuffer((__gm__ T *)out, static_cast<uint64_t>(B_) * S_ * Dv_);

        // workspace layout: [phi(Q) | phi(K) | KV]
        __gm__ T *ws = (__gm__ T *)usrWs;
        qfGm_.SetGlobalBuffer(ws, qkElems);
        kfGm_.SetGlobalBuffer(ws + qkElems, qkElems);
        kvGm_.SetGlobalBuffer(ws + 2 * qkElems, static_cast<uint64_t>(B_) * D_ * Dv_);

        workerId_ = GetBlockIdx();
        workerNum_ = GetBlockNum() * GetTaskRation();

        pipe_ = pipe;
        pipe_->InitBuffer(inQue_, 2, tile_ * sizeof(T));
        pipe_->InitBuffer(outQue_, 2, tile_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        FeatureMap(qGm_, qfGm_);
        FeatureMap(kGm_, kfGm_);
        SyncAll();
        ComputeKV();
        SyncAll();
        ComputeOut();
    }

private:
    // phi(x) = max(x, 0) + eps over this worker's contiguous slice of the tensor
    __aicore__ inline void FeatureMap(GlobalTensor<T> &src, GlobalTensor<T> &dst)
    {
        uint64_t total = static_cast<uint64_t>(B_) * S_ * D_;
        uint64_t per = (total + workerNum_ - 1) / workerNum_;
        per = (per + 31) / 32 * 32;
        uint64_t begin = per * workerId_;
        if (begin >= total) {
            return;
        }
        uint64_t len = (begin + per > total) ? (total - begin) : per;

        for (uint64_t off = 0; off < len; off += tile_) {
            uint32_t cnt = static_cast<uint32_t>((len - off) > tile_ ? tile_ : (len - off));
            LocalTensor<T> xin = inQue_.AllocTensor<T>();
            DataCopyPad(xin, src[begin + off], DataCopyExtParams(1, cnt * sizeof(T), 0, 0, 0),
                        DataCopyPadExtParams<T>(false, 0, 0, 0));
            inQue_.EnQue(xin);

            xin = inQue_.DeQue<T>();
            LocalTensor<T> y = outQue_.AllocTensor<T>();
            Relu(y, xin, cnt);
            Adds(y, y, static_cast<T>(eps_), cnt);
            outQue_.EnQue(y);
            inQue_.FreeTensor(xin);

            y = outQue_.DeQue<T>();
            DataCopyPad(dst[begin + off], y, DataCopyExtParams(1, cnt * sizeof(T), 0, 0, 0));
            outQue_.FreeTensor(y);
        }
    }

    __aicore__ inline void ComputeKV()
    {
        uint32_t bm = td_->kvBlockM;
        uint32_t bn = td_->kvBlockN;
        uint32_t mBlocks = (D_ + bm - 1) / bm;
        uint32_t nBlocks = (Dv_ + bn - 1) / bn;
        uint32_t perBatch = mBlocks * nBlocks;
        uint32_t totalBlocks = B_ * perBatch;

        kvMm.SetOrgShape(D_, Dv_, S_);
        for (uint32_t blk = workerId_; blk < totalBlocks; blk += workerNum_) {
            uint32_t b = blk / perBatch;
            uint32_t r = blk % perBatch;
            uint32_t mi = r / nBlocks;
            uint32_t ni = r % nBlocks;
            uint32_t curM = (mi == mBlocks - 1) ? (D_ - mi * bm) : bm;
            uint32_t curN = (ni == nBlocks - 1) ? (Dv_ - ni * bn) : bn;

            // phi(K)[b] is [S, D]; reading it transposed yields rows of KV, so the
            // row block mi is a column offset inside phi(K)[b].
            uint64_t aOff = static_cast<uint64_t>(b) * S_ * D_ + mi * bm;
            uint64_t bOff = static_cast<uint64_t>(b) * S_ * Dv_ + ni * bn;
            uint64_t cOff = static_cast<uint64_t>(b) * D_ * Dv_ + static_cast<uint64_t>(mi) * bm * Dv_ + ni * bn;

            kvMm.SetSingleShape(curM, curN, S_);
            kvMm.SetTensorA(kfGm_[aOff], true);
            kvMm.SetTensorB(vGm_[bOff]);
            kvMm.IterateAll(kvGm_[cOff]);
            kvMm.End();
        }
    }

    __aicore__ inline void ComputeOut()
    {
        uint32_t bm = td_->outBlockM;
        uint32_t bn = td_->outBlockN;
        uint32_t mBlocks = (S_ + bm - 1) / bm;
        uint32_t nBlocks = (Dv_ + bn - 1) / bn;
        uint32_t perBatch = mBlocks * nBlocks;
        uint32_t totalBlocks = B_ * perBatch;

        outMm.SetOrgShape(S_, Dv_, D_);
        for (uint32_t blk = workerId_; blk < totalBlocks; blk += workerNum_) {
            uint32_t b = blk / perBatch;
            uint32_t r = blk % perBatch;
            uint32_t mi = r / nBlocks;
            uint32_t ni = r % nBlocks;
            uint32_t curM = (mi == mBlocks - 1) ? (S_ - mi * bm) : bm;
            uint32_t curN = (ni == nBlocks - 1) ? (Dv_ - ni * bn) : bn;

            uint64_t aOff = static_cast<uint64_t>(b) * S_ * D_ + static_cast<uint64_t>(mi) * bm * D_;
            uint64_t bOff = static_cast<uint64_t>(b) * D_ * Dv_ + ni * bn;
            uint64_t cOff = static_cast<uint64_t>(b) * S_ * Dv_ + static_cast<uint64_t>(mi) * bm * Dv_ + ni * bn;

            outMm.SetSingleShape(curM, curN, D_);
            outMm.SetTensorA(qfGm_[aOff]);
            outMm.SetTensorB(kvGm_[bOff]);
            outMm.IterateAll(outGm_[cOff]);
            outMm.End();
        }
    }

private:
    const ReluFeatureLinearAttentionTilingData *td_ = nullptr;
    TPipe *pipe_ = nullptr;
    TQue<QuePosition::VECIN, 2> inQue_;
    TQue<QuePosition::VECOUT, 2> outQue_;
    GlobalTensor<T> qGm_, kGm_, vGm_, outGm_;
    GlobalTensor<T> qfGm_, kfGm_, kvGm_;
    uint32_t B_ = 0, S_ = 0, D_ = 0, Dv_ = 0, tile_ = 0;
    uint32_t workerId_ = 0, workerNum_ = 1;
    float eps_ = 0.0f;
};

extern "C" __global__ __aicore__ void relu_feature_linear_attention(GM_ADDR query, GM_ADDR key, GM_ADDR value,
                                                                    GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    TPipe pipe;
    ReluFeatureLinearAttentionKernel<DTYPE_QUERY> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.kvMm, &td.kvTiling, op.outMm, &td.outTiling);
    op.Init(query, key, value, out, usrWs, &td, &pipe);
    op.Process();
}
