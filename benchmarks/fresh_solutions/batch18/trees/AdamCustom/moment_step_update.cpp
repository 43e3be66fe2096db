// moment_step_update: one bias-corrected first/second moment update of a weight
// tensor (the classic adaptive-moment rule), returning the new weights only.
//
//   m'  = b1 * m + (1 - b1) * g
//   v'  = b2 * v + (1 - b2) * g^2
//   w'  = w - (lr / c1) * m' / (sqrt(v' / c2) + eps)      c1 = 1-b1^t, c2 = 1-b2^t
//
// c1/c2 depend only on the step counter, so the host folds them into the tiling.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct MomentStepUpdateTiling {
    uint32_t totalLen;   // elements in every tensor
    uint32_t perCore;    // elements per core (multiple of 8)
    uint32_t tileLen;    // elements per UB pass (multiple of 8)
    float beta1;
    float beta2;
    float oneMinusBeta1;
    float oneMinusBeta2;
    float stepSize;      // lr / c1
    float invC2;         // 1 / c2
    float eps;
};

class MomentStepUpdate {
public:
    __aicore__ inline MomentStepUpdate() {}

    __aicore__ inline void Init(GM_ADDR w, GM_ADDR g, GM_ADDR m, GM_ADDR v, GM_ADDR out,
                                const MomentStepUpdateTiling &tl)
    {
        tl_ = tl;
        uint32_t start = GetBlockIdx() * tl.perCore;
        count_ = 0;
        if (start < tl.totalLen) {
            count_ = (tl.totalLen - start < tl.perCore) ? (tl.totalLen - start) : tl.perCore;
        }
        wGm.SetGlobalBuffer((__gm__ float *)w + start, count_);
        gGm.SetGlobalBuffer((__gm__ float *)g + start, count_);
        mGm.SetGlobalBuffer((__gm__ float *)m + start, count_);
        vGm.SetGlobalBuffer((__gm__ float *)v + start, count_);
        oGm.SetGlobalBuffer((__gm__ float *)out + start, count_);

        uint32_t bytes = tl.tileLen * sizeof(float);
        pipe.InitBuffer(qW, BUFFER_NUM, bytes);
        pipe.InitBuffer(qG, BUFFER_NUM, bytes);
        pipe.InitBuffer(qM, BUFFER_NUM, bytes);
        pipe.InitBuffer(qV, BUFFER_NUM, bytes);
        pipe.InitBuffer(qOut, BUFFER_NUM, bytes);
        pipe.InitBuffer(scratch, bytes);
    }

    __aicore__ inline void Process()
    {
        uint32_t done = 0;
        while (done < count_) {
            uint32_t len = (count_ - done < tl_.tileLen) ? (count_ - done) : tl_.tileLen;
            CopyIn(done, len);
            Compute(len);
            CopyOut(done, len);
            done += len;
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t len)
    {
        LocalTensor<float> wl = qW.AllocTensor<float>();
        LocalTensor<float> gl = qG.AllocTensor<float>();
        LocalTensor<float> ml = qM.AllocTensor<float>();
        LocalTensor<float> vl = qV.AllocTensor<float>();
        DataCopy(wl, wGm[off], len);
        DataCopy(gl, gGm[off], len);
        DataCopy(ml, mGm[off], len);
        DataCopy(vl, vGm[off], len);
        qW.EnQue(wl);
        qG.EnQue(gl);
        qM.EnQue(ml);
        qV.EnQue(vl);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> wl = qW.DeQue<float>();
        LocalTensor<float> gl = qG.DeQue<float>();
        LocalTensor<float> ml = qM.DeQue<float>();
        LocalTensor<float> vl = qV.DeQue<float>();
        LocalTensor<float> ol = qOut.AllocTensor<float>();
        LocalTensor<float> tmp = scratch.Get<float>();

        // first moment: m = b1*m + (1-b1)*g
        Muls(ml, ml, tl_.beta1, len);
        Axpy(ml, gl, tl_.oneMinusBeta1, len);

        // second moment: v = b2*v + (1-b2)*g*g
        Mul(tmp, gl, gl, len);
        Muls(vl, vl, tl_.beta2, len);
        Axpy(vl, tmp, tl_.oneMinusBeta2, len);

        // denominator: sqrt(v / c2) + eps
        Muls(tmp, vl, tl_.invC2, len);
        Sqrt(tmp, tmp, len);
        Adds(tmp, tmp, tl_.eps, len);

        // w - stepSize * m / denom
        Div(tmp, ml, tmp, len);
        Muls(tmp, tmp, tl_.stepSize, len);
        Sub(ol, wl, tmp, len);

        qOut.EnQue(ol);
        qW.FreeTensor(wl);
        qG.FreeTensor(gl);
        qM.FreeTensor(ml);
        qV.FreeTensor(vl);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t len)
    {
        LocalTensor<float> ol = qOut.DeQue<float>();
        DataCopy(oGm[off], ol, len);
        qOut.FreeTensor(ol);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qW, qG, qM, qV;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qOut;
    TBuf<QuePosition::VECCALC> scratch;
    GlobalTensor<float> wGm, gGm, mGm, vGm, oGm;
    MomentStepUpdateTiling tl_;
    uint32_t count_ = 0;
};

extern "C" __global__ __aicore__ void moment_step_update(GM_ADDR w, GM_ADDR g, GM_ADDR m, GM_ADDR v,
                                                         GM_ADDR out, GM_ADDR tiling)
{
    MomentStepUpdateTiling tl;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(MomentStepUpdateTiling) / 4; ++i) {
        dst[i] = src[i];
    }
    MomentStepUpdate kernel;
    kernel.Init(w, g, m, v, out, tl);
    kernel.Process();
}
