// DeconvMishShiftClampScale kernel.
//
// Stage 1 (transposed conv): an output row of a block of channels is accumulated in
// fp32, stored as `stride` phases per channel (ow = q * stride + r -> acc[r][q]) so that
// one staged input row times one weight tap is a single contiguous Axpy. The staged
// input row is shared by every channel in the block.
// Stage 2 (epilogue, per channel): de-interleave with Gather, + bias, Mish,
// + add_value, clamp, * scale, cast, store.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;
constexpr float MISH_EXP_CAP = 20.0f;   // beyond this tanh(softplus(x)) == 1 in fp32

template <typename T>
class DeconvMishShiftClampScaleOp {
public:
    __aicore__ inline DeconvMishShiftClampScaleOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const DeconvMishShiftClampScaleTilingData *td)
    {
        t = td;
        const uint32_t blk = GetBlockIdx();
        unitCnt = t->unitsPerCore + (blk < t->unitsTail ? 1 : 0);
        unitBeg = blk * t->unitsPerCore + (blk < t->unitsTail ? blk : t->unitsTail);
        chanSpan = t->stride * t->phaseLen;

        xG.SetGlobalBuffer((__gm__ T *)x);
        wG.SetGlobalBuffer((__gm__ T *)w);
        bG.SetGlobalBuffer((__gm__ T *)b);
        yG.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(qIn, DEPTH, t->phaseLen * sizeof(T));
        pipe.InitBuffer(qOut, DEPTH, t->rowAlign * sizeof(T));
        pipe.InitBuffer(tbWide, t->phaseLen * sizeof(float));
        pipe.InitBuffer(tbAcc, t->coBlock * chanSpan * sizeof(float));
        pipe.InitBuffer(tbIdx, t->rowAlign * sizeof(uint32_t));
        pipe.InitBuffer(tbA, t->rowAlign * sizeof(float));
        pipe.InitBuffer(tbB, t->rowAlign * sizeof(float));
        pipe.InitBuffer(tbC, t->rowAlign * sizeof(float));

        // gather table: natural position -> byte offset inside one channel's phase block
        LocalTensor<uint32_t> idx = tbIdx.Get<uint32_t>();
        for (uint32_t ow = 0; ow < t->wOut; ow++) {
            idx.SetValue(ow, ((ow % t->stride) * t->phaseLen + ow / t->stride) * 4U);
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unitCnt; u++) {
            const uint32_t unit = unitBeg + u;
            const uint32_t oh = unit % t->hOut;
            const uint32_t cb = (unit / t->hOut) % t->coBlockNum;
            const uint32_t nb = unit / (t->hOut * t->coBlockNum);
            const uint32_t co0 = cb * t->coBlock;
            const uint32_t coN = (co0 + t->coBlock <= t->cOut) ? t->coBlock : (t->cOut - co0);
            Deconvolve(nb, co0, coN, oh);
            for (uint32_t c = 0; c < coN; c++) {
                Epilogue(nb, co0 + c, c, oh);
            }
        }
    }

private:
    __aicore__ inline void Deconvolve(uint32_t nb, uint32_t co0, uint32_t coN, uint32_t oh)
    {
        LocalTensor<float> acc = tbAcc.Get<float>();
        Duplicate(acc, 0.0f, coN * chanSpan);
        PipeBarrier<PIPE_V>();

        const int32_t s = (int32_t)t->stride;
        const int32_t p = (int32_t)t->pad;
        const uint32_t k = t->kSize;
        const int32_t qMax = (int32_t)t->wOut;

        for (uint32_t kh = 0; kh < k; kh++) {
            const int32_t tt = (int32_t)oh + p - (int32_t)kh;
            if (tt < 0 || tt % s != 0 || tt / s >= (int32_t)t->hIn) {
                continue;
            }
            const uint32_t ih = (uint32_t)(tt / s);
            for (uint32_t ci = 0; ci < t->cIn; ci++) {
                const uint64_t rowOff = (((uint64_t)nb * t->cIn + ci) * t->hIn + ih) * t->wIn;
                for (uint32_t kw = 0; kw < k; kw++) {
                    const int32_t sh = (int32_t)kw - p;
                    const int32_t r = ((sh % s) + s) % s;
                    const int32_t d = (sh - r) / s;
                    const int32_t qLen = (qMax - r + s - 1) / s;
                    const int32_t q0 = d > 0 ? d : 0;
                    int32_t q1 = (int32_t)t->wIn + d;
                    if (q1 > qLen) {
                        q1 = qLen;
                    }
                    if (q1 <= q0) {
                        continue;
                    }
                    // stage x[n, ci, ih, q0-d .. q1-d) behind q0 zeros
                    LocalTensor<T> xin = qIn.AllocTensor<T>();
                    DataCopyExtParams cp{1, (uint32_t)((q1 - q0) * sizeof(T)), 0, 0, 0};
                    DataCopyPadExtParams<T> pp{q0 > 0, (uint8_t)q0, 0, (T)0};
                    DataCopyPad(xin, xG[rowOff + (uint64_t)(q0 - d)], cp, pp);
                    qIn.EnQue(xin);
                    xin = qIn.DeQue<T>();

                    LocalTensor<float> src;
                    if constexpr (std::is_same<T, float>::value) {
                        src = xin;
                    } else {
                        src = tbWide.Get<float>();
                        Cast(src, xin, RoundMode::CAST_NONE, (uint32_t)q1);
                        PipeBarrier<PIPE_V>();
                    }
                    // weight layout (C_in, C_out, K, K)
                    const uint64_t wOff = ((uint64_t)ci * t->cOut + co0) * k * k + kh * k + kw;
                    for (uint32_t c = 0; c < coN; c++) {
                        const float wv = (float)wG.GetValue(wOff + (uint64_t)c * k * k);
                        Axpy(acc[c * chanSpan + r * t->phaseLen], src, wv, (uint32_t)q1);
                    }
                    PipeBarrier<PIPE_V>();
                    qIn.FreeTensor(xin);
                }
            }
        }
    }

    __aicore__ inline void Epilogue(uint32_t nb, uint32_t co, uint32_t c, uint32_t oh)
    {
        const uint32_t wo = t->wOut;
        LocalTensor<float> acc = tbAcc.Get<float>();
        LocalTensor<float> a = tbA.Get<float>();
        LocalTensor<float> e = tbB.Get<float>();
        LocalTensor<float> tmp = tbC.Get<float>();

        if (t->stride == 1) {
            DataCopy(a, acc[c * chanSpan], t->rowAlign);
        } else {
            Gather(a, acc[c * chanSpan], tbIdx.Get<uint32_t>(), 0U, wo);
        }
        PipeBarrier<PIPE_V>();
        Adds(a, a, (float)bG.GetValue(co), wo);
        PipeBarrier<PIPE_V>();

        // mish(a) = a * tanh(ln(1 + e^a)) = a * n / (n + 2), n = e^a * (e^a + 2)
        Mins(e, a, MISH_EXP_CAP, wo);
        PipeBarrier<PIPE_V>();
        Exp(e, e, wo);
        PipeBarrier<PIPE_V>();
        Adds(tmp, e, 2.0f, wo);
        PipeBarrier<PIPE_V>();
        Mul(e, e, tmp, wo);
        PipeBarrier<PIPE_V>();
        Adds(tmp, e, 2.0f, wo);
        PipeBarrier<PIPE_V>();
        Div(e, e, tmp, wo);
        PipeBarrier<PIPE_V>();
        Mul(a, a, e, wo);
        PipeBarrier<PIPE_V>();

        Adds(a, a, t->addValue, wo);
        PipeBarrier<PIPE_V>();
        Maxs(a, a, t->clipLo, wo);
        PipeBarrier<PIPE_V>();
        Mins(a, a, t->clipHi, wo);
        PipeBarrier<PIPE_V>();

        LocalTensor<T> out = qOut.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            Muls(out, a, t->scale, wo);
        } else {
            Muls(a, a, t->scale, wo);
            PipeBarrier<PIPE_V>();
            Cast(out, a, RoundMode::CAST_ROUND, wo);
        }
        qOut.EnQue(out);
        out = qOut.DeQue<T>();
        const uint64_t dst = (((uint64_t)nb * t->cOut + co) * t->hOut + oh) * wo;
        DataCopyExtParams cp{1, (uint32_t)(wo * sizeof(T)), 0, 0, 0};
        DataCopyPad(yG[dst], out, cp);
        qOut.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> qIn;
    TQue<QuePosition::VECOUT, DEPTH> qOut;
    TBuf<TPosition::VECCALC> tbWide, tbAcc, tbIdx, tbA, tbB, tbC;
    GlobalTensor<T> xG, wG, bG, yG;
    const DeconvMishShiftClampScaleTilingData *t = nullptr;
    uint32_t unitBeg = 0, unitCnt = 0, chanSpan = 0;
};

extern "C" __global__ __aicore__ void deconv_mish_shift_clamp_scale(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    DeconvMishShiftClampScaleOp<DTYPE_X> op;
    op.Init(x, weight, bias, y, &tilingData);
    op.Process();
}
