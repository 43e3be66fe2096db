#include "kernel_operator.h"
using namespace AscendC;

// y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// Rewritten with tanh(u) = 1 - 2/(1+exp(2u)):  y = x - x / (1 + exp(2u))
// which needs only Exp and Div on the vector unit.
constexpr float K_SQRT_2_OVER_PI = 0.7978845608028654f;
constexpr float K_CUBIC = 0.044715f;
constexpr int32_t QDEPTH = 2;

template <typename T>
class TanhGeluKernel {
public:
    __aicore__ inline TanhGeluKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TanhGeluTilingData &td)
    {
        uint64_t start = td.blockLen * GetBlockIdx();
        count = (td.total - start < td.blockLen) ? (td.total - start) : td.blockLen;
        tile = td.tileLen;
        xGm.SetGlobalBuffer((__gm__ T *)x + start, count);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, count);
        pipe.InitBuffer(qIn, QDEPTH, tile * sizeof(T));
        pipe.InitBuffer(qOut, QDEPTH, tile * sizeof(T));
        pipe.InitBuffer(fx, tile * sizeof(float));
        pipe.InitBuffer(fu, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < count; off += tile) {
            uint32_t n = (count - off < tile) ? static_cast<uint32_t>(count - off) : tile;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> t = qIn.AllocTensor<T>();
        DataCopyPad(t, xGm[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        qIn.EnQue(t);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> src = qIn.DeQue<T>();
        LocalTensor<T> dst = qOut.AllocTensor<T>();
        LocalTensor<float> x = fx.Get<float>();
        LocalTensor<float> u = fu.Get<float>();

        if constexpr (sizeof(T) == 2) {
            Cast(x, src, RoundMode::CAST_NONE, n);
        } else {
            DataCopy(x, src, (n + 7) / 8 * 8);
        }
        qIn.FreeTensor(src);

        // u = 2*sqrt(2/pi) * (x + c x^3) = x * (a + b x^2)
        Mul(u, x, x, n);
        Muls(u, u, 2.0f * K_SQRT_2_OVER_PI * K_CUBIC, n);
        Adds(u, u, 2.0f * K_SQRT_2_OVER_PI, n);
        Mul(u, u, x, n);
        // u = 1 + exp(u)
        Exp(u, u, n);
        Adds(u, u, 1.0f, n);
        // u = x / u ;  y = x - u
        Div(u, x, u, n);
        Sub(u, x, u, n);

        if constexpr (sizeof(T) == 2) {
            Cast(dst, u, RoundMode::CAST_ROUND, n);
        } else {
            DataCopy(dst, u, (n + 7) / 8 * 8);
        }
        qOut.EnQue(dst);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> t = qOut.DeQue<T>();
        DataCopyPad(yGm[off], t, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        qOut.FreeTensor(t);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, QDEPTH> qIn;
    TQue<QuePosition::VECOUT, QDEPTH> qOut;
    TBuf<TPosition::VECCALC> fx, fu;
    GlobalTensor<T> xGm, yGm;
    uint64_t count = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void tanh_gelu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        TanhGeluKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        TanhGeluKernel<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
