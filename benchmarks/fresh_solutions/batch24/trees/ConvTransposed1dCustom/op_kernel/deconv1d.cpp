/**
 * Deconv1d kernel: 1-D transposed convolution, NCL layout.
 *
 * Gather formulation for output row (n, co):
 *   y[o] = bias[co] + sum_{ci in group} sum_k x[n, ci, i] * w[ci, co_l, k],  where i * stride = o + pad - k
 *
 * Key 1 (stride 1): for every output tile, each (ci, k) pair contributes a contiguous
 *   window of x, which is fetched with DataCopyPad and accumulated with Axpy in fp32.
 *   Tiles touching the row boundary fall back to an element loop.
 * Key 2 (general stride): element loop over the tile, fp32 accumulator in UB.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUF_NUM = 2;

__aicore__ inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}  // namespace

template <typename T>
class Deconv1dKernel {
public:
    __aicore__ inline Deconv1dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const Deconv1dTilingData &td)
    {
        n_ = td.batch; cin_ = td.cin; cout_ = td.cout;
        lin_ = td.lenIn; lout_ = td.lenOut; k_ = td.kernel;
        stride_ = td.stride; pad_ = td.pad; groups_ = td.groups;
        hasBias_ = td.hasBias != 0;
        tile_ = td.tileLen;
        cinG_ = cin_ / groups_;
        coutG_ = cout_ / groups_;
        kAlign_ = AlignUp(k_, 32 / sizeof(T));

        rowBegin_ = GetBlockIdx() * td.rowsPerCore;
        rowEnd_ = rowBegin_ + td.rowsPerCore;
        if (rowEnd_ > td.totalRows) {
            rowEnd_ = td.totalRows;
        }

        xGm_.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(n_) * cin_ * lin_);
        wGm_.SetGlobalBuffer((__gm__ T *)w, static_cast<uint64_t>(cin_) * coutG_ * k_);
        if (hasBias_) {
            bGm_.SetGlobalBuffer((__gm__ T *)b, cout_);
        }
        yGm_.SetGlobalBuffer((__gm__ T *)y, static_cast<uint64_t>(n_) * cout_ * lout_);

        pipe_.InitBuffer(xQue_, BUF_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(yQue_, BUF_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(wQue_, 1, cinG_ * kAlign_ * sizeof(T));
        pipe_.InitBuffer(accBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(wF32Buf_, cinG_ * kAlign_ * sizeof(float));
        if constexpr (!std::is_same<T, float>::value) {
            pipe_.InitBuffer(xF32Buf_, tile_ * sizeof(float));
        }
    }

    template <bool UNIT_STRIDE>
    __aicore__ inline void Process()
    {
        for (uint32_t row = rowBegin_; row < rowEnd_; ++row) {
            uint32_t nIdx = row / cout_;
            uint32_t co = row % cout_;
            LoadWeights(co);
            float biasVal = hasBias_ ? static_cast<float>(bGm_.GetValue(co)) : 0.0f;
            for (uint32_t o0 = 0; o0 < lout_; o0 += tile_) {
                uint32_t cnt = (lout_ - o0) < tile_ ? (lout_ - o0) : tile_;
                if (UNIT_STRIDE && IsInterior(o0, cnt)) {
                    VectorTile(nIdx, co, o0, cnt);
                } else {
                    ScalarTile(nIdx, co, o0, cnt);
                }
                StoreTile(row, o0, cnt, biasVal);
            }
        }
    }

private:
    // weights of output channel co: cinG rows of K taps, strided by coutG*K in GM
    __aicore__ inline void LoadWeights(uint32_t co)
    {
        uint32_t g = co / coutG_;
        uint32_t coL = co % coutG_;
        LocalTensor<T> wl = wQue_.AllocTensor<T>();
        uint64_t base = (static_cast<uint64_t>(g) * cinG_ * coutG_ + coL) * k_;
        DataCopyExtParams cp{static_cast<uint16_t>(cinG_), static_cast<uint32_t>(k_ * sizeof(T)),
                             static_cast<uint32_t>((coutG_ - 1) * k_ * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> padp{false, 0, 0, 0};
        DataCopyPad(wl, wGm_[base], cp, padp);
        wQue_.EnQue(wl);
        wl = wQue_.DeQue<T>();
        LocalTensor<float> wf = wF32Buf_.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(wf, wl, cinG_ * kAlign_);
        } else {
            Cast(wf, wl, RoundMode::CAST_NONE, cinG_ * kAlign_);
        }
        wQue_.FreeTensor(wl);
        PipeBarrier<PIPE_ALL>();   // taps are read back by the scalar unit
    }

    __aicore__ inline bool IsInterior(uint32_t o0, uint32_t cnt) const
    {
        // smallest input index: o0 + pad - (K-1); largest: o0 + cnt - 1 + pad
        int64_t lo = static_cast<int64_t>(o0) + pad_ - (static_cast<int64_t>(k_) - 1);
        int64_t hi = static_cast<int64_t>(o0) + cnt - 1 + pad_;
        return lo >= 0 && hi < static_cast<int64_t>(lin_);
    }

    __aicore__ inline void VectorTile(uint32_t nIdx, uint32_t co, uint32_t o0, uint32_t cnt)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> wf = wF32Buf_.Get<float>();
        uint32_t cntA = AlignUp(cnt, 64);
        Duplicate(acc, 0.0f, cntA);
        uint32_t g = co / coutG_;
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> padp{false, 0, 0, 0};

        for (uint32_t ci = 0; ci < cinG_; ++ci) {
            uint64_t rowOff = (static_cast<uint64_t>(nIdx) * cin_ + g * cinG_ + ci) * lin_;
            for (uint32_t kk = 0; kk < k_; ++kk) {
                float tap = wf.GetValue(ci * kAlign_ + kk);
                uint64_t start = rowOff + o0 + pad_ - kk;
                LocalTensor<T> xl = xQue_.AllocTensor<T>();
                DataCopyPad(xl, xGm_[start], cp, padp);
                xQue_.EnQue(xl);
                xl = xQue_.DeQue<T>();
                if constexpr (std::is_same<T, float>::value) {
                    Axpy(acc, xl, tap, cnt);
                } else {
                    LocalTensor<float> xf = xF32Buf_.Get<float>();
                    Cast(xf, xl, RoundMode::CAST_NONE, cnt);
                    PipeBarrier<PIPE_V>();
                    Axpy(acc, xf, tap, cnt);
                }
                PipeBarrier<PIPE_V>();
                xQue_.FreeTensor(xl);
            }
        }
    }

    __aicore__ inline void ScalarTile(uint32_t nIdx, uint32_t co, uint32_t o0, uint32_t cnt)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> wf = wF32Buf_.Get<float>();
        PipeBarrier<PIPE_ALL>();
        uint32_t g = co / coutG_;
        for (uint32_t j = 0; j < cnt; ++j) {
            int64_t o = static_cast<int64_t>(o0 + j);
            float sum = 0.0f;
            for (uint32_t kk = 0; kk < k_; ++kk) {
                int64_t num = o + pad_ - kk;
                if (num < 0 || num % stride_ != 0) {
                    continue;
                }
                int64_t i = num / stride_;
                if (i >= static_cast<int64_t>(lin_)) {
                    continue;
                }
                for (uint32_t ci = 0; ci < cinG_; ++ci) {
                    uint64_t xo = (static_cast<uint64_t>(nIdx) * cin_ + g * cinG_ + ci) * lin_ + i;
                    sum += static_cast<float>(xGm_.GetValue(xo)) * wf.GetValue(ci * kAlign_ + kk);
                }
            }
            acc.SetValue(j, sum);
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void StoreTile(uint32_t row, uint32_t o0, uint32_t cnt, float biasVal)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        if (hasBias_) {
            Adds(acc, acc, biasVal, cnt);
            PipeBarrier<PIPE_V>();
        }
        LocalTensor<T> yl = yQue_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(yl, acc, AlignUp(cnt, 8));
        } else {
            Cast(yl, acc, RoundMode::CAST_ROUND, cnt);
        }
        yQue_.EnQue(yl);
        yl = yQue_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[static_cast<uint64_t>(row) * lout_ + o0], yl, cp);
        yQue_.FreeTensor(yl);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> xQue_;
    TQue<QuePosition::VECIN, 1> wQue_;
    TQue<QuePosition::VECOUT, BUF_NUM> yQue_;
    TBuf<TPosition::VECCALC> accBuf_, wF32Buf_, xF32Buf_;
    GlobalTensor<T> xGm_, wGm_, bGm_, yGm_;

    uint32_t n_, cin_, cout_, lin_, lout_, k_, stride_, pad_, groups_;
    uint32_t cinG_, coutG_, kAlign_, tile_;
    uint32_t rowBegin_, rowEnd_;
    bool hasBias_;
};

extern "C" __global__ __aicore__ void deconv1d(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Deconv1dKernel<DTYPE_X> op;
    op.Init(x, weight, bias, y, td);
    if (TILING_KEY_IS(1)) {
        op.template Process<true>();
    } else if (TILING_KEY_IS(2)) {
        op.template Process<false>();
    }
}
