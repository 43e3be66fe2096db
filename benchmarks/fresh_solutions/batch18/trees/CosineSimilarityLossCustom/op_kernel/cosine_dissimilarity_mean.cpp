/*
 * CosineDissimilarityMean:  loss = mean_i ( 1 - <x_i, y_i> / sqrt(max(|x_i|^2 |y_i|^2, eps^2)) )
 *
 * - core 0 clears the scalar output, then every core waits at a barrier;
 * - each core reduces its rows (dot, |x|^2, |y|^2 kept as float vectors while streaming
 *   the row, folded with ReduceSum at the row end);
 * - per-row cosines are finished in batches of 64 on the vector unit;
 * - the per-core contribution is atomically accumulated into the output.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUF_NUM = 2;
constexpr uint32_t BATCH = 64;
}

template <typename T>
class CosineDissimilarityMeanKernel {
public:
    __aicore__ inline CosineDissimilarityMeanKernel() {}

    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR loss, const CosineDissimilarityMeanTilingData &tl)
    {
        len_ = tl.rowLen;
        chunk_ = tl.chunk;
        epsSq_ = tl.epsSq;
        scale_ = tl.scale;
        uint32_t b = GetBlockIdx();
        myRows_ = tl.baseRows + (b < tl.extraRows ? 1 : 0);
        firstRow_ = b * tl.baseRows + (b < tl.extraRows ? b : tl.extraRows);

        x1Gm_.SetGlobalBuffer((__gm__ T *)x1);
        x2Gm_.SetGlobalBuffer((__gm__ T *)x2);
        outGm_.SetGlobalBuffer((__gm__ float *)loss, 1);

        pipe_.InitBuffer(in1_, BUF_NUM, chunk_ * sizeof(T));
        pipe_.InitBuffer(in2_, BUF_NUM, chunk_ * sizeof(T));
        pipe_.InitBuffer(cvt1_, chunk_ * sizeof(float));
        pipe_.InitBuffer(cvt2_, chunk_ * sizeof(float));
        pipe_.InitBuffer(accDot_, chunk_ * sizeof(float));
        pipe_.InitBuffer(accN1_, chunk_ * sizeof(float));
        pipe_.InitBuffer(accN2_, chunk_ * sizeof(float));
        pipe_.InitBuffer(tmp_, chunk_ * sizeof(float));
        pipe_.InitBuffer(rowStats_, 3 * BATCH * sizeof(float));
        pipe_.InitBuffer(misc_, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (GetBlockIdx() == 0) {
            InitGlobalMemory(outGm_, 1, 0.0f);
        }
        SyncAll();

        float localSum = 0.0f;
        LocalTensor<float> st = rowStats_.Get<float>();
        for (uint32_t r0 = 0; r0 < myRows_; r0 += BATCH) {
            uint32_t cnt = (myRows_ - r0) < BATCH ? (myRows_ - r0) : BATCH;
            for (uint32_t i = 0; i < cnt; ++i) {
                ReduceRow(firstRow_ + r0 + i, st, i);
            }
            localSum += BatchCosineSum(st, cnt);
        }
        // contribution of this core: sum(1 - cos) / N
        float contrib = (static_cast<float>(myRows_) - localSum) * scale_;
        AtomicAccumulate(contrib);
    }

private:
    __aicore__ inline void ReduceRow(uint32_t row, LocalTensor<float> &st, uint32_t slot)
    {
        LocalTensor<float> d = accDot_.Get<float>();
        LocalTensor<float> n1 = accN1_.Get<float>();
        LocalTensor<float> n2 = accN2_.Get<float>();
        LocalTensor<float> t = tmp_.Get<float>();
        Duplicate(d, 0.0f, chunk_);
        Duplicate(n1, 0.0f, chunk_);
        Duplicate(n2, 0.0f, chunk_);

        uint64_t off = (uint64_t)row * len_;
        for (uint32_t c = 0; c < len_; c += chunk_) {
            uint32_t n = (len_ - c) < chunk_ ? (len_ - c) : chunk_;
            {
                LocalTensor<T> a = in1_.AllocTensor<T>();
                LocalTensor<T> b = in2_.AllocTensor<T>();
                DataCopyExtParams cp{1, n * (uint32_t)sizeof(T), 0, 0, 0};
                DataCopyPadExtParams<T> pd{false, 0, 0, 0};
                DataCopyPad(a, x1Gm_[off + c], cp, pd);
                DataCopyPad(b, x2Gm_[off + c], cp, pd);
                in1_.EnQue(a);
                in2_.EnQue(b);
            }
            LocalTensor<T> a = in1_.DeQue<T>();
            LocalTensor<T> b = in2_.DeQue<T>();
            LocalTensor<float> fa, fb;
            if constexpr (sizeof(T) == sizeof(float)) {
                fa = a.template ReinterpretCast<float>();
                fb = b.template ReinterpretCast<float>();
            } else {
                fa = cvt1_.Get<float>();
                fb = cvt2_.Get<float>();
                Cast(fa, a, RoundMode::CAST_NONE, n);
                Cast(fb, b, RoundMode::CAST_NONE, n);
            }
            MulAddDst(d, fa, fb, n);
            MulAddDst(n1, fa, fa, n);
            MulAddDst(n2, fb, fb, n);
            in1_.FreeTensor(a);
            in2_.FreeTensor(b);
        }

        LocalTensor<float> m = misc_.Get<float>();
        ReduceSum(m, d, t, chunk_);
        ReduceSum(m[8], n1, t, chunk_);
        ReduceSum(m[16], n2, t, chunk_);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        st.SetValue(slot, m.GetValue(0));
        st.SetValue(BATCH + slot, m.GetValue(8));
        st.SetValue(2 * BATCH + slot, m.GetValue(16));
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    // sum of cosines for `cnt` buffered rows
    __aicore__ inline float BatchCosineSum(LocalTensor<float> &st, uint32_t cnt)
    {
        LocalTensor<float> dot = st;
        LocalTensor<float> q1 = st[BATCH];
        LocalTensor<float> q2 = st[2 * BATCH];
        Mul(q1, q1, q2, cnt);          // |x|^2 |y|^2
        Maxs(q1, q1, epsSq_, cnt);     // clamp
        Sqrt(q1, q1, cnt);
        Div(dot, dot, q1, cnt);        // cosine per row
        LocalTensor<float> m = misc_.Get<float>();
        ReduceSum(m[24], dot, q2, cnt);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        return m.GetValue(24);
    }

    __aicore__ inline void AtomicAccumulate(float v)
    {
        LocalTensor<float> m = misc_.Get<float>();
        m.SetValue(32, v);
        event_t s3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(s3);
        WaitFlag<HardEvent::S_MTE3>(s3);
        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, sizeof(float), 0, 0, 0};
        DataCopyPad(outGm_, m[32], cp);
        SetAtomicNone();
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> in1_, in2_;
    TBuf<TPosition::VECCALC> cvt1_, cvt2_, accDot_, accN1_, accN2_, tmp_, rowStats_, misc_;
    GlobalTensor<T> x1Gm_, x2Gm_;
    GlobalTensor<float> outGm_;
    uint32_t len_ = 0, chunk_ = 0, myRows_ = 0, firstRow_ = 0;
    float epsSq_ = 0.0f, scale_ = 0.0f;
};

extern "C" __global__ __aicore__ void cosine_dissimilarity_mean(GM_ADDR input1, GM_ADDR input2, GM_ADDR loss,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tl, tiling);
    if (TILING_KEY_IS(0)) {
        CosineDissimilarityMeanKernel<float> op;
        op.Init(input1, input2, loss, tl);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        CosineDissimilarityMeanKernel<half> op;
        op.Init(input1, input2, loss, tl);
        op.Process();
    }
}
