// PlanarConvGather: NCHW 2-D convolution with a square kernel, computed on the vector unit.
//
// Loop nest (per core):
//   for each block of output channels (weights resident in UB)
//     for each output line (n, oh) owned by this core
//       acc[co][ow] = 0
//       for ic: stage the K input rows hit by this line (zero cell appended to every row)
//         for (kh, kw): tap[ow] = row_kh[ow*stride + kw*dil - pad]   <- one vector Gather
//                       acc[co] += w[co, ic, kh, kw] * tap           <- one Axpy per co
//       y[n, co, oh, :] = acc[co] + bias[co]
// Padding columns are mapped (via the precomputed gather offsets) to the zero cell.
#include "kernel_operator.h"

using namespace AscendC;

template <HardEvent E>
__aicore__ inline void WaitPipe()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(e);
    WaitFlag<E>(e);
}

template <typename T>
class PlanarConvGatherKernel {
public:
    __aicore__ inline PlanarConvGatherKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const PlanarConvGatherTilingData& tiling)
    {
        p = tiling;
        const uint32_t blk = GetBlockIdx();
        firstLine = blk * p.lineBase + (blk < p.lineExtra ? blk : p.lineExtra);
        numLines = p.lineBase + (blk < p.lineExtra ? 1 : 0);
        taps = p.cin * p.k * p.k;
        tapsPad = (taps + 15) / 16 * 16;

        xG.SetGlobalBuffer((__gm__ T*)x);
        wG.SetGlobalBuffer((__gm__ T*)w);
        yG.SetGlobalBuffer((__gm__ T*)y);
        if (p.withBias) {
            bG.SetGlobalBuffer((__gm__ T*)b);
        }

        const uint32_t rowsElems = p.k * p.rowStride;
        pipe.InitBuffer(rowsF32, rowsElems * sizeof(float));
        pipe.InitBuffer(offsets, p.k * p.woutAlign * sizeof(uint32_t));
        pipe.InitBuffer(tapBuf, p.woutAlign * sizeof(float));
        pipe.InitBuffer(accBuf, p.coBlock * p.woutAlign * sizeof(float));
        pipe.InitBuffer(wBuf, p.coBlock * tapsPad * sizeof(float));
        pipe.InitBuffer(biasBuf, ((p.coBlock + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(outQ, 2, p.coBlock * p.woutAlign * sizeof(T));
        if constexpr (sizeof(T) != sizeof(float)) {
            pipe.InitBuffer(rowsRaw, rowsElems * sizeof(T));
            pipe.InitBuffer(wRaw, p.coBlock * tapsPad * sizeof(T));
        }

        // Staging rows start zeroed so that the cell right after each row reads as 0.
        Duplicate(rowsF32.Get<float>(), 0.0f, rowsElems);
        if constexpr (sizeof(T) != sizeof(float)) {
            Duplicate(rowsRaw.Get<T>(), static_cast<T>(0), rowsElems);
        }
        BuildOffsets();
        WaitPipe<HardEvent::V_MTE2>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t co0 = 0; co0 < p.cout; co0 += p.coBlock) {
            const uint32_t coCnt = (p.cout - co0) < p.coBlock ? (p.cout - co0) : p.coBlock;
            LoadFilters(co0, coCnt);
            for (uint32_t i = 0; i < numLines; ++i) {
                const uint32_t line = firstLine + i;
                OneLine(line / p.hout, line % p.hout, co0, coCnt);
            }
        }
    }

private:
    // offsets[kw][ow] = byte offset of input column ow*stride + kw*dil - pad inside a staged row,
    // or of the zero cell (column win) when that column lies in the padding.
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> off = offsets.Get<uint32_t>();
        for (uint32_t kw = 0; kw < p.k; ++kw) {
            for (uint32_t ow = 0; ow < p.woutAlign; ++ow) {
                int32_t iw = static_cast<int32_t>(ow * p.stride + kw * p.dilation) - static_cast<int32_t>(p.pad);
                bool inside = ow < p.wout && iw >= 0 && iw < static_cast<int32_t>(p.win);
                uint32_t col = inside ? static_cast<uint32_t>(iw) : p.win;
                off.SetValue(kw * p.woutAlign + ow, col * static_cast<uint32_t>(sizeof(float)));
            }
        }
        WaitPipe<HardEvent::S_V>();
    }

    __aicore__ inline void LoadFilters(uint32_t co0, uint32_t coCnt)
    {
        LocalTensor<float> wf = wBuf.Get<float>();
        DataCopyExtParams cp{1, coCnt * taps * static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> noPad{false, 0, 0, static_cast<T>(0)};
        WaitPipe<HardEvent::V_MTE2>();   // previous block's Axpys no longer need the filters
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopyPad(wf, wG[static_cast<uint64_t>(co0) * taps], cp, noPad);
            WaitPipe<HardEvent::MTE2_S>();
        } else {
            LocalTensor<T> wr = wRaw.Get<T>();
            DataCopyPad(wr, wG[static_cast<uint64_t>(co0) * taps], cp, noPad);
            WaitPipe<HardEvent::MTE2_V>();
            Cast(wf, wr, RoundMode::CAST_NONE, coCnt * taps);
            WaitPipe<HardEvent::V_S>();
        }
        LocalTensor<float> bias = biasBuf.Get<float>();
        for (uint32_t j = 0; j < coCnt; ++j) {
            bias.SetValue(j, p.withBias ? static_cast<float>(bG.GetValue(co0 + j)) : 0.0f);
        }
        WaitPipe<HardEvent::S_V>();
    }

    // Copies the valid rows kh in [khLo, khHi] of input channel ic into the fp32 staging area.
    __aicore__ inline void StageRows(uint32_t n, uint32_t ic, int32_t ihBase, uint32_t khLo, uint32_t khHi)
    {
        const uint32_t blkElems = 32 / sizeof(T);
        const uint32_t rowBlocks = (p.win + blkElems - 1) / blkElems;
        const uint32_t cnt = khHi - khLo + 1;
        const uint64_t src =
            ((static_cast<uint64_t>(n) * p.cin + ic) * p.hin + static_cast<uint32_t>(ihBase + khLo * p.dilation)) *
            p.win;
        DataCopyExtParams cp{static_cast<uint16_t>(cnt), static_cast<uint32_t>(p.win * sizeof(T)),
                             static_cast<uint32_t>((p.dilation - 1) * p.win * sizeof(T)),
                             static_cast<uint32_t>(p.rowStride / blkElems - rowBlocks), 0};
        DataCopyPadExtParams<T> zpad{true, 0, static_cast<uint8_t>(rowBlocks * blkElems - p.win), static_cast<T>(0)};

        WaitPipe<HardEvent::V_MTE2>();   // gathers of the previous channel are finished
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopyPad(rowsF32.Get<float>()[khLo * p.rowStride], xG[src], cp, zpad);
            WaitPipe<HardEvent::MTE2_V>();
        } else {
            LocalTensor<T> raw = rowsRaw.Get<T>();
            DataCopyPad(raw[khLo * p.rowStride], xG[src], cp, zpad);
            WaitPipe<HardEvent::MTE2_V>();
            Cast(rowsF32.Get<float>()[khLo * p.rowStride], raw[khLo * p.rowStride], RoundMode::CAST_NONE,
                 cnt * p.rowStride);
        }
    }

    __aicore__ inline void OneLine(uint32_t n, uint32_t oh, uint32_t co0, uint32_t coCnt)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tap = tapBuf.Get<float>();
        LocalTensor<float> rows = rowsF32.Get<float>();
        LocalTensor<uint32_t> off = offsets.Get<uint32_t>();
        LocalTensor<float> wf = wBuf.Get<float>();
        const uint32_t wa = p.woutAlign;
        Duplicate(acc, 0.0f, coCnt * wa);

        // rows of the receptive field that lie inside the image
        const int32_t ihBase = static_cast<int32_t>(oh * p.stride) - static_cast<int32_t>(p.pad);
        int32_t khLo = 0;
        while (khLo < static_cast<int32_t>(p.k) && ihBase + khLo * static_cast<int32_t>(p.dilation) < 0) {
            ++khLo;
        }
        int32_t khHi = static_cast<int32_t>(p.k) - 1;
        while (khHi >= khLo && ihBase + khHi * static_cast<int32_t>(p.dilation) >= static_cast<int32_t>(p.hin)) {
            --khHi;
        }

        if (khLo <= khHi) {
            for (uint32_t ic = 0; ic < p.cin; ++ic) {
                StageRows(n, ic, ihBase, khLo, khHi);
                for (int32_t kh = khLo; kh <= khHi; ++kh) {
                    const uint32_t rowByte = static_cast<uint32_t>(kh) * p.rowStride * sizeof(float);
                    for (uint32_t kw = 0; kw < p.k; ++kw) {
                        Gather(tap, rows, off[kw * wa], rowByte, wa);
                        const uint32_t widx = (ic * p.k + static_cast<uint32_t>(kh)) * p.k + kw;
                        for (uint32_t j = 0; j < coCnt; ++j) {
                            Axpy(acc[j * wa], tap, wf.GetValue(j * taps + widx), wa);
                        }
                    }
                }
            }
        }

        // epilogue: bias, dtype conversion, strided store of coCnt output lines
        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<T> o = outQ.AllocTensor<T>();
        for (uint32_t j = 0; j < coCnt; ++j) {
            const float bv = bias.GetValue(j);
            if constexpr (sizeof(T) == sizeof(float)) {
                Adds(o[j * wa], acc[j * wa], bv, wa);
            } else {
                Adds(acc[j * wa], acc[j * wa], bv, wa);
            }
        }
        if constexpr (sizeof(T) != sizeof(float)) {
            Cast(o, acc, RoundMode::CAST_ROUND, coCnt * wa);
        }
        outQ.EnQue(o);
        o = outQ.DeQue<T>();
        const uint32_t blkElems = 32 / sizeof(T);
        const uint32_t lineBlocks = (p.wout + blkElems - 1) / blkElems;
        DataCopyExtParams st{static_cast<uint16_t>(coCnt), static_cast<uint32_t>(p.wout * sizeof(T)),
                             static_cast<uint32_t>(wa / blkElems - lineBlocks),
                             static_cast<uint32_t>((p.hout * p.wout - p.wout) * sizeof(T)), 0};
        const uint64_t dst = ((static_cast<uint64_t>(n) * p.cout + co0) * p.hout + oh) * p.wout;
        DataCopyPad(yG[dst], o, st);
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> rowsF32, rowsRaw, offsets, tapBuf, accBuf, wBuf, wRaw, biasBuf;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<T> xG, wG, bG, yG;
    PlanarConvGatherTilingData p;
    uint32_t firstLine = 0, numLines = 0, taps = 0, tapsPad = 0;
};

extern "C" __global__ __aicore__ void planar_conv_gather(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        PlanarConvGatherKernel<float> op;
        op.Init(x, filter, bias, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        PlanarConvGatherKernel<half> op;
        op.Init(x, filter, bias, y, td);
        op.Process();
    }
}
