/*
 * GeluTanhForm: y = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
 *
 * Uses 0.5 * (1 + tanh(u)) == 1 / (1 + exp(-2u)), so
 *     y = x / (1 + exp(-2 * sqrt(2/pi) * (x + 0.044715 * x^3)))
 * which needs one Exp and one Div per element and no tanh.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;
constexpr float K0 = -1.5957691216057308f;        // -2 * sqrt(2 / pi)
constexpr float K1 = -1.5957691216057308f * 0.044715f;

template <typename T>
class GeluTanhFormKernel {
public:
    __aicore__ inline GeluTanhFormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GeluTanhFormTilingData &td)
    {
        const uint64_t begin = td.perCore * GetBlockIdx();
        myLen = begin >= td.total ? 0 : ((td.total - begin) < td.perCore ? (td.total - begin) : td.perCore);
        tileLen = td.tileLen;
        xGm.SetGlobalBuffer((__gm__ T *)x + begin, myLen);
        yGm.SetGlobalBuffer((__gm__ T *)y + begin, myLen);
        pipe.InitBuffer(qIn, DEPTH, tileLen * sizeof(T));
        pipe.InitBuffer(qOut, DEPTH, tileLen * sizeof(T));
        pipe.InitBuffer(bufX, tileLen * sizeof(float));
        pipe.InitBuffer(bufT, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < myLen; off += tileLen) {
            const uint32_t len = (myLen - off) < tileLen ? static_cast<uint32_t>(myLen - off) : tileLen;
            CopyIn(off, len);
            Compute(len);
            CopyOut(off, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<T> in = qIn.AllocTensor<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(in, xGm[off], p, DataCopyPadExtParams<T>{false, 0, 0, 0});
        qIn.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<T> in = qIn.DeQue<T>();
        LocalTensor<T> out = qOut.AllocTensor<T>();
        LocalTensor<float> xf = bufX.Get<float>();
        LocalTensor<float> t = bufT.Get<float>();

        if constexpr (IsSameType<T, half>::value) {
            Cast(xf, in, RoundMode::CAST_NONE, len);
        } else {
            xf = in.template ReinterpretCast<float>();
        }
        // t = K1 * x^2 + K0  ->  t * x = -2u
        Mul(t, xf, xf, len);
        Muls(t, t, K1, len);
        Adds(t, t, K0, len);
        Mul(t, t, xf, len);
        Exp(t, t, len);
        Adds(t, t, 1.0f, len);
        if constexpr (IsSameType<T, half>::value) {
            Div(t, xf, t, len);
            Cast(out, t, RoundMode::CAST_ROUND, len);
        } else {
            Div(out, xf, t, len);
        }
        qOut.EnQue(out);
        qIn.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<T> out = qOut.DeQue<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], out, p);
        qOut.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> qIn;
    TQue<QuePosition::VECOUT, DEPTH> qOut;
    TBuf<TPosition::VECCALC> bufX, bufT;
    GlobalTensor<T> xGm, yGm;
    uint64_t myLen = 0;
    uint32_t tileLen = 0;
};

extern "C" __global__ __aicore__ void gelu_tanh_form(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GeluTanhFormKernel<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
