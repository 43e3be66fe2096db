/*
 * ReluFeatureMapAttention kernel (mixed cube/vector).
 *
 *   phiQ = relu(Q) + eps, phiK = relu(K) + eps           (vector, into workspace)
 *   KV[b]  = phiK[b]^T @ V[b]          [D, Dv]           (cube)
 *   Y[b]   = phiQ[b]   @ KV[b]         [Lq, Dv]          (cube)
 *
 * The three stages are separated by a full-core barrier because every KV block depends
 * on all of phiK[b], and every output block on a full KV[b].
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
constexpr int32_t BUF = 2;

using AT_T = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // phiK read transposed
using AT_N = MatmulType<TPosition::GM, CubeFormat::ND, float, false>;
using BT_N = MatmulType<TPosition::GM, CubeFormat::ND, float, false>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
}  // namespace

class ReluFeatureMapAttentionKernel {
public:
    __aicore__ inline ReluFeatureMapAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR y, GM_ADDR usrWs,
                                const ReluFeatureMapAttentionTilingData &td)
    {
        td_ = td;
        uint64_t qElems = static_cast<uint64_t>(td.batch) * td.qLen * td.headDim;
        uint64_t kElems = static_cast<uint64_t>(td.batch) * td.kLen * td.headDim;
        qGm_.SetGlobalBuffer((__gm__ float *)q, qElems);
        kGm_.SetGlobalBuffer((__gm__ float *)k, kElems);
        vGm_.SetGlobalBuffer((__gm__ float *)v);
        yGm_.SetGlobalBuffer((__gm__ float *)y);
        phiQ_.SetGlobalBuffer((__gm__ float *)usrWs, qElems);
        phiK_.SetGlobalBuffer((__gm__ float *)usrWs + qElems, kElems);
        kv_.SetGlobalBuffer((__gm__ float *)usrWs + qElems + kElems);
    }

    __aicore__ inline void FeatureMapStage()
    {
        pipe_.InitBuffer(inQ_, BUF, td_.mapTile * sizeof(float));
        pipe_.InitBuffer(outQ_, BUF, td_.mapTile * sizeof(float));
        uint32_t vecIdx = GetBlockIdx();
        uint32_t vecNum = GetBlockNum() * GetTaskRation();
        MapTensor(qGm_, phiQ_, static_cast<uint64_t>(td_.batch) * td_.qLen * td_.headDim, vecIdx, vecNum);
        MapTensor(kGm_, phiK_, static_cast<uint64_t>(td_.batch) * td_.kLen * td_.headDim, vecIdx, vecNum);
        pipe_.Reset();
    }

    // KV[b] = phiK[b]^T V[b], each cube core owns one (m, n) block of every batch
    template <typename MM>
    __aicore__ inline void KvStage(MM &mm)
    {
        const TCubeTiling &t = td_.kvTiling;
        uint32_t blk = GetBlockIdx() / GetTaskRation();
        if (blk >= static_cast<uint32_t>(t.usedCoreNum)) {
            return;
        }
        uint32_t mBlocks = CeilDivU(t.M, t.singleCoreM);
        uint32_t mIdx = blk % mBlocks, nIdx = blk / mBlocks;
        int32_t tailM = t.M - mIdx * t.singleCoreM;
        int32_t tailN = t.N - nIdx * t.singleCoreN;
        tailM = tailM < t.singleCoreM ? tailM : t.singleCoreM;
        tailN = tailN < t.singleCoreN ? tailN : t.singleCoreN;
        if (tailM <= 0 || tailN <= 0) {
            return;
        }
        uint64_t kStride = static_cast<uint64_t>(td_.kLen) * td_.headDim;
        uint64_t vStride = static_cast<uint64_t>(td_.kLen) * td_.valueDim;
        uint64_t kvStride = static_cast<uint64_t>(td_.headDim) * td_.valueDim;
        for (uint32_t b = 0; b < td_.batch; ++b) {
            // A is stored [Lk, D]; a block of rows of A^T is a column offset into A
            mm.SetTensorA(phiK_[b * kStride + mIdx * t.singleCoreM], true);
            mm.SetTensorB(vGm_[b * vStride + nIdx * t.singleCoreN]);
            mm.SetTail(tailM, tailN);
            mm.IterateAll(kv_[b * kvStride + static_cast<uint64_t>(mIdx) * t.singleCoreM * t.N +
                              nIdx * t.singleCoreN]);
        }
        mm.End();
    }

    template <typename MM>
    __aicore__ inline void OutStage(MM &mm)
    {
        const TCubeTiling &t = td_.outTiling;
        uint32_t blk = GetBlockIdx() / GetTaskRation();
        if (blk >= static_cast<uint32_t>(t.usedCoreNum)) {
            return;
        }
        uint32_t mBlocks = CeilDivU(t.M, t.singleCoreM);
        uint32_t mIdx = blk % mBlocks, nIdx = blk / mBlocks;
        int32_t tailM = t.M - mIdx * t.singleCoreM;
        int32_t tailN = t.N - nIdx * t.singleCoreN;
        tailM = tailM < t.singleCoreM ? tailM : t.singleCoreM;
        tailN = tailN < t.singleCoreN ? tailN : t.singleCoreN;
        if (tailM <= 0 || tailN <= 0) {
            return;
        }
        uint64_t qStride = static_cast<uint64_t>(td_.qLen) * td_.headDim;
        uint64_t kvStride = static_cast<uint64_t>(td_.headDim) * td_.valueDim;
        uint64_t yStride = static_cast<uint64_t>(td_.qLen) * td_.valueDim;
        for (uint32_t b = 0; b < td_.batch; ++b) {
            mm.SetTensorA(phiQ_[b * qStride + static_cast<uint64_t>(mIdx) * t.singleCoreM * t.Ka]);
            mm.SetTensorB(kv_[b * kvStride + nIdx * t.singleCoreN]);
            mm.SetTail(tailM, tailN);
            mm.IterateAll(yGm_[b * yStride + static_cast<uint64_t>(mIdx) * t.singleCoreM * t.N +
                               nIdx * t.singleCoreN]);
        }
        mm.End();
    }

    TPipe pipe_;

private:
    __aicore__ inline void MapTensor(GlobalTensor<float> &src, GlobalTensor<float> &dst, uint64_t total,
                                     uint32_t vecIdx, uint32_t vecNum)
    {
        uint64_t per = (total + vecNum - 1) / vecNum;
        per = (per + 7) / 8 * 8;  // keep each core's range 32-byte aligned
        uint64_t begin = per * vecIdx;
        if (begin >= total) {
            return;
        }
        uint64_t end = begin + per < total ? begin + per : total;
        for (uint64_t off = begin; off < end; off += td_.mapTile) {
            uint32_t n = static_cast<uint32_t>((end - off) < td_.mapTile ? (end - off) : td_.mapTile);
            DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0};

            LocalTensor<float> xin = inQ_.AllocTensor<float>();
            DataCopyPad(xin, src[off], cp, pad);
            inQ_.EnQue(xin);
            xin = inQ_.DeQue<float>();

            LocalTensor<float> phi = outQ_.AllocTensor<float>();
            Relu(phi, xin, n);
            Adds(phi, phi, td_.eps, n);
            outQ_.EnQue(phi);
            inQ_.FreeTensor(xin);

            phi = outQ_.DeQue<float>();
            DataCopyPad(dst[off], phi, cp);
            outQ_.FreeTensor(phi);
        }
    }

    ReluFeatureMapAttentionTilingData td_;
    TQue<QuePosition::VECIN, BUF> inQ_;
    TQue<QuePosition::VECOUT, BUF> outQ_;
    GlobalTensor<float> qGm_, kGm_, vGm_, yGm_;
    GlobalTensor<float> phiQ_, phiK_, kv_;
};

extern "C" __global__ __aicore__ void relu_feature_map_attention(GM_ADDR query, GM_ADDR key, GM_ADDR value,
                                                                 GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }

    ReluFeatureMapAttentionKernel op;
    op.Init(query, key, value, y, usrWs, td);

    // stage 1: feature map on all vector cores
    op.FeatureMapStage();
    SyncAll();

    // stage 2: KV state per batch
    Matmul<AT_T, BT_N, CT, BiasT> kvMm;
    REGIST_MATMUL_OBJ(&op.pipe_, GetSysWorkSpacePtr(), kvMm, &td.kvTiling);
    if (GetSubBlockIdx() == 0) {
        op.KvStage(kvMm);
    }
    SyncAll();

    // stage 3: project queries through KV
    Matmul<AT_N, BT_N, CT, BiasT> outMm;
    REGIST_MATMUL_OBJ(&op.pipe_, GetSysWorkSpacePtr(), outMm, &td.outTiling);
    if (GetSubBlockIdx() == 0) {
        op.OutStage(outMm);
    }
}
