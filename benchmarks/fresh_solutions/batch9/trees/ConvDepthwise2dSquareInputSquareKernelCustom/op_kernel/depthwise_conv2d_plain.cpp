/*
 * DepthwiseConv2dPlain: every channel is convolved with its own KxK filter.
 *   y[n,c,oh,ow] = bias[c] + sum_{kh,kw} w[c,0,kh,kw] * x[n,c,oh*s-p+kh, ow*s-p+kw]
 *
 * Work unit = one output row (n, c, oh). The K input rows it needs are staged in UB as float
 * with `lead` zero columns in front (covers the left padding) and zeros behind (right padding).
 * For tap kw the values x[.., ow*s - p + kw] of all output columns are fetched with one Gather
 * through a precomputed byte-offset table, then accumulated with Axpy(w[kh,kw]).
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class DepthwiseConv2dPlainKernel {
public:
    __aicore__ inline DepthwiseConv2dPlainKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const DepthwiseConv2dPlainTiling &td)
    {
        t_ = td;
        xGm_.SetGlobalBuffer((__gm__ T *)x);
        wGm_.SetGlobalBuffer((__gm__ T *)w);
        if (td.hasBias) {
            bGm_.SetGlobalBuffer((__gm__ T *)bias);
        }
        yGm_.SetGlobalBuffer((__gm__ T *)y);

        uint64_t total = static_cast<uint64_t>(td.batch) * td.channels * td.outH;
        first_ = td.unitsPerCore * GetBlockIdx();
        last_ = first_ + td.unitsPerCore < total ? first_ + td.unitsPerCore : total;

        uint32_t K = td.kernel;
        pipe_.InitBuffer(rowQ_, 1, K * t_.rowLen * sizeof(T));
        pipe_.InitBuffer(rowsF_, K * t_.rowLen * sizeof(float));
        pipe_.InitBuffer(offs_, K * t_.outWPad * sizeof(uint32_t));
        pipe_.InitBuffer(acc_, t_.outWPad * sizeof(float));
        pipe_.InitBuffer(tap_, t_.outWPad * sizeof(float));
        pipe_.InitBuffer(outQ_, 2, t_.outWPad * sizeof(T));

        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        uint32_t cachedCh = 0xFFFFFFFFu;
        for (uint64_t u = first_; u < last_; ++u) {
            uint32_t oh = static_cast<uint32_t>(u % t_.outH);
            uint64_t plane = u / t_.outH;           // n * C + c
            uint32_t ch = static_cast<uint32_t>(plane % t_.channels);
            if (ch != cachedCh) {
                LoadFilter(ch);
                cachedCh = ch;
            }
            uint32_t validMask = StageRows(plane, oh);
            Accumulate(validMask);
            Emit(plane, oh);
        }
    }

private:
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> tbl = offs_.Get<uint32_t>();
        for (uint32_t kw = 0; kw < t_.kernel; ++kw) {
            for (uint32_t j = 0; j < t_.outWPad; ++j) {
                uint32_t col = (j < t_.outW) ? (t_.lead - t_.pad + j * t_.stride + kw) : 0;
                tbl.SetValue(kw * t_.outWPad + j, col * static_cast<uint32_t>(sizeof(float)));
            }
        }
        // staged rows start as all-zero; only the [lead, lead + W) window is rewritten later
        LocalTensor<float> rows = rowsF_.Get<float>();
        Duplicate(rows, 0.0f, t_.kernel * t_.rowLen);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void LoadFilter(uint32_t ch)
    {
        uint32_t kk = t_.kernel * t_.kernel;
        for (uint32_t i = 0; i < kk; ++i) {
            taps_[i] = static_cast<float>(wGm_.GetValue(static_cast<uint64_t>(ch) * kk + i));
        }
        biasVal_ = t_.hasBias ? static_cast<float>(bGm_.GetValue(ch)) : 0.0f;
    }

    // bring the K input rows of output row `oh` into UB; returns a bitmask of rows inside the image
    __aicore__ inline uint32_t StageRows(uint64_t plane, uint32_t oh)
    {
        LocalTensor<T> raw = rowQ_.AllocTensor<T>();
        uint64_t planeOff = plane * t_.inH * t_.inW;
        int32_t ih0 = static_cast<int32_t>(oh * t_.stride) - static_cast<int32_t>(t_.pad);
        uint32_t mask = 0;
        DataCopyExtParams cp(1, t_.inW * sizeof(T), 0, 0, 0);
        DataCopyPadExtParams<T> zero(true, 0, 0, 0);
        for (uint32_t kh = 0; kh < t_.kernel; ++kh) {
            int32_t ih = ih0 + static_cast<int32_t>(kh);
            if (ih < 0 || ih >= static_cast<int32_t>(t_.inH)) {
                continue;
            }
            mask |= (1u << kh);
            DataCopyPad(raw[kh * t_.rowLen + t_.lead], xGm_[planeOff + static_cast<uint64_t>(ih) * t_.inW], cp, zero);
        }
        rowQ_.EnQue(raw);
        raw = rowQ_.DeQue<T>();
        LocalTensor<float> rows = rowsF_.Get<float>();
        for (uint32_t kh = 0; kh < t_.kernel; ++kh) {
            if ((mask & (1u << kh)) == 0) {
                continue;
            }
            uint32_t base = kh * t_.rowLen + t_.lead;
            if constexpr (IsSameType<T, float>::value) {
                DataCopy(rows[base], raw[base], (t_.inW + 7) / 8 * 8);
            } else {
                Cast(rows[base], raw[base], RoundMode::CAST_NONE, t_.inW);
            }
        }
        rowQ_.FreeTensor(raw);
        return mask;
    }

    __aicore__ inline void Accumulate(uint32_t mask)
    {
        LocalTensor<float> acc = acc_.Get<float>();
        LocalTensor<float> tap = tap_.Get<float>();
        LocalTensor<float> rows = rowsF_.Get<float>();
        LocalTensor<uint32_t> tbl = offs_.Get<uint32_t>();
        Duplicate(acc, biasVal_, t_.outWPad);
        for (uint32_t kh = 0; kh < t_.kernel; ++kh) {
            if ((mask & (1u << kh)) == 0) {
                continue;   // row in the padding area contributes zeros
            }
            LocalTensor<float> src = rows[kh * t_.rowLen];
            for (uint32_t kw = 0; kw < t_.kernel; ++kw) {
                Gather(tap, src, tbl[kw * t_.outWPad], 0, t_.outWPad);
                Axpy(acc, tap, taps_[kh * t_.kernel + kw], t_.outWPad);
            }
        }
    }

    __aicore__ inline void Emit(uint64_t plane, uint32_t oh)
    {
        LocalTensor<float> acc = acc_.Get<float>();
        LocalTensor<T> out = outQ_.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(out, acc, t_.outWPad);
        } else {
            Cast(out, acc, RoundMode::CAST_ROUND, t_.outWPad);
        }
        outQ_.EnQue(out);
        out = outQ_.DeQue<T>();
        uint64_t dst = (plane * t_.outH + oh) * t_.outW;
        DataCopyPad(yGm_[dst], out, DataCopyExtParams(1, t_.outW * sizeof(T), 0, 0, 0));
        outQ_.FreeTensor(out);
    }

    static constexpr uint32_t MAX_TAPS = 256;   // kernels up to 16x16

    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> rowQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> rowsF_, offs_, acc_, tap_;
    GlobalTensor<T> xGm_, wGm_, bGm_, yGm_;
    DepthwiseConv2dPlainTiling t_;
    uint64_t first_ = 0, last_ = 0;
    float taps_[MAX_TAPS];
    float biasVal_ = 0.0f;
};

extern "C" __global__ __aicore__ void depthwise_conv2d_plain(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DepthwiseConv2dPlainKernel<DTYPE_X> op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
