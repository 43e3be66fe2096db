/**
 * sqaccum_lr_step.cpp
 *
 * One step of the squared-gradient-accumulation optimizer, elementwise:
 *     h'  = h + g * g
 *     p'  = p - lr * g / (sqrt(h') + eps)
 * Outputs both the new parameters and the new accumulator.
 *
 * Flat 1-D split: each core owns a contiguous chunk (multiple of 8 elements, the
 * remainder goes to the last core) and walks it in double-buffered tiles.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct SqaccumLrStepTiling {
    uint32_t total;        // number of elements
    uint32_t perCore;      // elements per core (last core: total - perCore * (blockDim - 1))
    uint32_t tile;         // elements per tile
    float lr;
    float eps;
};

constexpr int32_t NBUF = 2;

class SqaccumLrStep {
public:
    __aicore__ inline SqaccumLrStep() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR accum, GM_ADDR paramOut, GM_ADDR accumOut,
                                const SqaccumLrStepTiling &t)
    {
        lr = t.lr;
        eps = t.eps;
        tile = t.tile;
        uint64_t start = (uint64_t)GetBlockIdx() * t.perCore;
        if (start >= t.total) {
            len = 0;
        } else if (GetBlockIdx() == GetBlockNum() - 1) {
            len = t.total - (uint32_t)start;
        } else {
            len = t.perCore;
        }

        pGm.SetGlobalBuffer((__gm__ float *)param + start, len);
        gGm.SetGlobalBuffer((__gm__ float *)grad + start, len);
        hGm.SetGlobalBuffer((__gm__ float *)accum + start, len);
        pOutGm.SetGlobalBuffer((__gm__ float *)paramOut + start, len);
        hOutGm.SetGlobalBuffer((__gm__ float *)accumOut + start, len);

        pipe.InitBuffer(qP, NBUF, tile * sizeof(float));
        pipe.InitBuffer(qG, NBUF, tile * sizeof(float));
        pipe.InitBuffer(qH, NBUF, tile * sizeof(float));
        pipe.InitBuffer(qPOut, NBUF, tile * sizeof(float));
        pipe.InitBuffer(qHOut, NBUF, tile * sizeof(float));
        pipe.InitBuffer(scratch, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < len; off += tile) {
            uint32_t n = len - off < tile ? len - off : tile;
            CopyIn(off, n);
            Update(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        DataCopyExtParams cp{1, n * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.f};
        LocalTensor<float> p = qP.AllocTensor<float>();
        LocalTensor<float> g = qG.AllocTensor<float>();
        LocalTensor<float> h = qH.AllocTensor<float>();
        DataCopyPad(p, pGm[off], cp, pad);
        DataCopyPad(g, gGm[off], cp, pad);
        DataCopyPad(h, hGm[off], cp, pad);
        qP.EnQue(p);
        qG.EnQue(g);
        qH.EnQue(h);
    }

    __aicore__ inline void Update(uint32_t n)
    {
        LocalTensor<float> p = qP.DeQue<float>();
        LocalTensor<float> g = qG.DeQue<float>();
        LocalTensor<float> h = qH.DeQue<float>();
        LocalTensor<float> pNew = qPOut.AllocTensor<float>();
        LocalTensor<float> hNew = qHOut.AllocTensor<float>();
        LocalTensor<float> den = scratch.Get<float>();

        Mul(hNew, g, g, n);            // g^2
        Add(hNew, hNew, h, n);         // h' = h + g^2
        Sqrt(den, hNew, n);            // sqrt(h')
        Adds(den, den, eps, n);        // + eps
        Div(den, g, den, n);           // g / (sqrt(h') + eps)
        Muls(den, den, -lr, n);        // * -lr
        Add(pNew, p, den, n);          // p' = p - lr * ...

        qPOut.EnQue(pNew);
        qHOut.EnQue(hNew);
        qP.FreeTensor(p);
        qG.FreeTensor(g);
        qH.FreeTensor(h);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)
    {
        DataCopyExtParams cp{1, n * (uint32_t)sizeof(float), 0, 0, 0};
        LocalTensor<float> pNew = qPOut.DeQue<float>();
        LocalTensor<float> hNew = qHOut.DeQue<float>();
        DataCopyPad(pOutGm[off], pNew, cp);
        DataCopyPad(hOutGm[off], hNew, cp);
        qPOut.FreeTensor(pNew);
        qHOut.FreeTensor(hNew);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, NBUF> qP, qG, qH;
    TQue<QuePosition::VECOUT, NBUF> qPOut, qHOut;
    TBuf<TPosition::VECCALC> scratch;
    GlobalTensor<float> pGm, gGm, hGm, pOutGm, hOutGm;
    uint32_t len = 0;
    uint32_t tile = 0;
    float lr = 0.f;
    float eps = 0.f;
};

extern "C" __global__ __aicore__ void sqaccum_lr_step(GM_ADDR param, GM_ADDR grad, GM_ADDR accum, GM_ADDR paramOut,
                                                      GM_ADDR accumOut, GM_ADDR tiling)
{
    SqaccumLrStepTiling t;
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) {
        reinterpret_cast<uint32_t *>(&t)[i] = reinterpret_cast<__gm__ uint32_t *>(tiling)[i];
    }
    SqaccumLrStep op;
    op.Init(param, grad, accum, paramOut, accumOut, t);
    op.Process();
}
