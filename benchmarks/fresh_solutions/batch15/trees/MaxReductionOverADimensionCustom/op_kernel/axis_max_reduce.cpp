/*
 * AxisMaxReduce: values[o, i] = max_r x[o, r, i]
 *
 * MODE_STRIDED (key 0): a job is one (o, column strip). The strip of row 0
 *   seeds the running maximum; every further row is folded in with Max.
 * MODE_CONTIG (key 1): a job is one contiguous row. Chunks are folded lane-wise
 *   into a running vector and one ReduceMax finishes the row.
 */
#include "kernel_operator.h"

constexpr int32_t PING_PONG = 2;
constexpr uint32_t RESULT_CACHE = 512;

template <typename T>
class AxisMaxReduceKernel {
public:
    __aicore__ inline AxisMaxReduceKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, const AxisMaxReduceTilingData &tiling)
    {
        outerSize = tiling.outerSize;
        axisSize = tiling.axisSize;
        innerSize = tiling.innerSize;
        tileW = tiling.tileW;
        tilesPerRow = tiling.tilesPerRow;

        const uint32_t core = AscendC::GetBlockIdx();
        if (core < tiling.jobsRemain) {
            jobCount = tiling.jobsPerCore + 1;
            jobFirst = core * jobCount;
        } else {
            jobCount = tiling.jobsPerCore;
            jobFirst = core * tiling.jobsPerCore + tiling.jobsRemain;
        }
        srcGm.SetGlobalBuffer((__gm__ T *)x);
        dstGm.SetGlobalBuffer((__gm__ T *)values);

        pipe.InitBuffer(inQueue, PING_PONG, tileW * sizeof(T));
        pipe.InitBuffer(outQueue, 1, (tileW > RESULT_CACHE ? tileW : RESULT_CACHE) * sizeof(T));
        pipe.InitBuffer(accBuf, tileW * sizeof(T));
        pipe.InitBuffer(workBuf, tileW * sizeof(T));
    }

    __aicore__ inline void RunStrided()
    {
        for (uint32_t j = 0; j < jobCount; ++j) {
            const uint32_t job = jobFirst + j;
            const uint32_t o = job / tilesPerRow;
            const uint32_t col = (job % tilesPerRow) * tileW;
            const uint32_t width = (innerSize - col < tileW) ? innerSize - col : tileW;
            const uint64_t base = static_cast<uint64_t>(o) * axisSize * innerSize + col;

            AscendC::LocalTensor<T> acc = accBuf.Get<T>();
            for (uint32_t r = 0; r < axisSize; ++r) {
                CopyIn(base + static_cast<uint64_t>(r) * innerSize, width);
                AscendC::LocalTensor<T> cur = inQueue.DeQue<T>();
                if (r == 0) {
                    AscendC::Adds(acc, cur, static_cast<T>(0), width);
                } else {
                    AscendC::Max(acc, acc, cur, width);
                }
                inQueue.FreeTensor(cur);
            }

            AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
            AscendC::Adds(out, acc, static_cast<T>(0), width);
            outQueue.EnQue(out);
            CopyOut(static_cast<uint64_t>(o) * innerSize + col, width);
        }
    }

    __aicore__ inline void RunContiguous()
    {
        AscendC::LocalTensor<T> cache = outQueue.AllocTensor<T>();
        uint32_t cached = 0;
        uint32_t cacheStart = jobFirst;

        for (uint32_t j = 0; j < jobCount; ++j) {
            const uint64_t rowBase = static_cast<uint64_t>(jobFirst + j) * axisSize;
            AscendC::LocalTensor<T> acc = accBuf.Get<T>();
            const uint32_t valid = axisSize < tileW ? axisSize : tileW;

            for (uint32_t c = 0; c < axisSize; c += tileW) {
                const uint32_t cnt = (axisSize - c < tileW) ? axisSize - c : tileW;
                CopyIn(rowBase + c, cnt);
                AscendC::LocalTensor<T> cur = inQueue.DeQue<T>();
                if (c == 0) {
                    AscendC::Adds(acc, cur, static_cast<T>(0), cnt);
                } else {
                    AscendC::Max(acc, acc, cur, cnt);   // lanes >= cnt keep earlier maxima
                }
                inQueue.FreeTensor(cur);
            }

            AscendC::LocalTensor<T> work = workBuf.Get<T>();
            AscendC::ReduceMax<T>(work, acc, work, valid, false);
            AscendC::PipeBarrier<PIPE_ALL>();
            cache.SetValue(cached++, work.GetValue(0));

            if (cached == RESULT_CACHE || j + 1 == jobCount) {
                outQueue.EnQue(cache);
                cache = outQueue.DeQue<T>();
                AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cached * sizeof(T)), 0, 0, 0};
                AscendC::DataCopyPad(dstGm[cacheStart], cache, cp);
                AscendC::PipeBarrier<PIPE_ALL>();
                cacheStart += cached;
                cached = 0;
            }
        }
        outQueue.FreeTensor(cache);
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<T> buf = inQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(buf, srcGm[offset], cp, pad);
        inQueue.EnQue(buf);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<T> buf = outQueue.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(dstGm[offset], buf, cp);
        outQueue.FreeTensor(buf);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, PING_PONG> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, workBuf;
    AscendC::GlobalTensor<T> srcGm, dstGm;

    uint32_t outerSize, axisSize, innerSize, tileW, tilesPerRow;
    uint32_t jobFirst, jobCount;
};

extern "C" __global__ __aicore__ void axis_max_reduce(GM_ADDR x, GM_ADDR values, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AxisMaxReduceKernel<DTYPE_X> kernel;
    kernel.Init(x, values, tilingData);
    if (TILING_KEY_IS(0)) {
        kernel.RunStrided();
    } else if (TILING_KEY_IS(1)) {
        kernel.RunContiguous();
    }
}
