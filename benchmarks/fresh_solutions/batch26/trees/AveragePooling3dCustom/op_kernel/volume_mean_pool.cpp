// 3-D average pooling (NCDHW), zero padding counted in the divisor.
// One output row (plane, od, oh) at a time: the valid (id, ih) input rows of
// the window are summed into a float row, then the W window is applied with
// kW gathers from that row (out-of-range taps point at a zero slot).
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class VolumeMeanPoolKernel {
public:
    __aicore__ inline VolumeMeanPoolKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const VolumeMeanPoolTilingData &t)
    {
        tl = t;
        rowBeg = GetBlockIdx() * t.rowsPerCore;
        rowEnd = rowBeg + t.rowsPerCore;
        if (rowEnd > t.totalRows) rowEnd = t.totalRows;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(inQ, 2, t.kH * t.inWAligned * sizeof(T));
        pipe.InitBuffer(outQ, 2, t.outWAligned * sizeof(T));
        pipe.InitBuffer(accBuf, t.inWAligned * sizeof(float));
        pipe.InitBuffer(castBuf, t.kH * t.inWAligned * sizeof(float));
        pipe.InitBuffer(tabBuf, t.kW * t.outWAligned * sizeof(uint32_t));
        pipe.InitBuffer(tapBuf, t.outWAligned * sizeof(float));
        pipe.InitBuffer(sumBuf, t.outWAligned * sizeof(float));
        BuildGatherTable();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBeg; r < rowEnd; ++r) {
            uint32_t oh = r % tl.outH;
            uint32_t od = (r / tl.outH) % tl.outD;
            uint32_t plane = r / (tl.outH * tl.outD);
            AccumulateWindowRows(plane, od, oh);
            PoolAlongW(static_cast<uint64_t>(r) * tl.outW);
        }
    }

private:
    // table[kw][ow] = byte offset of input column ow*sW - pW + kw, or of the
    // zero slot at column inW when that column is padding
    __aicore__ inline void BuildGatherTable()
    {
        LocalTensor<uint32_t> tab = tabBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < tl.kW; ++kw) {
            for (uint32_t ow = 0; ow < tl.outWAligned; ++ow) {
                int32_t iw = static_cast<int32_t>(ow * tl.sW + kw) - static_cast<int32_t>(tl.pW);
                uint32_t col = (ow >= tl.outW || iw < 0 || iw >= static_cast<int32_t>(tl.inW))
                                   ? tl.inW : static_cast<uint32_t>(iw);
                tab.SetValue(kw * tl.outWAligned + ow, col * static_cast<uint32_t>(sizeof(float)));
            }
        }
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
    }

    __aicore__ inline void AccumulateWindowRows(uint32_t plane, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, tl.inWAligned);

        int32_t h0 = static_cast<int32_t>(oh * tl.sH) - static_cast<int32_t>(tl.pH);
        int32_t h1 = h0 + static_cast<int32_t>(tl.kH);
        h0 = h0 < 0 ? 0 : h0;
        h1 = h1 > static_cast<int32_t>(tl.inH) ? static_cast<int32_t>(tl.inH) : h1;
        if (h1 <= h0) return;
        uint32_t nRows = static_cast<uint32_t>(h1 - h0);

        int32_t dBase = static_cast<int32_t>(od * tl.sD) - static_cast<int32_t>(tl.pD);
        for (uint32_t kd = 0; kd < tl.kD; ++kd) {
            int32_t id = dBase + static_cast<int32_t>(kd);
            if (id < 0 || id >= static_cast<int32_t>(tl.inD)) continue;  // padded depth slice
            uint64_t off = ((static_cast<uint64_t>(plane) * tl.inD + id) * tl.inH + h0) * tl.inW;

            // the window's rows are contiguous in GM: fetch them in one burst set
            LocalTensor<T> rows = inQ.AllocTensor<T>();
            DataCopyExtParams cp{static_cast<uint16_t>(nRows), static_cast<uint32_t>(tl.inW * sizeof(T)), 0, 0, 0};
            DataCopyPad(rows, xGm[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQ.EnQue(rows);
            rows = inQ.DeQue<T>();

            uint32_t stride = RowStrideInUb();
            for (uint32_t i = 0; i < nRows; ++i) {
                if constexpr (sizeof(T) == sizeof(float)) {
                    Add(acc, acc, rows[i * stride].template ReinterpretCast<float>(), tl.inW);
                } else {
                    LocalTensor<float> f = castBuf.Get<float>();
                    Cast(f, rows[i * stride], RoundMode::CAST_NONE, tl.inW);
                    Add(acc, acc, f, tl.inW);
                }
            }
            inQ.FreeTensor(rows);
        }
    }

    // DataCopyPad lands each GM row on a 32-byte boundary
    __aicore__ inline uint32_t RowStrideInUb() const
    {
        uint32_t perBlk = 32 / sizeof(T);
        return (tl.inW + perBlk - 1) / perBlk * perBlk;
    }

    __aicore__ inline void PoolAlongW(uint64_t outOff)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<uint32_t> tab = tabBuf.Get<uint32_t>();
        LocalTensor<float> tap = tapBuf.Get<float>();
        LocalTensor<float> sum = sumBuf.Get<float>();
        const uint32_t ow = tl.outW;

        Gather(sum, acc, tab, 0u, ow);
        for (uint32_t kw = 1; kw < tl.kW; ++kw) {
            Gather(tap, acc, tab[kw * tl.outWAligned], 0u, ow);
            Add(sum, sum, tap, ow);
        }

        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            Muls(o.template ReinterpretCast<float>(), sum, tl.invWindow, ow);
        } else {
            Muls(sum, sum, tl.invWindow, ow);
            Cast(o, sum, RoundMode::CAST_ROUND, ow);
        }
        outQ.EnQue(o);
        o = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(ow * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[outOff], o, cp);
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> accBuf, castBuf, tabBuf, tapBuf, sumBuf;
    GlobalTensor<T> xGm, yGm;
    VolumeMeanPoolTilingData tl;
    uint32_t rowBeg, rowEnd;
};

extern "C" __global__ __aicore__ void volume_mean_pool(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        VolumeMeanPoolKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        VolumeMeanPoolKernel<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
