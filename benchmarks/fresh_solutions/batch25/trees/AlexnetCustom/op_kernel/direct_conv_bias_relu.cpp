/*
 * Direct 2-D convolution (NCHW) with bias and ReLU fused, vector-core implementation.
 *
 * Each core produces whole output planes (n, co). For an output row oh we walk every
 * (ci, kh) tap row that falls inside the image, stage that input row in UB, widen it to
 * fp32 and for every kw gather the strided columns x[ow*sw + kw - pw] with a precomputed
 * byte-offset table (out-of-image columns point to a zero slot at the end of the row).
 * The gathered row is accumulated with Axpy using the scalar weight w[co, ci, kh, kw].
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class ConvBiasReluKernel {
public:
    __aicore__ inline ConvBiasReluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const DirectConvBiasReluTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        bGm.SetGlobalBuffer((__gm__ T *)b);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        rowLen = AlignUp(tl.inW + 1, 16);     // +1: zero slot used by padded columns
        owLen = AlignUp(tl.outW, 16);
        tapCnt = tl.cin * tl.kh * tl.kw;

        pipe.InitBuffer(rowQ, 2, rowLen * sizeof(T));
        pipe.InitBuffer(outQ, 2, owLen * sizeof(T));
        pipe.InitBuffer(rowF, rowLen * sizeof(float));
        pipe.InitBuffer(gath, owLen * sizeof(float));
        pipe.InitBuffer(acc, owLen * sizeof(float));
        pipe.InitBuffer(offs, tl.kw * owLen * sizeof(uint32_t));
        pipe.InitBuffer(wBuf, AlignUp(tapCnt, 16) * sizeof(T));
        BuildOffsets();
        // rows are written with exactly inW elements, so the slot at index inW stays zero
        event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Duplicate(rowF.Get<float>(), 0.0f, rowLen);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process()
    {
        uint32_t first = GetBlockIdx() * tl.planesPerCore;
        uint32_t last = first + tl.planesPerCore;
        if (last > tl.totalPlanes) {
            last = tl.totalPlanes;
        }
        for (uint32_t p = first; p < last; ++p) {
            uint32_t n = p / tl.cout;
            uint32_t co = p % tl.cout;
            LoadWeights(co);
            float bias = ToFloat(bGm.GetValue(co));
            for (uint32_t oh = 0; oh < tl.outH; ++oh) {
                ComputeRow(n, co, oh, bias);
            }
        }
    }

private:
    __aicore__ inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

    __aicore__ inline float ToFloat(T v)
    {
        if constexpr (std::is_same<T, half>::value) {
            return static_cast<float>(v);
        } else {
            return v;
        }
    }

    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> o = offs.Get<uint32_t>();
        for (uint32_t k = 0; k < tl.kw; ++k) {
            for (uint32_t ow = 0; ow < owLen; ++ow) {
                int32_t col = static_cast<int32_t>(ow * tl.strideW + k) - static_cast<int32_t>(tl.padW);
                bool inside = (ow < tl.outW) && col >= 0 && col < static_cast<int32_t>(tl.inW);
                uint32_t idx = inside ? static_cast<uint32_t>(col) : tl.inW;   // tl.inW is the zero slot
                o.SetValue(k * owLen + ow, idx * static_cast<uint32_t>(sizeof(float)));
            }
        }
    }

    __aicore__ inline void LoadWeights(uint32_t co)
    {
        LocalTensor<T> wl = wBuf.Get<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(tapCnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(wl, wGm[static_cast<uint64_t>(co) * tapCnt], cp, pad);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t co, uint32_t oh, float bias)
    {
        LocalTensor<float> a = acc.Get<float>();
        LocalTensor<float> rf = rowF.Get<float>();
        LocalTensor<float> g = gath.Get<float>();
        LocalTensor<uint32_t> o = offs.Get<uint32_t>();
        LocalTensor<T> wl = wBuf.Get<T>();
        Duplicate(a, bias, owLen);

        int32_t ihBase = static_cast<int32_t>(oh * tl.strideH) - static_cast<int32_t>(tl.padH);
        for (uint32_t ci = 0; ci < tl.cin; ++ci) {
            for (uint32_t r = 0; r < tl.kh; ++r) {
                int32_t ih = ihBase + static_cast<int32_t>(r);
                if (ih < 0 || ih >= static_cast<int32_t>(tl.inH)) {
                    continue;   // zero padding row: contributes nothing
                }
                uint64_t src = ((static_cast<uint64_t>(n) * tl.cin + ci) * tl.inH + ih) * tl.inW;
                LocalTensor<T> row = rowQ.AllocTensor<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(tl.inW * sizeof(T)), 0, 0, 0};
                DataCopyPadExtParams<T> pad{false, 0, 0, 0};
                DataCopyPad(row, xGm[src], cp, pad);
                rowQ.EnQue(row);
                row = rowQ.DeQue<T>();

                if constexpr (std::is_same<T, half>::value) {
                    Cast(rf, row, RoundMode::CAST_NONE, tl.inW);
                } else {
                    Adds(rf, row, 0.0f, tl.inW);
                }
                rowQ.FreeTensor(row);

                uint32_t tapBase = (ci * tl.kh + r) * tl.kw;
                for (uint32_t k = 0; k < tl.kw; ++k) {
                    Gather(g, rf, o[k * owLen], 0u, owLen);
                    Axpy(a, g, ToFloat(wl.GetValue(tapBase + k)), owLen);
                }
            }
        }

        LocalTensor<T> out = outQ.AllocTensor<T>();
        Relu(a, a, owLen);
        if constexpr (std::is_same<T, half>::value) {
            Cast(out, a, RoundMode::CAST_ROUND, owLen);
        } else {
            Adds(out, a, 0.0f, owLen);
        }
        outQ.EnQue(out);
        out = outQ.DeQue<T>();
        uint64_t dst = ((static_cast<uint64_t>(n) * tl.cout + co) * tl.outH + oh) * tl.outW;
        DataCopyExtParams cpo{1, static_cast<uint32_t>(tl.outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[dst], out, cpo);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> rowF, gath, acc, offs, wBuf;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    DirectConvBiasReluTiling tl;
    uint32_t rowLen = 0, owLen = 0, tapCnt = 0;
};

extern "C" __global__ __aicore__ void direct_conv_bias_relu(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        ConvBiasReluKernel<half> op;
        op.Init(x, weight, bias, y, td);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        ConvBiasReluKernel<float> op;
        op.Init(x, weight, bias, y, td);
        op.Process();
    }
}
