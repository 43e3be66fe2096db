// Row lookup: out[i, :] = table[ids[i], :]
// ids   : int64, flattened to [lookupCount]
// table : float32 [vocabSize, rowWidth]
// out   : float32 [lookupCount, rowWidth]
//
// A core owns a contiguous run of ids. For each batch of rows it pulls the ids
// into UB, reads them on the scalar unit, issues one DMA per table row into a
// staging buffer, then writes the whole batch back with a single DMA
// (the output rows of a batch are contiguous). Staging is double buffered so
// the write-back of batch b overlaps the row fetches of batch b+1.

#include "kernel_operator.h"
#include "table_row_gather_tiling.h"

using namespace AscendC;

namespace {
constexpr int32_t STAGE_DEPTH = 2;

template <HardEvent EVT>
__aicore__ inline void WaitPipe()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
    SetFlag<EVT>(id);
    WaitFlag<EVT>(id);
}
} // namespace

class TableRowGatherKernel {
public:
    __aicore__ inline TableRowGatherKernel() {}

    __aicore__ inline void Init(GM_ADDR ids, GM_ADDR table, GM_ADDR out, const TableRowGatherTiling &t)
    {
        rowWidth_ = t.rowWidth;
        vocab_ = t.vocabSize;
        rowsPerBatch_ = t.rowsPerBatch;
        rowStride_ = (rowWidth_ + 7) / 8 * 8;   // UB row pitch, 32-byte aligned
        alignedRows_ = (rowWidth_ % 8) == 0;

        uint32_t first = GetBlockIdx() * t.rowsPerCore;
        if (first >= t.lookupCount) {
            myRows_ = 0;
            return;
        }
        uint32_t remain = t.lookupCount - first;
        myRows_ = remain < t.rowsPerCore ? remain : t.rowsPerCore;

        idsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t *>(ids) + first, myRows_);
        tableGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(table),
                                 static_cast<uint64_t>(vocab_) * rowWidth_);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out) + static_cast<uint64_t>(first) * rowWidth_,
                               static_cast<uint64_t>(myRows_) * rowWidth_);

        uint32_t idBytes = (rowsPerBatch_ * sizeof(int64_t) + 31) / 32 * 32;
        pipe_.InitBuffer(idBuf_, idBytes);
        pipe_.InitBuffer(stageQue_, STAGE_DEPTH, rowsPerBatch_ * rowStride_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myRows_ == 0) {
            return;
        }
        uint32_t batches = (myRows_ + rowsPerBatch_ - 1) / rowsPerBatch_;
        for (uint32_t b = 0; b < batches; ++b) {
            uint32_t start = b * rowsPerBatch_;
            uint32_t rows = (myRows_ - start) < rowsPerBatch_ ? (myRows_ - start) : rowsPerBatch_;
            FetchRows(start, rows);
            WriteRows(start, rows);
        }
    }

private:
    __aicore__ inline void FetchRows(uint32_t start, uint32_t rows)
    {
        LocalTensor<int64_t> idLocal = idBuf_.Get<int64_t>();
        DataCopyExtParams idParams{1, static_cast<uint32_t>(rows * sizeof(int64_t)), 0, 0, 0};
        DataCopyPad(idLocal, idsGm_[start], idParams, DataCopyPadExtParams<int64_t>{false, 0, 0, 0});
        WaitPipe<HardEvent::MTE2_S>();

        LocalTensor<float> stage = stageQue_.AllocTensor<float>();
        DataCopyExtParams rowParams{1, static_cast<uint32_t>(rowWidth_ * sizeof(float)), 0, 0, 0};
        for (uint32_t r = 0; r < rows; ++r) {
            int64_t id = idLocal.GetValue(r);
            if (id < 0) {
                id += vocab_;   // python-style negative index
            }
            if (id < 0 || id >= static_cast<int64_t>(vocab_)) {
                id = 0;         // out of range ids are undefined in torch; stay in bounds
            }
            uint64_t src = static_cast<uint64_t>(id) * rowWidth_;
            if (alignedRows_) {
                DataCopy(stage[r * rowStride_], tableGm_[src], rowWidth_);
            } else {
                DataCopyPad(stage[r * rowStride_], tableGm_[src], rowParams,
                            DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            }
        }
        // the next batch overwrites the id buffer from MTE2; scalar reads are done here
        stageQue_.EnQue(stage);
    }

    __aicore__ inline void WriteRows(uint32_t start, uint32_t rows)
    {
        LocalTensor<float> stage = stageQue_.DeQue<float>();
        uint64_t dst = static_cast<uint64_t>(start) * rowWidth_;
        if (alignedRows_) {
            DataCopy(outGm_[dst], stage, rows * rowWidth_);
        } else {
            // rows are padded to 32 bytes in UB; strip that padding on the way out
            DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(rowWidth_ * sizeof(float)), 0, 0,
                                0};
            DataCopyPad(outGm_[dst], stage, p);
        }
        stageQue_.FreeTensor(stage);
        WaitPipe<HardEvent::S_MTE2>();
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> idBuf_;
    // VECIN->VECOUT binding: rows land via MTE2 and leave via MTE3 with no vector work in between
    TQueBind<TPosition::VECIN, TPosition::VECOUT, STAGE_DEPTH> stageQue_;
    GlobalTensor<int64_t> idsGm_;
    GlobalTensor<float> tableGm_;
    GlobalTensor<float> outGm_;
    uint32_t myRows_ = 0;
    uint32_t rowWidth_ = 0;
    uint32_t rowStride_ = 0;
    uint32_t rowsPerBatch_ = 0;
    uint32_t vocab_ = 0;
    bool alignedRows_ = true;
};

extern "C" __global__ __aicore__ void table_row_gather(GM_ADDR ids, GM_ADDR table, GM_ADDR out, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TableRowGatherTiling);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TableRowGatherKernel op;
    op.Init(ids, table, out, tilingData);
    op.Process();
}
