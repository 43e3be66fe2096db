#include "kernel_operator.h"

namespace {
constexpr int32_t QUEUE_DEPTH = 2;
constexpr float INV_SQRT2 = 0.70710678118654752f;
}

// Epilogue after Conv3d (+bias):
//   a = leaky_relu(x, slope)
//   b = clamp(a + offset[c], clipMin, clipMax)
//   y = 0.5 * b * (1 + erf(b / sqrt(2)))       (exact GELU, matches torch default)
// Work is split by (n, c) planes so each plane uses a single scalar offset.
class LeakyOffsetSaturateGelu {
public:
    __aicore__ inline LeakyOffsetSaturateGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR offset, GM_ADDR y, const LeakyOffsetSaturateGeluTiling &t)
    {
        channels_ = t.channels;
        planeSize_ = t.planeSize;
        tileLen_ = t.tileLen;
        slope_ = t.slope;
        lo_ = t.clipMin;
        hi_ = t.clipMax;

        uint32_t blk = AscendC::GetBlockIdx();
        if (blk < t.planesRemainder) {
            planeCnt_ = t.planesPerCore + 1;
            planeBeg_ = blk * planeCnt_;
        } else {
            planeCnt_ = t.planesPerCore;
            planeBeg_ = t.planesRemainder + blk * t.planesPerCore;
        }

        uint64_t total = static_cast<uint64_t>(t.planes) * planeSize_;
        xGm_.SetGlobalBuffer((__gm__ float *)x, total);
        yGm_.SetGlobalBuffer((__gm__ float *)y, total);
        offGm_.SetGlobalBuffer((__gm__ float *)offset, channels_);

        pipe_.InitBuffer(inQ_, QUEUE_DEPTH, tileLen_ * sizeof(float));
        pipe_.InitBuffer(outQ_, QUEUE_DEPTH, tileLen_ * sizeof(float));
        pipe_.InitBuffer(scaledBuf_, tileLen_ * sizeof(float));
        pipe_.InitBuffer(erfTmp_, t.erfTmpBytes);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < planeCnt_; ++p) {
            uint32_t plane = planeBeg_ + p;
            float off = offGm_.GetValue(plane % channels_);
            uint64_t base = static_cast<uint64_t>(plane) * planeSize_;
            for (uint32_t pos = 0; pos < planeSize_; pos += tileLen_) {
                uint32_t len = planeSize_ - pos;
                len = len < tileLen_ ? len : tileLen_;
                CopyIn(base + pos, len);
                Compute(len, off);
                CopyOut(base + pos, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t len)
    {
        AscendC::LocalTensor<float> xt = inQ_.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xt, xGm_[gmOff], cp, pad);
        inQ_.EnQue(xt);
    }

    __aicore__ inline void Compute(uint32_t len, float off)
    {
        AscendC::LocalTensor<float> xt = inQ_.DeQue<float>();
        AscendC::LocalTensor<float> yt = outQ_.AllocTensor<float>();
        AscendC::LocalTensor<float> sc = scaledBuf_.Get<float>();
        AscendC::LocalTensor<uint8_t> tmp = erfTmp_.Get<uint8_t>();

        AscendC::LeakyRelu(xt, xt, slope_, len);
        AscendC::Adds(xt, xt, off, len);
        AscendC::Maxs(xt, xt, lo_, len);
        AscendC::Mins(xt, xt, hi_, len);

        AscendC::Muls(sc, xt, INV_SQRT2, len);
        AscendC::Erf<float, false>(yt, sc, tmp, len);
        AscendC::Adds(yt, yt, 1.0f, len);
        AscendC::Mul(yt, yt, xt, len);
        AscendC::Muls(yt, yt, 0.5f, len);

        outQ_.EnQue(yt);
        inQ_.FreeTensor(xt);
    }

    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t len)
    {
        AscendC::LocalTensor<float> yt = outQ_.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm_[gmOff], yt, cp);
        outQ_.FreeTensor(yt);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, QUEUE_DEPTH> inQ_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, QUEUE_DEPTH> outQ_;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> scaledBuf_, erfTmp_;
    AscendC::GlobalTensor<float> xGm_, yGm_, offGm_;
    uint32_t channels_ = 1, planeSize_ = 0, tileLen_ = 0;
    uint32_t planeBeg_ = 0, planeCnt_ = 0;
    float slope_ = 0.2f, lo_ = -1.0f, hi_ = 1.0f;
};

extern "C" __global__ __aicore__ void leaky_offset_saturate_gelu_custom(GM_ADDR x, GM_ADDR offset, GM_ADDR y,
                                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    LeakyOffsetSaturateGelu op;
    op.Init(x, offset, y, t);
    op.Process();
}
