/**
 * DenseSiluShiftGroupNorm kernel
 *   h = x * W^T + b          (cube, Matmul high level API, written to workspace)
 *   a = h * sigmoid(h) + s   (vector)
 *   y = GroupNorm(a) * gamma + beta  (vector, statistics per row and group)
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
constexpr int32_t DB = 2;

using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
} // namespace

class DenseSiluShiftGroupNormKernel {
public:
    __aicore__ inline DenseSiluShiftGroupNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR denseBias, GM_ADDR shift, GM_ADDR gamma,
                                GM_ADDR beta, GM_ADDR y, GM_ADDR userWs,
                                const DenseSiluShiftGroupNormTilingData &td)
    {
        m_ = td.batch;
        k_ = td.inFeatures;
        n_ = td.outFeatures;
        groups_ = td.numGroups;
        gsize_ = td.groupSize;
        gPerTile_ = td.groupsPerTile;
        eps_ = td.epsilon;

        uint32_t vid = GetBlockIdx();
        rowBegin_ = vid * td.rowsPerCore;
        rowCount_ = 0;
        if (vid < td.usedCores && rowBegin_ < m_) {
            rowCount_ = (m_ - rowBegin_ < td.rowsPerCore) ? (m_ - rowBegin_) : td.rowsPerCore;
        }

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)w);
        biasGm_.SetGlobalBuffer((__gm__ float *)denseBias);
        shiftGm_.SetGlobalBuffer((__gm__ float *)shift);
        gammaGm_.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta);
        yGm_.SetGlobalBuffer((__gm__ float *)y);
        hGm_.SetGlobalBuffer((__gm__ float *)userWs);

        tileLen_ = gPerTile_ * gsize_;
        tileLenAligned_ = (tileLen_ + 7) / 8 * 8;
        pipe_.InitBuffer(inQ_, DB, tileLenAligned_ * sizeof(float));
        pipe_.InitBuffer(outQ_, DB, tileLenAligned_ * sizeof(float));
        pipe_.InitBuffer(shiftBuf_, tileLenAligned_ * sizeof(float));
        pipe_.InitBuffer(gammaBuf_, tileLenAligned_ * sizeof(float));
        pipe_.InitBuffer(betaBuf_, tileLenAligned_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, tileLenAligned_ * sizeof(float));
        pipe_.InitBuffer(redBuf_, 64 * sizeof(float));
    }

    template <class MM>
    __aicore__ inline void RunDense(MM &mm)
    {
        if (rowCount_ == 0) {
            return;
        }
        mm.SetSingleShape(rowCount_, n_, k_);
        mm.SetTensorA(xGm_[static_cast<uint64_t>(rowBegin_) * k_]);
        mm.SetTensorB(wGm_, true);
        mm.SetBias(biasGm_);
        mm.IterateAll(hGm_[static_cast<uint64_t>(rowBegin_) * n_]);
        mm.End();
    }

    __aicore__ inline void RunEpilogue()
    {
        if (rowCount_ == 0) {
            return;
        }
        // the matmul result was written by the cube through GM; make sure it
        // is visible before the vector side starts reading it
        PipeBarrier<PIPE_ALL>();
        uint32_t tiles = (groups_ + gPerTile_ - 1) / gPerTile_;
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t g0 = t * gPerTile_;
            uint32_t gCnt = (groups_ - g0 < gPerTile_) ? (groups_ - g0) : gPerTile_;
            uint32_t colBegin = g0 * gsize_;
            uint32_t len = gCnt * gsize_;
            LoadChannelParams(colBegin, len);
            for (uint32_t r = 0; r < rowCount_; ++r) {
                uint64_t base = static_cast<uint64_t>(rowBegin_ + r) * n_ + colBegin;
                CopyIn(base, len);
                Compute(gCnt, len);
                CopyOut(base, len);
            }
        }
    }

private:
    __aicore__ inline void CopyGmToUb(const LocalTensor<float> &dst, const GlobalTensor<float> &src, uint32_t len)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(dst, src, cp, pad);
    }

    __aicore__ inline void LoadChannelParams(uint32_t colBegin, uint32_t len)
    {
        LocalTensor<float> sh = shiftBuf_.Get<float>();
        LocalTensor<float> ga = gammaBuf_.Get<float>();
        LocalTensor<float> be = betaBuf_.Get<float>();
        CopyGmToUb(sh, shiftGm_[colBegin], len);
        CopyGmToUb(ga, gammaGm_[colBegin], len);
        CopyGmToUb(be, betaGm_[colBegin], len);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
    }

    __aicore__ inline void CopyIn(uint64_t base, uint32_t len)
    {
        LocalTensor<float> h = inQ_.AllocTensor<float>();
        CopyGmToUb(h, hGm_[base], len);
        inQ_.EnQue(h);
    }

    __aicore__ inline void Compute(uint32_t gCnt, uint32_t len)
    {
        LocalTensor<float> h = inQ_.DeQue<float>();
        LocalTensor<float> o = outQ_.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> sh = shiftBuf_.Get<float>();
        LocalTensor<float> ga = gammaBuf_.Get<float>();
        LocalTensor<float> be = betaBuf_.Get<float>();

        // silu: h / (1 + exp(-h)), then add the per-channel shift
        Muls(tmp, h, -1.0f, len);
        Exp(tmp, tmp, len);
        Adds(tmp, tmp, 1.0f, len);
        Div(o, h, tmp, len);
        Add(o, o, sh, len);

        const float invG = 1.0f / static_cast<float>(gsize_);
        for (uint32_t g = 0; g < gCnt; ++g) {
            uint32_t off = g * gsize_;
            LocalTensor<float> seg = o[off];
            LocalTensor<float> sq = tmp[off];
            // mean
            ReduceSum<float>(red, seg, red[16], gsize_);
            event_t e0 = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e0);
            WaitFlag<HardEvent::V_S>(e0);
            float mean = red.GetValue(0) * invG;
            event_t e1 = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(e1);
            WaitFlag<HardEvent::S_V>(e1);
            Adds(seg, seg, -mean, gsize_);
            // biased variance
            Mul(sq, seg, seg, gsize_);
            ReduceSum<float>(red, sq, red[16], gsize_);
            SetFlag<HardEvent::V_S>(e0);
            WaitFlag<HardEvent::V_S>(e0);
            float var = red.GetValue(0) * invG;
            float rstd = 1.0f / sqrt(var + eps_);
            SetFlag<HardEvent::S_V>(e1);
            WaitFlag<HardEvent::S_V>(e1);
            Muls(seg, seg, rstd, gsize_);
        }
        // affine
        Mul(o, o, ga, len);
        Add(o, o, be, len);

        outQ_.EnQue(o);
        inQ_.FreeTensor(h);
    }

    __aicore__ inline void CopyOut(uint64_t base, uint32_t len)
    {
        LocalTensor<float> o = outQ_.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[base], o, cp);
        outQ_.FreeTensor(o);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, DB> inQ_;
    TQue<QuePosition::VECOUT, DB> outQ_;
    TBuf<TPosition::VECCALC> shiftBuf_, gammaBuf_, betaBuf_, tmpBuf_, redBuf_;

    GlobalTensor<float> xGm_, wGm_, biasGm_, shiftGm_, gammaGm_, betaGm_, yGm_, hGm_;

    uint32_t m_, k_, n_, groups_, gsize_, gPerTile_;
    uint32_t rowBegin_, rowCount_, tileLen_, tileLenAligned_;
    float eps_;

public:
    TPipe *Pipe() { return &pipe_; }
};

extern "C" __global__ __aicore__ void dense_silu_shift_group_norm(GM_ADDR x, GM_ADDR weight, GM_ADDR denseBias,
                                                                  GM_ADDR shift, GM_ADDR gamma, GM_ADDR beta,
                                                                  GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }

    DenseSiluShiftGroupNormKernel op;
    op.Init(x, weight, denseBias, shift, gamma, beta, y, userWs, td);

    matmul::Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), mm, &td.mmTiling);
    op.RunDense(mm);
    op.RunEpilogue();
}
