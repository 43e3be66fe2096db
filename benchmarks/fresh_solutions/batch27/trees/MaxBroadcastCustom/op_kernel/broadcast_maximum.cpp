/**
 * @file broadcast_maximum.cpp
 * @brief Kernel of BroadcastMaximum: y = max(a, b) with numpy-style broadcasting.
 *
 * The host collapses the broadcast into rows x innerLen.  Each core owns a contiguous range
 * of rows.  For every row the inner dim is streamed through UB in tiles; an input that
 * varies along the inner dim is copied in, an input that is constant along it is read once
 * per row as a scalar and splatted with Duplicate.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_OUTER_DIMS = 8;
}

template <typename T>
class BroadcastMaximumKernel {
public:
    __aicore__ inline BroadcastMaximumKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, const BroadcastMaximumTilingData& td)
    {
        outerDimNum_ = td.outerDimNum;
        innerLen_ = td.innerLen;
        aContig_ = td.aInnerContig != 0;
        bContig_ = td.bInnerContig != 0;
        tileLen_ = td.tileLen;
        for (uint32_t i = 0; i < MAX_OUTER_DIMS; ++i) {
            outerShape_[i] = td.outerShape[i];
            aStride_[i] = td.aOuterStride[i];
            bStride_[i] = td.bOuterStride[i];
        }
        const uint64_t blockIdx = GetBlockIdx();
        const uint64_t base = td.rowsPerCore;
        const uint64_t rem = td.rowsRemainder;
        rowBegin_ = blockIdx * base + (blockIdx < rem ? blockIdx : rem);
        rowCount_ = base + (blockIdx < rem ? 1 : 0);

        aGm_.SetGlobalBuffer((__gm__ T*)a);
        bGm_.SetGlobalBuffer((__gm__ T*)b);
        yGm_.SetGlobalBuffer((__gm__ T*)y);

        const uint32_t bytes = tileLen_ * sizeof(T);
        pipe_.InitBuffer(inQueA_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(inQueB_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(outQueY_, BUFFER_NUM, bytes);
        pipe_.InitBuffer(splatA_, bytes);
        pipe_.InitBuffer(splatB_, bytes);
    }

    __aicore__ inline void Process()
    {
        if (rowCount_ == 0 || innerLen_ == 0) {
            return;
        }
        // Decompose the first row index once, then walk the rows like an odometer.
        uint64_t idx[MAX_OUTER_DIMS] = {0};
        uint64_t aOff = 0;
        uint64_t bOff = 0;
        uint64_t r = rowBegin_;
        for (int32_t d = static_cast<int32_t>(outerDimNum_) - 1; d >= 0; --d) {
            idx[d] = r % outerShape_[d];
            r /= outerShape_[d];
            aOff += idx[d] * aStride_[d];
            bOff += idx[d] * bStride_[d];
        }

        for (uint64_t row = 0; row < rowCount_; ++row) {
            const uint64_t yOff = (rowBegin_ + row) * static_cast<uint64_t>(innerLen_);
            ProcessRow(aOff, bOff, yOff);
            // advance the odometer
            for (int32_t d = static_cast<int32_t>(outerDimNum_) - 1; d >= 0; --d) {
                idx[d] += 1;
                aOff += aStride_[d];
                bOff += bStride_[d];
                if (idx[d] < outerShape_[d]) {
                    break;
                }
                aOff -= idx[d] * aStride_[d];
                bOff -= idx[d] * bStride_[d];
                idx[d] = 0;
            }
        }
    }

private:
    __aicore__ inline void ProcessRow(uint64_t aOff, uint64_t bOff, uint64_t yOff)
    {
        T aScalar = aContig_ ? static_cast<T>(0) : aGm_.GetValue(aOff);
        T bScalar = bContig_ ? static_cast<T>(0) : bGm_.GetValue(bOff);
        for (uint32_t pos = 0; pos < innerLen_; pos += tileLen_) {
            const uint32_t len = (innerLen_ - pos < tileLen_) ? (innerLen_ - pos) : tileLen_;
            CopyIn(aOff + pos, bOff + pos, len);
            Compute(aScalar, bScalar, len);
            CopyOut(yOff + pos, len);
        }
    }

    __aicore__ inline void CopyIn(uint64_t aOff, uint64_t bOff, uint32_t len)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        if (aContig_) {
            LocalTensor<T> aLocal = inQueA_.AllocTensor<T>();
            DataCopyPad(aLocal, aGm_[aOff], params, pad);
            inQueA_.EnQue(aLocal);
        }
        if (bContig_) {
            LocalTensor<T> bLocal = inQueB_.AllocTensor<T>();
            DataCopyPad(bLocal, bGm_[bOff], params, pad);
            inQueB_.EnQue(bLocal);
        }
    }

    __aicore__ inline void Compute(T aScalar, T bScalar, uint32_t len)
    {
        LocalTensor<T> yLocal = outQueY_.AllocTensor<T>();
        LocalTensor<T> aLocal;
        LocalTensor<T> bLocal;
        if (aContig_) {
            aLocal = inQueA_.DeQue<T>();
        } else {
            aLocal = splatA_.Get<T>();
            Duplicate(aLocal, aScalar, len);
        }
        if (bContig_) {
            bLocal = inQueB_.DeQue<T>();
        } else {
            bLocal = splatB_.Get<T>();
            Duplicate(bLocal, bScalar, len);
        }
        Max(yLocal, aLocal, bLocal, len);
        outQueY_.EnQue<T>(yLocal);
        if (aContig_) {
            inQueA_.FreeTensor(aLocal);
        }
        if (bContig_) {
            inQueB_.FreeTensor(bLocal);
        }
    }

    __aicore__ inline void CopyOut(uint64_t yOff, uint32_t len)
    {
        LocalTensor<T> yLocal = outQueY_.DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[yOff], yLocal, params);
        outQueY_.FreeTensor(yLocal);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueA_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueB_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueY_;
    TBuf<TPosition::VECCALC> splatA_;
    TBuf<TPosition::VECCALC> splatB_;
    GlobalTensor<T> aGm_;
    GlobalTensor<T> bGm_;
    GlobalTensor<T> yGm_;

    uint64_t outerShape_[MAX_OUTER_DIMS];
    uint64_t aStride_[MAX_OUTER_DIMS];
    uint64_t bStride_[MAX_OUTER_DIMS];
    uint64_t rowBegin_ = 0;
    uint64_t rowCount_ = 0;
    uint32_t outerDimNum_ = 0;
    uint32_t innerLen_ = 0;
    uint32_t tileLen_ = 0;
    bool aContig_ = true;
    bool bContig_ = true;
};

extern "C" __global__ __aicore__ void broadcast_maximum(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace,
                                                        GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    BroadcastMaximumKernel<DTYPE_Y> op;
    op.Init(a, b, y, tilingData);
    op.Process();
}
