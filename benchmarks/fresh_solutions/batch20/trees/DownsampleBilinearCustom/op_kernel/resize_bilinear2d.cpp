// Bilinear 2-D resize, NCHW, one output row per step.
//
// Row step : blend the two source rows  r = r0 + ly * (r1 - r0)
// Col step : two Gathers (left / right neighbour) + per-column weight
//            out = a + lx * (b - a)
// Column tables (byte offsets and weights) are built once per core.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class ResizeBilinear2dKernel {
public:
    __aicore__ inline ResizeBilinear2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ResizeBilinear2dTilingData &t)
    {
        inH = t.inH;
        inW = t.inW;
        outH = t.outH;
        outW = t.outW;
        scaleH = t.scaleH;
        scaleW = t.scaleW;
        alignCorners = t.alignCorners != 0;

        uint32_t bid = GetBlockIdx();
        rowStart = bid * t.rowsPerCore + (bid < t.rowsRemain ? bid : t.rowsRemain);
        rowCount = t.rowsPerCore + (bid < t.rowsRemain ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        uint32_t inWA = (inW + 15) / 16 * 16;
        uint32_t outWA = (outW + 15) / 16 * 16;
        pipe.InitBuffer(srcQ, 2, 2 * inWA * sizeof(T));   // both source rows share one buffer
        pipe.InitBuffer(dstQ, 2, outWA * sizeof(T));
        pipe.InitBuffer(rowTop, inWA * sizeof(float));
        pipe.InitBuffer(rowBot, inWA * sizeof(float));
        pipe.InitBuffer(leftIdx, outWA * sizeof(uint32_t));
        pipe.InitBuffer(rightIdx, outWA * sizeof(uint32_t));
        pipe.InitBuffer(colW, outWA * sizeof(float));
        pipe.InitBuffer(gA, outWA * sizeof(float));
        pipe.InitBuffer(gB, outWA * sizeof(float));
        inStride = inWA;

        BuildColumnTables();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint32_t row = rowStart + r;
            uint32_t plane = row / outH;
            uint32_t oh = row % outH;
            uint32_t y0, y1;
            float ly;
            SourceCoord(oh, scaleH, inH, y0, y1, ly);
            FetchRows(plane, y0, y1);
            BlendAndStore(row, ly);
        }
    }

private:
    __aicore__ inline void SourceCoord(uint32_t d, float scale, uint32_t inLen, uint32_t &i0, uint32_t &i1,
                                       float &lambda)
    {
        float src = alignCorners ? static_cast<float>(d) * scale : (static_cast<float>(d) + 0.5f) * scale - 0.5f;
        if (src < 0.0f) {
            src = 0.0f;
        }
        i0 = static_cast<uint32_t>(src);  // floor, src >= 0
        if (i0 > inLen - 1) {
            i0 = inLen - 1;
        }
        i1 = (i0 + 1 < inLen) ? i0 + 1 : inLen - 1;
        lambda = src - static_cast<float>(i0);
    }

    __aicore__ inline void BuildColumnTables()
    {
        LocalTensor<uint32_t> li = leftIdx.Get<uint32_t>();
        LocalTensor<uint32_t> ri = rightIdx.Get<uint32_t>();
        LocalTensor<float> lw = colW.Get<float>();
        for (uint32_t ow = 0; ow < outW; ++ow) {
            uint32_t x0, x1;
            float lx;
            SourceCoord(ow, scaleW, inW, x0, x1, lx);
            li.SetValue(ow, x0 * static_cast<uint32_t>(sizeof(float)));
            ri.SetValue(ow, x1 * static_cast<uint32_t>(sizeof(float)));
            lw.SetValue(ow, lx);
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void FetchRows(uint32_t plane, uint32_t y0, uint32_t y1)
    {
        LocalTensor<T> buf = srcQ.AllocTensor<T>();
        uint64_t base = static_cast<uint64_t>(plane) * inH * inW;
        DataCopyExtParams cp{1, static_cast<uint32_t>(inW * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(buf, xGm[base + static_cast<uint64_t>(y0) * inW], cp, pad);
        DataCopyPad(buf[inStride], xGm[base + static_cast<uint64_t>(y1) * inW], cp, pad);
        srcQ.EnQue(buf);
    }

    __aicore__ inline void BlendAndStore(uint32_t row, float ly)
    {
        LocalTensor<T> buf = srcQ.DeQue<T>();
        LocalTensor<float> top = rowTop.Get<float>();
        LocalTensor<float> bot = rowBot.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            Adds(top, buf, 0.0f, inW);
            Adds(bot, buf[inStride], 0.0f, inW);
        } else {
            Cast(top, buf, RoundMode::CAST_NONE, inW);
            Cast(bot, buf[inStride], RoundMode::CAST_NONE, inW);
        }
        srcQ.FreeTensor(buf);

        // vertical: top += ly * (bot - top)
        if (ly != 0.0f) {
            Sub(bot, bot, top, inW);
            Axpy(top, bot, ly, inW);
        }

        // horizontal
        LocalTensor<float> a = gA.Get<float>();
        LocalTensor<float> b = gB.Get<float>();
        Gather(a, top, leftIdx.Get<uint32_t>(), 0U, outW);
        Gather(b, top, rightIdx.Get<uint32_t>(), 0U, outW);
        Sub(b, b, a, outW);
        Mul(b, b, colW.Get<float>(), outW);
        Add(a, a, b, outW);

        LocalTensor<T> out = dstQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            Adds(out, a, 0.0f, outW);
        } else {
            Cast(out, a, RoundMode::CAST_ROUND, outW);
        }
        dstQ.EnQue(out);

        out = dstQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(row) * outW], out, cp);
        dstQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> srcQ;
    TQue<QuePosition::VECOUT, 2> dstQ;
    TBuf<TPosition::VECCALC> rowTop, rowBot, leftIdx, rightIdx, colW, gA, gB;
    GlobalTensor<T> xGm, yGm;

    uint32_t inH = 0, inW = 0, outH = 0, outW = 0, inStride = 0;
    float scaleH = 1.0f, scaleW = 1.0f;
    bool alignCorners = false;
    uint32_t rowStart = 0, rowCount = 0;
};

extern "C" __global__ __aicore__ void resize_bilinear2d(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    ResizeBilinear2dKernel<DTYPE_X> op;
    op.Init(x, y, t);
    op.Process();
}
