// Tanh-approximated GELU:
//   y = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
// Using 0.5 * (1 + tanh(z)) = 1 / (1 + exp(-2z)) this becomes
//   y = x / (1 + exp(-2 * sqrt(2/pi) * x * (1 + 0.044715 * x^2)))
// which needs a single Exp and one Div per element.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t QUEUE_DEPTH = 2;
constexpr float NEG_TWO_SQRT_2_OVER_PI = -1.5957691216057308f;
constexpr float GELU_COEF = 0.044715f;

template <typename T>
class TanhGeluKernel {
public:
    __aicore__ inline TanhGeluKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t tile)
    {
        uint64_t start = perCore * GetBlockIdx();
        count = (start + perCore <= total) ? perCore : (total > start ? total - start : 0);
        tileLen = tile;
        xGm.SetGlobalBuffer((__gm__ T*)x + start, count);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, count);
        pipe.InitBuffer(inQ, QUEUE_DEPTH, tileLen * sizeof(T));
        pipe.InitBuffer(outQ, QUEUE_DEPTH, tileLen * sizeof(T));
        pipe.InitBuffer(xfBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < count; off += tileLen) {
            uint32_t n = (count - off) < tileLen ? static_cast<uint32_t>(count - off) : tileLen;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        LocalTensor<float> xf = xfBuf.Get<float>();
        LocalTensor<float> t = tmpBuf.Get<float>();

        if constexpr (IsSameType<T, half>::value) {
            Cast(xf, xl, RoundMode::CAST_NONE, n);
        } else {
            xf = xl.template ReinterpretCast<float>();
        }
        Mul(t, xf, xf, n);                               // x^2
        Muls(t, t, GELU_COEF, n);                        // 0.044715 x^2
        Adds(t, t, 1.0f, n);                             // 1 + 0.044715 x^2
        Mul(t, t, xf, n);                                // x + 0.044715 x^3
        Muls(t, t, NEG_TWO_SQRT_2_OVER_PI, n);           // -2 z
        Exp(t, t, n);
        Adds(t, t, 1.0f, n);                             // 1 + exp(-2z)
        if constexpr (IsSameType<T, half>::value) {
            Div(t, xf, t, n);
            Cast(yl, t, RoundMode::CAST_ROUND, n);
        } else {
            Div(yl, xf, t, n);
        }

        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, QUEUE_DEPTH> inQ;
    TQue<QuePosition::VECOUT, QUEUE_DEPTH> outQ;
    TBuf<TPosition::VECCALC> xfBuf, tmpBuf;
    GlobalTensor<T> xGm, yGm;
    uint64_t count = 0;
    uint32_t tileLen = 0;
};

extern "C" __global__ __aicore__ void tanh_gelu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        TanhGeluKernel<float> k;
        k.Init(x, y, td.totalNum, td.perCore, td.tileNum);
        k.Process();
    } else if (TILING_KEY_IS(2)) {
        TanhGeluKernel<half> k;
        k.Init(x, y, td.totalNum, td.perCore, td.tileNum);
        k.Process();
    }
}
