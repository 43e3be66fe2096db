#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Each core accumulates smooth-L1 terms of its slice in a UB vector, reduces it once,
// scales by 1/N and atomically adds the partial mean into the (pre-zeroed) scalar output.
class SmoothL1MeanKernel {
public:
    __aicore__ inline SmoothL1MeanKernel() {}

    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR tgt, GM_ADDR loss, const SmoothL1MeanTilingData &td)
    {
        uint64_t start = td.perCore * GetBlockIdx();
        count_ = (GetBlockIdx() == GetBlockNum() - 1) ? td.lastCore : td.perCore;
        tileLen_ = td.tileLen;
        reduceWorkLen_ = td.reduceWorkLen;
        beta_ = td.beta;
        invBeta_ = (td.beta > 0.0f) ? (1.0f / td.beta) : 0.0f;
        invCount_ = td.invCount;

        predGm_.SetGlobalBuffer((__gm__ float *)pred + start, count_);
        tgtGm_.SetGlobalBuffer((__gm__ float *)tgt + start, count_);
        lossGm_.SetGlobalBuffer((__gm__ float *)loss, 1);

        pipe_.InitBuffer(predQ_, BUFFER_NUM, tileLen_ * sizeof(float));
        pipe_.InitBuffer(tgtQ_, BUFFER_NUM, tileLen_ * sizeof(float));
        pipe_.InitBuffer(diffBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(clipBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(workBuf_, reduceWorkLen_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        Duplicate(acc, 0.0f, tileLen_);

        uint64_t fullTiles = count_ / tileLen_;
        uint32_t tail = static_cast<uint32_t>(count_ - fullTiles * tileLen_);
        for (uint64_t t = 0; t < fullTiles; ++t) {
            LoadTile(t * tileLen_, tileLen_);
            Accumulate(tileLen_);
        }
        if (tail > 0) {
            LoadTile(fullTiles * tileLen_, tail);
            Accumulate(tail);
        }
        Finish();
    }

private:
    __aicore__ inline void LoadTile(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> p = predQ_.AllocTensor<float>();
        LocalTensor<float> q = tgtQ_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(p, predGm_[offset], cp, pad);
        DataCopyPad(q, tgtGm_[offset], cp, pad);
        predQ_.EnQue(p);
        tgtQ_.EnQue(q);
    }

    // loss(d) = |d| < beta ? 0.5 d^2 / beta : |d| - 0.5 beta
    // branch-free: m = min(|d|, beta); loss = m * (|d| - 0.5 m) / beta
    __aicore__ inline void Accumulate(uint32_t len)
    {
        LocalTensor<float> p = predQ_.DeQue<float>();
        LocalTensor<float> q = tgtQ_.DeQue<float>();
        LocalTensor<float> d = diffBuf_.Get<float>();
        LocalTensor<float> m = clipBuf_.Get<float>();
        LocalTensor<float> acc = accBuf_.Get<float>();

        Sub(d, p, q, len);
        Abs(d, d, len);
        Mins(m, d, beta_, len);
        // d <- |d| - 0.5*m
        Axpy(d, m, -0.5f, len);
        Mul(d, d, m, len);
        if (beta_ != 1.0f) {
            Muls(d, d, invBeta_, len);
        }
        Add(acc, acc, d, len);

        predQ_.FreeTensor(p);
        tgtQ_.FreeTensor(q);
    }

    __aicore__ inline void Finish()
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> res = outQ_.AllocTensor<float>();
        uint32_t reduceLen = (count_ < tileLen_) ? static_cast<uint32_t>(count_) : tileLen_;
        ReduceSum<float>(res, acc, work, reduceLen);
        Muls(res, res, invCount_, 1);
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
    TQue<QuePosition::VECIN, BUFFER_NUM> predQ_, tgtQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<QuePosition::VECCALC> diffBuf_, clipBuf_, accBuf_, workBuf_;
    GlobalTensor<float> predGm_, tgtGm_, lossGm_;
    uint64_t count_ = 0;
    uint32_t tileLen_ = 0;
    uint32_t reduceWorkLen_ = 0;
    float beta_ = 1.0f;
    float invBeta_ = 1.0f;
    float invCount_ = 0.0f;
};

extern "C" __global__ __aicore__ void smooth_l1_mean_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR loss,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SmoothL1MeanKernel op;
    op.Init(predictions, targets, loss, td);
    op.Process();
}
