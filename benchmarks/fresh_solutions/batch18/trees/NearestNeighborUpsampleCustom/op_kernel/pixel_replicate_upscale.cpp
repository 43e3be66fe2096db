// Nearest-neighbour spatial upscaling of the two innermost axes.
// Output rows are dealt out to cores. A column offset table (byte offsets of
// the source pixel for each output column) is built once per core; a source
// row is then expanded with a single Gather and reused for every output row
// that maps to it.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class PixelReplicateUpscaleKernel {
public:
    __aicore__ inline PixelReplicateUpscaleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const PixelReplicateUpscaleTilingData &td)
    {
        inH = td.inH;
        inW = td.inW;
        outH = td.outH;
        outW = td.outW;
        invH = td.invScaleH;
        invW = td.invScaleW;
        inWA = td.inWAlign;
        outWA = td.outWAlign;
        rowBegin = static_cast<uint64_t>(GetBlockIdx()) * td.rowsPerCore;
        rowEnd = rowBegin + td.rowsPerCore;
        if (rowEnd > td.outRows) {
            rowEnd = td.outRows;
        }

        src.SetGlobalBuffer((__gm__ T *)x);
        dst.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(inQue, 2, inWA * sizeof(T));
        pipe.InitBuffer(outQue, 2, outWA * sizeof(T));
        pipe.InitBuffer(offsetBuf, ((outW + 7) / 8 * 8) * sizeof(uint32_t));
    }

    __aicore__ inline void Process()
    {
        if (rowBegin >= rowEnd) {
            return;
        }
        BuildColumnTable();

        uint64_t cachedSrcRow = ~0ULL;
        LocalTensor<T> expanded;
        bool holding = false;
        for (uint64_t r = rowBegin; r < rowEnd; ++r) {
            uint64_t plane = r / outH;
            uint32_t oh = static_cast<uint32_t>(r % outH);
            uint32_t ih = SourceIndex(oh, invH, inH);
            uint64_t srcRow = plane * inH + ih;
            if (srcRow != cachedSrcRow) {
                if (holding) {
                    outQue.FreeTensor(expanded);
                }
                expanded = ExpandRow(srcRow);
                cachedSrcRow = srcRow;
                holding = true;
            }
            DataCopyExtParams cp{1, static_cast<uint32_t>(outW * sizeof(T)), 0, 0, 0};
            DataCopyPad(dst[r * outW], expanded, cp);
        }
        if (holding) {
            outQue.FreeTensor(expanded);
        }
    }

private:
    __aicore__ inline uint32_t SourceIndex(uint32_t o, float inv, uint32_t limit)
    {
        uint32_t s = static_cast<uint32_t>(static_cast<float>(o) * inv);
        return s < limit ? s : limit - 1;
    }

    __aicore__ inline void BuildColumnTable()
    {
        LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();
        for (uint32_t c = 0; c < outW; ++c) {
            off.SetValue(c, SourceIndex(c, invW, inW) * static_cast<uint32_t>(sizeof(T)));
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    // load source row, gather into an output row, and hand it back ready for MTE3
    __aicore__ inline LocalTensor<T> ExpandRow(uint64_t srcRow)
    {
        LocalTensor<T> in = inQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(inW * sizeof(T)), 0, 0, 0};
        DataCopyPad(in, src[srcRow * inW], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQue.EnQue(in);
        in = inQue.DeQue<T>();

        LocalTensor<T> out = outQue.AllocTensor<T>();
        LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();
        Gather(out, in, off, 0U, outW);
        inQue.FreeTensor(in);
        outQue.EnQue(out);
        return outQue.DeQue<T>();
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> offsetBuf;
    GlobalTensor<T> src, dst;
    uint32_t inH = 0, inW = 0, outH = 0, outW = 0, inWA = 0, outWA = 0;
    float invH = 1.0f, invW = 1.0f;
    uint64_t rowBegin = 0, rowEnd = 0;
};

extern "C" __global__ __aicore__ void pixel_replicate_upscale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    PixelReplicateUpscaleKernel<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
