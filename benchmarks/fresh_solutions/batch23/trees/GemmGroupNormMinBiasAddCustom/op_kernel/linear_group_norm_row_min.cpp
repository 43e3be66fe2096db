/*
 * LinearGroupNormRowMin
 *   h   = x @ W^T + b                      (cube, Matmul high-level API, result in workspace)
 *   hn  = GroupNorm(h; gamma, beta)        (vector, per row)
 *   m_r = min_c hn[r, c]                   (vector, per row)
 *   y[0, c, r, 0] = m_r + out_bias[c]      (vector, broadcast)
 * Phases are separated by SyncAll since each phase consumes results of all cores.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class LinearGroupNormRowMinKernel {
public:
    __aicore__ inline LinearGroupNormRowMinKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR lb, GM_ADDR gamma, GM_ADDR beta, GM_ADDR ob,
                                GM_ADDR y, GM_ADDR usrWs, const LinearGroupNormRowMinTiling& td)
    {
        td_ = td;
        M_ = td.rows; N_ = td.features; K_ = td.reduceDim;
        xGm_.SetGlobalBuffer((__gm__ float*)x);
        wGm_.SetGlobalBuffer((__gm__ float*)w);
        lbGm_.SetGlobalBuffer((__gm__ float*)lb);
        gammaGm_.SetGlobalBuffer((__gm__ float*)gamma);
        betaGm_.SetGlobalBuffer((__gm__ float*)beta);
        obGm_.SetGlobalBuffer((__gm__ float*)ob);
        yGm_.SetGlobalBuffer((__gm__ float*)y);
        hGm_.SetGlobalBuffer((__gm__ float*)usrWs, (uint64_t)M_ * N_);
        minGm_.SetGlobalBuffer((__gm__ float*)usrWs + (uint64_t)M_ * N_, M_);
    }

    __aicore__ inline void RunGemm()
    {
        // only the first vector core of each block issues cube work
        if (GetSubBlockIdx() != 0) {
            return;
        }
        const TCubeTiling& t = td_.mmTiling;
        uint32_t cubeIdx = GetBlockIdx() / GetTaskRation();
        uint32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        uint32_t nBlocks = (t.N + t.singleCoreN - 1) / t.singleCoreN;
        if (cubeIdx >= mBlocks * nBlocks) {
            return;
        }
        uint32_t mIdx = cubeIdx % mBlocks;
        uint32_t nIdx = cubeIdx / mBlocks;
        uint32_t mOff = mIdx * t.singleCoreM;
        uint32_t nOff = nIdx * t.singleCoreN;
        int32_t tailM = t.M - mOff < (uint32_t)t.singleCoreM ? t.M - mOff : t.singleCoreM;
        int32_t tailN = t.N - nOff < (uint32_t)t.singleCoreN ? t.N - nOff : t.singleCoreN;

        mm.SetTail(tailM, tailN);
        mm.SetTensorA(xGm_[(uint64_t)mOff * K_]);
        mm.SetTensorB(wGm_[(uint64_t)nOff * K_], true);
        mm.SetBias(lbGm_[nOff]);
        mm.IterateAll(hGm_[(uint64_t)mOff * N_ + nOff]);
        mm.End();
    }

    __aicore__ inline void RunRowNorm()
    {
        const uint32_t chunk = td_.featChunk;
        const uint32_t gs = td_.groupSize;
        pipe.InitBuffer(inQ_, 2, chunk * sizeof(float));
        pipe.InitBuffer(gammaBuf_, chunk * sizeof(float));
        pipe.InitBuffer(betaBuf_, chunk * sizeof(float));
        pipe.InitBuffer(sqBuf_, chunk * sizeof(float));
        pipe.InitBuffer(statBuf_, 2 * ((chunk / gs + 63) / 64 * 64) * sizeof(float));
        pipe.InitBuffer(minBuf_, 64 * sizeof(float));

        uint32_t vecNum = GetBlockNum() * GetTaskRation();
        for (uint32_t r = GetBlockIdx(); r < M_; r += vecNum) {
            float rowMin = 3.4e38f;
            for (uint32_t c0 = 0; c0 < N_; c0 += chunk) {
                uint32_t len = (N_ - c0) < chunk ? (N_ - c0) : chunk;
                float part = NormChunkMin(r, c0, len, gs);
                rowMin = part < rowMin ? part : rowMin;
            }
            minGm_.SetValue(r, rowMin);
            DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(minGm_[r]);
        }
        pipe.Reset();
    }

    __aicore__ inline void RunBroadcast()
    {
        const uint32_t rc = td_.rowChunk;
        pipe.InitBuffer(inQ_, 1, rc * sizeof(float));
        pipe.InitBuffer(outQ_, 2, rc * sizeof(float));
        uint32_t vecNum = GetBlockNum() * GetTaskRation();
        for (uint32_t r0 = 0; r0 < M_; r0 += rc) {
            uint32_t len = (M_ - r0) < rc ? (M_ - r0) : rc;
            LocalTensor<float> mins = inQ_.AllocTensor<float>();
            DataCopyPad(mins, minGm_[r0], {1, (uint32_t)(len * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0.0f});
            inQ_.EnQue(mins);
            mins = inQ_.DeQue<float>();
            for (uint32_t c = GetBlockIdx(); c < N_; c += vecNum) {
                float bias = obGm_.GetValue(c);
                LocalTensor<float> o = outQ_.AllocTensor<float>();
                Adds(o, mins, bias, len);
                outQ_.EnQue(o);
                o = outQ_.DeQue<float>();
                DataCopyPad(yGm_[(uint64_t)c * M_ + r0], o, {1, (uint32_t)(len * sizeof(float)), 0, 0, 0});
                outQ_.FreeTensor(o);
            }
            inQ_.FreeTensor(mins);
        }
    }

    Matmul<AType, BType, CType, BiasType> mm;
    TPipe pipe;

private:
    // group-normalise h[r, c0:c0+len] in UB and return its minimum
    __aicore__ inline float NormChunkMin(uint32_t r, uint32_t c0, uint32_t len, uint32_t gs)
    {
        uint32_t nGroups = len / gs;
        DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};

        LocalTensor<float> v = inQ_.AllocTensor<float>();
        DataCopyPad(v, hGm_[(uint64_t)r * N_ + c0], cp, pp);
        inQ_.EnQue(v);
        LocalTensor<float> g = gammaBuf_.Get<float>();
        LocalTensor<float> b = betaBuf_.Get<float>();
        DataCopyPad(g, gammaGm_[c0], cp, pp);
        DataCopyPad(b, betaGm_[c0], cp, pp);
        v = inQ_.DeQue<float>();   // waits for MTE2, covers gamma/beta copies too

        LocalTensor<float> sq = sqBuf_.Get<float>();
        LocalTensor<float> stat = statBuf_.Get<float>();
        uint32_t statStride = (nGroups + 63) / 64 * 64;
        LocalTensor<float> sums = stat;
        LocalTensor<float> sqSums = stat[statStride];
        Mul(sq, v, v, len);
        PipeBarrier<PIPE_V>();
        // one repeat per group: gs <= 64 floats, groups start on 32B boundaries
        uint8_t repStride = static_cast<uint8_t>(gs / 8);
        for (uint32_t g0 = 0; g0 < nGroups; g0 += 255) {
            uint32_t rep = (nGroups - g0) < 255 ? (nGroups - g0) : 255;
            WholeReduceSum<float>(sums[g0], v[g0 * gs], gs, rep, 1, 1, repStride);
            WholeReduceSum<float>(sqSums[g0], sq[g0 * gs], gs, rep, 1, 1, repStride);
        }
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);

        const float invGs = 1.0f / static_cast<float>(gs);
        for (uint32_t gi = 0; gi < nGroups; ++gi) {
            float mean = sums.GetValue(gi) * invGs;
            float var = sqSums.GetValue(gi) * invGs - mean * mean;
            var = var < 0.0f ? 0.0f : var;
            float rstd = 1.0f / sqrt(var + td_.eps);
            // (x - mean) * rstd  ==  x * rstd + (-mean * rstd)
            Muls(v[gi * gs], v[gi * gs], rstd, gs);
            PipeBarrier<PIPE_V>();
            Adds(v[gi * gs], v[gi * gs], -mean * rstd, gs);
        }
        PipeBarrier<PIPE_V>();
        Mul(v, v, g, len);
        PipeBarrier<PIPE_V>();
        Add(v, v, b, len);
        PipeBarrier<PIPE_V>();

        LocalTensor<float> mn = minBuf_.Get<float>();
        ReduceMin<float>(mn, v, sq, len, false);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float res = mn.GetValue(0);
        inQ_.FreeTensor(v);
        return res;
    }

    LinearGroupNormRowMinTiling td_;
    uint32_t M_, N_, K_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> gammaBuf_, betaBuf_, sqBuf_, statBuf_, minBuf_;
    GlobalTensor<float> xGm_, wGm_, lbGm_, gammaGm_, betaGm_, obGm_, yGm_, hGm_, minGm_;
};

extern "C" __global__ __aicore__ void linear_group_norm_row_min(GM_ADDR x, GM_ADDR weight, GM_ADDR linear_bias,
                                                                GM_ADDR gamma, GM_ADDR beta, GM_ADDR out_bias,
                                                                GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    LinearGroupNormRowMinKernel op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.mmTiling);
    op.Init(x, weight, linear_bias, gamma, beta, out_bias, y, usrWs, td);
    op.RunGemm();
    SyncAll();
    op.RunRowNorm();
    SyncAll();
    op.RunBroadcast();
}
