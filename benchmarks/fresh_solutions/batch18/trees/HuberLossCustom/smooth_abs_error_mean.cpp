// smooth_abs_error_mean: mean over all elements of the piecewise loss
//     l(d) = 0.5 * d^2      if |d| < 1
//            |d| - 0.5      otherwise,         d = pred - target
// Branch-free form used on the vector unit: with a = |d| and c = min(a, 1),
// l = c * (a - 0.5 * c).
//
// Each core sums its slice into a UB vector accumulator, reduces it to a scalar,
// scales by 1/N and atomically adds it into the single output element (which the
// host zeroes before launch).
#include "kernel_operator.h"

using namespace AscendC;

struct SmoothAbsErrorMeanTiling {
    uint64_t total;     // number of elements
    uint64_t perCore;   // elements per core (multiple of tile)
    uint32_t tile;      // elements per UB step, multiple of 64
    float invTotal;     // 1 / total
};

class SmoothAbsErrorMean {
public:
    __aicore__ inline SmoothAbsErrorMean() {}

    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR target, GM_ADDR out, const SmoothAbsErrorMeanTiling &tl)
    {
        tile_ = tl.tile;
        invTotal_ = tl.invTotal;
        uint64_t begin = GetBlockIdx() * tl.perCore;
        len_ = 0;
        if (begin < tl.total) {
            len_ = (tl.total - begin < tl.perCore) ? (tl.total - begin) : tl.perCore;
        }
        pGm.SetGlobalBuffer((__gm__ float *)pred + begin, len_);
        tGm.SetGlobalBuffer((__gm__ float *)target + begin, len_);
        outGm.SetGlobalBuffer((__gm__ float *)out, 1);

        pipe.InitBuffer(predQ, 2, tile_ * sizeof(float));
        pipe.InitBuffer(tgtQ, 2, tile_ * sizeof(float));
        pipe.InitBuffer(resQ, 1, 8 * sizeof(float));
        pipe.InitBuffer(accB, tile_ * sizeof(float));
        pipe.InitBuffer(absB, tile_ * sizeof(float));
        pipe.InitBuffer(clipB, tile_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accB.Get<float>();
        Duplicate(acc, 0.0f, tile_);
        for (uint64_t off = 0; off < len_; off += tile_) {
            uint32_t n = (len_ - off < tile_) ? static_cast<uint32_t>(len_ - off) : tile_;
            Stage(off, n);
            Accumulate(acc, n);
        }
        Finalize(acc);
    }

private:
    __aicore__ inline void Stage(uint64_t off, uint32_t n)
    {
        LocalTensor<float> p = predQ.AllocTensor<float>();
        LocalTensor<float> t = tgtQ.AllocTensor<float>();
        DataCopyExtParams cp{1, n * 4U, 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(p, pGm[off], cp, noPad);
        DataCopyPad(t, tGm[off], cp, noPad);
        predQ.EnQue(p);
        tgtQ.EnQue(t);
    }

    __aicore__ inline void Accumulate(LocalTensor<float> &acc, uint32_t n)
    {
        LocalTensor<float> p = predQ.DeQue<float>();
        LocalTensor<float> t = tgtQ.DeQue<float>();
        LocalTensor<float> a = absB.Get<float>();
        LocalTensor<float> c = clipB.Get<float>();

        Sub(a, p, t, n);          // d
        Abs(a, a, n);             // a = |d|
        Mins(c, a, 1.0f, n);      // c = min(a, 1)
        Axpy(a, c, -0.5f, n);     // a - 0.5c
        Mul(c, c, a, n);          // c * (a - 0.5c)
        Add(acc, acc, c, n);      // only the first n lanes are touched on a short tail

        predQ.FreeTensor(p);
        tgtQ.FreeTensor(t);
    }

    __aicore__ inline void Finalize(LocalTensor<float> &acc)
    {
        LocalTensor<float> r = resQ.AllocTensor<float>();
        LocalTensor<float> work = absB.Get<float>();
        ReduceSum(r, acc, work, tile_);
        Muls(r, r, invTotal_, 1);
        // keep the other lanes at zero so the atomic add of 1 element is clean
        resQ.EnQue(r);
        r = resQ.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, sizeof(float), 0, 0, 0};
        DataCopyPad(outGm, r, cp);
        SetAtomicNone();
        resQ.FreeTensor(r);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> predQ, tgtQ;
    TQue<QuePosition::VECOUT, 1> resQ;
    TBuf<QuePosition::VECCALC> accB, absB, clipB;
    GlobalTensor<float> pGm, tGm, outGm;
    uint64_t len_ = 0;
    uint32_t tile_ = 0;
    float invTotal_ = 0.0f;
};

extern "C" __global__ __aicore__ void smooth_abs_error_mean(GM_ADDR pred, GM_ADDR target, GM_ADDR out,
                                                            GM_ADDR tiling)
{
    SmoothAbsErrorMeanTiling tl;
    auto s = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto d = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(tl) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
    SmoothAbsErrorMean op;
    op.Init(pred, target, out, tl);
    op.Process();
}
