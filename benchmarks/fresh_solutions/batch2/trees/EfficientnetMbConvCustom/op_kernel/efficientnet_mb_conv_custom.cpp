#include "kernel_operator.h"

using namespace AscendC;

// Depthwise KxK convolution (any stride) fused with the folded BatchNorm affine and ReLU6.
//   y[n,c,oh,ow] = clamp(scale[c] * sum_{kh,kw} w[c,kh,kw] * xpad[n,c,oh*s+kh,ow*s+kw] + shift[c], 0, 6)
//
// Each input row is brought into UB already zero padded on the left (DataCopyPad leftPadding),
// and the strided window for every kw is picked out with a vector Gather driven by a byte
// offset table {0, s*4, 2*s*4, ...}; the kw shift goes into the gather base address.

constexpr int32_t ROW_BUFFER = 2;

class KernelDwConvBnRelu6 {
public:
    __aicore__ inline KernelDwConvBnRelu6() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const EfficientnetMbConvCustomTilingData& td)
    {
        C = td.channels;
        H = td.inH;
        W = td.inW;
        OH = td.outH;
        OW = td.outW;
        K = td.kSize;
        S = td.stride;
        P = td.pad;
        rowLen = td.rowLen;
        owAlign = td.outWAlign;

        uint32_t perCore = td.planesPerCore;
        planeBegin = GetBlockIdx() * perCore;
        planeEnd = planeBegin + perCore;
        if (planeEnd > td.totalPlanes) {
            planeEnd = td.totalPlanes;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)weight);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale);
        shiftGm.SetGlobalBuffer((__gm__ float*)shift);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(rowQue, ROW_BUFFER, rowLen * sizeof(float));
        pipe.InitBuffer(outQue, ROW_BUFFER, owAlign * sizeof(float));
        pipe.InitBuffer(tapBuf, owAlign * sizeof(float));
        pipe.InitBuffer(offBuf, owAlign * sizeof(uint32_t));

        // byte offsets of the strided taps: off[i] = i * S * sizeof(float)
        LocalTensor<int32_t> idx = offBuf.Get<int32_t>();
        CreateVecIndex(idx, (int32_t)0, owAlign);
        PipeBarrier<PIPE_V>();
        Muls(idx, idx, (int32_t)(S * sizeof(float)), owAlign);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t plane = planeBegin; plane < planeEnd; ++plane) {
            uint32_t c = plane % C;
            float bnScale = scaleGm.GetValue(c);
            float bnShift = shiftGm.GetValue(c);
            uint64_t planeIn = (uint64_t)plane * H * W;
            uint64_t planeOut = (uint64_t)plane * OH * OW;
            uint32_t wBase = c * K * K;

            for (uint32_t oh = 0; oh < OH; ++oh) {
                LocalTensor<float> acc = outQue.AllocTensor<float>();
                Duplicate(acc, 0.0f, owAlign);

                int32_t ihBase = (int32_t)(oh * S) - (int32_t)P;
                for (uint32_t kh = 0; kh < K; ++kh) {
                    int32_t ih = ihBase + (int32_t)kh;
                    if (ih < 0 || ih >= (int32_t)H) {
                        continue;   // this row of the window lies in the zero padding
                    }
                    LoadRow(planeIn + (uint64_t)ih * W);
                    AccumulateRow(acc, wBase + kh * K);
                }

                // folded BN + ReLU6
                Muls(acc, acc, bnScale, OW);
                PipeBarrier<PIPE_V>();
                Adds(acc, acc, bnShift, OW);
                PipeBarrier<PIPE_V>();
                Maxs(acc, acc, 0.0f, OW);
                PipeBarrier<PIPE_V>();
                Mins(acc, acc, 6.0f, OW);
                outQue.EnQue(acc);
                StoreRow(planeOut + (uint64_t)oh * OW);
            }
        }
    }

private:
    __aicore__ inline void LoadRow(uint64_t gmOffset)
    {
        LocalTensor<float> row = rowQue.AllocTensor<float>();
        uint32_t used = P + W;
        uint8_t rightPad = (uint8_t)(((used + 7) / 8) * 8 - used);
        DataCopyExtParams cp{1, (uint32_t)(W * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padCfg{true, (uint8_t)P, rightPad, 0.0f};
        DataCopyPad(row, xGm[gmOffset], cp, padCfg);
        rowQue.EnQue(row);
    }

    __aicore__ inline void AccumulateRow(LocalTensor<float>& acc, uint32_t wRow)
    {
        LocalTensor<float> row = rowQue.DeQue<float>();
        // zero whatever part of the row buffer DataCopyPad did not touch (right halo)
        uint32_t filled = ((P + W + 7) / 8) * 8;
        if (filled < rowLen) {
            Duplicate(row[filled], 0.0f, rowLen - filled);
            PipeBarrier<PIPE_V>();
        }
        LocalTensor<float> tap = tapBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < K; ++kw) {
            float wv = wGm.GetValue(wRow + kw);
            Gather(tap, row, off, (uint32_t)(kw * sizeof(float)), OW);
            PipeBarrier<PIPE_V>();
            Axpy(acc, tap, wv, OW);
            PipeBarrier<PIPE_V>();
        }
        rowQue.FreeTensor(row);
    }

    __aicore__ inline void StoreRow(uint64_t gmOffset)
    {
        LocalTensor<float> out = outQue.DeQue<float>();
        DataCopyExtParams cp{1, (uint32_t)(OW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[gmOffset], out, cp);
        outQue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, ROW_BUFFER> rowQue;
    TQue<QuePosition::VECOUT, ROW_BUFFER> outQue;
    TBuf<QuePosition::VECCALC> tapBuf;
    TBuf<QuePosition::VECCALC> offBuf;

    GlobalTensor<float> xGm, wGm, scaleGm, shiftGm, yGm;

    uint32_t C, H, W, OH, OW, K, S, P;
    uint32_t rowLen, owAlign;
    uint32_t planeBegin, planeEnd;
};

extern "C" __global__ __aicore__ void efficientnet_mb_conv_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR scale,
                                                                  GM_ADDR shift, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelDwConvBnRelu6 op;
    op.Init(x, weight, scale, shift, y, tilingData);
    op.Process();
}
