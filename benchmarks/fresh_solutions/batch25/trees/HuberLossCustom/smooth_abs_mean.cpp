/*
 * smooth_abs_mean
 *
 * Mean over all elements of the quadratic-near-zero / linear-far penalty of
 * the difference d = pred - target (threshold 1):
 *     f(d) = 0.5 * d^2        if |d| < 1
 *          = |d| - 0.5        otherwise
 * Branch-free form used on the vector unit, with m = min(|d|, 1):
 *     f(d) = m * (|d| - 0.5 * m)
 *
 * Stage 1 (smooth_abs_mean): every core reduces its slice to one partial sum,
 *                            stored at partial[blockIdx * 8].
 * Stage 2 (smooth_abs_mean_finish): one core adds the partials and divides by
 *                            the element count.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct SmoothAbsMeanTiling {
    uint64_t total;        // number of elements
    uint32_t perCore;      // elements per core (multiple of 8)
    uint32_t tileLen;      // elements per UB tile (multiple of 64)
    uint32_t coreNum;      // number of partial sums written in stage 1
    float invTotal;        // 1 / total
};

template <typename T>
__aicore__ inline void PullTiling(T &t, GM_ADDR gm)
{
    uint32_t *d = reinterpret_cast<uint32_t *>(&t);
    __gm__ uint32_t *s = reinterpret_cast<__gm__ uint32_t *>(gm);
    for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

class SmoothAbsPartial {
public:
    __aicore__ inline SmoothAbsPartial() {}

    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR target, GM_ADDR partial, const SmoothAbsMeanTiling &t)
    {
        tileLen = t.tileLen;
        uint64_t begin = (uint64_t)GetBlockIdx() * t.perCore;
        count = 0;
        if (begin < t.total) {
            uint64_t left = t.total - begin;
            count = left < t.perCore ? static_cast<uint32_t>(left) : t.perCore;
        }
        pGm.SetGlobalBuffer((__gm__ float *)pred + begin, count);
        tGm.SetGlobalBuffer((__gm__ float *)target + begin, count);
        partGm.SetGlobalBuffer((__gm__ float *)partial + GetBlockIdx() * 8, 8);

        pipe.InitBuffer(predQ, 2, tileLen * sizeof(float));
        pipe.InitBuffer(tgtQ, 2, tileLen * sizeof(float));
        pipe.InitBuffer(absBuf, tileLen * sizeof(float));
        pipe.InitBuffer(clipBuf, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, 1, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, tileLen);

        uint32_t tiles = (count + tileLen - 1) / tileLen;
        for (uint32_t i = 0; i < tiles; ++i) {
            uint32_t off = i * tileLen;
            uint32_t len = (count - off < tileLen) ? (count - off) : tileLen;
            CopyIn(off, len);
            Accumulate(len);
        }

        // collapse the accumulator to a single value
        LocalTensor<float> res = outQ.AllocTensor<float>();
        Duplicate(res, 0.0f, 8);
        ReduceSum<float>(res, acc, redBuf.Get<float>(), tileLen);
        outQ.EnQue(res);
        res = outQ.DeQue<float>();
        DataCopy(partGm, res, 8);
        outQ.FreeTensor(res);
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t len)
    {
        LocalTensor<float> p = predQ.AllocTensor<float>();
        LocalTensor<float> t = tgtQ.AllocTensor<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(p, pGm[off], cp, np);
        DataCopyPad(t, tGm[off], cp, np);
        predQ.EnQue(p);
        tgtQ.EnQue(t);
    }

    __aicore__ inline void Accumulate(uint32_t len)
    {
        LocalTensor<float> p = predQ.DeQue<float>();
        LocalTensor<float> t = tgtQ.DeQue<float>();
        LocalTensor<float> a = absBuf.Get<float>();
        LocalTensor<float> m = clipBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();

        Sub(a, p, t, len);            // d
        Abs(a, a, len);               // |d|
        Mins(m, a, 1.0f, len);        // m = min(|d|, 1)
        Axpy(a, m, -0.5f, len);       // |d| - 0.5 m
        Mul(a, a, m, len);            // m * (|d| - 0.5 m)
        Add(acc, acc, a, len);

        predQ.FreeTensor(p);
        tgtQ.FreeTensor(t);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> predQ, tgtQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<QuePosition::VECCALC> absBuf, clipBuf, accBuf, redBuf;
    GlobalTensor<float> pGm, tGm, partGm;
    uint32_t tileLen = 0;
    uint32_t count = 0;
};

extern "C" __global__ __aicore__ void smooth_abs_mean(GM_ADDR pred, GM_ADDR target, GM_ADDR partial,
                                                      GM_ADDR tiling)
{
    SmoothAbsMeanTiling t;
    PullTiling(t, tiling);
    SmoothAbsPartial op;
    op.Init(pred, target, partial, t);
    op.Process();
}

// ---------------------------------------------------------------------------
// stage 2: single core, sums coreNum partials (stride 8) and scales
// ---------------------------------------------------------------------------
extern "C" __global__ __aicore__ void smooth_abs_mean_finish(GM_ADDR partial, GM_ADDR out, GM_ADDR tiling)
{
    SmoothAbsMeanTiling t;
    PullTiling(t, tiling);
    if (GetBlockIdx() != 0) {
        return;
    }
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> resQ;
    TBuf<QuePosition::VECCALC> work;
    uint32_t n = t.coreNum * 8;
    pipe.InitBuffer(inQ, 1, n * sizeof(float));
    pipe.InitBuffer(resQ, 1, 8 * sizeof(float));
    pipe.InitBuffer(work, n * sizeof(float));

    GlobalTensor<float> partGm, outGm;
    partGm.SetGlobalBuffer((__gm__ float *)partial, n);
    outGm.SetGlobalBuffer((__gm__ float *)out, 1);

    LocalTensor<float> parts = inQ.AllocTensor<float>();
    DataCopy(parts, partGm, n);
    inQ.EnQue(parts);
    parts = inQ.DeQue<float>();

    // lanes 1..7 of every 8-slot are zero, so a plain sum is enough
    LocalTensor<float> res = resQ.AllocTensor<float>();
    ReduceSum<float>(res, parts, work.Get<float>(), n);
    Muls(res, res, t.invTotal, 1);
    inQ.FreeTensor(parts);
    resQ.EnQue(res);
    res = resQ.DeQue<float>();
    DataCopyExtParams cp{1, sizeof(float), 0, 0, 0};
    DataCopyPad(outGm, res, cp);
    resQ.FreeTensor(res);
}
