/**
 * axis_fold_sum.cpp
 *
 * Collapses the middle axis of a 3-D float tensor [outer, reduce, inner] by
 * summation, producing [outer, 1, inner].
 *
 * Work decomposition: the inner axis is cut into column strips of `tileInner`
 * elements. One "unit" of work is (outer index, strip index); units are dealt
 * round-robin over the AI cores. For each unit the kernel streams the strip in
 * chunks of `rowsPerLoad` rows (one strided DataCopy per chunk) and folds
 * every row into an accumulator that lives in UB for the whole unit.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct AxisFoldSumTiling {
    uint32_t outerLen;     // product of dims before the reduced axis
    uint32_t reduceLen;    // length of the reduced axis
    uint32_t innerLen;     // product of dims after the reduced axis
    uint32_t tileInner;    // strip width (multiple of 8 floats)
    uint32_t rowsPerLoad;  // rows brought in by one DataCopy
    uint32_t stripsPerRow; // innerLen / tileInner
};

__aicore__ inline void LoadTiling(AxisFoldSumTiling &t, GM_ADDR tilingGm)
{
    auto src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(AxisFoldSumTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
}

class AxisFoldSum {
public:
    __aicore__ inline AxisFoldSum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisFoldSumTiling &tiling)
    {
        t_ = tiling;
        xGm_.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t_.outerLen * t_.reduceLen * t_.innerLen);
        yGm_.SetGlobalBuffer((__gm__ float *)y, (uint64_t)t_.outerLen * t_.innerLen);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, t_.rowsPerLoad * t_.tileInner * sizeof(float));
        pipe_.InitBuffer(accQ_, 1, t_.tileInner * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t totalUnits = t_.outerLen * t_.stripsPerRow;
        const uint32_t core = GetBlockIdx();
        const uint32_t cores = GetBlockNum();
        for (uint32_t unit = core; unit < totalUnits; unit += cores) {
            const uint32_t o = unit / t_.stripsPerRow;
            const uint32_t s = unit % t_.stripsPerRow;
            ReduceStrip(o, s);
        }
    }

private:
    __aicore__ inline void ReduceStrip(uint32_t o, uint32_t s)
    {
        const uint64_t srcBase = (uint64_t)o * t_.reduceLen * t_.innerLen + (uint64_t)s * t_.tileInner;

        LocalTensor<float> acc = accQ_.AllocTensor<float>();
        Duplicate(acc, 0.0f, t_.tileInner);

        for (uint32_t r0 = 0; r0 < t_.reduceLen; r0 += t_.rowsPerLoad) {
            uint32_t rows = t_.reduceLen - r0;
            if (rows > t_.rowsPerLoad) {
                rows = t_.rowsPerLoad;
            }
            CopyRows(srcBase + (uint64_t)r0 * t_.innerLen, rows);
            FoldRows(acc, rows);
        }

        accQ_.EnQue(acc);
        LocalTensor<float> res = accQ_.DeQue<float>();
        DataCopy(yGm_[(uint64_t)o * t_.innerLen + (uint64_t)s * t_.tileInner], res, t_.tileInner);
        accQ_.FreeTensor(res);
    }

    __aicore__ inline void CopyRows(uint64_t gmOffset, uint32_t rows)
    {
        LocalTensor<float> buf = inQ_.AllocTensor<float>();
        // rows x tileInner sub-block of a rows x innerLen region, packed densely in UB
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(rows);
        p.blockLen = static_cast<uint16_t>(t_.tileInner * sizeof(float) / 32);
        p.srcStride = static_cast<uint16_t>((t_.innerLen - t_.tileInner) * sizeof(float) / 32);
        p.dstStride = 0;
        DataCopy(buf, xGm_[gmOffset], p);
        inQ_.EnQue(buf);
    }

    __aicore__ inline void FoldRows(LocalTensor<float> &acc, uint32_t rows)
    {
        LocalTensor<float> buf = inQ_.DeQue<float>();
        // pairwise halving inside the chunk first, then a single add into acc
        uint32_t live = rows;
        while (live > 1) {
            uint32_t half = live / 2;
            Add(buf, buf, buf[half * t_.tileInner], half * t_.tileInner);
            if (live & 1U) {
                Add(buf, buf, buf[(live - 1) * t_.tileInner], t_.tileInner);
            }
            PipeBarrier<PIPE_V>();
            live = half;
        }
        Add(acc, acc, buf, t_.tileInner);
        inQ_.FreeTensor(buf);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, 1> accQ_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    AxisFoldSumTiling t_;
};

extern "C" __global__ __aicore__ void axis_fold_sum(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    AxisFoldSumTiling t;
    LoadTiling(t, tiling);
    AxisFoldSum op;
    op.Init(x, y, t);
    op.Process();
}
