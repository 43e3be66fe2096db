// mask_row_pick.cpp
//
// out[a, j, k] = mask[j] ? x[a, j, k] : y[a, j, k]
//
// The mask has shape [1, J, 1] (bool), x / y / out have shape [A, J, Kin].
// Viewing the data as A*J rows of Kin elements, every row takes one decision.
// Rows are split across the cores; a tile of rows is loaded from both inputs,
// a bit mask is expanded from the per-row booleans and Select picks elementwise.
#include "kernel_operator.h"

using namespace AscendC;

struct MaskRowPickTiling {
    uint32_t outer;        // A
    uint32_t mid;          // J (length of the mask)
    uint32_t inner;        // Kin, multiple of 8
    uint32_t rowsPerCore;
    uint32_t rowsRemain;   // extra rows for the first cores
    uint32_t tileRows;     // rows per UB tile
};

constexpr int32_t QUE_DEPTH = 2;

class MaskRowPick {
public:
    __aicore__ inline MaskRowPick() {}

    __aicore__ inline void Init(GM_ADDR mask, GM_ADDR x, GM_ADDR y, GM_ADDR out, const MaskRowPickTiling &tiling)
    {
        t = tiling;
        uint32_t id = GetBlockIdx();
        rowStart = id * t.rowsPerCore + (id < t.rowsRemain ? id : t.rowsRemain);
        rowNum = t.rowsPerCore + (id < t.rowsRemain ? 1 : 0);

        maskGm.SetGlobalBuffer((__gm__ uint8_t *)mask, t.mid);
        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        outGm.SetGlobalBuffer((__gm__ float *)out);

        uint32_t tileElems = t.tileRows * t.inner;
        pipe.InitBuffer(xQue, QUE_DEPTH, tileElems * sizeof(float));
        pipe.InitBuffer(yQue, QUE_DEPTH, tileElems * sizeof(float));
        pipe.InitBuffer(outQue, QUE_DEPTH, tileElems * sizeof(float));
        // one bit per element, rounded to 32 bytes
        pipe.InitBuffer(bitBuf, (tileElems / 8 + 31) / 32 * 32);
        pipe.InitBuffer(condBuf, (t.mid + 31) / 32 * 32);

        cond = condBuf.Get<uint8_t>();
        DataCopyPad(cond, maskGm, DataCopyExtParams{1, t.mid, 0, 0, 0},
                    DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < rowNum; done += t.tileRows) {
            uint32_t rows = rowNum - done < t.tileRows ? rowNum - done : t.tileRows;
            uint32_t r0 = rowStart + done;
            Load(r0, rows);
            Pick(r0, rows);
            Store(r0, rows);
        }
    }

private:
    __aicore__ inline void Load(uint32_t r0, uint32_t rows)
    {
        uint32_t bytes = rows * t.inner * sizeof(float);
        uint64_t off = (uint64_t)r0 * t.inner;
        LocalTensor<float> xl = xQue.AllocTensor<float>();
        LocalTensor<float> yl = yQue.AllocTensor<float>();
        DataCopyPad(xl, xGm[off], DataCopyExtParams{1, bytes, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.f});
        DataCopyPad(yl, yGm[off], DataCopyExtParams{1, bytes, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.f});
        xQue.EnQue(xl);
        yQue.EnQue(yl);
    }

    __aicore__ inline void Pick(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> xl = xQue.DeQue<float>();
        LocalTensor<float> yl = yQue.DeQue<float>();
        LocalTensor<float> ol = outQue.AllocTensor<float>();
        LocalTensor<uint8_t> bits = bitBuf.Get<uint8_t>();

        // expand the row decisions: inner/8 mask bytes per row, all set or all clear
        uint32_t bytesPerRow = t.inner / 8;
        for (uint32_t r = 0; r < rows; ++r) {
            uint32_t j = (r0 + r) % t.mid;
            uint8_t fill = cond.GetValue(j) != 0 ? 0xFF : 0x00;
            for (uint32_t b = 0; b < bytesPerRow; ++b) {
                bits.SetValue(r * bytesPerRow + b, fill);
            }
        }
        // scalar writes into UB must be visible to the vector unit
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);

        // bit set -> take x, clear -> take y
        Select(ol, bits, xl, yl, SELMODE::VSEL_TENSOR_TENSOR_MODE, rows * t.inner);

        outQue.EnQue(ol);
        xQue.FreeTensor(xl);
        yQue.FreeTensor(yl);
    }

    __aicore__ inline void Store(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> ol = outQue.DeQue<float>();
        DataCopyPad(outGm[(uint64_t)r0 * t.inner], ol,
                    DataCopyExtParams{1, rows * t.inner * (uint32_t)sizeof(float), 0, 0, 0});
        outQue.FreeTensor(ol);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, QUE_DEPTH> xQue, yQue;
    TQue<QuePosition::VECOUT, QUE_DEPTH> outQue;
    TBuf<TPosition::VECCALC> bitBuf, condBuf;
    GlobalTensor<uint8_t> maskGm;
    GlobalTensor<float> xGm, yGm, outGm;
    LocalTensor<uint8_t> cond;
    MaskRowPickTiling t;
    uint32_t rowStart = 0, rowNum = 0;
};

extern "C" __global__ __aicore__ void mask_row_pick(GM_ADDR mask, GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR tiling)
{
    MaskRowPickTiling tl;
    {
        __gm__ uint32_t *p = reinterpret_cast<__gm__ uint32_t *>(tiling);
        uint32_t *q = reinterpret_cast<uint32_t *>(&tl);
        for (uint32_t i = 0; i < sizeof(MaskRowPickTiling) / 4; ++i) {
            q[i] = p[i];
        }
    }
    MaskRowPick op;
    op.Init(mask, x, y, out, tl);
    op.Process();
}
