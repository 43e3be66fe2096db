/*
 * DeconvChannelSoftmaxGate kernel (fp32, NCHW).
 *
 * Per output row r = (n, oh), for all channels oc and columns ow:
 *   z[oc][ow] = conv_bias[oc] + sum_{ic,kh,kw} x[n,ic,ih,iw] * w[ic,oc,kh,kw]
 *               (oh = ih*sh - ph + kh, ow = iw*sw - pw + kw)
 *   p = softmax over oc of z
 *   y = sigmoid(scale * (p + channel_bias[oc]))
 *
 * The [cout x woutAlign] block is kept in UB, the softmax is done column-wise
 * with plain vector ops across the channel rows, and the finished block is
 * written back with one strided DMA (one burst per channel).
 */
#include "kernel_operator.h"

using namespace AscendC;

class DeconvChannelSoftmaxGateKernel {
    static constexpr uint32_t ZPAD = 8;  // zero lanes in front of the staged input line

public:
    __aicore__ inline DeconvChannelSoftmaxGateKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR cb, GM_ADDR chb, GM_ADDR y,
                                const DeconvChannelSoftmaxGateTilingData &tiling)
    {
        t = tiling;
        wa = t.woutAlign;
        kwAlign = (t.kw + 7) / 8 * 8;
        coutAlign = (t.cout + 7) / 8 * 8;
        winAlign = (t.win + 7) / 8 * 8;

        rowLo = GetBlockIdx() * t.rowsPerCore;
        rowHi = rowLo + t.rowsPerCore;
        if (rowHi > t.rowCount) {
            rowHi = t.rowCount;
        }

        xG.SetGlobalBuffer((__gm__ float *)x);
        wG.SetGlobalBuffer((__gm__ float *)w);
        cbG.SetGlobalBuffer((__gm__ float *)cb);
        chbG.SetGlobalBuffer((__gm__ float *)chb);
        yG.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(blockQue, 1, t.cout * wa * sizeof(float));
        pipe.InitBuffer(lineBuf, (ZPAD + winAlign) * sizeof(float));
        pipe.InitBuffer(tapBuf, t.kw * wa * sizeof(float));
        pipe.InitBuffer(idxBuf, t.kw * wa * sizeof(uint32_t));
        pipe.InitBuffer(wBuf, t.cout * kwAlign * sizeof(float));
        pipe.InitBuffer(redBuf, 2 * wa * sizeof(float));
        pipe.InitBuffer(biasBuf, 2 * coutAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowLo >= rowHi) {
            return;
        }
        Prepare();
        for (uint32_t r = rowLo; r < rowHi; ++r) {
            const uint32_t n = r / t.hout;
            const uint32_t oh = r % t.hout;
            Accumulate(n, oh);
            Epilogue();
            WriteRow(n, oh);
        }
    }

private:
    // Column index tables (one per kw) and both bias vectors.
    __aicore__ inline void Prepare()
    {
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t k = 0; k < t.kw; ++k) {
            for (uint32_t ow = 0; ow < wa; ++ow) {
                uint32_t byteOff = 0;  // zero lane
                int32_t num = static_cast<int32_t>(ow + t.padW) - static_cast<int32_t>(k);
                if (ow < t.wout && num >= 0 && num % static_cast<int32_t>(t.strideW) == 0) {
                    uint32_t iw = static_cast<uint32_t>(num) / t.strideW;
                    if (iw < t.win) {
                        byteOff = (ZPAD + iw) * 4;
                    }
                }
                idx.SetValue(k * wa + ow, byteOff);
            }
        }

        LocalTensor<float> bias = biasBuf.Get<float>();
        DataCopyExtParams cp{1, t.cout * 4, 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(bias, cbG, cp, np);
        DataCopyPad(bias[coutAlign], chbG, cp, np);

        LocalTensor<float> line = lineBuf.Get<float>();
        Duplicate(line, 0.0f, ZPAD);

        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Accumulate(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> blk = blockQue.AllocTensor<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        for (uint32_t oc = 0; oc < t.cout; ++oc) {
            Duplicate(blk[oc * wa], bias.GetValue(oc), wa);
        }

        LocalTensor<float> line = lineBuf.Get<float>();
        LocalTensor<float> taps = tapBuf.Get<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<float> wl = wBuf.Get<float>();
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};

        for (uint32_t kh = 0; kh < t.kh; ++kh) {
            int32_t num = static_cast<int32_t>(oh + t.padH) - static_cast<int32_t>(kh);
            if (num < 0 || num % static_cast<int32_t>(t.strideH) != 0) {
                continue;
            }
            const uint32_t ih = static_cast<uint32_t>(num) / t.strideH;
            if (ih >= t.hin) {
                continue;
            }
            for (uint32_t ic = 0; ic < t.cin; ++ic) {
                // everything issued so far (vector + scalar) must retire before
                // the staging buffers are refilled
                PipeBarrier<PIPE_ALL>();
                const uint64_t xOff = ((static_cast<uint64_t>(n) * t.cin + ic) * t.hin + ih) * t.win;
                DataCopyPad(line[ZPAD], xG[xOff], DataCopyExtParams{1, t.win * 4, 0, 0, 0}, np);
                // w[ic, :, kh, :] -> cout bursts of kw floats
                const uint64_t wOff = (static_cast<uint64_t>(ic) * t.cout * t.kh + kh) * t.kw;
                DataCopyPad(wl, wG[wOff],
                            DataCopyExtParams{static_cast<uint16_t>(t.cout), t.kw * 4, (t.kh - 1) * t.kw * 4, 0, 0},
                            np);
                event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
                SetFlag<HardEvent::MTE2_V>(e);
                WaitFlag<HardEvent::MTE2_V>(e);
                event_t es = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
                SetFlag<HardEvent::MTE2_S>(es);
                WaitFlag<HardEvent::MTE2_S>(es);

                for (uint32_t k = 0; k < t.kw; ++k) {
                    Gather(taps[k * wa], line, idx[k * wa], 0U, wa);
                }
                PipeBarrier<PIPE_V>();
                for (uint32_t oc = 0; oc < t.cout; ++oc) {
                    for (uint32_t k = 0; k < t.kw; ++k) {
                        Axpy(blk[oc * wa], taps[k * wa], wl.GetValue(oc * kwAlign + k), wa);
                        PipeBarrier<PIPE_V>();
                    }
                }
            }
        }
        blockQue.EnQue(blk);
    }

    // softmax over channels, + channel bias, * scale, sigmoid
    __aicore__ inline void Epilogue()
    {
        LocalTensor<float> blk = blockQue.DeQue<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> colMax = red;
        LocalTensor<float> colSum = red[wa];
        LocalTensor<float> bias = biasBuf.Get<float>();

        DataCopy(colMax, blk, wa);
        PipeBarrier<PIPE_V>();
        for (uint32_t oc = 1; oc < t.cout; ++oc) {
            Max(colMax, colMax, blk[oc * wa], wa);
            PipeBarrier<PIPE_V>();
        }
        Duplicate(colSum, 0.0f, wa);
        for (uint32_t oc = 0; oc < t.cout; ++oc) {
            LocalTensor<float> row = blk[oc * wa];
            Sub(row, row, colMax, wa);
            PipeBarrier<PIPE_V>();
            Exp(row, row, wa);
            PipeBarrier<PIPE_V>();
            Add(colSum, colSum, row, wa);
            PipeBarrier<PIPE_V>();
        }
        Reciprocal(colSum, colSum, wa);
        PipeBarrier<PIPE_V>();

        const float negScale = -t.scale;
        for (uint32_t oc = 0; oc < t.cout; ++oc) {
            LocalTensor<float> row = blk[oc * wa];
            const float shift = negScale * bias.GetValue(coutAlign + oc);
            Mul(row, row, colSum, wa);                // softmax probability
            PipeBarrier<PIPE_V>();
            Muls(row, row, negScale, wa);             // -(scale * p)
            PipeBarrier<PIPE_V>();
            Adds(row, row, shift, wa);                // -(scale * (p + b))
            PipeBarrier<PIPE_V>();
            Exp(row, row, wa);
            PipeBarrier<PIPE_V>();
            Adds(row, row, 1.0f, wa);
            PipeBarrier<PIPE_V>();
            Reciprocal(row, row, wa);                 // 1 / (1 + e^-z)
            PipeBarrier<PIPE_V>();
        }
        blockQue.EnQue(blk);
    }

    __aicore__ inline void WriteRow(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> blk = blockQue.DeQue<float>();
        const uint64_t plane = static_cast<uint64_t>(t.hout) * t.wout;
        const uint64_t dst = static_cast<uint64_t>(n) * t.cout * plane + static_cast<uint64_t>(oh) * t.wout;
        DataCopyExtParams cp{static_cast<uint16_t>(t.cout), t.wout * 4, 0,
                             static_cast<uint32_t>((plane - t.wout) * 4), 0};
        DataCopyPad(yG[dst], blk, cp);
        blockQue.FreeTensor(blk);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> blockQue;
    TBuf<TPosition::VECCALC> lineBuf, tapBuf, idxBuf, wBuf, redBuf, biasBuf;
    GlobalTensor<float> xG, wG, cbG, chbG, yG;
    DeconvChannelSoftmaxGateTilingData t;
    uint32_t wa = 0, kwAlign = 0, coutAlign = 0, winAlign = 0;
    uint32_t rowLo = 0, rowHi = 0;
};

extern "C" __global__ __aicore__ void deconv_channel_softmax_gate(GM_ADDR x, GM_ADDR weight, GM_ADDR convBias,
                                                                  GM_ADDR channelBias, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    DeconvChannelSoftmaxGateKernel op;
    op.Init(x, weight, convBias, channelBias, y, tilingData);
    op.Process();
}
