// ScaledExpLinear: y = scale * (max(x, 0) + alpha * (exp(min(x, 0)) - 1))
// The two halves are computed without a select: for x > 0 the exp term is exp(0) - 1 = 0,
// for x <= 0 the linear term is 0.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t QUEUE_DEPTH = 2;

template <typename T>
class ScaledExpLinearOp {
public:
    __aicore__ inline ScaledExpLinearOp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaledExpLinearTiling &t)
    {
        uint64_t start = t.numPerCore * GetBlockIdx();
        count_ = (t.totalNum > start) ? (t.totalNum - start) : 0;
        if (count_ > t.numPerCore) {
            count_ = t.numPerCore;
        }
        tile_ = t.tileNum;
        alpha_ = t.alpha;
        scale_ = t.scale;
        src_.SetGlobalBuffer((__gm__ T *)x + start, count_);
        dst_.SetGlobalBuffer((__gm__ T *)y + start, count_);
        pipe_.InitBuffer(qIn_, QUEUE_DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(qOut_, QUEUE_DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(posBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(negBuf_, tile_ * sizeof(float));
        if constexpr (!IsSameType<T, float>::value) {
            pipe_.InitBuffer(wideBuf_, tile_ * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint64_t done = 0;
        while (done < count_) {
            uint32_t n = static_cast<uint32_t>((count_ - done) < tile_ ? (count_ - done) : tile_);
            CopyIn(done, n);
            Compute(n);
            CopyOut(done, n);
            done += n;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> in = qIn_.AllocTensor<T>();
        DataCopyPad(in, src_[off], DataCopyExtParams(1, n * sizeof(T), 0, 0, 0), DataCopyPadExtParams<T>(false, 0, 0, 0));
        qIn_.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> in = qIn_.DeQue<T>();
        LocalTensor<T> out = qOut_.AllocTensor<T>();
        LocalTensor<float> pos = posBuf_.Get<float>();
        LocalTensor<float> neg = negBuf_.Get<float>();
        LocalTensor<float> xf;
        if constexpr (IsSameType<T, float>::value) {
            xf = in;
        } else {
            xf = wideBuf_.Get<float>();
            Cast(xf, in, RoundMode::CAST_NONE, n);
        }

        Maxs(pos, xf, 0.0f, n);            // linear part
        Mins(neg, xf, 0.0f, n);
        Exp(neg, neg, n);
        Adds(neg, neg, -1.0f, n);          // expm1 of the negative part
        Muls(neg, neg, alpha_, n);
        Add(pos, pos, neg, n);

        if constexpr (IsSameType<T, float>::value) {
            Muls(out, pos, scale_, n);
        } else {
            Muls(pos, pos, scale_, n);
            Cast(out, pos, RoundMode::CAST_ROUND, n);
        }
        qOut_.EnQue(out);
        qIn_.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> out = qOut_.DeQue<T>();
        DataCopyPad(dst_[off], out, DataCopyExtParams(1, n * sizeof(T), 0, 0, 0));
        qOut_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, QUEUE_DEPTH> qIn_;
    TQue<QuePosition::VECOUT, QUEUE_DEPTH> qOut_;
    TBuf<TPosition::VECCALC> posBuf_, negBuf_, wideBuf_;
    GlobalTensor<T> src_, dst_;
    uint64_t count_ = 0;
    uint32_t tile_ = 0;
    float alpha_ = 0.0f;
    float scale_ = 1.0f;
};

extern "C" __global__ __aicore__ void scaled_exp_linear(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    ScaledExpLinearOp<DTYPE_X> op;
    op.Init(x, y, t);
    op.Process();
}
