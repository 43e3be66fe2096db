/*
 * GatherAlongAxis: y[o, j, i] = x[o, indices[o, j, i], i]
 *
 * Key 1 (inner == 1, source row fits UB): the whole source row is staged in UB
 *   and the vector Gather instruction picks elements by byte offset. The int64
 *   indices are narrowed by keeping the low 32-bit word of each pair
 *   (GatherMask pattern 1 = even lanes), then scaled to byte offsets.
 * Key 2 (inner > 1): per destination row, elements are fetched one by one.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DB = 2;

template <typename T>
class GatherAlongAxisKernel {
public:
    __aicore__ inline GatherAlongAxisKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR y, const GatherAlongAxisTilingData &td)
    {
        srcAxis = td.srcAxis;
        dstAxis = td.dstAxis;
        inner = td.inner;
        tileLen = td.tileLen;

        uint32_t blk = GetBlockIdx();
        rowCount = td.rowsPerCore + (blk < td.tailRows ? 1 : 0);
        rowStart = blk * td.rowsPerCore + (blk < td.tailRows ? blk : td.tailRows);

        xGm.SetGlobalBuffer((__gm__ T *)x);
        idxGm.SetGlobalBuffer((__gm__ int64_t *)indices);
        idx32Gm.SetGlobalBuffer((__gm__ int32_t *)indices);
        yGm.SetGlobalBuffer((__gm__ T *)y);
    }

    __aicore__ inline void ProcessLastAxis()
    {
        pipe.InitBuffer(rowQue, 1, RoundUp(srcAxis * sizeof(T)));
        pipe.InitBuffer(idxQue, DB, tileLen * sizeof(int64_t));
        pipe.InitBuffer(outQue, DB, RoundUp(tileLen * sizeof(T)));
        pipe.InitBuffer(offBuf, tileLen * sizeof(int32_t));

        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t row = rowStart + r;
            LocalTensor<T> src = rowQue.AllocTensor<T>();
            DataCopyExtParams rowCp{1, static_cast<uint32_t>(srcAxis * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
            DataCopyPad(src, xGm[row * srcAxis], rowCp, noPad);
            rowQue.EnQue(src);
            src = rowQue.DeQue<T>();

            uint32_t tiles = (dstAxis + tileLen - 1) / tileLen;
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t cnt = (t == tiles - 1) ? dstAxis - t * tileLen : tileLen;
                uint64_t base = row * dstAxis + static_cast<uint64_t>(t) * tileLen;
                LoadIndexTile(base, cnt);
                GatherTile(src, base, cnt);
            }
            rowQue.FreeTensor(src);
        }
    }

    __aicore__ inline void ProcessStrided()
    {
        pipe.InitBuffer(idxQue, DB, tileLen * sizeof(int64_t));
        pipe.InitBuffer(outQue, DB, RoundUp(tileLen * sizeof(T)));

        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t o = rowStart + r;
            for (uint32_t j = 0; j < dstAxis; ++j) {
                uint64_t dstRow = (o * dstAxis + j) * inner;
                for (uint32_t i0 = 0; i0 < inner; i0 += tileLen) {
                    uint32_t cnt = (inner - i0 < tileLen) ? inner - i0 : tileLen;
                    LocalTensor<int64_t> ind = idxQue.AllocTensor<int64_t>();
                    DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(int64_t)), 0, 0, 0};
                    DataCopyPadExtParams<int64_t> noPad{false, 0, 0, 0};
                    DataCopyPad(ind, idxGm[dstRow + i0], cp, noPad);
                    idxQue.EnQue(ind);
                    ind = idxQue.DeQue<int64_t>();

                    LocalTensor<T> out = outQue.AllocTensor<T>();
                    for (uint32_t i = 0; i < cnt; ++i) {
                        int64_t k = ind.GetValue(i);
                        uint64_t srcOff = (o * srcAxis + static_cast<uint64_t>(k)) * inner + i0 + i;
                        out.SetValue(i, xGm.GetValue(srcOff));
                    }
                    idxQue.FreeTensor(ind);
                    outQue.EnQue(out);
                    out = outQue.DeQue<T>();
                    DataCopyExtParams oc{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
                    DataCopyPad(yGm[dstRow + i0], out, oc);
                    outQue.FreeTensor(out);
                }
            }
        }
    }

private:
    __aicore__ inline uint32_t RoundUp(uint32_t bytes) { return (bytes + 31U) / 32U * 32U; }

    __aicore__ inline void LoadIndexTile(uint64_t base, uint32_t cnt)
    {
        // read the int64 tile as 2*cnt int32 words
        LocalTensor<int32_t> raw = idxQue.AllocTensor<int32_t>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(int64_t)), 0, 0, 0};
        DataCopyPadExtParams<int32_t> noPad{false, 0, 0, 0};
        DataCopyPad(raw, idx32Gm[base * 2], cp, noPad);
        idxQue.EnQue(raw);
    }

    __aicore__ inline void GatherTile(LocalTensor<T> &src, uint64_t base, uint32_t cnt)
    {
        LocalTensor<int32_t> raw = idxQue.DeQue<int32_t>();
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();

        // keep the low word of every little-endian int64 (even lanes)
        uint64_t kept = 0;
        uint16_t repeat = static_cast<uint16_t>((cnt * 2 + 63) / 64);
        GatherMaskParams gmp{static_cast<uint8_t>(1), repeat, 8, 0};
        GatherMask(off, raw, static_cast<uint8_t>(1), false, static_cast<uint32_t>(0), gmp, kept);
        idxQue.FreeTensor(raw);
        PipeBarrier<PIPE_V>();

        // element index -> byte offset within the staged row
        Muls(off, off, static_cast<int32_t>(sizeof(T)), cnt);
        PipeBarrier<PIPE_V>();

        LocalTensor<T> out = outQue.AllocTensor<T>();
        Gather(out, src, off.ReinterpretCast<uint32_t>(), static_cast<uint32_t>(0), cnt);
        outQue.EnQue(out);

        out = outQue.DeQue<T>();
        DataCopyExtParams oc{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[base], out, oc);
        outQue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> rowQue;
    TQue<QuePosition::VECIN, DB> idxQue;
    TQue<QuePosition::VECOUT, DB> outQue;
    TBuf<TPosition::VECCALC> offBuf;

    GlobalTensor<T> xGm, yGm;
    GlobalTensor<int64_t> idxGm;
    GlobalTensor<int32_t> idx32Gm;

    uint32_t srcAxis = 0, dstAxis = 0, inner = 1, tileLen = 0;
    uint32_t rowStart = 0, rowCount = 0;
};

extern "C" __global__ __aicore__ void gather_along_axis(GM_ADDR x, GM_ADDR indices, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GatherAlongAxisKernel<DTYPE_X> op;
    op.Init(x, indices, y, td);
    if (TILING_KEY_IS(1)) {
        op.ProcessLastAxis();
    } else if (TILING_KEY_IS(2)) {
        op.ProcessStrided();
    }
}
