// out = var; out[indices[i], ...] = updates[i, ...]   (later duplicates win)
#include "kernel_operator.h"
using namespace AscendC;

template <typename T, typename IdxT>
class RowScatterAssignKernel {
public:
    __aicore__ inline RowScatterAssignKernel() {}

    __aicore__ inline void Init(GM_ADDR var, GM_ADDR indices, GM_ADDR updates, GM_ADDR out,
                                const RowScatterAssignTilingData &td)
    {
        rows_ = td.numRows;
        rowLen_ = td.rowLen;
        k_ = td.numIndices;
        copyTile_ = td.copyTile;
        idxTile_ = td.idxTile;

        bandBegin_ = static_cast<uint64_t>(GetBlockIdx()) * td.rowsPerCore;
        bandEnd_ = bandBegin_ + td.rowsPerCore;
        if (bandEnd_ > rows_) {
            bandEnd_ = rows_;
        }

        varGm_.SetGlobalBuffer((__gm__ T *)var);
        idxGm_.SetGlobalBuffer((__gm__ IdxT *)indices);
        updGm_.SetGlobalBuffer((__gm__ T *)updates);
        outGm_.SetGlobalBuffer((__gm__ T *)out);

        pipe_.InitBuffer(moveQ_, 2, copyTile_ * sizeof(T));
        pipe_.InitBuffer(idxBuf_, idxTile_ * sizeof(IdxT));
    }

    __aicore__ inline void Process()
    {
        if (bandBegin_ >= bandEnd_) {
            return;
        }
        // 1) out band <- var band
        Move(outGm_[bandBegin_ * rowLen_], varGm_[bandBegin_ * rowLen_], (bandEnd_ - bandBegin_) * rowLen_);
        PipeBarrier<PIPE_ALL>();
        // 2) overwrite rows of this band named by the index list, in list order
        LocalTensor<IdxT> idx = idxBuf_.Get<IdxT>();
        for (uint64_t base = 0; base < k_; base += idxTile_) {
            uint32_t cnt = static_cast<uint32_t>((k_ - base) < idxTile_ ? (k_ - base) : idxTile_);
            DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(IdxT)), 0, 0, 0};
            DataCopyPadExtParams<IdxT> pad{false, 0, 0, 0};
            DataCopyPad(idx, idxGm_[base], cp, pad);
            event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(ev);
            WaitFlag<HardEvent::MTE2_S>(ev);
            for (uint32_t i = 0; i < cnt; ++i) {
                int64_t r = static_cast<int64_t>(idx.GetValue(i));
                if (r < 0) {
                    r += static_cast<int64_t>(rows_);   // python-style negative index
                }
                if (r < static_cast<int64_t>(bandBegin_) || r >= static_cast<int64_t>(bandEnd_)) {
                    continue;
                }
                Move(outGm_[static_cast<uint64_t>(r) * rowLen_], updGm_[(base + i) * rowLen_], rowLen_);
            }
            // the next chunk reuses the index buffer
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    // GM -> UB -> GM in copyTile_ pieces, double buffered through a bound VECIN/VECOUT queue
    __aicore__ inline void Move(const GlobalTensor<T> &dst, const GlobalTensor<T> &src, uint64_t count)
    {
        for (uint64_t off = 0; off < count; off += copyTile_) {
            uint32_t len = static_cast<uint32_t>((count - off) < copyTile_ ? (count - off) : copyTile_);
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            LocalTensor<T> buf = moveQ_.AllocTensor<T>();
            DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            DataCopyPad(buf, src[off], cp, pad);
            moveQ_.EnQue(buf);
            buf = moveQ_.DeQue<T>();
            DataCopyPad(dst[off], buf, cp);
            moveQ_.FreeTensor(buf);
        }
    }

    TPipe pipe_;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 2> moveQ_;
    TBuf<QuePosition::VECCALC> idxBuf_;
    GlobalTensor<T> varGm_, updGm_, outGm_;
    GlobalTensor<IdxT> idxGm_;
    uint64_t rows_ = 0, rowLen_ = 0, k_ = 0, bandBegin_ = 0, bandEnd_ = 0;
    uint32_t copyTile_ = 0, idxTile_ = 0;
};

extern "C" __global__ __aicore__ void row_scatter_assign(GM_ADDR var, GM_ADDR indices, GM_ADDR updates, GM_ADDR out,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    RowScatterAssignKernel<DTYPE_VAR, DTYPE_INDICES> op;
    op.Init(var, indices, updates, out, td);
    op.Process();
}
