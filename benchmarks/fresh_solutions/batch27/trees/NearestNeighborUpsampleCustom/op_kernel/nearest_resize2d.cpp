/**
 * @file nearest_resize2d.cpp
 * @brief Kernel of NearestResize2d: y[..., oh, ow] = x[..., src(oh), src(ow)] with
 *        src(o) = o                      if out == in
 *               = o / 2                  if out == 2 * in
 *               = min(floor(o * inv), in - 1) otherwise      (inv = 1 / scale)
 *
 * Each core walks a contiguous range of output row segments.  Output rows that read the
 * same input row are grouped (up to repCap rows): the input span is staged once, a single
 * Gather with a pre-built byte-offset table writes repCap copies of the resized segment,
 * and one multi-block DataCopyPad stores them to consecutive output rows.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
}

template <typename T>
class NearestResize2dKernel {
public:
    __aicore__ inline NearestResize2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const NearestResize2dTilingData& td)
    {
        inH_ = td.inH; inW_ = td.inW; outH_ = td.outH; outW_ = td.outW;
        invH_ = td.invScaleH; invW_ = td.invScaleW;
        owTile_ = td.owTile; tileAligned_ = td.owTileAligned;
        repCap_ = td.repCap; inBufLen_ = td.inBufLen; totalRows_ = td.totalRows;

        const uint32_t core = GetBlockIdx();
        unitBegin_ = core * td.unitsPerCore + (core < td.unitsRemainder ? core : td.unitsRemainder);
        unitCount_ = td.unitsPerCore + (core < td.unitsRemainder ? 1 : 0);

        xGm_.SetGlobalBuffer((__gm__ T*)x);
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        pipe_.InitBuffer(inQue_, DEPTH, inBufLen_ * sizeof(T));
        pipe_.InitBuffer(outQue_, DEPTH, repCap_ * tileAligned_ * sizeof(T));
        pipe_.InitBuffer(tableBuf_, repCap_ * tileAligned_ * sizeof(uint32_t));
    }

    __aicore__ inline void Process()
    {
        int64_t builtTile = -1;
        uint32_t k = 0;
        while (k < unitCount_) {
            const uint32_t u = unitBegin_ + k;
            const uint32_t t = u / totalRows_;
            const uint32_t row = u % totalRows_;
            if (static_cast<int64_t>(t) != builtTile) {
                BuildTable(t);
                builtTile = t;
            }
            const uint32_t plane = row / outH_;
            const uint32_t oh = row % outH_;
            const uint32_t ih = SrcIndex(oh, inH_, outH_, invH_);
            // extend the group while the next output rows read the same input row
            uint32_t run = 1;
            while (run < repCap_ && k + run < unitCount_ && oh + run < outH_ &&
                   SrcIndex(oh + run, inH_, outH_, invH_) == ih) {
                ++run;
            }
            CopyIn(plane, ih);
            Compute(run);
            CopyOut(plane, oh, run);
            k += run;
        }
    }

private:
    __aicore__ inline uint32_t SrcIndex(uint32_t dst, uint32_t inSize, uint32_t outSize, float inv) const
    {
        if (outSize == inSize) {
            return dst;
        }
        if (outSize == 2 * inSize) {
            return dst >> 1;
        }
        const uint32_t s = static_cast<uint32_t>(static_cast<float>(dst) * inv);
        return s < inSize - 1 ? s : inSize - 1;
    }

    __aicore__ inline void BuildTable(uint32_t t)
    {
        ow0_ = t * owTile_;
        len_ = (outW_ - ow0_ < owTile_) ? (outW_ - ow0_) : owTile_;
        iwLo_ = SrcIndex(ow0_, inW_, outW_, invW_);
        const uint32_t iwHi = SrcIndex(ow0_ + len_ - 1, inW_, outW_, invW_);
        spanLen_ = iwHi - iwLo_ + 1;

        // previous Gathers may still read the table
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);

        LocalTensor<uint32_t> table = tableBuf_.Get<uint32_t>();
        for (uint32_t j = 0; j < tileAligned_; ++j) {
            const uint32_t off = (j < len_) ? (SrcIndex(ow0_ + j, inW_, outW_, invW_) - iwLo_) * sizeof(T) : 0;
            for (uint32_t r = 0; r < repCap_; ++r) {
                table.SetValue(r * tileAligned_ + j, off);
            }
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    __aicore__ inline void CopyIn(uint32_t plane, uint32_t ih)
    {
        LocalTensor<T> in = inQue_.AllocTensor<T>();
        const uint64_t src = (static_cast<uint64_t>(plane) * inH_ + ih) * inW_ + iwLo_;
        DataCopyExtParams cp{1, spanLen_ * static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> noPad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(in, xGm_[src], cp, noPad);
        inQue_.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t run)
    {
        LocalTensor<T> in = inQue_.DeQue<T>();
        LocalTensor<T> out = outQue_.AllocTensor<T>();
        LocalTensor<uint32_t> table = tableBuf_.Get<uint32_t>();
        Gather(out, in, table, 0, run * tileAligned_);
        outQue_.EnQue(out);
        inQue_.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint32_t plane, uint32_t oh, uint32_t run)
    {
        LocalTensor<T> out = outQue_.DeQue<T>();
        const uint64_t dst = (static_cast<uint64_t>(plane) * outH_ + oh) * outW_ + ow0_;
        // rows are tileAligned_ apart in UB (32-byte multiple) and outW apart in GM
        const uint32_t rowBytes = len_ * sizeof(T);
        const uint32_t ubRowBytes = tileAligned_ * sizeof(T);
        const uint32_t usedBytes = (rowBytes + 31) / 32 * 32;
        DataCopyExtParams cp{static_cast<uint16_t>(run), rowBytes, (ubRowBytes - usedBytes) / 32,
                             (outW_ - len_) * static_cast<uint32_t>(sizeof(T)), 0};
        DataCopyPad(yGm_[dst], out, cp);
        outQue_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, DEPTH> inQue_;
    TQue<QuePosition::VECOUT, DEPTH> outQue_;
    TBuf<TPosition::VECCALC> tableBuf_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;

    uint32_t inH_, inW_, outH_, outW_;
    float invH_, invW_;
    uint32_t owTile_, tileAligned_, repCap_, inBufLen_, totalRows_;
    uint32_t unitBegin_ = 0;
    uint32_t unitCount_ = 0;
    uint32_t ow0_ = 0;
    uint32_t len_ = 0;
    uint32_t iwLo_ = 0;
    uint32_t spanLen_ = 0;
};

extern "C" __global__ __aicore__ void nearest_resize2d(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    NearestResize2dKernel<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
