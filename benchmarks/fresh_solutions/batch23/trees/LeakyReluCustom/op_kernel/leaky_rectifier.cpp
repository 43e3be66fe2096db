#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DOUBLE_BUF = 2;

// y = x            , x >= 0
//     slope * x    , x <  0
template <typename T>
class LeakyRectifierKernel {
public:
    __aicore__ inline LeakyRectifierKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LeakyRectifierTilingData &tiling)
    {
        uint32_t idx = GetBlockIdx();
        uint64_t start;
        if (idx < tiling.bigCoreCount) {
            coreNum_ = tiling.bigCoreNum;
            start = idx * tiling.bigCoreNum;
        } else {
            coreNum_ = tiling.smallCoreNum;
            start = tiling.bigCoreCount * tiling.bigCoreNum + (idx - tiling.bigCoreCount) * tiling.smallCoreNum;
        }
        // the very last core may run past the real end by less than one 32B block
        if (start >= tiling.totalNum) {
            coreNum_ = 0;
        } else if (start + coreNum_ > tiling.totalNum) {
            coreNum_ = tiling.totalNum - start;
        }
        tileNum_ = tiling.tileNum;
        slope_ = static_cast<T>(tiling.slope);

        xGm_.SetGlobalBuffer((__gm__ T *)x + start, coreNum_);
        yGm_.SetGlobalBuffer((__gm__ T *)y + start, coreNum_);
        pipe_.InitBuffer(inQue_, DOUBLE_BUF, tileNum_ * sizeof(T));
        pipe_.InitBuffer(outQue_, DOUBLE_BUF, tileNum_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint64_t full = coreNum_ / tileNum_;
        uint32_t rest = static_cast<uint32_t>(coreNum_ - full * tileNum_);
        for (uint64_t i = 0; i < full; ++i) {
            CopyIn(i * tileNum_, tileNum_);
            Compute(tileNum_);
            CopyOut(i * tileNum_, tileNum_);
        }
        if (rest > 0) {
            CopyIn(full * tileNum_, rest);
            Compute(rest);
            CopyOut(full * tileNum_, rest);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> xl = inQue_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm_[off], cp, pad);
        inQue_.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        LocalTensor<T> xl = inQue_.DeQue<T>();
        LocalTensor<T> yl = outQue_.AllocTensor<T>();
        LeakyRelu(yl, xl, slope_, cnt);
        outQue_.EnQue(yl);
        inQue_.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> yl = outQue_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[off], yl, cp);
        outQue_.FreeTensor(yl);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, DOUBLE_BUF> inQue_;
    TQue<QuePosition::VECOUT, DOUBLE_BUF> outQue_;
    GlobalTensor<T> xGm_, yGm_;
    uint64_t coreNum_ = 0;
    uint32_t tileNum_ = 0;
    T slope_;
};

extern "C" __global__ __aicore__ void leaky_rectifier(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    LeakyRectifierKernel<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
