// erf_gate_activation.cpp
//
// y = x * Phi(x),  Phi = standard normal CDF = 0.5 * (1 + erf(x / sqrt(2)))   (exact, not tanh form)
//
// erf is evaluated with the Abramowitz & Stegun 7.1.26 rational approximation
// (|err| < 1.5e-7):  for z >= 0,  erf(z) = 1 - poly(s) * exp(-z^2),  s = 1 / (1 + c*z).
// Writing q = poly(s) * exp(-z^2) with z = |x| / sqrt(2) the sign case split folds into
//     y = 0.5 * x + 0.5 * |x| * (1 - q)
// so no compare/select is needed.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t QUEUE_DEPTH = 2;
constexpr float C_P = 0.3275911f * 0.70710678118654752f;  // c / sqrt(2): applied to |x| directly
constexpr float A1 = 0.254829592f;
constexpr float A2 = -0.284496736f;
constexpr float A3 = 1.421413741f;
constexpr float A4 = -1.453152027f;
constexpr float A5 = 1.061405429f;
}  // namespace

struct ErfGateActivationTiling {
    uint32_t totalLength;   // elements in the tensor
    uint32_t blockLength;   // elements per core (multiple of 8, last core may get fewer)
    uint32_t tileLength;    // elements per UB pass
};

class ErfGateActivation {
public:
    __aicore__ inline ErfGateActivation() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ErfGateActivationTiling &tiling)
    {
        uint64_t offset = (uint64_t)tiling.blockLength * GetBlockIdx();
        myLength = 0;
        if (offset < tiling.totalLength) {
            uint64_t rest = tiling.totalLength - offset;
            myLength = rest < tiling.blockLength ? (uint32_t)rest : tiling.blockLength;
        }
        tileLength = tiling.tileLength;

        xGm.SetGlobalBuffer((__gm__ float *)x + offset, myLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, myLength);

        pipe.InitBuffer(inQ, QUEUE_DEPTH, tileLength * sizeof(float));
        pipe.InitBuffer(outQ, QUEUE_DEPTH, tileLength * sizeof(float));
        pipe.InitBuffer(absBuf, tileLength * sizeof(float));
        pipe.InitBuffer(sBuf, tileLength * sizeof(float));
        pipe.InitBuffer(expBuf, tileLength * sizeof(float));
        pipe.InitBuffer(oneBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myLength == 0) return;
        LocalTensor<float> ones = oneBuf.Get<float>();
        Duplicate(ones, 1.0f, tileLength);

        uint32_t loops = (myLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < loops; ++i) {
            uint32_t len = (i == loops - 1) ? myLength - i * tileLength : tileLength;
            CopyIn(i, len);
            Compute(len);
            CopyOut(i, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t len)
    {
        LocalTensor<float> xLocal = inQ.AllocTensor<float>();
        DataCopyPad(xLocal, xGm[(uint64_t)i * tileLength], {1, len * 4, 0, 0, 0}, {false, 0, 0, 0});
        inQ.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> x = inQ.DeQue<float>();
        LocalTensor<float> y = outQ.AllocTensor<float>();
        LocalTensor<float> ax = absBuf.Get<float>();
        LocalTensor<float> s = sBuf.Get<float>();
        LocalTensor<float> e = expBuf.Get<float>();
        LocalTensor<float> ones = oneBuf.Get<float>();

        // |x|
        Abs(ax, x, len);
        // exp(-x^2 / 2) == exp(-z^2)
        Mul(e, x, x, len);
        PipeBarrier<PIPE_V>();
        Muls(e, e, -0.5f, len);
        // s = 1 / (1 + c * |x| / sqrt(2))
        Muls(s, ax, C_P, len);
        PipeBarrier<PIPE_V>();
        Exp(e, e, len);
        Adds(s, s, 1.0f, len);
        PipeBarrier<PIPE_V>();
        Div(s, ones, s, len);
        PipeBarrier<PIPE_V>();

        // Horner: poly = s*(A1 + s*(A2 + s*(A3 + s*(A4 + s*A5))))
        Muls(y, s, A5, len);
        PipeBarrier<PIPE_V>();
        Adds(y, y, A4, len);
        PipeBarrier<PIPE_V>();
        Mul(y, y, s, len);
        PipeBarrier<PIPE_V>();
        Adds(y, y, A3, len);
        PipeBarrier<PIPE_V>();
        Mul(y, y, s, len);
        PipeBarrier<PIPE_V>();
        Adds(y, y, A2, len);
        PipeBarrier<PIPE_V>();
        Mul(y, y, s, len);
        PipeBarrier<PIPE_V>();
        Adds(y, y, A1, len);
        PipeBarrier<PIPE_V>();
        Mul(y, y, s, len);
        PipeBarrier<PIPE_V>();

        // q = poly * exp(-z^2);  0.5 * (1 - q)
        Mul(y, y, e, len);
        PipeBarrier<PIPE_V>();
        Muls(y, y, -0.5f, len);
        PipeBarrier<PIPE_V>();
        Adds(y, y, 0.5f, len);
        PipeBarrier<PIPE_V>();
        // * |x|  + 0.5 * x
        Mul(y, y, ax, len);
        PipeBarrier<PIPE_V>();
        Axpy(y, x, 0.5f, len);

        outQ.EnQue<float>(y);
        inQ.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t len)
    {
        LocalTensor<float> yLocal = outQ.DeQue<float>();
        DataCopyPad(yGm[(uint64_t)i * tileLength], yLocal, {1, len * 4, 0, 0, 0});
        outQ.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, QUEUE_DEPTH> inQ;
    TQue<QuePosition::VECOUT, QUEUE_DEPTH> outQ;
    TBuf<QuePosition::VECCALC> absBuf, sBuf, expBuf, oneBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t myLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void erf_gate_activation(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    ErfGateActivationTiling t;
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) {
        reinterpret_cast<uint32_t *>(&t)[i] = reinterpret_cast<__gm__ uint32_t *>(tiling)[i];
    }
    ErfGateActivation op;
    op.Init(x, y, t);
    op.Process();
}
