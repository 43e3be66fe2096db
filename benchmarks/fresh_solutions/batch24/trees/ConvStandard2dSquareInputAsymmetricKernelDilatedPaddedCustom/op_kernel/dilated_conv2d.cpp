// DilatedConv2d kernel (vector unit, direct convolution).
//
// A work unit is output row `oh` of image `n` for a block of `coBlock` output channels.
// For every (ci, kh, kw) tap the needed input samples of that row form one contiguous
// segment of x (stride_w == 1), so the segment is fetched once and Axpy'd into every
// channel's accumulator with that channel's tap weight. The left zero border is produced by
// DataCopyPad's left padding; columns past the right border are simply not accumulated.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFS = 2;
}

template <typename T>
class DilatedConv2dKernel {
public:
    __aicore__ inline DilatedConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR f, GM_ADDR b, GM_ADDR y, const DilatedConv2dTilingData &tiling)
    {
        t = tiling;
        taps = t.kh * t.kw;
        tapsAlign = (taps * sizeof(T) + 31) / 32 * 32 / sizeof(T);
        unitBeg = GetBlockIdx() * t.unitsPerCore;
        unitEnd = unitBeg + t.unitsPerCore;
        unitEnd = unitEnd > t.unitsTotal ? t.unitsTotal : unitEnd;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        fGm.SetGlobalBuffer((__gm__ T *)f);
        if (t.hasBias) {
            bGm.SetGlobalBuffer((__gm__ T *)b);
        }
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(segQ, BUFS, t.woutAlign * sizeof(T));
        pipe.InitBuffer(wQ, 1, t.coBlock * tapsAlign * sizeof(T));
        pipe.InitBuffer(outQ, 1, t.coBlock * t.woutAlign * sizeof(T));
        pipe.InitBuffer(accTmp, t.coBlock * t.woutAlign * sizeof(float));
        pipe.InitBuffer(wTmp, t.coBlock * tapsAlign * sizeof(float));
        pipe.InitBuffer(segTmp, t.woutAlign * sizeof(float));
    }

    template <bool ROW_PATH>
    __aicore__ inline void Process()
    {
        for (uint32_t u = unitBeg; u < unitEnd; ++u) {
            uint32_t blk = u % t.coBlocks;
            uint32_t row = u / t.coBlocks;           // n * hout + oh
            uint32_t oh = row % t.hout;
            uint32_t img = row / t.hout;
            uint32_t co0 = blk * t.coBlock;
            uint32_t coN = (t.cout - co0) < t.coBlock ? (t.cout - co0) : t.coBlock;

            LocalTensor<float> acc = accTmp.Get<float>();
            Duplicate(acc, 0.0f, t.coBlock * t.woutAlign);
            for (uint32_t ci = 0; ci < t.cin; ++ci) {
                LoadFilter(co0, coN, ci);
                if constexpr (ROW_PATH) {
                    AccumulateRow(img, oh, ci, coN);
                } else {
                    AccumulatePoints(img, oh, ci, coN);
                }
            }
            Emit(img, oh, co0, coN);
        }
    }

private:
    // filter[co0 .. co0+coN, ci, :, :] -> wTmp (fp32), one row of tapsAlign per channel
    __aicore__ inline void LoadFilter(uint32_t co0, uint32_t coN, uint32_t ci)
    {
        LocalTensor<T> wl = wQ.AllocTensor<T>();
        DataCopyExtParams cp{static_cast<uint16_t>(coN), static_cast<uint32_t>(taps * sizeof(T)),
                             static_cast<uint32_t>((t.cin - 1) * taps * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> pp{false, 0, 0, 0};
        DataCopyPad(wl, fGm[(static_cast<uint64_t>(co0) * t.cin + ci) * taps], cp, pp);
        wQ.EnQue(wl);
        wl = wQ.DeQue<T>();
        LocalTensor<float> wf = wTmp.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(wf, wl, coN * tapsAlign);
        } else {
            Cast(wf, wl, RoundMode::CAST_NONE, coN * tapsAlign);
        }
        wQ.FreeTensor(wl);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void AccumulateRow(uint32_t img, uint32_t oh, uint32_t ci, uint32_t coN)
    {
        LocalTensor<float> acc = accTmp.Get<float>();
        LocalTensor<float> wf = wTmp.Get<float>();
        uint64_t plane = (static_cast<uint64_t>(img) * t.cin + ci) * t.h * t.w;

        for (uint32_t i = 0; i < t.kh; ++i) {
            int32_t ih = static_cast<int32_t>(oh * t.strideH + i * t.dilH) - static_cast<int32_t>(t.padH);
            if (ih < 0 || ih >= static_cast<int32_t>(t.h)) {
                continue;   // whole tap row lies in the zero border
            }
            for (uint32_t j = 0; j < t.kw; ++j) {
                // ow range whose input column iw = ow - padW + j*dilW lies inside [0, w)
                int32_t shift = static_cast<int32_t>(j * t.dilW) - static_cast<int32_t>(t.padW);
                int32_t owLo = shift < 0 ? -shift : 0;
                int32_t owHi = static_cast<int32_t>(t.w) - shift;
                owHi = owHi > static_cast<int32_t>(t.wout) ? static_cast<int32_t>(t.wout) : owHi;
                if (owLo >= owHi) {
                    continue;
                }
                uint32_t len = static_cast<uint32_t>(owHi - owLo);
                LocalTensor<T> seg = segQ.AllocTensor<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                DataCopyPadExtParams<T> pp{owLo > 0, static_cast<uint8_t>(owLo), 0, static_cast<T>(0)};
                DataCopyPad(seg, xGm[plane + static_cast<uint64_t>(ih) * t.w + (owLo + shift)], cp, pp);
                segQ.EnQue(seg);
                seg = segQ.DeQue<T>();

                LocalTensor<float> src;
                if constexpr (std::is_same<T, float>::value) {
                    src = seg;
                } else {
                    src = segTmp.Get<float>();
                    Cast(src, seg, RoundMode::CAST_NONE, static_cast<uint32_t>(owHi));
                    PipeBarrier<PIPE_V>();
                }
                uint32_t tap = i * t.kw + j;
                for (uint32_t c = 0; c < coN; ++c) {
                    Axpy(acc[c * t.woutAlign], src, wf.GetValue(c * tapsAlign + tap), static_cast<uint32_t>(owHi));
                }
                PipeBarrier<PIPE_V>();
                segQ.FreeTensor(seg);
            }
        }
    }

    // generic fallback (any stride / large padding): one output point at a time
    __aicore__ inline void AccumulatePoints(uint32_t img, uint32_t oh, uint32_t ci, uint32_t coN)
    {
        LocalTensor<float> acc = accTmp.Get<float>();
        LocalTensor<float> wf = wTmp.Get<float>();
        PipeBarrier<PIPE_ALL>();
        uint64_t plane = (static_cast<uint64_t>(img) * t.cin + ci) * t.h * t.w;
        for (uint32_t ow = 0; ow < t.wout; ++ow) {
            for (uint32_t i = 0; i < t.kh; ++i) {
                int32_t ih = static_cast<int32_t>(oh * t.strideH + i * t.dilH) - static_cast<int32_t>(t.padH);
                if (ih < 0 || ih >= static_cast<int32_t>(t.h)) {
                    continue;
                }
                for (uint32_t j = 0; j < t.kw; ++j) {
                    int32_t iw = static_cast<int32_t>(ow * t.strideW + j * t.dilW) - static_cast<int32_t>(t.padW);
                    if (iw < 0 || iw >= static_cast<int32_t>(t.w)) {
                        continue;
                    }
                    float xv = static_cast<float>(xGm.GetValue(plane + static_cast<uint64_t>(ih) * t.w + iw));
                    for (uint32_t c = 0; c < coN; ++c) {
                        uint32_t pos = c * t.woutAlign + ow;
                        acc.SetValue(pos, acc.GetValue(pos) + xv * wf.GetValue(c * tapsAlign + i * t.kw + j));
                    }
                }
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Emit(uint32_t img, uint32_t oh, uint32_t co0, uint32_t coN)
    {
        LocalTensor<float> acc = accTmp.Get<float>();
        if (t.hasBias) {
            PipeBarrier<PIPE_ALL>();
            for (uint32_t c = 0; c < coN; ++c) {
                Adds(acc[c * t.woutAlign], acc[c * t.woutAlign], static_cast<float>(bGm.GetValue(co0 + c)), t.wout);
            }
            PipeBarrier<PIPE_V>();
        }
        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(o, acc, coN * t.woutAlign);
        } else {
            Cast(o, acc, RoundMode::CAST_ROUND, coN * t.woutAlign);
        }
        outQ.EnQue(o);
        o = outQ.DeQue<T>();
        // coN rows, each wout long; rows of consecutive channels are hout*wout apart in GM
        uint32_t rowBytes = t.wout * sizeof(T);
        uint32_t ubGapBlocks = (t.woutAlign * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(coN), rowBytes, ubGapBlocks,
                             static_cast<uint32_t>((t.hout * t.wout - t.wout) * sizeof(T)), 0};
        uint64_t dst = ((static_cast<uint64_t>(img) * t.cout + co0) * t.hout + oh) * t.wout;
        DataCopyPad(yGm[dst], o, cp);
        outQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFS> segQ;
    TQue<QuePosition::VECIN, 1> wQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> accTmp, wTmp, segTmp;
    GlobalTensor<T> xGm, fGm, bGm, yGm;
    DilatedConv2dTilingData t;
    uint32_t taps, tapsAlign, unitBeg, unitEnd;
};

extern "C" __global__ __aicore__ void dilated_conv2d(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    DilatedConv2dKernel<DTYPE_X> op;
    op.Init(x, filter, bias, y, tilingData);
    if (TILING_KEY_IS(1)) {
        op.template Process<true>();
    } else if (TILING_KEY_IS(2)) {
        op.template Process<false>();
    }
}
