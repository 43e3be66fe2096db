// y = x + offset, where offset is either a 0-d / single-element tensor or a
// vector broadcast along the trailing dimension of x.
#include "kernel_operator.h"

namespace {
constexpr int32_t NBUF = 2;
}

template <typename T>
class OffsetAddScalar {
public:
    __aicore__ inline OffsetAddScalar() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR b, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t tile)
    {
        uint64_t start = perCore * AscendC::GetBlockIdx();
        count = (start >= total) ? 0 : ((total - start) < perCore ? (total - start) : perCore);
        tileLen = tile;
        xG.SetGlobalBuffer((__gm__ T *)x + start, count);
        yG.SetGlobalBuffer((__gm__ T *)y + start, count);
        AscendC::GlobalTensor<T> bG;
        bG.SetGlobalBuffer((__gm__ T *)b, 1);
        offsetVal = bG.GetValue(0);  // single scalar read straight from GM
        pipe.InitBuffer(qIn, NBUF, tileLen * sizeof(T));
        pipe.InitBuffer(qOut, NBUF, tileLen * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint64_t done = 0; done < count; done += tileLen) {
            uint32_t n = static_cast<uint32_t>((count - done) < tileLen ? (count - done) : tileLen);
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            AscendC::LocalTensor<T> a = qIn.AllocTensor<T>();
            AscendC::DataCopyPad(a, xG[done], cp, AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
            qIn.EnQue(a);
            a = qIn.DeQue<T>();
            AscendC::LocalTensor<T> c = qOut.AllocTensor<T>();
            AscendC::Adds(c, a, offsetVal, n);
            qOut.EnQue(c);
            qIn.FreeTensor(a);
            c = qOut.DeQue<T>();
            AscendC::DataCopyPad(yG[done], c, cp);
            qOut.FreeTensor(c);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, NBUF> qIn;
    AscendC::TQue<AscendC::QuePosition::VECOUT, NBUF> qOut;
    AscendC::GlobalTensor<T> xG, yG;
    uint64_t count;
    uint32_t tileLen;
    T offsetVal;
};

template <typename T>
class OffsetAddRow {
public:
    __aicore__ inline OffsetAddRow() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR b, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t row,
                                uint32_t rowsTile)
    {
        uint64_t start = perCore * AscendC::GetBlockIdx();
        uint64_t cnt = (start >= total) ? 0 : ((total - start) < perCore ? (total - start) : perCore);
        rowLen = row;
        rowStride = (row * sizeof(T) + 31) / 32 * 32 / sizeof(T);
        rows = static_cast<uint32_t>(cnt / row);
        rowsPerTile = rowsTile;
        xG.SetGlobalBuffer((__gm__ T *)x + start, cnt);
        yG.SetGlobalBuffer((__gm__ T *)y + start, cnt);
        bG.SetGlobalBuffer((__gm__ T *)b, row);
        pipe.InitBuffer(qIn, NBUF, rowsPerTile * rowStride * sizeof(T));
        pipe.InitBuffer(qOut, NBUF, rowsPerTile * rowStride * sizeof(T));
        pipe.InitBuffer(biasBuf, rowStride * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        if (rows == 0) {
            return;
        }
        AscendC::LocalTensor<T> bias = biasBuf.Get<T>();
        AscendC::DataCopyExtParams bcp{1, static_cast<uint32_t>(rowLen * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(bias, bG, bcp, AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);

        for (uint32_t r = 0; r < rows; r += rowsPerTile) {
            uint32_t nr = (rows - r) < rowsPerTile ? (rows - r) : rowsPerTile;
            // each GM row lands at a 32B aligned UB row
            AscendC::DataCopyExtParams cp{static_cast<uint16_t>(nr), static_cast<uint32_t>(rowLen * sizeof(T)), 0, 0,
                                          0};
            AscendC::LocalTensor<T> a = qIn.AllocTensor<T>();
            AscendC::DataCopyPad(a, xG[static_cast<uint64_t>(r) * rowLen], cp,
                                 AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
            qIn.EnQue(a);
            a = qIn.DeQue<T>();
            AscendC::LocalTensor<T> c = qOut.AllocTensor<T>();
            for (uint32_t i = 0; i < nr; ++i) {
                AscendC::Add(c[i * rowStride], a[i * rowStride], bias, rowLen);
            }
            qOut.EnQue(c);
            qIn.FreeTensor(a);
            c = qOut.DeQue<T>();
            AscendC::DataCopyPad(yG[static_cast<uint64_t>(r) * rowLen], c, cp);
            qOut.FreeTensor(c);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, NBUF> qIn;
    AscendC::TQue<AscendC::QuePosition::VECOUT, NBUF> qOut;
    AscendC::TBuf<AscendC::TPosition::VECCALC> biasBuf;
    AscendC::GlobalTensor<T> xG, yG, bG;
    uint32_t rowLen, rowStride, rows, rowsPerTile;
};

extern "C" __global__ __aicore__ void tensor_offset_add(GM_ADDR x, GM_ADDR offset, GM_ADDR y, GM_ADDR workspace,
                                                        GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        OffsetAddScalar<DTYPE_X> op;
        op.Init(x, offset, y, td.totalElems, td.elemsPerCore, td.tileElems);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        OffsetAddRow<DTYPE_X> op;
        op.Init(x, offset, y, td.totalElems, td.elemsPerCore, td.rowLen, td.rowsPerTile);
        op.Process();
    }
}
