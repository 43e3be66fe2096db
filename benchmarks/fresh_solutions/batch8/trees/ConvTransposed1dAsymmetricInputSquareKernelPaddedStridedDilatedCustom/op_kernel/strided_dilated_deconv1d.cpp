#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t MAX_TAPS = 16;
constexpr int32_t OUT_BUFFER_NUM = 2;
}

/*
 * Transposed 1-D convolution, computed as a gather over the output instead of a
 * scatter over the input.
 *
 * For output position o and tap k the contributing input index is
 *     i = (o + pad - k*dil) / stride     (only when the division is exact).
 * Splitting the output into `stride` phases (o = o0 + p + j*stride, o0 a multiple of
 * stride) every tap k belongs to exactly one phase p_k and, inside that phase, maps a
 * contiguous run of j onto a contiguous run of i with a constant shift s_k.  So each
 * (ci, k) pair is one Axpy over a contiguous slice of x, and the phases are interleaved
 * back into natural order with a single Gather at the end.
 */
class StridedDilatedDeconv1d {
public:
    __aicore__ inline StridedDilatedDeconv1d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const StridedDilatedDeconv1dTilingData &t)
    {
        batch_ = t.batch;
        cin_ = t.inChannels;
        cout_ = t.outChannels;
        inLen_ = t.inLen;
        outLen_ = t.outLen;
        taps_ = static_cast<int32_t>(t.kernelSize);
        stride_ = t.stride;
        pad_ = t.padding;
        dil_ = t.dilation;
        cols_ = t.colsPerTile;
        tilesPerRow_ = t.tilesPerRow;
        outPerTile_ = cols_ * static_cast<uint32_t>(stride_);

        // Split tiles evenly across cores; the first `rem` cores take one extra.
        const uint32_t coreNum = GetBlockNum();
        const uint32_t coreId = GetBlockIdx();
        const uint32_t base = t.totalTiles / coreNum;
        const uint32_t rem = t.totalTiles % coreNum;
        tileBegin_ = coreId * base + (coreId < rem ? coreId : rem);
        tileEnd_ = tileBegin_ + base + (coreId < rem ? 1 : 0);

        xGm_.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(batch_) * cin_ * inLen_);
        wGm_.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(cin_) * cout_ * taps_);
        yGm_.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(batch_) * cout_ * outLen_);

        pipe_.InitBuffer(wQue_, 1, t.weightElems * sizeof(float));
        pipe_.InitBuffer(xQue_, 1, cin_ * taps_ * cols_ * sizeof(float));
        pipe_.InitBuffer(yQue_, OUT_BUFFER_NUM, outPerTile_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, outPerTile_ * sizeof(float));
        pipe_.InitBuffer(idxBuf_, outPerTile_ * sizeof(uint32_t));

        // Phase and shift of every tap.
        for (int32_t k = 0; k < taps_; ++k) {
            int32_t r = (k * dil_ - pad_) % stride_;
            if (r < 0) {
                r += stride_;
            }
            tapPhase_[k] = r;
            tapShift_[k] = (r + pad_ - k * dil_) / stride_;  // exact by construction
        }

        // Gather table: natural output slot m <- accumulator slot (m % s) * cols + m / s.
        LocalTensor<uint32_t> idx = idxBuf_.Get<uint32_t>();
        for (uint32_t m = 0; m < outPerTile_; ++m) {
            uint32_t p = m % static_cast<uint32_t>(stride_);
            uint32_t j = m / static_cast<uint32_t>(stride_);
            idx.SetValue(m, (p * cols_ + j) * static_cast<uint32_t>(sizeof(float)));
        }

        // Weights (Cin, Cout, K) are small: keep them resident.
        LocalTensor<float> wLocal = wQue_.AllocTensor<float>();
        DataCopyExtParams wp{1, static_cast<uint32_t>(cin_ * cout_ * taps_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(wLocal, wGm_, wp, noPad);
        wQue_.EnQue(wLocal);
        wLocal_ = wQue_.DeQue<float>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t tile = tileBegin_; tile < tileEnd_; ++tile) {
            const uint32_t n = tile / tilesPerRow_;
            const uint32_t t = tile % tilesPerRow_;
            LoadShiftedInputs(n, t);
            LocalTensor<float> xs = xQue_.DeQue<float>();
            const uint32_t o0 = t * outPerTile_;
            uint32_t valid = outLen_ - o0;
            if (valid > outPerTile_) {
                valid = outPerTile_;
            }
            for (uint32_t co = 0; co < cout_; ++co) {
                ComputeChannel(xs, co);
                StoreChannel(n, co, o0, valid);
            }
            xQue_.FreeTensor(xs);
        }
        wQue_.FreeTensor(wLocal_);
    }

private:
    // Loads, for every (ci, k), the slice x[n, ci, j0 + s_k : j0 + s_k + cols] into its
    // own aligned row of the staging buffer. Out-of-range columns read as zero.
    __aicore__ inline void LoadShiftedInputs(uint32_t n, uint32_t t)
    {
        LocalTensor<float> xs = xQue_.AllocTensor<float>();
        const int64_t j0 = static_cast<int64_t>(t) * cols_;

        // Does any slice touch the borders of the sequence in this tile?
        bool needZero = false;
        for (int32_t k = 0; k < taps_; ++k) {
            int64_t lo = j0 + tapShift_[k];
            if (lo < 0 || lo + cols_ > static_cast<int64_t>(inLen_)) {
                needZero = true;
            }
        }
        if (needZero) {
            Duplicate(xs, 0.0f, static_cast<int32_t>(cin_ * taps_ * cols_));
            event_t evt = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_MTE2));
            SetFlag<HardEvent::V_MTE2>(evt);
            WaitFlag<HardEvent::V_MTE2>(evt);
        }

        for (uint32_t ci = 0; ci < cin_; ++ci) {
            const uint64_t rowBase = (static_cast<uint64_t>(n) * cin_ + ci) * inLen_;
            for (int32_t k = 0; k < taps_; ++k) {
                int64_t lo = j0 + tapShift_[k];
                int64_t hi = lo + cols_;
                uint8_t leftPad = 0;
                if (lo < 0) {
                    // Only a handful of columns can fall left of the sequence (|shift| is small),
                    // which fits within the 32-byte left padding of DataCopyPad.
                    leftPad = static_cast<uint8_t>(-lo);
                    lo = 0;
                }
                if (hi > static_cast<int64_t>(inLen_)) {
                    hi = inLen_;
                }
                if (hi <= lo) {
                    continue;
                }
                const uint32_t cnt = static_cast<uint32_t>(hi - lo);
                const uint32_t used = cnt + leftPad;
                const uint8_t rightPad = static_cast<uint8_t>(((used + 7) / 8 * 8) - used);
                DataCopyExtParams cp{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pp{true, leftPad, rightPad, 0.0f};
                DataCopyPad(xs[(ci * taps_ + k) * cols_], xGm_[rowBase + lo], cp, pp);
            }
        }
        xQue_.EnQue(xs);
    }

    __aicore__ inline void ComputeChannel(LocalTensor<float> &xs, uint32_t co)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        Duplicate(acc, 0.0f, static_cast<int32_t>(outPerTile_));
        for (uint32_t ci = 0; ci < cin_; ++ci) {
            const uint32_t wBase = (ci * cout_ + co) * taps_;
            for (int32_t k = 0; k < taps_; ++k) {
                const float wv = wLocal_.GetValue(wBase + k);
                Axpy(acc[tapPhase_[k] * cols_], xs[(ci * taps_ + k) * cols_], wv,
                     static_cast<int32_t>(cols_));
            }
        }
        // Phase-major accumulator -> natural output order.
        LocalTensor<float> out = yQue_.AllocTensor<float>();
        LocalTensor<uint32_t> idx = idxBuf_.Get<uint32_t>();
        Gather(out, acc, idx, 0U, outPerTile_);
        yQue_.EnQue(out);
    }

    __aicore__ inline void StoreChannel(uint32_t n, uint32_t co, uint32_t o0, uint32_t valid)
    {
        LocalTensor<float> out = yQue_.DeQue<float>();
        const uint64_t dst = (static_cast<uint64_t>(n) * cout_ + co) * outLen_ + o0;
        DataCopyExtParams cp{1, valid * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[dst], out, cp);
        yQue_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> wQue_;
    TQue<QuePosition::VECIN, 1> xQue_;
    TQue<QuePosition::VECOUT, OUT_BUFFER_NUM> yQue_;
    TBuf<QuePosition::VECCALC> accBuf_;
    TBuf<QuePosition::VECCALC> idxBuf_;
    GlobalTensor<float> xGm_, wGm_, yGm_;
    LocalTensor<float> wLocal_;

    uint32_t batch_ = 0, cin_ = 0, cout_ = 0, inLen_ = 0, outLen_ = 0;
    int32_t taps_ = 0, stride_ = 1, pad_ = 0, dil_ = 1;
    uint32_t cols_ = 0, outPerTile_ = 0, tilesPerRow_ = 0;
    uint32_t tileBegin_ = 0, tileEnd_ = 0;
    int32_t tapPhase_[MAX_TAPS];
    int32_t tapShift_[MAX_TAPS];
};

extern "C" __global__ __aicore__ void strided_dilated_deconv1d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    StridedDilatedDeconv1d op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
