#include "kernel_operator.h"

using namespace AscendC;

/*
 * Work item = (image, block of output channels, output row).
 * For every tap (ci, r, q) the input segment x[img, ci, row + r, q : q + wout] is fetched
 * straight from GM at its (unaligned) start, so no shifting is needed in UB; the segment
 * is then accumulated into all coBlock output rows with Axpy.  Accumulation is fp32.
 */
template <typename T>
class ConvDoubleMishKernel {
public:
    __aicore__ inline ConvDoubleMishKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const ConvDoubleMishTiling& tl)
    {
        t = tl;
        hasBias = (b != nullptr);
        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        if (hasBias) {
            bGm.SetGlobalBuffer((__gm__ T*)b, t.cout);
        }
        yGm.SetGlobalBuffer((__gm__ T*)y);
        const uint32_t rowBytes = t.woutPad * sizeof(float);
        pipe.InitBuffer(inQ, 2, t.woutPad * sizeof(T));
        pipe.InitBuffer(outQ, 2, t.woutPad * sizeof(T));
        pipe.InitBuffer(accBuf, t.coBlock * rowBytes);
        pipe.InitBuffer(castBuf, rowBytes);
        pipe.InitBuffer(tmpBuf, 2 * rowBytes);
    }

    __aicore__ inline void Process()
    {
        uint32_t begin = GetBlockIdx() * t.itemsPerCore;
        uint32_t end = begin + t.itemsPerCore;
        if (end > t.workItems) {
            end = t.workItems;
        }
        for (uint32_t it = begin; it < end; ++it) {
            uint32_t row = it % t.hout;
            uint32_t cb = (it / t.hout) % t.coBlocks;
            uint32_t img = it / (t.hout * t.coBlocks);
            Accumulate(img, cb, row);
            Epilogue(img, cb, row);
        }
    }

private:
    __aicore__ inline float ToFloat(T v)
    {
        if constexpr (std::is_same_v<T, float>) {
            return v;
        } else {
            return static_cast<float>(v);
        }
    }

    __aicore__ inline void Accumulate(uint32_t img, uint32_t cb, uint32_t row)
    {
        const uint32_t co0 = cb * t.coBlock;
        const uint32_t cnt = (co0 + t.coBlock <= t.cout) ? t.coBlock : t.cout - co0;
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, cnt * t.woutPad);
        PipeBarrier<PIPE_V>();

        const uint32_t taps = t.kh * t.kw;
        DataCopyExtParams cp{1, static_cast<uint32_t>(t.wout * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        for (uint32_t ci = 0; ci < t.cin; ++ci) {
            for (uint32_t tap = 0; tap < taps; ++tap) {
                uint32_t r = tap / t.kw;
                uint32_t q = tap % t.kw;
                uint64_t src = ((static_cast<uint64_t>(img) * t.cin + ci) * t.hin + row + r) * t.win + q;
                LocalTensor<T> seg = inQ.AllocTensor<T>();
                DataCopyPad(seg, xGm[src], cp, pad);
                inQ.EnQue(seg);
                seg = inQ.DeQue<T>();

                LocalTensor<float> segF;
                if constexpr (std::is_same_v<T, float>) {
                    segF = seg;
                } else {
                    segF = castBuf.Get<float>();
                    Cast(segF, seg, RoundMode::CAST_NONE, t.wout);
                    PipeBarrier<PIPE_V>();
                }
                for (uint32_t o = 0; o < cnt; ++o) {
                    uint64_t wi = ((static_cast<uint64_t>(co0 + o) * t.cin + ci) * t.kh + r) * t.kw + q;
                    Axpy(acc[o * t.woutPad], segF, ToFloat(wGm.GetValue(wi)), t.wout);
                }
                PipeBarrier<PIPE_V>();
                inQ.FreeTensor(seg);
            }
        }
    }

    // y = x * tanh(softplus(x)).  With u = e^x:  tanh(ln(1+u)) = u(u+2) / (u(u+2) + 2).
    // x is clamped at 20 inside the exponent: for larger x the ratio is 1 in fp32 anyway.
    __aicore__ inline void Mish(const LocalTensor<float>& v, uint32_t len)
    {
        LocalTensor<float> u = tmpBuf.Get<float>();
        LocalTensor<float> d = u[t.woutPad];
        Mins(u, v, 20.0f, len);
        PipeBarrier<PIPE_V>();
        Exp(u, u, len);
        PipeBarrier<PIPE_V>();
        Adds(d, u, 2.0f, len);
        PipeBarrier<PIPE_V>();
        Mul(u, u, d, len);          // u(u+2)
        PipeBarrier<PIPE_V>();
        Adds(d, u, 2.0f, len);      // u(u+2)+2
        PipeBarrier<PIPE_V>();
        Div(u, u, d, len);
        PipeBarrier<PIPE_V>();
        Mul(v, v, u, len);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Epilogue(uint32_t img, uint32_t cb, uint32_t row)
    {
        const uint32_t co0 = cb * t.coBlock;
        const uint32_t cnt = (co0 + t.coBlock <= t.cout) ? t.coBlock : t.cout - co0;
        LocalTensor<float> acc = accBuf.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(t.wout * sizeof(T)), 0, 0, 0};
        for (uint32_t o = 0; o < cnt; ++o) {
            LocalTensor<float> v = acc[o * t.woutPad];
            if (hasBias) {
                Adds(v, v, ToFloat(bGm.GetValue(co0 + o)), t.wout);
                PipeBarrier<PIPE_V>();
            }
            Mish(v, t.wout);
            Mish(v, t.wout);

            LocalTensor<T> out = outQ.AllocTensor<T>();
            if constexpr (std::is_same_v<T, float>) {
                DataCopy(out, v, t.woutPad);
            } else {
                Cast(out, v, RoundMode::CAST_ROUND, t.wout);
            }
            outQ.EnQue(out);
            out = outQ.DeQue<T>();
            uint64_t dst = ((static_cast<uint64_t>(img) * t.cout + co0 + o) * t.hout + row) * t.wout;
            DataCopyPad(yGm[dst], out, cp);
            outQ.FreeTensor(out);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> accBuf, castBuf, tmpBuf;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    ConvDoubleMishTiling t;
    bool hasBias = false;
};

extern "C" __global__ __aicore__ void conv_double_mish(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ConvDoubleMishKernel<float> op;
        op.Init(x, filter, bias, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ConvDoubleMishKernel<half> op;
        op.Init(x, filter, bias, y, td);
        op.Process();
    }
}
