#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// loss = sum((pred - target)^2) / numel
//
// Every core keeps a full-width running accumulator of squared differences (so each lane
// only sums numel / (cores * tileLen) values, which keeps fp32 error low), reduces it once at
// the end, scales by 1/numel and atomically adds its share into the scalar output.  The
// output must be zero-initialised by the caller.
class MeanSquaredDiff {
public:
    __aicore__ inline MeanSquaredDiff() {}

    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR target, GM_ADDR loss, const MeanSquaredDiffTilingData &td)
    {
        const uint64_t begin = td.chunk * GetBlockIdx();
        count_ = td.numel > begin ? td.numel - begin : 0;
        if (count_ > td.chunk) {
            count_ = td.chunk;
        }
        tileLen_ = td.tileLen;
        invNumel_ = td.invNumel;

        predGm_.SetGlobalBuffer((__gm__ float *)pred + begin, count_);
        targetGm_.SetGlobalBuffer((__gm__ float *)target + begin, count_);
        lossGm_.SetGlobalBuffer((__gm__ float *)loss, 1);

        pipe_.InitBuffer(predQ_, BUFFER_NUM, tileLen_ * sizeof(float));
        pipe_.InitBuffer(targetQ_, BUFFER_NUM, tileLen_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(diffBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(workBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        Duplicate(acc, 0.0f, static_cast<int32_t>(tileLen_));

        uint64_t done = 0;
        while (done < count_) {
            uint32_t n = (count_ - done) > tileLen_ ? tileLen_ : static_cast<uint32_t>(count_ - done);
            CopyIn(done, n);
            Accumulate(n);
            done += n;
        }
        Finish();
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<float> p = predQ_.AllocTensor<float>();
        LocalTensor<float> t = targetQ_.AllocTensor<float>();
        if ((n & 7U) == 0) {
            DataCopy(p, predGm_[off], n);
            DataCopy(t, targetGm_[off], n);
        } else {
            DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(p, predGm_[off], cp, pad);
            DataCopyPad(t, targetGm_[off], cp, pad);
        }
        predQ_.EnQue(p);
        targetQ_.EnQue(t);
    }

    __aicore__ inline void Accumulate(uint32_t n)
    {
        LocalTensor<float> p = predQ_.DeQue<float>();
        LocalTensor<float> t = targetQ_.DeQue<float>();
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> d = diffBuf_.Get<float>();
        // Only the first n lanes are touched, so a short last tile leaves the rest of acc intact.
        Sub(d, p, t, static_cast<int32_t>(n));
        Mul(d, d, d, static_cast<int32_t>(n));
        Add(acc, acc, d, static_cast<int32_t>(n));
        predQ_.FreeTensor(p);
        targetQ_.FreeTensor(t);
    }

    __aicore__ inline void Finish()
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> res = outQ_.AllocTensor<float>();
        Duplicate(res, 0.0f, 8);
        ReduceSum(res, acc, work, static_cast<int32_t>(tileLen_));
        Muls(res, res, invNumel_, 1);
        outQ_.EnQue(res);

        res = outQ_.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(lossGm_, res, cp);
        SetAtomicNone();
        outQ_.FreeTensor(res);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> predQ_, targetQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<QuePosition::VECCALC> accBuf_, diffBuf_, workBuf_;
    GlobalTensor<float> predGm_, targetGm_, lossGm_;
    uint64_t count_ = 0;
    uint32_t tileLen_ = 0;
    float invNumel_ = 0.0f;
};

extern "C" __global__ __aicore__ void mean_squared_diff_custom(GM_ADDR pred, GM_ADDR target, GM_ADDR loss,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    MeanSquaredDiff op;
    op.Init(pred, target, loss, td);
    op.Process();
}
