/**
 * ConvOffsetHswishPoolMish kernel.
 *
 *   y = mish( maxpool_p( hardswish( conv2d(x, filter) + bias - offset ) ) )
 *
 * Direct convolution on the vector unit: a conv output row is built as a sum of
 * shifted input rows scaled by one filter tap (Axpy).  One work unit covers one
 * batch image, one pooled output row (== `pool` conv rows) and a block of output
 * channels, so every shifted input row that is loaded is reused by the whole
 * channel block.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DB = 2;
constexpr float MISH_CLAMP = 20.0f;   // exp() argument clamp, mish(x) ~= x beyond it
}

class ConvOffsetHswishPoolMishKernel {
public:
    __aicore__ inline ConvOffsetHswishPoolMishKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                const ConvOffsetHswishPoolMishTilingData &t)
    {
        n_ = t.batch; ci_ = t.inC; h_ = t.inH; w_ = t.inW; co_ = t.outC;
        kh_ = t.kH; kw_ = t.kW; ow_ = t.convW; owA_ = t.convWAlign;
        pool_ = t.pool; ph_ = t.poolH; pw_ = t.poolW; pwA_ = t.poolWAlign;
        coBlock_ = t.coBlock; coBlockNum_ = t.coBlockNum; offset_ = t.offset;
        kk_ = kh_ * kw_;
        kkA_ = (kk_ + 7) / 8 * 8;

        uint32_t core = GetBlockIdx();
        unitCount_ = t.unitsPerCore + (core < t.unitsTail ? 1 : 0);
        unitStart_ = core * t.unitsPerCore + (core < t.unitsTail ? core : t.unitsTail);

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)filter);
        bGm_.SetGlobalBuffer((__gm__ float *)bias);
        yGm_.SetGlobalBuffer((__gm__ float *)y);

        pipe_.InitBuffer(rowQ_, DB, owA_ * sizeof(float));
        pipe_.InitBuffer(wQ_, 1, coBlock_ * kkA_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, coBlock_ * pwA_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, coBlock_ * pool_ * owA_ * sizeof(float));
        pipe_.InitBuffer(idxBuf_, pool_ * pwA_ * sizeof(uint32_t));
        pipe_.InitBuffer(tmpBuf_, 2 * owA_ * sizeof(float));

        BuildPoolOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < unitCount_; ++i) {
            uint32_t u = unitStart_ + i;
            uint32_t cb = u % coBlockNum_;
            uint32_t rest = u / coBlockNum_;
            uint32_t prow = rest % ph_;
            uint32_t b = rest / ph_;
            RunUnit(b, prow, cb);
        }
    }

private:
    // Byte offsets used by Gather to pick column k*pool + j of a conv row.
    __aicore__ inline void BuildPoolOffsets()
    {
        LocalTensor<uint32_t> idx = idxBuf_.Get<uint32_t>();
        for (uint32_t j = 0; j < pool_; ++j) {
            for (uint32_t k = 0; k < pwA_; ++k) {
                uint32_t col = k < pw_ ? (k * pool_ + j) : 0;
                idx.SetValue(j * pwA_ + k, col * sizeof(float));
            }
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void RunUnit(uint32_t b, uint32_t prow, uint32_t cb)
    {
        uint32_t co0 = cb * coBlock_;
        uint32_t cCnt = (co0 + coBlock_ <= co_) ? coBlock_ : (co_ - co0);
        LocalTensor<float> acc = accBuf_.Get<float>();

        // start every accumulator row at (bias - offset)
        for (uint32_t c = 0; c < cCnt; ++c) {
            float init = bGm_.GetValue(co0 + c) - offset_;
            Duplicate(acc[c * pool_ * owA_], init, pool_ * owA_);
        }

        for (uint32_t ic = 0; ic < ci_; ++ic) {
            // filter taps of this input channel for the whole channel block
            LocalTensor<float> wLoc = wQ_.AllocTensor<float>();
            DataCopyExtParams wp{static_cast<uint16_t>(cCnt), kk_ * (uint32_t)sizeof(float),
                                 (ci_ - 1) * kk_ * (uint32_t)sizeof(float), 0, 0};
            DataCopyPad(wLoc, wGm_[((uint64_t)co0 * ci_ + ic) * kk_], wp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            wQ_.EnQue(wLoc);
            wLoc = wQ_.DeQue<float>();

            for (uint32_t r = 0; r < pool_; ++r) {
                uint32_t oh = prow * pool_ + r;
                for (uint32_t dy = 0; dy < kh_; ++dy) {
                    uint64_t rowBase = (((uint64_t)b * ci_ + ic) * h_ + oh + dy) * w_;
                    for (uint32_t dx = 0; dx < kw_; ++dx) {
                        LocalTensor<float> row = rowQ_.AllocTensor<float>();
                        DataCopyExtParams rp{1, ow_ * (uint32_t)sizeof(float), 0, 0, 0};
                        DataCopyPad(row, xGm_[rowBase + dx], rp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                        rowQ_.EnQue(row);
                        row = rowQ_.DeQue<float>();
                        uint32_t tap = dy * kw_ + dx;
                        for (uint32_t c = 0; c < cCnt; ++c) {
                            float wv = wLoc.GetValue(c * kkA_ + tap);
                            Axpy(acc[(c * pool_ + r) * owA_], row, wv, ow_);
                        }
                        rowQ_.FreeTensor(row);
                    }
                }
            }
            wQ_.FreeTensor(wLoc);
        }

        Epilogue(b, prow, co0, cCnt);
    }

    __aicore__ inline void Epilogue(uint32_t b, uint32_t prow, uint32_t co0, uint32_t cCnt)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<uint32_t> idx = idxBuf_.Get<uint32_t>();
        LocalTensor<float> t0 = tmpBuf_.Get<float>();
        LocalTensor<float> t1 = t0[owA_];
        LocalTensor<float> out = outQ_.AllocTensor<float>();

        for (uint32_t c = 0; c < cCnt; ++c) {
            LocalTensor<float> base = acc[c * pool_ * owA_];
            // hardswish: v * clamp(v + 3, 0, 6) / 6, then max over the pool rows
            for (uint32_t r = 0; r < pool_; ++r) {
                LocalTensor<float> v = base[r * owA_];
                Adds(t0, v, 3.0f, ow_);
                Maxs(t0, t0, 0.0f, ow_);
                Mins(t0, t0, 6.0f, ow_);
                Muls(t0, t0, 1.0f / 6.0f, ow_);
                Mul(v, v, t0, ow_);
                if (r > 0) {
                    Max(base, base, v, ow_);
                }
            }
            // max over the pool columns via gathers of every pool-th element
            LocalTensor<float> o = out[c * pwA_];
            Gather(o, base, idx, 0u, pw_);
            for (uint32_t j = 1; j < pool_; ++j) {
                Gather(t1, base, idx[j * pwA_], 0u, pw_);
                Max(o, o, t1, pw_);
            }
            // mish(x) = x * tanh(softplus(x)) = x * ((1+e^x)^2 - 1) / ((1+e^x)^2 + 1)
            Mins(t0, o, MISH_CLAMP, pw_);
            Exp(t0, t0, pw_);
            Adds(t0, t0, 1.0f, pw_);
            Mul(t0, t0, t0, pw_);
            Adds(t1, t0, 1.0f, pw_);
            Adds(t0, t0, -1.0f, pw_);
            Div(t0, t0, t1, pw_);
            Mul(o, o, t0, pw_);
        }
        outQ_.EnQue(out);
        out = outQ_.DeQue<float>();
        uint64_t dst = (((uint64_t)b * co_ + co0) * ph_ + prow) * pw_;
        DataCopyExtParams op{static_cast<uint16_t>(cCnt), pw_ * (uint32_t)sizeof(float), 0,
                             (ph_ * pw_ - pw_) * (uint32_t)sizeof(float), 0};
        DataCopyPad(yGm_[dst], out, op);
        outQ_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, DB> rowQ_;
    TQue<QuePosition::VECIN, 1> wQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<TPosition::VECCALC> accBuf_, idxBuf_, tmpBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_;

    uint32_t n_, ci_, h_, w_, co_, kh_, kw_, kk_, kkA_, ow_, owA_;
    uint32_t pool_, ph_, pw_, pwA_, coBlock_, coBlockNum_;
    uint32_t unitStart_, unitCount_;
    float offset_;
};

extern "C" __global__ __aicore__ void conv_offset_hswish_pool_mish(GM_ADDR x, GM_ADDR filter, GM_ADDR bias,
                                                                   GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(1)) {
        ConvOffsetHswishPoolMishKernel op;
        op.Init(x, filter, bias, y, tilingData);
        op.Process();
    }
}
