// ConstantScale: y = x * value, element-wise, any shape.
// Each core streams its contiguous range through UB in tiles with double buffering.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class ConstantScaleKernel {
public:
    __aicore__ inline ConstantScaleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ConstantScaleTilingData& td)
    {
        const uint64_t start = td.perCore * GetBlockIdx();
        count_ = (GetBlockIdx() == GetBlockNum() - 1) ? td.lastCore : td.perCore;
        tile_ = td.tileNum;
        factor_ = static_cast<T>(td.factor);

        xGm_.SetGlobalBuffer((__gm__ T*)x + start, count_);
        yGm_.SetGlobalBuffer((__gm__ T*)y + start, count_);
        pipe_.InitBuffer(inQ_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, tile_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < count_; off += tile_) {
            uint32_t len = static_cast<uint32_t>((count_ - off) < tile_ ? (count_ - off) : tile_);
            CopyIn(off, len);
            Compute(len);
            CopyOut(off, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<T> in = inQ_.AllocTensor<T>();
        if (len == tile_) {
            DataCopy(in, xGm_[off], len);
        } else {
            // ragged last tile: byte-exact copy
            DataCopyPad(in, xGm_[off], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
        }
        inQ_.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<T> in = inQ_.DeQue<T>();
        LocalTensor<T> out = outQ_.AllocTensor<T>();
        Muls(out, in, factor_, len);
        outQ_.EnQue(out);
        inQ_.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<T> out = outQ_.DeQue<T>();
        if (len == tile_) {
            DataCopy(yGm_[off], out, len);
        } else {
            DataCopyPad(yGm_[off], out, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
        }
        outQ_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    GlobalTensor<T> xGm_, yGm_;
    uint64_t count_ = 0;
    uint32_t tile_ = 0;
    T factor_;
};

extern "C" __global__ __aicore__ void constant_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ConstantScaleKernel<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
