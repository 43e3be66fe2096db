#include "kernel_operator.h"

using namespace AscendC;

// Direct convolution on the vector unit.
// Work item = one output row (n, oh). For that row the K input rows of every input channel are
// brought to UB (zero padded), an im2col patch matrix [C*K*K, OW] is built with scalar gathers
// (stride 4 makes a vector gather awkward), then every output channel is produced with Axpy
// over the patch rows: y[oc, :] = bias[oc] + sum_k w[oc, k] * cols[k, :].
class KernelConvStd2dSquare {
public:
    __aicore__ inline KernelConvStd2dSquare() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                const ConvStandard2dSquareInputSquareKernelCustomTilingData& td)
    {
        batch = td.batch;
        inC = td.inC;
        inH = td.inH;
        inW = td.inW;
        outC = td.outC;
        outH = td.outH;
        outW = td.outW;
        kSize = td.kSize;
        stride = td.stride;
        pad = td.pad;
        rowStride = td.rowStride;
        colLen = td.colLen;
        patchLen = td.patchLen;
        patchLenAlign = td.patchLenAlign;

        uint32_t blockIdx = GetBlockIdx();
        rowCount = td.rowsPerCore + (blockIdx < td.rowsRemain ? 1 : 0);
        rowStart = blockIdx * td.rowsPerCore + (blockIdx < td.rowsRemain ? blockIdx : td.rowsRemain);

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)batch * inC * inH * inW);
        wGm.SetGlobalBuffer((__gm__ float*)weight, (uint64_t)outC * patchLen);
        bGm.SetGlobalBuffer((__gm__ float*)bias, outC);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)batch * outC * outH * outW);

        pipe.InitBuffer(rowBuf, inC * kSize * rowStride * sizeof(float));
        pipe.InitBuffer(colBuf, patchLen * colLen * sizeof(float));
        pipe.InitBuffer(wQue, 2, patchLenAlign * sizeof(float));
        pipe.InitBuffer(outQue, 2, colLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint32_t row = rowStart + r;
            uint32_t n = row / outH;
            uint32_t oh = row % outH;
            LoadInputRows(n, oh);
            BuildColumns();
            ComputeChannels(n, oh);
        }
    }

private:
    __aicore__ inline void LoadInputRows(uint32_t n, uint32_t oh)
    {
        PipeBarrier<PIPE_ALL>();
        LocalTensor<float> rows = rowBuf.Get<float>();
        Duplicate(rows, 0.0f, inC * kSize * rowStride);
        event_t evVToMte2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(evVToMte2);
        WaitFlag<HardEvent::V_MTE2>(evVToMte2);

        // left zero padding comes from DataCopyPad, the right side is already zero
        uint8_t rightPad = static_cast<uint8_t>(((inW + pad + 7) / 8 * 8) - inW - pad);
        DataCopyExtParams cp{1, static_cast<uint32_t>(inW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{true, static_cast<uint8_t>(pad), rightPad, 0.0f};
        int32_t ihBase = static_cast<int32_t>(oh * stride) - static_cast<int32_t>(pad);
        for (uint32_t ic = 0; ic < inC; ++ic) {
            for (uint32_t kh = 0; kh < kSize; ++kh) {
                int32_t ih = ihBase + static_cast<int32_t>(kh);
                if (ih < 0 || ih >= static_cast<int32_t>(inH)) {
                    continue;   // stays zero: padding row
                }
                uint64_t src = (((uint64_t)n * inC + ic) * inH + ih) * inW;
                DataCopyPad(rows[(ic * kSize + kh) * rowStride], xGm[src], cp, padParams);
            }
        }
        event_t evMte2ToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evMte2ToS);
        WaitFlag<HardEvent::MTE2_S>(evMte2ToS);
    }

    __aicore__ inline void BuildColumns()
    {
        LocalTensor<float> rows = rowBuf.Get<float>();
        LocalTensor<float> cols = colBuf.Get<float>();
        uint32_t p = 0;
        for (uint32_t ic = 0; ic < inC; ++ic) {
            for (uint32_t kh = 0; kh < kSize; ++kh) {
                uint32_t rowBase = (ic * kSize + kh) * rowStride;
                for (uint32_t kw = 0; kw < kSize; ++kw) {
                    uint32_t dstBase = p * colLen;
                    for (uint32_t ow = 0; ow < outW; ++ow) {
                        cols.SetValue(dstBase + ow, rows.GetValue(rowBase + ow * stride + kw));
                    }
                    for (uint32_t ow = outW; ow < colLen; ++ow) {
                        cols.SetValue(dstBase + ow, 0.0f);
                    }
                    ++p;
                }
            }
        }
        event_t evSToV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSToV);
        WaitFlag<HardEvent::S_V>(evSToV);
    }

    __aicore__ inline void ComputeChannels(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> cols = colBuf.Get<float>();
        DataCopyExtParams wCopy{1, static_cast<uint32_t>(patchLen * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyExtParams yCopy{1, static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};

        for (uint32_t oc = 0; oc < outC; ++oc) {
            // weights of this output channel -> UB, then read them as scalars
            LocalTensor<float> wLocal = wQue.AllocTensor<float>();
            DataCopyPad(wLocal, wGm[(uint64_t)oc * patchLen], wCopy, noPad);
            wQue.EnQue(wLocal);
            wLocal = wQue.DeQue<float>();
            event_t evMte2ToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(evMte2ToS);
            WaitFlag<HardEvent::MTE2_S>(evMte2ToS);

            LocalTensor<float> acc = outQue.AllocTensor<float>();
            Duplicate(acc, bGm.GetValue(oc), colLen);
            for (uint32_t p = 0; p < patchLen; ++p) {
                float wv = wLocal.GetValue(p);
                Axpy(acc, cols[p * colLen], wv, colLen);
            }
            wQue.FreeTensor(wLocal);
            outQue.EnQue(acc);

            LocalTensor<float> res = outQue.DeQue<float>();
            uint64_t dst = (((uint64_t)n * outC + oc) * outH + oh) * outW;
            DataCopyPad(yGm[dst], res, yCopy);
            outQue.FreeTensor(res);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> rowBuf;
    TBuf<TPosition::VECCALC> colBuf;
    TQue<QuePosition::VECIN, 2> wQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    GlobalTensor<float> xGm, wGm, bGm, yGm;

    uint32_t batch, inC, inH, inW, outC, outH, outW;
    uint32_t kSize, stride, pad;
    uint32_t rowStride, colLen, patchLen, patchLenAlign;
    uint32_t rowStart, rowCount;
};

extern "C" __global__ __aicore__ void conv_standard_2d_square_input_square_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvStd2dSquare op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
