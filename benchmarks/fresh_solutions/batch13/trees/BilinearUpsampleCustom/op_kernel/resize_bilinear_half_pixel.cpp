/*
 * ResizeBilinearHalfPixel — bilinear resize of NCHW planes, half-pixel centres
 * (the "align_corners = false" convention):
 *
 *   src = max((dst + 0.5) * inv_scale - 0.5, 0),  i0 = floor(src),  i1 = min(i0 + 1, in - 1)
 *
 * One output row at a time: the two contributing source rows are blended vertically with a
 * single scalar weight, then the horizontal step is two Gathers with precomputed byte offsets
 * followed by a lerp with a precomputed weight vector (both tables depend only on the column).
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class BilinearRowResizer {
public:
    __aicore__ inline BilinearRowResizer() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ResizeBilinearHalfPixelTilingData &td)
    {
        inH = td.inH;
        inW = td.inW;
        outH = td.outH;
        outW = td.outW;
        inWPad = td.inWPad;
        outWPad = td.outWPad;
        stepH = td.invScaleH;
        stepW = td.invScaleW;

        const uint32_t bid = GetBlockIdx();
        rowCount = td.rowsPerCore + (bid < td.rowsLeft ? 1 : 0);
        rowStart = bid * td.rowsPerCore + (bid < td.rowsLeft ? bid : td.rowsLeft);

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(srcQ, 2, 2 * inWPad * sizeof(T));      // [row i0 | row i1]
        pipe.InitBuffer(dstQ, 2, outWPad * sizeof(T));
        pipe.InitBuffer(blendBuf, inWPad * sizeof(float));
        pipe.InitBuffer(wideBuf, 2 * inWPad * sizeof(float));  // fp16 -> fp32 staging
        pipe.InitBuffer(leftBuf, outWPad * sizeof(float));
        pipe.InitBuffer(rightBuf, outWPad * sizeof(float));
        pipe.InitBuffer(lambdaBuf, outWPad * sizeof(float));
        pipe.InitBuffer(leftOffBuf, outWPad * sizeof(uint32_t));
        pipe.InitBuffer(rightOffBuf, outWPad * sizeof(uint32_t));

        BuildColumnTables();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            const uint32_t row = rowStart + r;
            const uint32_t plane = row / outH;
            const uint32_t oh = row % outH;

            float src = (static_cast<float>(oh) + 0.5f) * stepH - 0.5f;
            if (src < 0.0f) {
                src = 0.0f;
            }
            uint32_t y0 = static_cast<uint32_t>(src);
            if (y0 > inH - 1) {
                y0 = inH - 1;
            }
            const uint32_t y1 = (y0 + 1 < inH) ? y0 + 1 : inH - 1;
            const float wy = src - static_cast<float>(y0);

            FetchRows(plane, y0, y1);
            ResizeRow(wy);
            WriteRow(row);
        }
    }

private:
    // column source offsets (in bytes of float, relative to the blended row) and weights
    __aicore__ inline void BuildColumnTables()
    {
        LocalTensor<uint32_t> offL = leftOffBuf.Get<uint32_t>();
        LocalTensor<uint32_t> offR = rightOffBuf.Get<uint32_t>();
        LocalTensor<float> lam = lambdaBuf.Get<float>();
        for (uint32_t ow = 0; ow < outWPad; ++ow) {
            uint32_t x0 = 0, x1 = 0;
            float w = 0.0f;
            if (ow < outW) {
                float src = (static_cast<float>(ow) + 0.5f) * stepW - 0.5f;
                if (src < 0.0f) {
                    src = 0.0f;
                }
                x0 = static_cast<uint32_t>(src);
                if (x0 > inW - 1) {
                    x0 = inW - 1;
                }
                x1 = (x0 + 1 < inW) ? x0 + 1 : inW - 1;
                w = src - static_cast<float>(x0);
            }
            offL.SetValue(ow, x0 * static_cast<uint32_t>(sizeof(float)));
            offR.SetValue(ow, x1 * static_cast<uint32_t>(sizeof(float)));
            lam.SetValue(ow, w);
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void FetchRows(uint32_t plane, uint32_t y0, uint32_t y1)
    {
        LocalTensor<T> buf = srcQ.AllocTensor<T>();
        const uint64_t base = static_cast<uint64_t>(plane) * inH * inW;
        DataCopyExtParams cp{1, static_cast<uint32_t>(inW * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(buf, xGm[base + static_cast<uint64_t>(y0) * inW], cp, pad);
        DataCopyPad(buf[inWPad], xGm[base + static_cast<uint64_t>(y1) * inW], cp, pad);
        srcQ.EnQue(buf);
    }

    __aicore__ inline void ResizeRow(float wy)
    {
        LocalTensor<T> buf = srcQ.DeQue<T>();
        LocalTensor<float> rows;
        if constexpr (sizeof(T) == sizeof(float)) {
            rows = buf.template ReinterpretCast<float>();
        } else {
            rows = wideBuf.Get<float>();
            Cast(rows, buf, RoundMode::CAST_NONE, 2 * inWPad);
        }
        LocalTensor<float> blend = blendBuf.Get<float>();
        LocalTensor<float> left = leftBuf.Get<float>();
        LocalTensor<float> right = rightBuf.Get<float>();
        LocalTensor<float> lam = lambdaBuf.Get<float>();

        // vertical: blend = top + (bottom - top) * wy
        Sub(blend, rows[inWPad], rows, inWPad);
        Muls(blend, blend, wy, inWPad);
        Add(blend, blend, rows, inWPad);
        srcQ.FreeTensor(buf);

        // horizontal: gather both neighbours then lerp with per-column weights
        Gather(left, blend, leftOffBuf.Get<uint32_t>(), 0U, outWPad);
        Gather(right, blend, rightOffBuf.Get<uint32_t>(), 0U, outWPad);
        Sub(right, right, left, outWPad);
        Mul(right, right, lam, outWPad);

        LocalTensor<T> out = dstQ.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            Add(out, left, right, outWPad);
        } else {
            Add(left, left, right, outWPad);
            Cast(out, left, RoundMode::CAST_ROUND, outWPad);
        }
        dstQ.EnQue(out);
    }

    __aicore__ inline void WriteRow(uint32_t row)
    {
        LocalTensor<T> out = dstQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(row) * outW], out, cp);
        dstQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> srcQ;
    TQue<QuePosition::VECOUT, 2> dstQ;
    TBuf<TPosition::VECCALC> blendBuf, wideBuf, leftBuf, rightBuf, lambdaBuf, leftOffBuf, rightOffBuf;
    GlobalTensor<T> xGm, yGm;

    uint32_t inH, inW, outH, outW, inWPad, outWPad;
    float stepH, stepW;
    uint32_t rowStart, rowCount;
};

extern "C" __global__ __aicore__ void resize_bilinear_half_pixel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        BilinearRowResizer<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        BilinearRowResizer<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
