/*
 * SpatialBatchNormTrain
 *   mean_c = E[x[:, c]], var_c = E[(x[:, c] - mean_c)^2]   (biased, over N and all spatial positions)
 *   y = (x - mean_c) / sqrt(var_c + eps) * gamma_c + beta_c
 *
 * Each vector core owns whole channels. Pass 1 accumulates shifted sums
 * sum(x - s) and sum((x - s)^2), with s = first element of the channel, element-wise in float
 * UB accumulators (limits cancellation); pass 2 applies the fused scale/shift.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class SpatialBatchNormTrainKernel {
public:
    __aicore__ inline SpatialBatchNormTrainKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR var,
                                const SpatialBatchNormTrainTilingData &td)
    {
        n_ = td.batch;
        c_ = td.channels;
        sp_ = td.spatial;
        tile_ = td.tileLen;
        eps_ = td.epsilon;

        uint32_t b = GetBlockIdx();
        if (b < td.fatCores) {
            chBegin_ = b * td.chPerCore;
            chCount_ = td.chPerCore;
        } else {
            chBegin_ = td.fatCores * td.chPerCore + (b - td.fatCores) * (td.chPerCore - 1);
            chCount_ = td.chPerCore - 1;
        }

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        gammaGm_.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta);
        meanGm_.SetGlobalBuffer((__gm__ float *)mean);
        varGm_.SetGlobalBuffer((__gm__ float *)var);

        pipe_.InitBuffer(inQ_, 2, tile_ * sizeof(T));
        pipe_.InitBuffer(outQ_, 2, tile_ * sizeof(T));
        pipe_.InitBuffer(xfBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(sumBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(sqBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(meanStage_, td.statCap * sizeof(float));
        pipe_.InitBuffer(varStage_, td.statCap * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (chCount_ == 0) {
            return;
        }
        LocalTensor<float> meanSt = meanStage_.Get<float>();
        LocalTensor<float> varSt = varStage_.Get<float>();
        for (uint32_t i = 0; i < chCount_; ++i) {
            uint32_t ch = chBegin_ + i;
            float mean = 0.0f, var = 0.0f;
            Statistics(ch, mean, var);
            meanSt.SetValue(i, mean);
            varSt.SetValue(i, var);

            float invStd = 1.0f / sqrt(var + eps_);
            float scale = gammaGm_.GetValue(ch) * invStd;
            float shift = betaGm_.GetValue(ch) - mean * scale;
            Normalize(ch, scale, shift);
        }

        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
        DataCopyExtParams cp{1, static_cast<uint32_t>(chCount_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(meanGm_[chBegin_], meanSt, cp);
        DataCopyPad(varGm_[chBegin_], varSt, cp);
    }

private:
    __aicore__ inline uint64_t Base(uint32_t img, uint32_t ch) const
    {
        return (static_cast<uint64_t>(img) * c_ + ch) * sp_;
    }

    __aicore__ inline void LoadFloat(uint64_t off, uint32_t cnt, LocalTensor<float> &xf)
    {
        LocalTensor<T> raw = inQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(raw, xGm_[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ_.EnQue(raw);
        raw = inQ_.DeQue<T>();
        if constexpr (std::is_same_v<T, float>) {
            DataCopy(xf, raw, (cnt + 7) / 8 * 8);
        } else {
            Cast(xf, raw, RoundMode::CAST_NONE, cnt);
        }
        inQ_.FreeTensor(raw);
    }

    __aicore__ inline void Statistics(uint32_t ch, float &mean, float &var)
    {
        LocalTensor<float> xf = xfBuf_.Get<float>();
        LocalTensor<float> accS = sumBuf_.Get<float>();
        LocalTensor<float> accQ = sqBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        Duplicate(accS, 0.0f, tile_);
        Duplicate(accQ, 0.0f, tile_);

        // shift by the channel's first element
        float shiftRef = 0.0f;
        if constexpr (std::is_same_v<T, float>) {
            shiftRef = xGm_.GetValue(Base(0, ch));
        } else {
            shiftRef = static_cast<float>(xGm_.GetValue(Base(0, ch)));
        }

        for (uint32_t img = 0; img < n_; ++img) {
            uint64_t base = Base(img, ch);
            for (uint64_t p = 0; p < sp_; p += tile_) {
                uint32_t cnt = static_cast<uint32_t>(sp_ - p < tile_ ? sp_ - p : tile_);
                LoadFloat(base + p, cnt, xf);
                Adds(xf, xf, -shiftRef, cnt);
                Add(accS, accS, xf, cnt);
                Mul(tmp, xf, xf, cnt);
                Add(accQ, accQ, tmp, cnt);
            }
        }

        ReduceSum<float>(accS, accS, tmp, tile_);
        ReduceSum<float>(accQ, accQ, tmp, tile_);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);

        float cntAll = static_cast<float>(static_cast<uint64_t>(n_) * sp_);
        float m1 = accS.GetValue(0) / cntAll;   // E[x - s]
        float m2 = accQ.GetValue(0) / cntAll;   // E[(x - s)^2]
        mean = shiftRef + m1;
        var = m2 - m1 * m1;
        if (var < 0.0f) {
            var = 0.0f;
        }
    }

    __aicore__ inline void Normalize(uint32_t ch, float scale, float shift)
    {
        LocalTensor<float> xf = xfBuf_.Get<float>();
        for (uint32_t img = 0; img < n_; ++img) {
            uint64_t base = Base(img, ch);
            for (uint64_t p = 0; p < sp_; p += tile_) {
                uint32_t cnt = static_cast<uint32_t>(sp_ - p < tile_ ? sp_ - p : tile_);
                LoadFloat(base + p, cnt, xf);
                Muls(xf, xf, scale, cnt);
                Adds(xf, xf, shift, cnt);

                LocalTensor<T> o = outQ_.AllocTensor<T>();
                if constexpr (std::is_same_v<T, float>) {
                    DataCopy(o, xf, (cnt + 7) / 8 * 8);
                } else {
                    Cast(o, xf, RoundMode::CAST_ROUND, cnt);
                }
                outQ_.EnQue(o);
                o = outQ_.DeQue<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
                DataCopyPad(yGm_[base + p], o, cp);
                outQ_.FreeTensor(o);
            }
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> xfBuf_, sumBuf_, sqBuf_, tmpBuf_, meanStage_, varStage_;
    GlobalTensor<T> xGm_, yGm_;
    GlobalTensor<float> gammaGm_, betaGm_, meanGm_, varGm_;
    uint32_t n_ = 0, c_ = 0, tile_ = 0;
    uint64_t sp_ = 0;
    float eps_ = 1e-5f;
    uint32_t chBegin_ = 0, chCount_ = 0;
};

extern "C" __global__ __aicore__ void spatial_batch_norm_train(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                               GM_ADDR batch_mean, GM_ADDR batch_var,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SpatialBatchNormTrainKernel<DTYPE_X> op;
    op.Init(x, gamma, beta, y, batch_mean, batch_var, td);
    op.Process();
}
