#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class RowScatterOverwriteKernel {
public:
    __aicore__ inline RowScatterOverwriteKernel() {}

    __aicore__ inline void Init(GM_ADDR self, GM_ADDR index, GM_ADDR source, GM_ADDR out,
                                const RowScatterOverwriteTilingData &td)
    {
        rows_ = td.rows;
        cols_ = td.cols;
        indexNum_ = td.indexNum;
        copyTile_ = td.copyTile;
        indexTile_ = td.indexTile;

        // band of output rows owned by this core
        uint32_t id = GetBlockIdx();
        if (id < td.bigBands) {
            bandLen_ = td.bandRows + 1;
            bandBegin_ = id * bandLen_;
        } else {
            bandLen_ = td.bandRows;
            bandBegin_ = td.bigBands * (td.bandRows + 1) + (id - td.bigBands) * td.bandRows;
        }
        bandEnd_ = bandBegin_ + bandLen_;

        uint64_t selfLen = static_cast<uint64_t>(rows_) * cols_;
        selfGm_.SetGlobalBuffer((__gm__ float *)self, selfLen);
        outGm_.SetGlobalBuffer((__gm__ float *)out, selfLen);
        srcGm_.SetGlobalBuffer((__gm__ float *)source, static_cast<uint64_t>(indexNum_) * cols_);
        idxGm_.SetGlobalBuffer((__gm__ int64_t *)index, indexNum_);

        // pass-through queue: the data goes GM -> UB -> GM with no vector work
        pipe_.InitBuffer(moveQ_, BUFFER_NUM, copyTile_ * sizeof(float));
        pipe_.InitBuffer(idxBuf_, indexTile_ * sizeof(int64_t));
    }

    __aicore__ inline void Process()
    {
        if (bandLen_ == 0) {
            return;
        }
        // 1) out[band] = self[band], the band is one contiguous span
        uint64_t spanBegin = static_cast<uint64_t>(bandBegin_) * cols_;
        uint64_t spanLen = static_cast<uint64_t>(bandLen_) * cols_;
        MoveSpan(outGm_, spanBegin, selfGm_, spanBegin, spanLen);

        // 2) overwrite the rows addressed by index that fall into the band
        for (uint32_t base = 0; base < indexNum_; base += indexTile_) {
            uint32_t cnt = indexNum_ - base < indexTile_ ? indexNum_ - base : indexTile_;
            LoadIndices(base, cnt);
            LocalTensor<int64_t> idx = idxBuf_.Get<int64_t>();
            for (uint32_t j = 0; j < cnt; ++j) {
                int64_t r = idx.GetValue(j);
                if (r < 0) {
                    r += rows_; // PyTorch accepts wrapped negative indices
                }
                if (r < static_cast<int64_t>(bandBegin_) || r >= static_cast<int64_t>(bandEnd_)) {
                    continue;
                }
                MoveSpan(outGm_, static_cast<uint64_t>(r) * cols_, srcGm_,
                         static_cast<uint64_t>(base + j) * cols_, cols_);
            }
            // make sure the scalar unit is done with the buffer before it is refilled
            event_t sToMte2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
            SetFlag<HardEvent::S_MTE2>(sToMte2);
            WaitFlag<HardEvent::S_MTE2>(sToMte2);
        }
    }

private:
    __aicore__ inline void LoadIndices(uint32_t base, uint32_t cnt)
    {
        LocalTensor<int64_t> idx = idxBuf_.Get<int64_t>();
        DataCopyExtParams p{1, static_cast<uint32_t>(cnt * sizeof(int64_t)), 0, 0, 0};
        DataCopyPadExtParams<int64_t> pad{false, 0, 0, 0};
        DataCopyPad(idx, idxGm_[base], p, pad);
        // indices are consumed by the scalar unit
        event_t mte2ToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(mte2ToS);
        WaitFlag<HardEvent::MTE2_S>(mte2ToS);
    }

    // dst[dstOff : dstOff+len] = src[srcOff : srcOff+len], staged through UB
    __aicore__ inline void MoveSpan(const GlobalTensor<float> &dst, uint64_t dstOff,
                                    const GlobalTensor<float> &src, uint64_t srcOff, uint64_t len)
    {
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint64_t done = 0; done < len; done += copyTile_) {
            uint32_t n = (len - done) < copyTile_ ? static_cast<uint32_t>(len - done) : copyTile_;
            DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};

            LocalTensor<float> stage = moveQ_.AllocTensor<float>();
            DataCopyPad(stage, src[srcOff + done], p, pad);
            moveQ_.EnQue(stage);

            LocalTensor<float> ready = moveQ_.DeQue<float>();
            DataCopyPad(dst[dstOff + done], ready, p);
            moveQ_.FreeTensor(ready);
        }
    }

private:
    TPipe pipe_;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> moveQ_;
    TBuf<TPosition::VECCALC> idxBuf_;
    GlobalTensor<float> selfGm_, srcGm_, outGm_;
    GlobalTensor<int64_t> idxGm_;
    uint32_t rows_ = 0, cols_ = 0, indexNum_ = 0;
    uint32_t copyTile_ = 0, indexTile_ = 0;
    uint32_t bandBegin_ = 0, bandEnd_ = 0, bandLen_ = 0;
};

extern "C" __global__ __aicore__ void row_scatter_overwrite_custom(GM_ADDR self, GM_ADDR index, GM_ADDR source,
                                                                   GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    RowScatterOverwriteKernel op;
    op.Init(self, index, source, out, td);
    op.Process();
}
