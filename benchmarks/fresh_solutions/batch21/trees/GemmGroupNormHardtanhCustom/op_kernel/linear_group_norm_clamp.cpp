// LinearGroupNormClamp kernel
//   z = x @ W^T + b                 (cube Matmul -> float workspace)
//   per row, per group of N/G consecutive features:
//       zn = (z - mean) * rsqrt(var + eps) * gamma + beta
//   y = min(max(zn, clip_min), clip_max)
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename DT>
class LinearGroupNormClampOp {
public:
    using A_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, DT>;
    using B_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, DT, true>;
    using C_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BIAS_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, DT>;
    matmul::Matmul<A_T, B_T, C_T, BIAS_T> gemm;

    __aicore__ inline LinearGroupNormClampOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                GM_ADDR work, const LinearGroupNormClampTilingData *tiling, TPipe *pipe)
    {
        td_ = tiling;
        pipe_ = pipe;
        x_.SetGlobalBuffer(reinterpret_cast<__gm__ DT *>(x));
        w_.SetGlobalBuffer(reinterpret_cast<__gm__ DT *>(w));
        b_.SetGlobalBuffer(reinterpret_cast<__gm__ DT *>(b));
        gamma_.SetGlobalBuffer(reinterpret_cast<__gm__ DT *>(gamma));
        beta_.SetGlobalBuffer(reinterpret_cast<__gm__ DT *>(beta));
        y_.SetGlobalBuffer(reinterpret_cast<__gm__ DT *>(y));
        z_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(work));
    }

    __aicore__ inline void Process()
    {
        DoGemm();
        SyncAll();
        DoGroupNorm();
    }

private:
    __aicore__ inline void DoGemm()
    {
        const TCubeTiling &ct = td_->gemm;
        const int32_t core = static_cast<int32_t>(GetBlockIdx());
        if (core >= ct.usedCoreNum) {
            return;
        }
        const int32_t mParts = Ceil(ct.M, ct.singleCoreM);
        const int32_t mi = core % mParts;
        const int32_t ni = core / mParts;
        const int32_t mLeft = ct.M - mi * ct.singleCoreM;
        const int32_t nLeft = ct.N - ni * ct.singleCoreN;
        if (mLeft <= 0 || nLeft <= 0) {
            return;
        }
        gemm.SetTail(mLeft < ct.singleCoreM ? mLeft : ct.singleCoreM,
                     nLeft < ct.singleCoreN ? nLeft : ct.singleCoreN);
        gemm.SetTensorA(x_[static_cast<uint64_t>(mi) * ct.singleCoreM * ct.Ka]);
        gemm.SetTensorB(w_[static_cast<uint64_t>(ni) * ct.singleCoreN * ct.Kb], true);
        gemm.SetBias(b_[static_cast<uint64_t>(ni) * ct.singleCoreN]);
        gemm.IterateAll(z_[static_cast<uint64_t>(mi) * ct.singleCoreM * ct.N + ni * ct.singleCoreN]);
        gemm.End();
    }

    __aicore__ inline static int32_t Ceil(int32_t a, int32_t b) { return (a + b - 1) / b; }

    __aicore__ inline void DoGroupNorm()
    {
        const uint32_t core = GetBlockIdx();
        if (core >= td_->vecCores) {
            return;
        }
        const uint32_t L = td_->groupLenAlign;
        pipe_->Reset();
        pipe_->InitBuffer(zIn_, 1, L * sizeof(float));
        pipe_->InitBuffer(affIn_, 1, 2 * L * sizeof(DT));
        pipe_->InitBuffer(yOut_, 1, L * sizeof(DT));
        pipe_->InitBuffer(centered_, L * sizeof(float));
        pipe_->InitBuffer(scratch_, 3 * L * sizeof(float));   // [0,L): result, [L,2L): squares, [2L,3L): reduce work
        pipe_->InitBuffer(affF_, 2 * L * sizeof(float));

        uint32_t count = td_->segPerCore + (core < td_->segExtra ? 1 : 0);
        uint32_t first = core * td_->segPerCore + (core < td_->segExtra ? core : td_->segExtra);
        for (uint32_t s = first; s < first + count; ++s) {
            Segment(s);
        }
    }

    __aicore__ inline float PullScalar(const LocalTensor<float> &t)
    {
        event_t e = static_cast<event_t>(pipe_->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        float v = t.GetValue(0);
        event_t e2 = static_cast<event_t>(pipe_->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e2);
        WaitFlag<HardEvent::S_V>(e2);
        return v;
    }

    __aicore__ inline void Segment(uint32_t seg)
    {
        const uint32_t G = td_->numGroups;
        const uint32_t len = td_->groupLen;
        const uint32_t L = td_->groupLenAlign;
        const uint32_t row = seg / G;
        const uint32_t grp = seg % G;
        const uint64_t zOff = static_cast<uint64_t>(row) * td_->features + static_cast<uint64_t>(grp) * len;
        const uint64_t cOff = static_cast<uint64_t>(grp) * len;

        // ---- copy in: product segment + gamma/beta slices of this group
        LocalTensor<float> zl = zIn_.AllocTensor<float>();
        DataCopyPad(zl, z_[zOff], {1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
        zIn_.EnQue(zl);
        LocalTensor<DT> aff = affIn_.AllocTensor<DT>();
        DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(DT)), 0, 0, 0};
        DataCopyPad(aff, gamma_[cOff], cp, {false, 0, 0, 0});
        DataCopyPad(aff[L], beta_[cOff], cp, {false, 0, 0, 0});
        affIn_.EnQue(aff);

        // ---- compute
        zl = zIn_.DeQue<float>();
        aff = affIn_.DeQue<DT>();
        LocalTensor<float> gb = affF_.Get<float>();
        if constexpr (sizeof(DT) == sizeof(float)) {
            Adds(gb, aff, 0.0f, len);
            Adds(gb[L], aff[L], 0.0f, len);
        } else {
            Cast(gb, aff, RoundMode::CAST_NONE, len);
            Cast(gb[L], aff[L], RoundMode::CAST_NONE, len);
        }
        affIn_.FreeTensor(aff);

        LocalTensor<float> c = centered_.Get<float>();
        LocalTensor<float> tmp = scratch_.Get<float>();
        const float inv = 1.0f / static_cast<float>(len);

        ReduceSum(tmp, zl, c, len);
        float mean = PullScalar(tmp) * inv;
        Adds(c, zl, -mean, len);
        zIn_.FreeTensor(zl);
        Mul(tmp[L], c, c, len);
        ReduceSum(tmp, tmp[L], tmp[2 * L], len);
        Muls(tmp, tmp, inv, 1);
        Adds(tmp, tmp, td_->eps, 1);
        Sqrt(tmp, tmp, 1);
        float rstd = 1.0f / PullScalar(tmp);

        Muls(c, c, rstd, len);
        Mul(c, c, gb, len);
        Add(c, c, gb[L], len);
        Maxs(c, c, td_->clipLow, len);
        Mins(c, c, td_->clipHigh, len);

        LocalTensor<DT> yl = yOut_.AllocTensor<DT>();
        if constexpr (sizeof(DT) == sizeof(float)) {
            Adds(yl, c, 0.0f, len);
        } else {
            Cast(yl, c, RoundMode::CAST_ROUND, len);
        }
        yOut_.EnQue(yl);

        // ---- copy out
        yl = yOut_.DeQue<DT>();
        DataCopyPad(y_[zOff], yl, cp);
        yOut_.FreeTensor(yl);
    }

private:
    const LinearGroupNormClampTilingData *td_ = nullptr;
    TPipe *pipe_ = nullptr;
    GlobalTensor<DT> x_, w_, b_, gamma_, beta_, y_;
    GlobalTensor<float> z_;
    TQue<QuePosition::VECIN, 1> zIn_, affIn_;
    TQue<QuePosition::VECOUT, 1> yOut_;
    TBuf<TPosition::VECCALC> centered_, scratch_, affF_;
};

extern "C" __global__ __aicore__ void linear_group_norm_clamp(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                               GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    TPipe pipe;
    if (TILING_KEY_IS(0)) {
        LinearGroupNormClampOp<float> op;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.gemm, &td.gemm);
        op.Init(x, weight, bias, gamma, beta, y, usr, &td, &pipe);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        LinearGroupNormClampOp<half> op;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.gemm, &td.gemm);
        op.Init(x, weight, bias, gamma, beta, y, usr, &td, &pipe);
        op.Process();
    }
}
