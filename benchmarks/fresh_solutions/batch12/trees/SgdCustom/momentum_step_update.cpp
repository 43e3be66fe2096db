// momentum_step_update.cpp
// One heavy-ball step on a flat parameter buffer:
//     v_new = mu * v + g
//     p_new = p - lr * v_new
// Only p_new is written back. Elements are split evenly over the cores; each
// core walks its slice in double-buffered tiles.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t kBufNum = 2;

struct MomentumStepUpdateTiling {
    uint32_t totalLen;   // number of elements
    uint32_t perCore;    // elements owned by each core except the last one
    uint32_t tileLen;    // elements per tile (multiple of 8)
    float momentum;
    float lr;
};

__aicore__ inline void FetchTiling(MomentumStepUpdateTiling &t, GM_ADDR gm)
{
    uint32_t *dst = reinterpret_cast<uint32_t *>(&t);
    __gm__ uint32_t *src = reinterpret_cast<__gm__ uint32_t *>(gm);
    for (size_t i = 0; i < sizeof(MomentumStepUpdateTiling) / 4; i++) {
        dst[i] = src[i];
    }
}

class MomentumStep {
public:
    __aicore__ inline MomentumStep() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR vel, GM_ADDR out,
                                const MomentumStepUpdateTiling &t)
    {
        mu = t.momentum;
        negLr = -t.lr;
        tileLen = t.tileLen;
        uint32_t start = GetBlockIdx() * t.perCore;
        myLen = 0;
        if (start < t.totalLen) {
            myLen = (t.totalLen - start < t.perCore) ? (t.totalLen - start) : t.perCore;
        }
        pGm.SetGlobalBuffer((__gm__ float *)param + start, myLen);
        gGm.SetGlobalBuffer((__gm__ float *)grad + start, myLen);
        vGm.SetGlobalBuffer((__gm__ float *)vel + start, myLen);
        oGm.SetGlobalBuffer((__gm__ float *)out + start, myLen);

        pipe.InitBuffer(qP, kBufNum, tileLen * sizeof(float));
        pipe.InitBuffer(qG, kBufNum, tileLen * sizeof(float));
        pipe.InitBuffer(qV, kBufNum, tileLen * sizeof(float));
        pipe.InitBuffer(qOut, kBufNum, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t fullTiles = myLen / tileLen;
        uint32_t rest = myLen % tileLen;
        for (uint32_t i = 0; i < fullTiles; i++) {
            Step(i * tileLen, tileLen);
        }
        if (rest > 0) {
            Step(fullTiles * tileLen, rest);
        }
    }

private:
    __aicore__ inline void Step(uint32_t off, uint32_t n)
    {
        CopyIn(off, n);
        Compute(n);
        CopyOut(off, n);
    }

    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {
        LocalTensor<float> p = qP.AllocTensor<float>();
        LocalTensor<float> g = qG.AllocTensor<float>();
        LocalTensor<float> v = qV.AllocTensor<float>();
        // DataCopyPad copes with a tail that is not a whole 32-byte block
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(p, pGm[off], cp, pad);
        DataCopyPad(g, gGm[off], cp, pad);
        DataCopyPad(v, vGm[off], cp, pad);
        qP.EnQue(p);
        qG.EnQue(g);
        qV.EnQue(v);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> p = qP.DeQue<float>();
        LocalTensor<float> g = qG.DeQue<float>();
        LocalTensor<float> v = qV.DeQue<float>();
        LocalTensor<float> o = qOut.AllocTensor<float>();

        // v <- mu * v + g   (computed in place in the velocity tile)
        Muls(v, v, mu, n);
        Add(v, v, g, n);
        // o <- p + (-lr) * v
        Muls(o, v, negLr, n);
        Add(o, o, p, n);

        qOut.EnQue(o);
        qP.FreeTensor(p);
        qG.FreeTensor(g);
        qV.FreeTensor(v);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)
    {
        LocalTensor<float> o = qOut.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(oGm[off], o, cp);
        qOut.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, kBufNum> qP, qG, qV;
    TQue<QuePosition::VECOUT, kBufNum> qOut;
    GlobalTensor<float> pGm, gGm, vGm, oGm;
    uint32_t myLen = 0;
    uint32_t tileLen = 0;
    float mu = 0.0f;
    float negLr = 0.0f;
};

extern "C" __global__ __aicore__ void momentum_step_update(GM_ADDR param, GM_ADDR grad, GM_ADDR vel,
                                                           GM_ADDR out, GM_ADDR tiling)
{
    MomentumStepUpdateTiling t;
    FetchTiling(t, tiling);
    MomentumStep op;
    op.Init(param, grad, vel, out, t);
    op.Process();
}
