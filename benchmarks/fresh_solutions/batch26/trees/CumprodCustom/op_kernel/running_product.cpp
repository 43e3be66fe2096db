// Inclusive running product along one axis.
//  key 1 (axis is innermost): per row, tile by tile; inside a tile the scan is
//         serial on the scalar unit with the carry kept in float.
//  key 2 (axis has inner extent > 1): the scan becomes a chain of vector
//         multiplies of consecutive slices, y[i] = y[i-1] * x[i].
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class RunningProductKernel {
public:
    __aicore__ inline RunningProductKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RunningProductTilingData &t)
    {
        len = t.scanLen;
        inner = t.inner;
        tile = t.tileLen;
        tilesPerInner = t.tilesPerInner;
        jobBegin = GetBlockIdx() * t.jobsPerCore;
        jobEnd = jobBegin + t.jobsPerCore;
        if (jobEnd > t.jobCount) jobEnd = t.jobCount;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(inQueue, 2, tile * sizeof(T));
        pipe.InitBuffer(outQueue, 2, tile * sizeof(T));
        pipe.InitBuffer(runBuf, tile * sizeof(float));   // running product (key 2) / fp32 row (key 1)
        pipe.InitBuffer(curBuf, tile * sizeof(float));
    }

    __aicore__ inline void ProcessLastAxis()
    {
        LocalTensor<float> work = runBuf.Get<float>();
        for (uint32_t row = jobBegin; row < jobEnd; ++row) {
            uint64_t base = static_cast<uint64_t>(row) * len;
            float carry = 1.0f;
            for (uint32_t off = 0; off < len; off += tile) {
                uint32_t n = (len - off) < tile ? (len - off) : tile;
                CopyIn(base + off, n);
                LocalTensor<T> src = inQueue.DeQue<T>();
                ToFloat(work, src, n);
                inQueue.FreeTensor(src);

                SetFlag<HardEvent::V_S>(EVENT_ID0);
                WaitFlag<HardEvent::V_S>(EVENT_ID0);
                for (uint32_t i = 0; i < n; ++i) {
                    carry *= work.GetValue(i);
                    work.SetValue(i, carry);
                }
                SetFlag<HardEvent::S_V>(EVENT_ID0);
                WaitFlag<HardEvent::S_V>(EVENT_ID0);

                LocalTensor<T> dst = outQueue.AllocTensor<T>();
                FromFloat(dst, work, n);
                outQueue.EnQue(dst);
                CopyOut(base + off, n);
            }
        }
    }

    __aicore__ inline void ProcessStrided()
    {
        LocalTensor<float> run = runBuf.Get<float>();
        LocalTensor<float> cur = curBuf.Get<float>();
        for (uint32_t job = jobBegin; job < jobEnd; ++job) {
            uint32_t o = job / tilesPerInner;
            uint32_t i0 = (job % tilesPerInner) * tile;
            uint32_t n = (inner - i0) < tile ? (inner - i0) : tile;
            uint64_t base = static_cast<uint64_t>(o) * len * inner + i0;

            Duplicate(run, 1.0f, n);
            for (uint32_t k = 0; k < len; ++k) {
                uint64_t off = base + static_cast<uint64_t>(k) * inner;
                CopyIn(off, n);
                LocalTensor<T> src = inQueue.DeQue<T>();
                ToFloat(cur, src, n);
                inQueue.FreeTensor(src);
                Mul(run, run, cur, n);

                LocalTensor<T> dst = outQueue.AllocTensor<T>();
                FromFloat(dst, run, n);
                outQueue.EnQue(dst);
                CopyOut(off, n);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> t = inQueue.AllocTensor<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(t, xGm[off], p, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQueue.EnQue(t);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> t = outQueue.DeQue<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], t, p);
        outQueue.FreeTensor(t);
    }

    __aicore__ inline void ToFloat(const LocalTensor<float> &dst, const LocalTensor<T> &src, uint32_t n)
    {
        if constexpr (sizeof(T) == 4) {
            Adds(dst, src.template ReinterpretCast<float>(), 0.0f, n);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, n);
        }
    }

    __aicore__ inline void FromFloat(const LocalTensor<T> &dst, const LocalTensor<float> &src, uint32_t n)
    {
        if constexpr (sizeof(T) == 4) {
            Adds(dst.template ReinterpretCast<float>(), src, 0.0f, n);
        } else {
            Cast(dst, src, RoundMode::CAST_ROUND, n);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 2> outQueue;
    TBuf<TPosition::VECCALC> runBuf, curBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t len, inner, tile, tilesPerInner, jobBegin, jobEnd;
};

extern "C" __global__ __aicore__ void running_product(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    RunningProductKernel<DTYPE_X> op;
    op.Init(x, y, tilingData);
    if (TILING_KEY_IS(1)) {
        op.ProcessLastAxis();
    } else if (TILING_KEY_IS(2)) {
        op.ProcessStrided();
    }
}
