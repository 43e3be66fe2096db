/**
 * TransposedConv2dNchw kernel (vector implementation, gather form).
 *
 * For an output row (n, oh) and a block of output channels oc:
 *
 *   y[n, oc, oh, ow] = b[oc] + sum_{ic in group} sum_{kh, kw}
 *                      x[n, ic, ih, iw] * w[ic, oc_local, kh, kw]
 *   with  oh + padH = ih * strideH + kh * dilH
 *         ow + padW = iw * strideW + kw * dilW
 *
 * Height: for every kh we solve for ih directly (skip if not integral).
 * Width : the accumulator is stored phase-major (column f = ow + padW goes to
 *         phase f % strideW, slot f / strideW).  Tap kw then contributes the
 *         whole input row, contiguously, to phase (kw*dilW) % strideW starting
 *         at slot (kw*dilW) / strideW.  The shift is realised by gathering a
 *         shifted copy of the (zero padded) input row so all vector operands
 *         stay 32-byte aligned; one Axpy per (oc, kw) does the MACs.
 * Finally a Gather with a precomputed index table re-interleaves the phases
 * into natural column order and drops the padding columns.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class TransposedConv2dNchwKernel {
public:
    __aicore__ inline TransposedConv2dNchwKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const TransposedConv2dNchwTilingData &td)
    {
        td_ = td;
        cinG_ = td.cin / td.groups;
        coutG_ = td.cout / td.groups;
        kArea_ = td.kh * td.kw;
        winA_ = (td.win + 15) / 16 * 16;
        woutA_ = (td.wout + 15) / 16 * 16;
        accStride_ = td.strideW * td.phaseLen;

        uint32_t blk = GetBlockIdx();
        unitBegin_ = blk * td.unitsPerCore + (blk < td.unitsRemain ? blk : td.unitsRemain);
        unitEnd_ = unitBegin_ + td.unitsPerCore + (blk < td.unitsRemain ? 1 : 0);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        wGm_.SetGlobalBuffer((__gm__ T *)w);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        if (td.hasBias) {
            bGm_.SetGlobalBuffer((__gm__ T *)b);
        }

        uint32_t slab = td.ocBlock * kArea_;
        uint32_t slabA = (slab + 15) / 16 * 16;
        pipe_.InitBuffer(rowQ_, 2, winA_ * sizeof(T));
        pipe_.InitBuffer(wQ_, 2, slabA * sizeof(T));
        pipe_.InitBuffer(outQ_, 2, woutA_ * sizeof(T));
        pipe_.InitBuffer(padBuf_, (td.shiftPad + td.phaseLen) * sizeof(float));
        pipe_.InitBuffer(shiftBuf_, td.kw * td.phaseLen * sizeof(float));
        pipe_.InitBuffer(accBuf_, td.ocBlock * accStride_ * sizeof(float));
        pipe_.InitBuffer(wF32Buf_, slabA * sizeof(float));
        pipe_.InitBuffer(idIdxBuf_, td.phaseLen * sizeof(uint32_t));
        pipe_.InitBuffer(outIdxBuf_, woutA_ * sizeof(uint32_t));
        pipe_.InitBuffer(stageBuf_, woutA_ * sizeof(float));

        BuildIndexTables();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = unitBegin_; u < unitEnd_; ++u) {
            // unit -> (n, oh, group, ocBlockInGroup), innermost is the channel block
            uint32_t blkInGroup = u % td_.ocBlocksPerGroup;
            uint32_t rest = u / td_.ocBlocksPerGroup;
            uint32_t g = rest % td_.groups;
            rest /= td_.groups;
            uint32_t oh = rest % td_.hout;
            uint32_t n = rest / td_.hout;
            uint32_t ocLocal0 = blkInGroup * td_.ocBlock;
            uint32_t ocCnt = (coutG_ - ocLocal0) < td_.ocBlock ? (coutG_ - ocLocal0) : td_.ocBlock;
            ComputeUnit(n, oh, g, ocLocal0, ocCnt);
        }
    }

private:
    __aicore__ inline void BuildIndexTables()
    {
        // identity byte offsets, used to realise unaligned shifts with Gather
        LocalTensor<int32_t> id = idIdxBuf_.Get<int32_t>();
        CreateVecIndex(id, static_cast<int32_t>(0), td_.phaseLen);
        Muls(id, id, static_cast<int32_t>(sizeof(float)), td_.phaseLen);

        // phase-major -> natural order for the output columns
        LocalTensor<uint32_t> oi = outIdxBuf_.Get<uint32_t>();
        for (uint32_t ow = 0; ow < td_.wout; ++ow) {
            uint32_t f = ow + td_.padW;
            uint32_t slot = (f % td_.strideW) * td_.phaseLen + f / td_.strideW;
            oi.SetValue(ow, slot * static_cast<uint32_t>(sizeof(float)));
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);

        LocalTensor<float> pad = padBuf_.Get<float>();
        Duplicate(pad, 0.0f, td_.shiftPad + td_.phaseLen);
    }

    __aicore__ inline void ComputeUnit(uint32_t n, uint32_t oh, uint32_t g, uint32_t ocLocal0, uint32_t ocCnt)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        Duplicate(acc, 0.0f, ocCnt * accStride_);

        int32_t fh = static_cast<int32_t>(oh + td_.padH);
        for (uint32_t icl = 0; icl < cinG_; ++icl) {
            uint32_t ic = g * cinG_ + icl;
            bool weightsReady = false;
            LocalTensor<float> wf;
            for (uint32_t kh = 0; kh < td_.kh; ++kh) {
                int32_t t = fh - static_cast<int32_t>(kh * td_.dilH);
                if (t < 0 || (t % static_cast<int32_t>(td_.strideH)) != 0) {
                    continue;
                }
                uint32_t ih = static_cast<uint32_t>(t) / td_.strideH;
                if (ih >= td_.hin) {
                    continue;
                }
                if (!weightsReady) {
                    wf = LoadWeights(ic, ocLocal0, ocCnt);
                    weightsReady = true;
                }
                LoadShiftedRows(n, ic, ih);
                Accumulate(acc, wf, kh, ocCnt);
            }
        }
        WriteRows(n, oh, g * coutG_ + ocLocal0, ocCnt);
    }

    // weight slab w[ic, ocLocal0 : ocLocal0+ocCnt, :, :] -> fp32 UB
    __aicore__ inline LocalTensor<float> LoadWeights(uint32_t ic, uint32_t ocLocal0, uint32_t ocCnt)
    {
        uint32_t cnt = ocCnt * kArea_;
        LocalTensor<T> raw = wQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pp{false, 0, 0, 0};
        DataCopyPad(raw, wGm_[(static_cast<uint64_t>(ic) * coutG_ + ocLocal0) * kArea_], cp, pp);
        wQ_.EnQue(raw);
        raw = wQ_.DeQue<T>();
        LocalTensor<float> wf = wF32Buf_.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(wf, raw, (cnt + 7) / 8 * 8);
        } else {
            Cast(wf, raw, RoundMode::CAST_NONE, cnt);
        }
        wQ_.FreeTensor(raw);
        // the taps are read back as scalars
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return wf;
    }

    // x[n, ic, ih, :] -> zero padded fp32 row, then one shifted copy per kw
    __aicore__ inline void LoadShiftedRows(uint32_t n, uint32_t ic, uint32_t ih)
    {
        LocalTensor<T> raw = rowQ_.AllocTensor<T>();
        uint64_t off = ((static_cast<uint64_t>(n) * td_.cin + ic) * td_.hin + ih) * td_.win;
        DataCopyExtParams cp{1, static_cast<uint32_t>(td_.win * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pp{false, 0, 0, 0};
        DataCopyPad(raw, xGm_[off], cp, pp);
        rowQ_.EnQue(raw);
        raw = rowQ_.DeQue<T>();

        LocalTensor<float> pad = padBuf_.Get<float>();
        LocalTensor<float> body = pad[td_.shiftPad];
        // exact-count copies: lanes past win keep the zeros written at init
        if constexpr (std::is_same<T, float>::value) {
            Adds(body, raw, 0.0f, td_.win);
        } else {
            Cast(body, raw, RoundMode::CAST_NONE, td_.win);
        }
        rowQ_.FreeTensor(raw);
        PipeBarrier<PIPE_V>();

        LocalTensor<float> sh = shiftBuf_.Get<float>();
        LocalTensor<uint32_t> id = idIdxBuf_.Get<uint32_t>();
        for (uint32_t kw = 0; kw < td_.kw; ++kw) {
            uint32_t q0 = kw * td_.dilW / td_.strideW;
            uint32_t baseBytes = (td_.shiftPad - q0) * static_cast<uint32_t>(sizeof(float));
            // sh[kw][t] = x[t - q0]  (0 outside the row)
            Gather(sh[kw * td_.phaseLen], pad, id, baseBytes, td_.phaseLen);
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Accumulate(LocalTensor<float> &acc, const LocalTensor<float> &wf, uint32_t kh, uint32_t ocCnt)
    {
        LocalTensor<float> sh = shiftBuf_.Get<float>();
        for (uint32_t o = 0; o < ocCnt; ++o) {
            uint32_t wBase = o * kArea_ + kh * td_.kw;
            for (uint32_t kw = 0; kw < td_.kw; ++kw) {
                float tap = wf.GetValue(wBase + kw);
                uint32_t phase = (kw * td_.dilW) % td_.strideW;
                Axpy(acc[o * accStride_ + phase * td_.phaseLen], sh[kw * td_.phaseLen], tap, td_.phaseLen);
            }
        }
    }

    __aicore__ inline void WriteRows(uint32_t n, uint32_t oh, uint32_t oc0, uint32_t ocCnt)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<uint32_t> oi = outIdxBuf_.Get<uint32_t>();
        LocalTensor<float> stage = stageBuf_.Get<float>();
        for (uint32_t o = 0; o < ocCnt; ++o) {
            uint32_t oc = oc0 + o;
            Gather(stage, acc[o * accStride_], oi, 0U, td_.wout);
            if (td_.hasBias) {
                float bv = static_cast<float>(bGm_.GetValue(oc));
                Adds(stage, stage, bv, td_.wout);
            }
            LocalTensor<T> out = outQ_.AllocTensor<T>();
            if constexpr (std::is_same<T, float>::value) {
                DataCopy(out, stage, woutA_);
            } else {
                Cast(out, stage, RoundMode::CAST_ROUND, td_.wout);
            }
            outQ_.EnQue(out);
            out = outQ_.DeQue<T>();
            uint64_t off = ((static_cast<uint64_t>(n) * td_.cout + oc) * td_.hout + oh) * td_.wout;
            DataCopyExtParams cp{1, static_cast<uint32_t>(td_.wout * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm_[off], out, cp);
            outQ_.FreeTensor(out);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> rowQ_, wQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> padBuf_, shiftBuf_, accBuf_, wF32Buf_, idIdxBuf_, outIdxBuf_, stageBuf_;
    GlobalTensor<T> xGm_, wGm_, bGm_, yGm_;
    TransposedConv2dNchwTilingData td_;
    uint32_t cinG_ = 0, coutG_ = 0, kArea_ = 0, winA_ = 0, woutA_ = 0, accStride_ = 0;
    uint32_t unitBegin_ = 0, unitEnd_ = 0;
};

extern "C" __global__ __aicore__ void transposed_conv2d_nchw(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TransposedConv2dNchwKernel<DTYPE_X> op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
