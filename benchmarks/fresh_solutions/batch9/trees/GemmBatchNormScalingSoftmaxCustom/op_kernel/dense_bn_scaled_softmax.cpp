/*
 * DenseBnScaledSoftmax
 *   h   = x W^T + b                                   (M x N)
 *   mu  = mean_m h[:, n],  var = mean_m (h[:, n] - mu)^2      (batch statistics)
 *   z   = s * (gamma * (h - mu) / sqrt(var + eps) + beta)
 *   y   = softmax over n of z
 * The affine part folds into z = h * A[n] + B[n] with
 *   A = s * gamma / sqrt(var + eps),  B = s * beta - mu * A.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

class DenseBnScaledSoftmaxKernel {
public:
    __aicore__ inline DenseBnScaledSoftmaxKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR gamma, GM_ADDR beta, GM_ADDR scale,
                                GM_ADDR y, GM_ADDR usr, const DenseBnScaledSoftmaxTiling &td)
    {
        M_ = td.batch;
        N_ = td.outDim;
        K_ = td.inDim;
        Npad_ = td.outDimPad;
        featPerCore_ = td.featPerCore;
        featTile_ = td.featTile;
        rowsPerCore_ = td.rowsPerCore;
        scaleLen_ = td.scaleLen;
        eps_ = td.eps;
        mmTiling_ = &td.mmTiling;

        xGm_.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(M_) * K_);
        wGm_.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(N_) * K_);
        bGm_.SetGlobalBuffer((__gm__ float *)b, N_);
        gGm_.SetGlobalBuffer((__gm__ float *)gamma, N_);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta, N_);
        sGm_.SetGlobalBuffer((__gm__ float *)scale, scaleLen_);
        yGm_.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(M_) * N_);
        coefA_.SetGlobalBuffer((__gm__ float *)usr, Npad_);
        coefB_.SetGlobalBuffer((__gm__ float *)usr + Npad_, Npad_);

        vecIdx_ = GetBlockIdx();
        vecNum_ = GetBlockNum() * GetTaskRation();
    }

    // ---------------- phase 1: dense layer on the cube ----------------
    template <class MM>
    __aicore__ inline void DenseLayer(MM &mm)
    {
        // only one of the two vector cores of a cluster drives the cube
        if (GetSubBlockIdx() != 0) {
            return;
        }
        const TCubeTiling &t = *mmTiling_;
        uint32_t cubeIdx = GetBlockIdx() / GetTaskRation();
        uint32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        uint32_t nBlocks = (t.N + t.singleCoreN - 1) / t.singleCoreN;
        if (cubeIdx >= mBlocks * nBlocks) {
            return;
        }
        uint32_t mi = cubeIdx % mBlocks;
        uint32_t ni = cubeIdx / mBlocks;
        int32_t tailM = t.M - mi * t.singleCoreM;
        int32_t tailN = t.N - ni * t.singleCoreN;
        tailM = tailM < t.singleCoreM ? tailM : t.singleCoreM;
        tailN = tailN < t.singleCoreN ? tailN : t.singleCoreN;

        uint64_t offA = static_cast<uint64_t>(mi) * t.singleCoreM * K_;
        uint64_t offB = static_cast<uint64_t>(ni) * t.singleCoreN * K_;   // rows of W (N x K)
        uint64_t offC = static_cast<uint64_t>(mi) * t.singleCoreM * N_ + ni * t.singleCoreN;

        mm.SetTail(tailM, tailN);
        mm.SetTensorA(xGm_[offA]);
        mm.SetTensorB(wGm_[offB], true);
        mm.SetBias(bGm_[ni * t.singleCoreN]);
        mm.IterateAll(yGm_[offC]);
        mm.End();
    }

    // ---------------- phase 2: batch statistics ----------------
    __aicore__ inline void FeatureStats(TPipe &pipe)
    {
        pipe.InitBuffer(inQ_, 2, featTile_ * sizeof(float));
        pipe.InitBuffer(outQ_, 1, featTile_ * sizeof(float));
        pipe.InitBuffer(sumBuf_, featTile_ * sizeof(float));
        pipe.InitBuffer(sqBuf_, featTile_ * sizeof(float));
        pipe.InitBuffer(tmpBuf_, featTile_ * sizeof(float));

        uint32_t fBeg = vecIdx_ * featPerCore_;
        if (fBeg >= N_) {
            return;
        }
        uint32_t fEnd = fBeg + featPerCore_ < N_ ? fBeg + featPerCore_ : N_;
        float invM = 1.0f / static_cast<float>(M_);
        LocalTensor<float> sum = sumBuf_.Get<float>();
        LocalTensor<float> sq = sqBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();

        for (uint32_t f0 = fBeg; f0 < fEnd; f0 += featTile_) {
            uint32_t len = (fEnd - f0) < featTile_ ? (fEnd - f0) : featTile_;
            // mean
            Duplicate(sum, 0.0f, len);
            for (uint32_t m = 0; m < M_; ++m) {
                LocalTensor<float> v = LoadVec(yGm_, static_cast<uint64_t>(m) * N_ + f0, len);
                Add(sum, sum, v, len);
                inQ_.FreeTensor(v);
            }
            Muls(sum, sum, invM, len);
            // biased variance, second pass for stability
            Duplicate(sq, 0.0f, len);
            for (uint32_t m = 0; m < M_; ++m) {
                LocalTensor<float> v = LoadVec(yGm_, static_cast<uint64_t>(m) * N_ + f0, len);
                Sub(tmp, v, sum, len);
                Mul(tmp, tmp, tmp, len);
                Add(sq, sq, tmp, len);
                inQ_.FreeTensor(v);
            }
            Muls(sq, sq, invM, len);
            Adds(sq, sq, eps_, len);
            Sqrt(sq, sq, len);                              // sq := sqrt(var + eps)

            // A = s * gamma / std
            LocalTensor<float> g = LoadVec(gGm_, f0, len);
            Div(tmp, g, sq, len);
            inQ_.FreeTensor(g);
            ApplyScale(tmp, f0, len);
            StoreVec(coefA_, f0, tmp, len);

            // B = s * beta - mu * A
            Mul(sum, sum, tmp, len);
            LocalTensor<float> be = LoadVec(betaGm_, f0, len);
            ApplyScale(be, f0, len);
            Sub(sq, be, sum, len);
            inQ_.FreeTensor(be);
            StoreVec(coefB_, f0, sq, len);
        }
    }

    // ---------------- phase 3: affine + row softmax ----------------
    __aicore__ inline void RowSoftmax(TPipe &pipe)
    {
        pipe.Reset();
        pipe.InitBuffer(rowQ_, 1, Npad_ * sizeof(float));
        pipe.InitBuffer(aBuf_, Npad_ * sizeof(float));
        pipe.InitBuffer(bBuf_, Npad_ * sizeof(float));
        pipe.InitBuffer(workBuf_, Npad_ * sizeof(float));
        pipe.InitBuffer(redBuf_, 64);

        uint32_t rBeg = vecIdx_ * rowsPerCore_;
        if (rBeg >= M_) {
            return;
        }
        uint32_t rEnd = rBeg + rowsPerCore_ < M_ ? rBeg + rowsPerCore_ : M_;
        DataCopyExtParams rowCp(1, N_ * sizeof(float), 0, 0, 0);
        DataCopyPadExtParams<float> noPad(false, 0, 0, 0.0f);

        LocalTensor<float> A = aBuf_.Get<float>();
        LocalTensor<float> B = bBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> red = redBuf_.Get<float>();
        DataCopyPad(A, coefA_, rowCp, noPad);
        DataCopyPad(B, coefB_, rowCp, noPad);
        Barrier<HardEvent::MTE2_V>();

        for (uint32_t r = rBeg; r < rEnd; ++r) {
            LocalTensor<float> row = rowQ_.AllocTensor<float>();
            DataCopyPad(row, yGm_[static_cast<uint64_t>(r) * N_], rowCp, noPad);
            rowQ_.EnQue(row);
            row = rowQ_.DeQue<float>();

            Mul(row, row, A, N_);
            Add(row, row, B, N_);
            ReduceMax<float>(red, row, work, N_, false);
            Barrier<HardEvent::V_S>();
            float rowMax = red.GetValue(0);
            Adds(row, row, -rowMax, N_);
            Exp(row, row, N_);
            ReduceSum<float>(red, row, work, N_);
            Barrier<HardEvent::V_S>();
            float inv = 1.0f / red.GetValue(0);
            Muls(row, row, inv, N_);

            Barrier<HardEvent::V_MTE3>();
            DataCopyPad(yGm_[static_cast<uint64_t>(r) * N_], row, rowCp);
            Barrier<HardEvent::MTE3_MTE2>();
            rowQ_.FreeTensor(row);
        }
    }

private:
    __aicore__ inline LocalTensor<float> LoadVec(GlobalTensor<float> &src, uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = inQ_.AllocTensor<float>();
        DataCopyPad(t, src[off], DataCopyExtParams(1, len * sizeof(float), 0, 0, 0),
                    DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        inQ_.EnQue(t);
        return inQ_.DeQue<float>();
    }

    __aicore__ inline void StoreVec(GlobalTensor<float> &dst, uint64_t off, LocalTensor<float> &src, uint32_t len)
    {
        LocalTensor<float> o = outQ_.AllocTensor<float>();
        DataCopy(o, src, (len + 7) / 8 * 8);
        outQ_.EnQue(o);
        o = outQ_.DeQue<float>();
        DataCopyPad(dst[off], o, DataCopyExtParams(1, len * sizeof(float), 0, 0, 0));
        outQ_.FreeTensor(o);
    }

    __aicore__ inline void ApplyScale(LocalTensor<float> &t, uint32_t f0, uint32_t len)
    {
        if (scaleLen_ == 1) {
            Muls(t, t, sGm_.GetValue(0), len);
        } else {
            LocalTensor<float> s = LoadVec(sGm_, f0, len);
            Mul(t, t, s, len);
            inQ_.FreeTensor(s);
        }
    }

    template <HardEvent EV>
    __aicore__ inline void Barrier()
    {
        event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
        SetFlag<EV>(id);
        WaitFlag<EV>(id);
    }

    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TQue<QuePosition::VECIN, 1> rowQ_;
    TBuf<TPosition::VECCALC> sumBuf_, sqBuf_, tmpBuf_, aBuf_, bBuf_, workBuf_, redBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, gGm_, betaGm_, sGm_, yGm_, coefA_, coefB_;
    const TCubeTiling *mmTiling_ = nullptr;
    uint32_t M_ = 0, N_ = 0, K_ = 0, Npad_ = 0;
    uint32_t featPerCore_ = 0, featTile_ = 0, rowsPerCore_ = 0, scaleLen_ = 1;
    uint32_t vecIdx_ = 0, vecNum_ = 0;
    float eps_ = 1e-5f;
};

extern "C" __global__ __aicore__ void dense_bn_scaled_softmax(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma,
                                                              GM_ADDR beta, GM_ADDR scale, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    TPipe pipe;
    matmul::Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.mmTiling);

    DenseBnScaledSoftmaxKernel op;
    op.Init(x, weight, bias, gamma, beta, scale, y, usr, td);
    op.DenseLayer(mm);
    SyncAll();
    op.FeatureStats(pipe);
    SyncAll();
    op.RowSoftmax(pipe);
}
