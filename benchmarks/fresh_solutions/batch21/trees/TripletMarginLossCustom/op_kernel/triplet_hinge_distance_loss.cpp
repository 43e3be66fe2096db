/**
 * Kernel: TripletHingeDistanceLoss
 *
 * Every core walks over its share of rows. For a row i the squared pairwise distances
 *   sAP = sum_k (a_ik - p_ik + eps)^2,  sAN = sum_k (a_ik - n_ik + eps)^2
 * are accumulated element-wise in float UB buffers tile after tile and reduced once at the end
 * of the row. The hinge max(sqrt(sAP) - sqrt(sAN) + margin, 0) is summed per core, each core
 * parks its partial in the workspace, and after a cross-core barrier core 0 produces the mean.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;   // floats per 32B partial-sum slot
}

template <typename T>
class TripletHingeDistanceLossKernel {
public:
    __aicore__ inline TripletHingeDistanceLossKernel() {}

    __aicore__ inline void Init(GM_ADDR anchor, GM_ADDR positive, GM_ADDR negative, GM_ADDR loss,
                                GM_ADDR userWs, const TripletHingeDistanceLossTilingData &td)
    {
        featLen_ = td.featLen;
        tileLen_ = td.tileLen;
        tileNum_ = td.tileNum;
        lastTileLen_ = td.lastTileLen;
        margin_ = td.margin;
        eps_ = td.eps;
        invRows_ = td.invRows;
        usedCores_ = td.usedCores;

        uint32_t core = GetBlockIdx();
        rowCount_ = td.rowsPerCore + (core < td.bigCoreNum ? 1 : 0);
        rowStart_ = core * td.rowsPerCore + (core < td.bigCoreNum ? core : td.bigCoreNum);

        aGm_.SetGlobalBuffer((__gm__ T *)anchor);
        pGm_.SetGlobalBuffer((__gm__ T *)positive);
        nGm_.SetGlobalBuffer((__gm__ T *)negative);
        lossGm_.SetGlobalBuffer((__gm__ T *)loss, 1);
        partialGm_.SetGlobalBuffer((__gm__ float *)userWs, usedCores_ * SLOT);

        pipe_.InitBuffer(aQue_, BUFFER_NUM, tileLen_ * sizeof(T));
        pipe_.InitBuffer(pQue_, BUFFER_NUM, tileLen_ * sizeof(T));
        pipe_.InitBuffer(nQue_, BUFFER_NUM, tileLen_ * sizeof(T));
        pipe_.InitBuffer(accApBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(accAnBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(diffBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(castBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(scalarBuf_, 4 * SLOT * sizeof(float));
        pipe_.InitBuffer(gatherBuf_, (usedCores_ * SLOT + SLOT) * sizeof(float));
        pipe_.InitBuffer(outQue_, 1, SLOT * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> scal = scalarBuf_.Get<float>();
        // scal[0..7]: ap dist, scal[8..15]: an dist, scal[16..23]: core running sum
        Duplicate(scal, 0.0f, 4 * SLOT);
        for (uint32_t r = 0; r < rowCount_; ++r) {
            ProcessRow(rowStart_ + r, scal);
        }
        // publish the partial sum of this core
        LocalTensor<float> outL = outQue_.AllocTensor<float>();
        DataCopy(outL, scal[2 * SLOT], SLOT);
        outQue_.EnQue(outL);
        outL = outQue_.DeQue<float>();
        DataCopy(partialGm_[GetBlockIdx() * SLOT], outL, SLOT);
        outQue_.FreeTensor(outL);

        SyncAll();

        if (GetBlockIdx() == 0) {
            Finalize();
        }
    }

private:
    __aicore__ inline void LoadTile(uint64_t base, uint32_t len)
    {
        LocalTensor<T> aL = aQue_.AllocTensor<T>();
        LocalTensor<T> pL = pQue_.AllocTensor<T>();
        LocalTensor<T> nL = nQue_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(aL, aGm_[base], cp, pad);
        DataCopyPad(pL, pGm_[base], cp, pad);
        DataCopyPad(nL, nGm_[base], cp, pad);
        aQue_.EnQue(aL);
        pQue_.EnQue(pL);
        nQue_.EnQue(nL);
    }

    // dst += (x - y + eps)^2 on len elements, x/y already float
    __aicore__ inline void AccumulateSq(const LocalTensor<float> &acc, const LocalTensor<float> &x,
                                        const LocalTensor<float> &y, uint32_t len)
    {
        LocalTensor<float> d = diffBuf_.Get<float>();
        Sub(d, x, y, len);
        Adds(d, d, eps_, len);
        MulAddDst(acc, d, d, len);
    }

    __aicore__ inline void ProcessRow(uint32_t row, const LocalTensor<float> &scal)
    {
        LocalTensor<float> accAp = accApBuf_.Get<float>();
        LocalTensor<float> accAn = accAnBuf_.Get<float>();
        Duplicate(accAp, 0.0f, tileLen_);
        Duplicate(accAn, 0.0f, tileLen_);
        uint64_t rowBase = static_cast<uint64_t>(row) * featLen_;

        for (uint32_t t = 0; t < tileNum_; ++t) {
            uint32_t len = (t == tileNum_ - 1) ? lastTileLen_ : tileLen_;
            LoadTile(rowBase + static_cast<uint64_t>(t) * tileLen_, len);
            LocalTensor<T> aL = aQue_.DeQue<T>();
            LocalTensor<T> pL = pQue_.DeQue<T>();
            LocalTensor<T> nL = nQue_.DeQue<T>();
            if constexpr (sizeof(T) == sizeof(float)) {
                AccumulateSq(accAp, aL, pL, len);
                AccumulateSq(accAn, aL, nL, len);
            } else {
                // widen to float before differencing to keep the accumulation exact enough
                LocalTensor<float> af = castBuf_.Get<float>();
                LocalTensor<float> of = diffBuf_.Get<float>();
                Cast(af, aL, RoundMode::CAST_NONE, len);
                Cast(of, pL, RoundMode::CAST_NONE, len);
                Sub(of, af, of, len);
                Adds(of, of, eps_, len);
                MulAddDst(accAp, of, of, len);
                Cast(of, nL, RoundMode::CAST_NONE, len);
                Sub(of, af, of, len);
                Adds(of, of, eps_, len);
                MulAddDst(accAn, of, of, len);
            }
            aQue_.FreeTensor(aL);
            pQue_.FreeTensor(pL);
            nQue_.FreeTensor(nL);
        }

        LocalTensor<float> work = diffBuf_.Get<float>();
        LocalTensor<float> dAp = scal;
        LocalTensor<float> dAn = scal[SLOT];
        LocalTensor<float> run = scal[2 * SLOT];
        uint32_t redLen = tileNum_ > 1 ? tileLen_ : lastTileLen_;
        ReduceSum(dAp, accAp, work, redLen);
        ReduceSum(dAn, accAn, work, redLen);
        Sqrt(dAp, dAp, 1);
        Sqrt(dAn, dAn, 1);
        Sub(dAp, dAp, dAn, 1);
        Adds(dAp, dAp, margin_, 1);
        Maxs(dAp, dAp, 0.0f, 1);
        Add(run, run, dAp, 1);
    }

    __aicore__ inline void Finalize()
    {
        LocalTensor<float> all = gatherBuf_.Get<float>();
        DataCopy(all, partialGm_, usedCores_ * SLOT);
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evt);
        WaitFlag<HardEvent::MTE2_S>(evt);
        float total = 0.0f;
        for (uint32_t c = 0; c < usedCores_; ++c) {
            total += all.GetValue(c * SLOT);
        }
        total *= invRows_;

        LocalTensor<T> outL = outQue_.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            outL.SetValue(0, total);
        } else {
            outL.SetValue(0, static_cast<T>(total));
        }
        event_t evt2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(evt2);
        WaitFlag<HardEvent::S_MTE3>(evt2);
        DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        DataCopyPad(lossGm_, outL, cp);
        outQue_.FreeTensor(outL);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> aQue_, pQue_, nQue_;
    TQue<QuePosition::VECOUT, 1> outQue_;
    TBuf<TPosition::VECCALC> accApBuf_, accAnBuf_, diffBuf_, castBuf_, scalarBuf_, gatherBuf_;
    GlobalTensor<T> aGm_, pGm_, nGm_, lossGm_;
    GlobalTensor<float> partialGm_;
    uint32_t featLen_ = 0, tileLen_ = 0, tileNum_ = 0, lastTileLen_ = 0;
    uint32_t rowStart_ = 0, rowCount_ = 0, usedCores_ = 0;
    float margin_ = 1.0f, eps_ = 1e-6f, invRows_ = 1.0f;
};

extern "C" __global__ __aicore__ void triplet_hinge_distance_loss(GM_ADDR anchor, GM_ADDR positive,
                                                                   GM_ADDR negative, GM_ADDR loss,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(0)) {
        TripletHingeDistanceLossKernel<float> op;
        op.Init(anchor, positive, negative, loss, userWs, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        TripletHingeDistanceLossKernel<half> op;
        op.Init(anchor, positive, negative, loss, userWs, td);
        op.Process();
    }
}
