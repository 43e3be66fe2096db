/*
 * CubicWindowMean: 3-D average pooling, cubic window, zero padding counted in the divisor
 * (a window is clipped only where it runs past the padded border).
 *
 * Work item = one output row y[plane, od, oh, :].
 *  1. the (up to) k*k contributing input rows are summed into a row buffer that has
 *     zero guards on both sides (the guards play the role of the padding),
 *  2. k gathers with precomputed byte offsets pick, for every ow, the element at
 *     ow*stride + kw - pad; their sum is the window sum,
 *  3. the sum is multiplied by 1/|window| (a per-column vector times a per-row scalar).
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t GUARD = 8;  // leading zero floats (32 bytes) so the row stays aligned
}

class CubicWindowMeanKernel {
public:
    __aicore__ inline CubicWindowMeanKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CubicWindowMeanTilingData &td)
    {
        td_ = td;
        owPad = (td.outW + 7) / 8 * 8;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(rowQ, 2, ((td.inW + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(outQ, 2, owPad * sizeof(float));
        pipe.InitBuffer(accBuf, td.rowBufLen * sizeof(float));
        pipe.InitBuffer(pickBuf, owPad * sizeof(float));
        pipe.InitBuffer(offBuf, td.kernel * owPad * sizeof(uint32_t));
        pipe.InitBuffer(invWBuf, owPad * sizeof(float));
        BuildTables();
    }

    __aicore__ inline void Process()
    {
        const uint32_t rowsPerPlane = td_.outD * td_.outH;
        for (uint32_t r = GetBlockIdx(); r < td_.totalRows; r += GetBlockNum()) {
            const uint32_t plane = r / rowsPerPlane;
            const uint32_t od = (r % rowsPerPlane) / td_.outH;
            const uint32_t oh = r % td_.outH;
            PoolRow(plane, od, oh, r);
        }
    }

private:
    // number of taps of a window starting at o*s-p, clipped to [-(p), in+p)
    __aicore__ inline uint32_t Extent(uint32_t o, uint32_t in) const
    {
        int32_t start = static_cast<int32_t>(o * td_.stride) - static_cast<int32_t>(td_.pad);
        int32_t end = start + static_cast<int32_t>(td_.kernel);
        const int32_t lim = static_cast<int32_t>(in + td_.pad);
        if (end > lim) end = lim;
        return static_cast<uint32_t>(end - start);
    }

    __aicore__ inline void BuildTables()
    {
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        LocalTensor<float> invW = invWBuf.Get<float>();
        for (uint32_t kw = 0; kw < td_.kernel; ++kw) {
            for (uint32_t ow = 0; ow < owPad; ++ow) {
                // tail lanes point at the zero guard
                uint32_t idx = 0;
                if (ow < td_.outW) {
                    idx = GUARD + ow * td_.stride + kw - td_.pad;
                }
                offs.SetValue(kw * owPad + ow, idx * static_cast<uint32_t>(sizeof(float)));
            }
        }
        for (uint32_t ow = 0; ow < owPad; ++ow) {
            invW.SetValue(ow, ow < td_.outW ? 1.0f / static_cast<float>(Extent(ow, td_.inW)) : 0.0f);
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void PoolRow(uint32_t plane, uint32_t od, uint32_t oh, uint32_t rowIdx)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, td_.rowBufLen);

        const int32_t d0 = static_cast<int32_t>(od * td_.stride) - static_cast<int32_t>(td_.pad);
        const int32_t h0 = static_cast<int32_t>(oh * td_.stride) - static_cast<int32_t>(td_.pad);
        const uint64_t planeBase = static_cast<uint64_t>(plane) * td_.inD * td_.inH * td_.inW;
        DataCopyExtParams cp{1, td_.inW * 4u, 0, 0, 0};

        for (uint32_t a = 0; a < td_.kernel; ++a) {
            const int32_t d = d0 + static_cast<int32_t>(a);
            if (d < 0 || d >= static_cast<int32_t>(td_.inD)) continue;  // padded slice adds zero
            for (uint32_t b = 0; b < td_.kernel; ++b) {
                const int32_t h = h0 + static_cast<int32_t>(b);
                if (h < 0 || h >= static_cast<int32_t>(td_.inH)) continue;
                LocalTensor<float> row = rowQ.AllocTensor<float>();
                DataCopyPad(row, xGm[planeBase + (static_cast<uint64_t>(d) * td_.inH + h) * td_.inW], cp,
                            DataCopyPadExtParams<float>{false, 0, 0, 0});
                rowQ.EnQue(row);
                row = rowQ.DeQue<float>();
                Add(acc[GUARD], acc[GUARD], row, td_.inW);
                rowQ.FreeTensor(row);
            }
        }
        // the row copies may have been padded up to 8 floats: clear what lies past inW
        const uint32_t tailStart = GUARD + td_.inW;
        for (uint32_t i = tailStart; i < (tailStart + 7) / 8 * 8; ++i) {
            PipeBarrier<PIPE_V>();
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            acc.SetValue(i, 0.0f);
            event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(ev2);
            WaitFlag<HardEvent::S_V>(ev2);
        }

        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        LocalTensor<float> pick = pickBuf.Get<float>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        Gather(out, acc, offs, 0u, owPad);
        for (uint32_t kw = 1; kw < td_.kernel; ++kw) {
            Gather(pick, acc, offs[kw * owPad], 0u, owPad);
            Add(out, out, pick, owPad);
        }
        const float rowScale = 1.0f / static_cast<float>(Extent(od, td_.inD) * Extent(oh, td_.inH));
        Mul(out, out, invWBuf.Get<float>(), owPad);
        Muls(out, out, rowScale, owPad);
        outQ.EnQue(out);

        out = outQ.DeQue<float>();
        DataCopyExtParams ocp{1, td_.outW * 4u, 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(rowIdx) * td_.outW], out, ocp);
        outQ.FreeTensor(out);
    }

    CubicWindowMeanTilingData td_;
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> accBuf, pickBuf, offBuf, invWBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t owPad = 0;
};

extern "C" __global__ __aicore__ void cubic_window_mean(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    CubicWindowMeanKernel kernel;
    kernel.Init(x, y, td);
    kernel.Process();
}
