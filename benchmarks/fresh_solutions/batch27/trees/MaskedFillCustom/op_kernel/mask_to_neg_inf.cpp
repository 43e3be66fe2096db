// y = where(mask, -inf, x)
// x    : float32, any shape, contiguous
// mask : bool (1 byte per element, 0 / 1), same shape as x
// y    : float32, same shape as x
//
// Each vector core takes a contiguous slice, streams it through UB in tiles:
//   mask(u8) --Cast--> half --CompareScalar(==0)--> bit mask --Select--> y
// Select picks x where the bit is set (mask==false) and the scalar -inf otherwise.

#include "kernel_operator.h"
#include "mask_to_neg_inf_tiling.h"

using namespace AscendC;

namespace {
constexpr int32_t QUEUE_DEPTH = 2;
constexpr uint32_t VEC_GRAIN = 256;   // compare/select work on 256-element groups

__aicore__ inline float NegativeInfinity()
{
    union {
        uint32_t bits;
        float value;
    } cvt;
    cvt.bits = 0xFF800000u;
    return cvt.value;
}

__aicore__ inline uint32_t RoundUp(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}
} // namespace

class MaskToNegInfKernel {
public:
    __aicore__ inline MaskToNegInfKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, const MaskToNegInfTiling &t)
    {
        tileElems_ = t.tileElems;
        uint64_t begin = static_cast<uint64_t>(GetBlockIdx()) * t.elemsPerCore;
        if (begin >= t.totalElems) {
            myElems_ = 0;
            return;
        }
        uint64_t remain = t.totalElems - begin;
        myElems_ = remain < t.elemsPerCore ? remain : t.elemsPerCore;

        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + begin, myElems_);
        maskGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t *>(mask) + begin, myElems_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + begin, myElems_);

        pipe_.InitBuffer(xQue_, QUEUE_DEPTH, tileElems_ * sizeof(float));
        pipe_.InitBuffer(maskQue_, QUEUE_DEPTH, tileElems_ * sizeof(uint8_t));
        pipe_.InitBuffer(yQue_, QUEUE_DEPTH, tileElems_ * sizeof(float));
        pipe_.InitBuffer(maskHalfBuf_, tileElems_ * sizeof(half));
        pipe_.InitBuffer(keepBitsBuf_, tileElems_ / 8);
    }

    __aicore__ inline void Process()
    {
        if (myElems_ == 0) {
            return;
        }
        uint64_t tiles = (myElems_ + tileElems_ - 1) / tileElems_;
        for (uint64_t i = 0; i < tiles; ++i) {
            uint64_t offset = i * tileElems_;
            uint32_t len = static_cast<uint32_t>((myElems_ - offset) < tileElems_ ? (myElems_ - offset) : tileElems_);
            LoadTile(offset, len);
            SelectTile(len);
            StoreTile(offset, len);
        }
    }

private:
    __aicore__ inline void LoadTile(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> xLocal = xQue_.AllocTensor<float>();
        LocalTensor<uint8_t> mLocal = maskQue_.AllocTensor<uint8_t>();
        if (len == tileElems_) {
            DataCopy(xLocal, xGm_[offset], len);
            DataCopy(mLocal, maskGm_[offset], len);
        } else {
            DataCopyExtParams xp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyExtParams mp{1, static_cast<uint32_t>(len * sizeof(uint8_t)), 0, 0, 0};
            DataCopyPad(xLocal, xGm_[offset], xp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            DataCopyPad(mLocal, maskGm_[offset], mp, DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
        }
        xQue_.EnQue(xLocal);
        maskQue_.EnQue(mLocal);
    }

    __aicore__ inline void SelectTile(uint32_t len)
    {
        // compute over a 256-aligned count; lanes past len are never stored
        uint32_t work = RoundUp(len, VEC_GRAIN);
        LocalTensor<float> xLocal = xQue_.DeQue<float>();
        LocalTensor<uint8_t> mLocal = maskQue_.DeQue<uint8_t>();
        LocalTensor<float> yLocal = yQue_.AllocTensor<float>();
        LocalTensor<half> mHalf = maskHalfBuf_.Get<half>();
        LocalTensor<uint8_t> keepBits = keepBitsBuf_.Get<uint8_t>();

        Cast(mHalf, mLocal, RoundMode::CAST_NONE, work);
        CompareScalar(keepBits, mHalf, static_cast<half>(0.0f), CMPMODE::EQ, work);
        Select(yLocal, keepBits, xLocal, NegativeInfinity(), SELMODE::VSEL_TENSOR_SCALAR_MODE, work);

        yQue_.EnQue(yLocal);
        xQue_.FreeTensor(xLocal);
        maskQue_.FreeTensor(mLocal);
    }

    __aicore__ inline void StoreTile(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> yLocal = yQue_.DeQue<float>();
        if (len == tileElems_) {
            DataCopy(yGm_[offset], yLocal, len);
        } else {
            DataCopyExtParams yp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm_[offset], yLocal, yp);
        }
        yQue_.FreeTensor(yLocal);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, QUEUE_DEPTH> xQue_;
    TQue<QuePosition::VECIN, QUEUE_DEPTH> maskQue_;
    TQue<QuePosition::VECOUT, QUEUE_DEPTH> yQue_;
    TBuf<TPosition::VECCALC> maskHalfBuf_;
    TBuf<TPosition::VECCALC> keepBitsBuf_;
    GlobalTensor<float> xGm_;
    GlobalTensor<uint8_t> maskGm_;
    GlobalTensor<float> yGm_;
    uint64_t myElems_ = 0;
    uint32_t tileElems_ = 0;
};

extern "C" __global__ __aicore__ void mask_to_neg_inf(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(MaskToNegInfTiling);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    MaskToNegInfKernel op;
    op.Init(x, mask, y, tilingData);
    op.Process();
}
