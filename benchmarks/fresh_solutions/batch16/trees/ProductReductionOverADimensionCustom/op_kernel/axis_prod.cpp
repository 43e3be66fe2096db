/**
 * @file axis_prod.cpp
 * AxisProd kernel: y = prod(x, dim).
 *
 * The input is seen as [outer, axis, inner].
 *  - key 1 (inner > 1): a work unit is a column tile of one outer slice. Rows along the
 *    reduced axis are streamed through a double-buffered queue and multiplied into an
 *    accumulator tile, so all vector lanes are busy even though the reduction is "vertical".
 *  - key 2 (inner == 1): the reduced axis is contiguous. Chunks of foldLen elements are
 *    loaded (padded with 1.0) and folded by repeated halving multiplications down to one
 *    32-byte block; the last block is finished on the scalar unit.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t OUT_STAGE = 256;  // results buffered before each store in key 2
}

template <typename T>
class AxisProdKernel {
public:
    __aicore__ inline AxisProdKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisProdTilingData &td)
    {
        outer_ = td.outerSize;
        axis_ = td.axisSize;
        inner_ = td.innerSize;
        tileCols_ = td.tileCols;
        colTiles_ = td.colTilesPerRow;
        foldLen_ = td.foldLen;

        uint32_t idx = GetBlockIdx();
        unitCount_ = td.unitsPerCore + (idx < td.tailUnits ? 1 : 0);
        unitBegin_ = idx * td.unitsPerCore + (idx < td.tailUnits ? idx : td.tailUnits);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
    }

    // ---------------- key 1 : reduced axis in the middle ----------------
    __aicore__ inline void ProcessMiddle()
    {
        pipe_.InitBuffer(inQue_, BUFFER_NUM, tileCols_ * sizeof(T));
        pipe_.InitBuffer(outQue_, 1, tileCols_ * sizeof(T));
        for (uint32_t u = 0; u < unitCount_; ++u) {
            uint32_t unit = unitBegin_ + u;
            uint32_t o = unit / colTiles_;
            uint32_t ct = unit % colTiles_;
            uint32_t colStart = ct * tileCols_;
            uint32_t cols = (inner_ - colStart) < tileCols_ ? (inner_ - colStart) : tileCols_;
            ReduceColumnTile(o, colStart, cols);
        }
    }

    // ---------------- key 2 : reduced axis is the last one ----------------
    __aicore__ inline void ProcessLast()
    {
        pipe_.InitBuffer(inQue_, BUFFER_NUM, foldLen_ * sizeof(T));
        pipe_.InitBuffer(outQue_, 1, OUT_STAGE * sizeof(T));
        pipe_.InitBuffer(blkBuf_, 32);
        uint32_t done = 0;
        while (done < unitCount_) {
            uint32_t batch = (unitCount_ - done) < OUT_STAGE ? (unitCount_ - done) : OUT_STAGE;
            LocalTensor<T> stage = outQue_.AllocTensor<T>();
            for (uint32_t b = 0; b < batch; ++b) {
                float v = FoldRow(unitBegin_ + done + b);
                stage.SetValue(b, static_cast<T>(v));
            }
            outQue_.EnQue(stage);
            LocalTensor<T> ready = outQue_.DeQue<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(batch * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm_[unitBegin_ + done], ready, cp);
            outQue_.FreeTensor(ready);
            done += batch;
        }
    }

private:
    __aicore__ inline void ReduceColumnTile(uint32_t o, uint32_t colStart, uint32_t cols)
    {
        uint64_t base = static_cast<uint64_t>(o) * axis_ * inner_ + colStart;
        LocalTensor<T> acc = outQue_.AllocTensor<T>();
        Duplicate(acc, static_cast<T>(1.0f), tileCols_);
        for (uint32_t r = 0; r < axis_; ++r) {
            LocalTensor<T> row = inQue_.AllocTensor<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(1.0f)};
            DataCopyPad(row, xGm_[base + static_cast<uint64_t>(r) * inner_], cp, pad);
            inQue_.EnQue(row);
            LocalTensor<T> cur = inQue_.DeQue<T>();
            Mul(acc, acc, cur, cols);
            inQue_.FreeTensor(cur);
        }
        outQue_.EnQue(acc);
        LocalTensor<T> res = outQue_.DeQue<T>();
        DataCopyExtParams st{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[static_cast<uint64_t>(o) * inner_ + colStart], res, st);
        outQue_.FreeTensor(res);
    }

    // product of one contiguous row of axis_ elements
    __aicore__ inline float FoldRow(uint32_t o)
    {
        constexpr uint32_t blkElems = 32 / sizeof(T);
        LocalTensor<T> blk = blkBuf_.Get<T>();
        Duplicate(blk, static_cast<T>(1.0f), blkElems);

        uint64_t base = static_cast<uint64_t>(o) * axis_;
        for (uint32_t off = 0; off < axis_; off += foldLen_) {
            uint32_t len = (axis_ - off) < foldLen_ ? (axis_ - off) : foldLen_;
            uint32_t alignedLen = (len + blkElems - 1) / blkElems * blkElems;
            LocalTensor<T> buf = inQue_.AllocTensor<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            // right padding of the last block is filled with 1.0 (neutral for a product)
            DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(alignedLen - len), static_cast<T>(1.0f)};
            DataCopyPad(buf, xGm_[base + off], cp, pad);
            inQue_.EnQue(buf);
            LocalTensor<T> v = inQue_.DeQue<T>();
            if (alignedLen < foldLen_) {
                Duplicate(v[alignedLen], static_cast<T>(1.0f), foldLen_ - alignedLen);
            }
            // halving fold: foldLen_ is a power of two >= 2 blocks
            for (uint32_t half = foldLen_ / 2; half >= blkElems; half /= 2) {
                Mul(v, v, v[half], half);
            }
            Mul(blk, blk, v, blkElems);
            inQue_.FreeTensor(v);
        }
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
        float prod = 1.0f;
        for (uint32_t i = 0; i < blkElems; ++i) {
            prod *= static_cast<float>(blk.GetValue(i));
        }
        return prod;
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue_;
    TQue<QuePosition::VECOUT, 1> outQue_;
    TBuf<TPosition::VECCALC> blkBuf_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    uint32_t outer_ = 0;
    uint32_t axis_ = 0;
    uint32_t inner_ = 0;
    uint32_t tileCols_ = 0;
    uint32_t colTiles_ = 0;
    uint32_t foldLen_ = 0;
    uint32_t unitBegin_ = 0;
    uint32_t unitCount_ = 0;
};

extern "C" __global__ __aicore__ void axis_prod(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AxisProdKernel<DTYPE_X> op;
    op.Init(x, y, td);
    if (TILING_KEY_IS(1)) {
        op.ProcessMiddle();
    } else if (TILING_KEY_IS(2)) {
        op.ProcessLast();
    }
}
