/*
 * BcastProduct: out = a * b with numpy broadcasting.
 * Each core owns a contiguous range of output rows (all dims except the last); a row is
 * streamed in tiles, double-buffered. An input that is broadcast along the last dim is read
 * as one scalar per row and applied with Muls.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t NUM_SLOTS = 2;

template <typename T>
class BcastProductKernel {
public:
    __aicore__ inline BcastProductKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out, const BcastProductTilingData &td)
    {
        outerRank_ = td.outerRank;
        for (uint32_t i = 0; i < outerRank_; ++i) {
            dims_[i] = td.outerDims[i];
            sa_[i] = td.aStrides[i];
            sb_[i] = td.bStrides[i];
        }
        inner_ = td.innerLen;
        aScalar_ = td.aInnerBcast != 0;
        bScalar_ = td.bInnerBcast != 0;
        tile_ = td.tileLen;

        uint32_t idx = GetBlockIdx();
        rowBegin_ = idx * td.rowsPerCore + (idx < td.rowsRemainder ? idx : td.rowsRemainder);
        rowEnd_ = rowBegin_ + td.rowsPerCore + (idx < td.rowsRemainder ? 1 : 0);

        aGm_.SetGlobalBuffer((__gm__ T *)a);
        bGm_.SetGlobalBuffer((__gm__ T *)b);
        oGm_.SetGlobalBuffer((__gm__ T *)out);
        pipe_.InitBuffer(qa_, NUM_SLOTS, tile_ * sizeof(T));
        pipe_.InitBuffer(qb_, NUM_SLOTS, tile_ * sizeof(T));
        pipe_.InitBuffer(qo_, NUM_SLOTS, tile_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = rowBegin_; row < rowEnd_; ++row) {
            // decode the row index into per-input element offsets
            uint64_t offA = 0;
            uint64_t offB = 0;
            uint32_t rem = row;
            for (int32_t d = static_cast<int32_t>(outerRank_) - 1; d >= 0; --d) {
                uint32_t coord = rem % dims_[d];
                rem /= dims_[d];
                offA += static_cast<uint64_t>(coord) * sa_[d];
                offB += static_cast<uint64_t>(coord) * sb_[d];
            }
            uint64_t offO = static_cast<uint64_t>(row) * inner_;
            for (uint32_t col = 0; col < inner_; col += tile_) {
                uint32_t len = (inner_ - col) < tile_ ? (inner_ - col) : tile_;
                CopyIn(offA, offB, col, len);
                Compute(offA, offB, len);
                CopyOut(offO + col, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offA, uint64_t offB, uint32_t col, uint32_t len)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        if (!aScalar_) {
            LocalTensor<T> la = qa_.AllocTensor<T>();
            DataCopyPad(la, aGm_[offA + col], cp, pad);
            qa_.EnQue(la);
        }
        if (!bScalar_) {
            LocalTensor<T> lb = qb_.AllocTensor<T>();
            DataCopyPad(lb, bGm_[offB + col], cp, pad);
            qb_.EnQue(lb);
        }
    }

    __aicore__ inline void Compute(uint64_t offA, uint64_t offB, uint32_t len)
    {
        LocalTensor<T> lo = qo_.AllocTensor<T>();
        if (aScalar_ && bScalar_) {
            T prod = static_cast<T>(static_cast<float>(aGm_.GetValue(offA)) * static_cast<float>(bGm_.GetValue(offB)));
            Duplicate(lo, prod, len);
        } else if (aScalar_) {
            LocalTensor<T> lb = qb_.DeQue<T>();
            Muls(lo, lb, aGm_.GetValue(offA), len);
            qb_.FreeTensor(lb);
        } else if (bScalar_) {
            LocalTensor<T> la = qa_.DeQue<T>();
            Muls(lo, la, bGm_.GetValue(offB), len);
            qa_.FreeTensor(la);
        } else {
            LocalTensor<T> la = qa_.DeQue<T>();
            LocalTensor<T> lb = qb_.DeQue<T>();
            Mul(lo, la, lb, len);
            qa_.FreeTensor(la);
            qb_.FreeTensor(lb);
        }
        qo_.EnQue(lo);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<T> lo = qo_.DeQue<T>();
        DataCopyPad(oGm_[off], lo, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
        qo_.FreeTensor(lo);
    }

private:
    TPipe pipe_;
    TQue<TPosition::VECIN, NUM_SLOTS> qa_, qb_;
    TQue<TPosition::VECOUT, NUM_SLOTS> qo_;
    GlobalTensor<T> aGm_, bGm_, oGm_;
    uint32_t dims_[8];
    uint32_t sa_[8];
    uint32_t sb_[8];
    uint32_t outerRank_ = 0;
    uint32_t inner_ = 0;
    uint32_t tile_ = 0;
    uint32_t rowBegin_ = 0;
    uint32_t rowEnd_ = 0;
    bool aScalar_ = false;
    bool bScalar_ = false;
};

extern "C" __global__ __aicore__ void bcast_product(GM_ADDR a, GM_ADDR b, GM_ADDR out,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    BcastProductKernel<DTYPE_A> op;
    op.Init(a, b, out, td);
    op.Process();
}
