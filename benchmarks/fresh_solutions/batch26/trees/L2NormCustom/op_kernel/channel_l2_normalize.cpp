/*
 * y = x / max(||x||_2 along axis, epsilon)
 * Statistics are accumulated in float32 regardless of the I/O dtype.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFS = 2;

template <typename T>
class L2NormalizeBase {
protected:
    __aicore__ inline void InitCommon(GM_ADDR x, GM_ADDR y, uint32_t chunk)
    {
        chunk_ = chunk;
        xg_.SetGlobalBuffer((__gm__ T *)x);
        yg_.SetGlobalBuffer((__gm__ T *)y);
        pipe_.InitBuffer(inQ_, BUFS, chunk_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFS, chunk_ * sizeof(T));
        pipe_.InitBuffer(workBuf_, chunk_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, chunk_ * sizeof(float));
        pipe_.InitBuffer(redBuf_, 256);
    }

    // GM -> UB (in queue)
    __aicore__ inline void Load(uint64_t off, uint32_t n)
    {
        LocalTensor<T> t = inQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(t, xg_[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ_.EnQue(t);
    }

    // dequeue input and widen it into the float work buffer
    __aicore__ inline LocalTensor<float> TakeAsFloat(uint32_t n)
    {
        LocalTensor<T> t = inQ_.DeQue<T>();
        LocalTensor<float> w = workBuf_.Get<float>();
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(w, t.template ReinterpretCast<float>(), (n + 7) / 8 * 8);
        } else {
            Cast(w, t, RoundMode::CAST_NONE, n);
        }
        inQ_.FreeTensor(t);
        return w;
    }

    __aicore__ inline void StoreScaled(const LocalTensor<float> &w, float factor, uint64_t off, uint32_t n)
    {
        LocalTensor<T> o = outQ_.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            Muls(o.template ReinterpretCast<float>(), w, factor, n);
        } else {
            Muls(w, w, factor, n);
            Cast(o, w, RoundMode::CAST_ROUND, n);
        }
        outQ_.EnQue(o);
        o = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yg_[off], o, cp);
        outQ_.FreeTensor(o);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFS> inQ_;
    TQue<QuePosition::VECOUT, BUFS> outQ_;
    TBuf<TPosition::VECCALC> workBuf_, accBuf_, redBuf_;
    GlobalTensor<T> xg_, yg_;
    uint32_t chunk_;
};

// ---------------------------------------------------------------- key 1
template <typename T>
class L2NormalizeRows : public L2NormalizeBase<T> {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ChannelL2NormalizeTilingData &td)
    {
        this->InitCommon(x, y, td.chunk);
        len_ = td.axisLen;
        eps_ = td.epsilon;
        rowBegin_ = GetBlockIdx() * td.unitsPerCore;
        rowEnd_ = rowBegin_ + td.unitsPerCore;
        if (rowEnd_ > td.totalUnits) rowEnd_ = td.totalUnits;
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> red = this->redBuf_.template Get<float>();
        LocalTensor<float> acc = this->accBuf_.template Get<float>();
        for (uint32_t r = rowBegin_; r < rowEnd_; ++r) {
            uint64_t base = static_cast<uint64_t>(r) * len_;
            // pass 1: sum of squares in chunk pieces
            float ss = 0.0f;
            for (uint32_t c = 0; c < len_; c += this->chunk_) {
                uint32_t n = (len_ - c) < this->chunk_ ? (len_ - c) : this->chunk_;
                this->Load(base + c, n);
                LocalTensor<float> w = this->TakeAsFloat(n);
                Mul(acc, w, w, n);
                ReduceSum<float>(red, acc, acc, n);
                SetFlag<HardEvent::V_S>(EVENT_ID0);
                WaitFlag<HardEvent::V_S>(EVENT_ID0);
                ss += red.GetValue(0);
                SetFlag<HardEvent::S_V>(EVENT_ID0);
                WaitFlag<HardEvent::S_V>(EVENT_ID0);
            }
            float norm = sqrt(ss);
            if (norm < eps_) norm = eps_;
            float inv = 1.0f / norm;
            // pass 2: rescale
            for (uint32_t c = 0; c < len_; c += this->chunk_) {
                uint32_t n = (len_ - c) < this->chunk_ ? (len_ - c) : this->chunk_;
                this->Load(base + c, n);
                LocalTensor<float> w = this->TakeAsFloat(n);
                this->StoreScaled(w, inv, base + c, n);
            }
        }
    }

private:
    uint32_t len_, rowBegin_, rowEnd_;
    float eps_;
};

// ---------------------------------------------------------------- key 2
template <typename T>
class L2NormalizeStrided : public L2NormalizeBase<T> {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ChannelL2NormalizeTilingData &td)
    {
        this->InitCommon(x, y, td.chunk);
        axisLen_ = td.axisLen;
        inner_ = td.inner;
        cps_ = td.chunksPerSlice;
        eps_ = td.epsilon;
        uBegin_ = GetBlockIdx() * td.unitsPerCore;
        uEnd_ = uBegin_ + td.unitsPerCore;
        if (uEnd_ > td.totalUnits) uEnd_ = td.totalUnits;
        this->pipe_.InitBuffer(scaleBuf_, this->chunk_ * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = this->accBuf_.template Get<float>();
        LocalTensor<float> scl = scaleBuf_.Get<float>();
        for (uint32_t u = uBegin_; u < uEnd_; ++u) {
            uint32_t o = u / cps_;
            uint32_t i0 = (u % cps_) * this->chunk_;
            uint32_t n = (inner_ - i0) < this->chunk_ ? (inner_ - i0) : this->chunk_;
            uint64_t base = static_cast<uint64_t>(o) * axisLen_ * inner_ + i0;

            Duplicate(acc, 0.0f, n);
            for (uint32_t c = 0; c < axisLen_; ++c) {
                this->Load(base + static_cast<uint64_t>(c) * inner_, n);
                LocalTensor<float> w = this->TakeAsFloat(n);
                Mul(w, w, w, n);
                Add(acc, acc, w, n);
            }
            // scl = 1 / max(sqrt(acc), eps)
            Sqrt(acc, acc, n);
            if (eps_ > 0.0f) {
                Maxs(acc, acc, eps_, n);
            }
            Duplicate(scl, 1.0f, n);
            Div(scl, scl, acc, n);

            for (uint32_t c = 0; c < axisLen_; ++c) {
                uint64_t off = base + static_cast<uint64_t>(c) * inner_;
                this->Load(off, n);
                LocalTensor<float> w = this->TakeAsFloat(n);
                Mul(w, w, scl, n);
                this->StoreScaled(w, 1.0f, off, n);
            }
        }
    }

private:
    TBuf<TPosition::VECCALC> scaleBuf_;
    uint32_t axisLen_, inner_, cps_, uBegin_, uEnd_;
    float eps_;
};

extern "C" __global__ __aicore__ void channel_l2_normalize(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        L2NormalizeRows<DTYPE_X> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        L2NormalizeStrided<DTYPE_X> op;
        op.Init(x, y, td);
        op.Process();
    }
}
