/**
 * ChannelRmsScale kernel.
 *
 * y[o, c, i] = x[o, c, i] / sqrt(mean_c(x[o, :, i]^2) + eps)
 *
 * One task = one (outer index, column tile) pair. All `channels` rows of the column tile
 * are brought into UB with a single strided DataCopyPad, the per-column sum of squares is
 * accumulated in fp32, and the same UB rows are rescaled and written back.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUF_NUM = 2;
}

template <typename T>
class ChannelRmsScaleKernel {
public:
    __aicore__ inline ChannelRmsScaleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ChannelRmsScaleTilingData &td)
    {
        outer_ = td.outer;
        channels_ = td.channels;
        inner_ = td.inner;
        colTile_ = td.colTile;
        tilesPerRow_ = td.colTilesPerRow;
        eps_ = td.eps;
        invC_ = td.invChannels;

        const uint32_t core = GetBlockIdx();
        taskCount_ = td.tasksPerCore + (core < td.tailCoreTasks ? 1 : 0);
        taskBegin_ = core * td.tasksPerCore + (core < td.tailCoreTasks ? core : td.tailCoreTasks);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);

        const uint32_t blockElems = channels_ * colTile_;
        pipe_.InitBuffer(inQ_, BUF_NUM, blockElems * sizeof(T));
        pipe_.InitBuffer(outQ_, BUF_NUM, blockElems * sizeof(T));
        pipe_.InitBuffer(accBuf_, colTile_ * sizeof(float));
        pipe_.InitBuffer(sqBuf_, colTile_ * sizeof(float));
        if constexpr (!IsSameType<T, float>::value) {
            pipe_.InitBuffer(f32Buf_, blockElems * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < taskCount_; ++t) {
            const uint32_t task = taskBegin_ + t;
            const uint32_t o = task / tilesPerRow_;
            const uint32_t col = (task % tilesPerRow_) * colTile_;
            const uint32_t len = (inner_ - col) < colTile_ ? (inner_ - col) : colTile_;
            const uint64_t base = static_cast<uint64_t>(o) * channels_ * inner_ + col;
            LoadTile(base, len);
            NormalizeTile(len);
            StoreTile(base, len);
        }
    }

private:
    __aicore__ inline void LoadTile(uint64_t base, uint32_t len)
    {
        LocalTensor<T> xl = inQ_.AllocTensor<T>();
        const uint32_t lenPadded = AlignUp(len);
        DataCopyExtParams cp{static_cast<uint16_t>(channels_), static_cast<uint32_t>(len * sizeof(T)),
                             static_cast<uint32_t>((inner_ - len) * sizeof(T)),
                             static_cast<uint32_t>((colTile_ - lenPadded) * sizeof(T) / 32), 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm_[base], cp, pad);
        inQ_.EnQue(xl);
    }

    __aicore__ inline void NormalizeTile(uint32_t len)
    {
        LocalTensor<T> xl = inQ_.DeQue<T>();
        LocalTensor<T> yl = outQ_.AllocTensor<T>();
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> sq = sqBuf_.Get<float>();
        const uint32_t all = channels_ * colTile_;
        // columns beyond `len` hold garbage; they are computed but never stored
        const uint32_t cols = AlignUp(len);

        LocalTensor<float> xf;
        if constexpr (IsSameType<T, float>::value) {
            xf = xl;
        } else {
            xf = f32Buf_.Get<float>();
            Cast(xf, xl, RoundMode::CAST_NONE, all);
        }

        Mul(acc, xf, xf, cols);
        for (uint32_t c = 1; c < channels_; ++c) {
            Mul(sq, xf[c * colTile_], xf[c * colTile_], cols);
            Add(acc, acc, sq, cols);
        }
        // acc <- 1 / sqrt(mean + eps)
        Muls(acc, acc, invC_, cols);
        Adds(acc, acc, eps_, cols);
        Sqrt(acc, acc, cols);
        Duplicate(sq, 1.0f, cols);
        Div(acc, sq, acc, cols);

        if constexpr (IsSameType<T, float>::value) {
            for (uint32_t c = 0; c < channels_; ++c) {
                Mul(yl[c * colTile_], xf[c * colTile_], acc, cols);
            }
        } else {
            for (uint32_t c = 0; c < channels_; ++c) {
                Mul(xf[c * colTile_], xf[c * colTile_], acc, cols);
            }
            Cast(yl, xf, RoundMode::CAST_ROUND, all);
        }
        outQ_.EnQue(yl);
        inQ_.FreeTensor(xl);
    }

    __aicore__ inline void StoreTile(uint64_t base, uint32_t len)
    {
        LocalTensor<T> yl = outQ_.DeQue<T>();
        const uint32_t lenPadded = AlignUp(len);
        DataCopyExtParams cp{static_cast<uint16_t>(channels_), static_cast<uint32_t>(len * sizeof(T)),
                             static_cast<uint32_t>((colTile_ - lenPadded) * sizeof(T) / 32),
                             static_cast<uint32_t>((inner_ - len) * sizeof(T)), 0};
        DataCopyPad(yGm_[base], yl, cp);
        outQ_.FreeTensor(yl);
    }

    __aicore__ inline uint32_t AlignUp(uint32_t n) const
    {
        constexpr uint32_t step = 32 / sizeof(T);
        return (n + step - 1) / step * step;
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUF_NUM> outQ_;
    TBuf<TPosition::VECCALC> accBuf_, sqBuf_, f32Buf_;
    GlobalTensor<T> xGm_, yGm_;
    uint32_t outer_ = 0, channels_ = 0, inner_ = 0, colTile_ = 0, tilesPerRow_ = 0;
    uint32_t taskBegin_ = 0, taskCount_ = 0;
    float eps_ = 1e-5f, invC_ = 1.0f;
};

extern "C" __global__ __aicore__ void channel_rms_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ChannelRmsScaleKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ChannelRmsScaleKernel<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
