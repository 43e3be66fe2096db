// column_bound_clip: y[r][c] = min(max(x[r][c], lo[c]), hi[c])
// The lower/upper bound vectors are one value per column and are shared by all
// rows, so every core keeps them resident in UB and streams its rows through.
#include "kernel_operator.h"

using namespace AscendC;

struct ColumnBoundClipTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;   // rows handled by one AI core (last core may get fewer)
    uint32_t tileRows;      // rows moved per pipeline step
};

static constexpr int32_t DEPTH = 2;

class ColumnBoundClip {
public:
    __aicore__ inline ColumnBoundClip() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR lo, GM_ADDR hi, GM_ADDR y, const ColumnBoundClipTiling &tl)
    {
        cols_ = tl.cols;
        tileRows_ = tl.tileRows;
        uint32_t start = GetBlockIdx() * tl.rowsPerCore;
        myRows_ = 0;
        if (start < tl.rows) {
            myRows_ = (tl.rows - start < tl.rowsPerCore) ? (tl.rows - start) : tl.rowsPerCore;
        }
        uint64_t off = (uint64_t)start * cols_;
        xGm_.SetGlobalBuffer((__gm__ float *)x + off, (uint64_t)myRows_ * cols_);
        yGm_.SetGlobalBuffer((__gm__ float *)y + off, (uint64_t)myRows_ * cols_);
        loGm_.SetGlobalBuffer((__gm__ float *)lo, cols_);
        hiGm_.SetGlobalBuffer((__gm__ float *)hi, cols_);

        pipe_.InitBuffer(xQ_, DEPTH, tileRows_ * cols_ * sizeof(float));
        pipe_.InitBuffer(yQ_, DEPTH, tileRows_ * cols_ * sizeof(float));
        pipe_.InitBuffer(boundQ_, 1, 2 * cols_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myRows_ == 0) {
            return;
        }
        // bounds: [lo | hi] in one buffer
        LocalTensor<float> b = boundQ_.AllocTensor<float>();
        DataCopy(b, loGm_, cols_);
        DataCopy(b[cols_], hiGm_, cols_);
        boundQ_.EnQue(b);
        bounds_ = boundQ_.DeQue<float>();

        uint32_t steps = (myRows_ + tileRows_ - 1) / tileRows_;
        for (uint32_t s = 0; s < steps; ++s) {
            uint32_t r0 = s * tileRows_;
            uint32_t n = (myRows_ - r0 < tileRows_) ? (myRows_ - r0) : tileRows_;
            CopyIn(r0, n);
            Compute(n);
            CopyOut(r0, n);
        }
        boundQ_.FreeTensor(bounds_);
    }

private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t n)
    {
        LocalTensor<float> xl = xQ_.AllocTensor<float>();
        DataCopy(xl, xGm_[(uint64_t)r0 * cols_], n * cols_);
        xQ_.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> xl = xQ_.DeQue<float>();
        LocalTensor<float> yl = yQ_.AllocTensor<float>();
        LocalTensor<float> lo = bounds_;
        LocalTensor<float> hi = bounds_[cols_];
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t o = i * cols_;
            Max(yl[o], xl[o], lo, cols_);
            Min(yl[o], yl[o], hi, cols_);
        }
        yQ_.EnQue(yl);
        xQ_.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t n)
    {
        LocalTensor<float> yl = yQ_.DeQue<float>();
        DataCopy(yGm_[(uint64_t)r0 * cols_], yl, n * cols_);
        yQ_.FreeTensor(yl);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, DEPTH> xQ_;
    TQue<QuePosition::VECOUT, DEPTH> yQ_;
    TQue<QuePosition::VECIN, 1> boundQ_;
    LocalTensor<float> bounds_;
    GlobalTensor<float> xGm_, loGm_, hiGm_, yGm_;
    uint32_t cols_ = 0;
    uint32_t tileRows_ = 1;
    uint32_t myRows_ = 0;
};

extern "C" __global__ __aicore__ void column_bound_clip(GM_ADDR x, GM_ADDR lo, GM_ADDR hi, GM_ADDR y,
                                                        GM_ADDR tiling)
{
    ColumnBoundClipTiling tl;
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    tl.rows = src[0];
    tl.cols = src[1];
    tl.rowsPerCore = src[2];
    tl.tileRows = src[3];

    ColumnBoundClip k;
    k.Init(x, lo, hi, y, tl);
    k.Process();
}
