// row_slot_write
//
// out = copy of base; then, for every row i and every j in order,
//   out[i, pos[i, j]] = val[i, j]
// Later j wins when two entries of a row hit the same slot (sequential order).
//
// Each core owns whole rows, so there are no write conflicts between cores:
// the row is staged in UB, patched by the scalar unit, and written back once.
#include "kernel_operator.h"

using namespace AscendC;

struct RowSlotWriteTiling {
    uint32_t rows;
    uint32_t width;        // columns of base/out
    uint32_t count;        // writes per row (columns of pos/val)
    uint32_t rowsPerCore;
};

class RowSlotWrite {
public:
    __aicore__ inline RowSlotWrite() {}

    __aicore__ inline void Init(GM_ADDR base, GM_ADDR pos, GM_ADDR val, GM_ADDR out, const RowSlotWriteTiling &tiling)
    {
        tl = tiling;
        r0 = GetBlockIdx() * tl.rowsPerCore;
        r1 = r0 + tl.rowsPerCore;
        if (r1 > tl.rows) {
            r1 = tl.rows;
        }
        baseGm.SetGlobalBuffer((__gm__ float *)base, (uint64_t)tl.rows * tl.width);
        outGm.SetGlobalBuffer((__gm__ float *)out, (uint64_t)tl.rows * tl.width);
        posGm.SetGlobalBuffer((__gm__ int64_t *)pos, (uint64_t)tl.rows * tl.count);
        valGm.SetGlobalBuffer((__gm__ float *)val, (uint64_t)tl.rows * tl.count);

        pipe.InitBuffer(rowBuf, ((tl.width + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(posBuf, ((tl.count + 3) / 4 * 4) * sizeof(int64_t));
        pipe.InitBuffer(valBuf, ((tl.count + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = r0; r < r1; ++r) {
            PatchRow(r);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Wait()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    __aicore__ inline void PatchRow(uint32_t r)
    {
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<int64_t> pos = posBuf.Get<int64_t>();
        LocalTensor<float> val = valBuf.Get<float>();

        // the previous row's write-back must finish before we overwrite UB
        Wait<HardEvent::MTE3_MTE2>();

        DataCopyPadExtParams<float> fpad{false, 0, 0, 0.0f};
        DataCopyPadExtParams<int64_t> ipad{false, 0, 0, 0};
        DataCopyPad(row, baseGm[(uint64_t)r * tl.width],
                    DataCopyExtParams{1, tl.width * (uint32_t)sizeof(float), 0, 0, 0}, fpad);
        DataCopyPad(pos, posGm[(uint64_t)r * tl.count],
                    DataCopyExtParams{1, tl.count * (uint32_t)sizeof(int64_t), 0, 0, 0}, ipad);
        DataCopyPad(val, valGm[(uint64_t)r * tl.count],
                    DataCopyExtParams{1, tl.count * (uint32_t)sizeof(float), 0, 0, 0}, fpad);
        Wait<HardEvent::MTE2_S>();

        const int64_t w = (int64_t)tl.width;
        for (uint32_t j = 0; j < tl.count; ++j) {
            int64_t c = pos.GetValue(j);
            if (c < 0) {
                c += w;              // negative positions count from the end
            }
            if (c >= 0 && c < w) {
                row.SetValue((uint32_t)c, val.GetValue(j));
            }
        }

        Wait<HardEvent::S_MTE3>();
        DataCopyPad(outGm[(uint64_t)r * tl.width], row,
                    DataCopyExtParams{1, tl.width * (uint32_t)sizeof(float), 0, 0, 0});
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> rowBuf, posBuf, valBuf;
    GlobalTensor<float> baseGm, outGm, valGm;
    GlobalTensor<int64_t> posGm;
    RowSlotWriteTiling tl;
    uint32_t r0 = 0, r1 = 0;
};

extern "C" __global__ __aicore__ void row_slot_write(GM_ADDR base, GM_ADDR pos, GM_ADDR val, GM_ADDR out,
                                                     GM_ADDR tiling)
{
    RowSlotWriteTiling tl;
    __gm__ uint32_t *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(RowSlotWriteTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    RowSlotWrite op;
    op.Init(base, pos, val, out, tl);
    op.Process();
}
