// SquaredErrorMean: loss = sum((p - t)^2) / numel
// Two stage reduction: every core reduces its slice to one fp32 partial sum that is
// parked in workspace, then after a full-core barrier core 0 adds the partials up.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DB = 2;
constexpr uint32_t SLOT = 8;   // floats per core in the partial area (one 32B block)
}

template <typename T>
class SquaredErrorMeanKernel {
public:
    __aicore__ inline SquaredErrorMeanKernel() {}

    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR tgt, GM_ADDR loss, GM_ADDR usrWs,
                                const SquaredErrorMeanTilingData &td)
    {
        coreId_ = GetBlockIdx();
        usedCores_ = td.usedCores;
        tileLen_ = td.tileLen;
        invTotal_ = td.invTotal;
        myLen_ = (coreId_ == usedCores_ - 1) ? td.lastCoreNum : td.perCoreNum;
        uint64_t start = td.perCoreNum * coreId_;

        predGm_.SetGlobalBuffer((__gm__ T *)pred + start, myLen_);
        tgtGm_.SetGlobalBuffer((__gm__ T *)tgt + start, myLen_);
        lossGm_.SetGlobalBuffer((__gm__ T *)loss, 1);
        partGm_.SetGlobalBuffer((__gm__ float *)usrWs, usedCores_ * SLOT);

        pipe_.InitBuffer(qPred_, DB, tileLen_ * sizeof(T));
        pipe_.InitBuffer(qTgt_, DB, tileLen_ * sizeof(T));
        pipe_.InitBuffer(bufA_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(bufB_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(bufRed_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(bufOut_, SLOT * sizeof(float) * 8);
    }

    __aicore__ inline void Process()
    {
        float acc = 0.0f;
        uint64_t tiles = (myLen_ + tileLen_ - 1) / tileLen_;
        for (uint64_t i = 0; i < tiles; ++i) {
            uint32_t cnt = (i == tiles - 1) ? static_cast<uint32_t>(myLen_ - i * tileLen_) : tileLen_;
            LoadTile(i * tileLen_, cnt);
            acc += ReduceTile(cnt);
        }

        // publish partial sum of this core
        LocalTensor<float> o = bufOut_.Get<float>();
        Duplicate(o, 0.0f, SLOT);
        o.SetValue(0, acc);
        PipeBarrier<PIPE_ALL>();
        DataCopy(partGm_[coreId_ * SLOT], o, SLOT);
        PipeBarrier<PIPE_ALL>();

        SyncAll();

        if (coreId_ == 0) {
            Finalize();
        }
    }

private:
    __aicore__ inline void LoadTile(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> p = qPred_.AllocTensor<T>();
        LocalTensor<T> t = qTgt_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(p, predGm_[off], cp, pad);
        DataCopyPad(t, tgtGm_[off], cp, pad);
        qPred_.EnQue(p);
        qTgt_.EnQue(t);
    }

    __aicore__ inline float ReduceTile(uint32_t cnt)
    {
        LocalTensor<T> p = qPred_.DeQue<T>();
        LocalTensor<T> t = qTgt_.DeQue<T>();
        LocalTensor<float> a = bufA_.Get<float>();
        LocalTensor<float> b = bufB_.Get<float>();
        LocalTensor<float> work = bufRed_.Get<float>();

        if constexpr (std::is_same<T, half>::value) {
            Cast(a, p, RoundMode::CAST_NONE, cnt);
            Cast(b, t, RoundMode::CAST_NONE, cnt);
            Sub(a, a, b, cnt);
        } else {
            Sub(a, p, t, cnt);
        }
        qPred_.FreeTensor(p);
        qTgt_.FreeTensor(t);

        Mul(b, a, a, cnt);
        ReduceSum<float>(a, b, work, cnt);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return a.GetValue(0);
    }

    __aicore__ inline void Finalize()
    {
        LocalTensor<float> parts = bufA_.Get<float>();
        uint32_t n = usedCores_ * SLOT;
        DataCopy(parts, partGm_, n);
        PipeBarrier<PIPE_ALL>();
        float total = 0.0f;
        for (uint32_t c = 0; c < usedCores_; ++c) {
            total += parts.GetValue(c * SLOT);
        }
        float mean = total * invTotal_;

        LocalTensor<float> o = bufOut_.Get<float>();
        o.SetValue(0, mean);
        LocalTensor<T> res = bufB_.Get<T>();
        if constexpr (std::is_same<T, half>::value) {
            PipeBarrier<PIPE_ALL>();
            Cast(res, o, RoundMode::CAST_ROUND, 1);
        } else {
            res.SetValue(0, mean);
        }
        PipeBarrier<PIPE_ALL>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        DataCopyPad(lossGm_, res, cp);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, DB> qPred_, qTgt_;
    TBuf<TPosition::VECCALC> bufA_, bufB_, bufRed_, bufOut_;
    GlobalTensor<T> predGm_, tgtGm_, lossGm_;
    GlobalTensor<float> partGm_;
    uint32_t coreId_ = 0;
    uint32_t usedCores_ = 1;
    uint32_t tileLen_ = 0;
    uint64_t myLen_ = 0;
    float invTotal_ = 0.0f;
};

extern "C" __global__ __aicore__ void squared_error_mean(GM_ADDR prediction, GM_ADDR target, GM_ADDR loss,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(1)) {
        SquaredErrorMeanKernel<half> op;
        op.Init(prediction, target, loss, usrWs, td);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        SquaredErrorMeanKernel<float> op;
        op.Init(prediction, target, loss, usrWs, td);
        op.Process();
    }
}
