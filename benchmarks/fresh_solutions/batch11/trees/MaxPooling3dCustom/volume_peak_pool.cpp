/**
 * volume_peak_pool: 3x3x3 max pooling, stride 2, padding 1 (pad value -inf) on NCDHW float32 volumes.
 *
 * Work unit = (n, c, od, block of output rows). For one unit:
 *   1. depth  : the (2R+1) input rows of the 3 contributing depth slices are max-reduced into `acc`
 *   2. width  : GatherMask splits each row into even / odd columns, max(even, odd) covers taps 0/+1,
 *               a Gather shifts the odd columns by one to supply tap -1
 *   3. height : strided-repeat Max over row pairs collapses rows 2r, 2r+1, 2r+2
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr float NEG_INF = -3.402823466e+38f;

struct VolumePeakPoolTiling {
    uint32_t planes;       // N * C
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t outD;
    uint32_t outH;
    uint32_t outW;
    uint32_t rowsPerUnit;  // output rows per work unit (R)
    uint32_t unitsPerSlice; // ceil(outH / R)
    uint32_t totalUnits;   // planes * outD * unitsPerSlice
};

class VolumePeakPool {
public:
    __aicore__ inline VolumePeakPool() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR tilingGm)
    {
        auto *dst = reinterpret_cast<uint32_t *>(&tl);
        auto *src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
        for (uint32_t i = 0; i < sizeof(VolumePeakPoolTiling) / sizeof(uint32_t); ++i) {
            dst[i] = src[i];
        }
        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        stagedRows = 2 * tl.rowsPerUnit + 1;
        stagedElems = stagedRows * tl.inW;
        halfElems = stagedRows * tl.outW;

        pipe.InitBuffer(inQue, 2, stagedElems * sizeof(float));
        pipe.InitBuffer(outQue, 2, tl.rowsPerUnit * tl.outW * sizeof(float));
        pipe.InitBuffer(accBuf, stagedElems * sizeof(float));
        pipe.InitBuffer(evenBuf, halfElems * sizeof(float) + 32);   // +32: -inf fill slot at the end
        pipe.InitBuffer(oddBuf, halfElems * sizeof(float) + 32);
        pipe.InitBuffer(shiftBuf, halfElems * sizeof(float));
        pipe.InitBuffer(offBuf, halfElems * sizeof(uint32_t));
        BuildShiftTable();
    }

    __aicore__ inline void Process()
    {
        const uint32_t core = GetBlockIdx();
        const uint32_t cores = GetBlockNum();
        // contiguous range of units per core keeps the reads of neighbouring slices close together
        uint32_t per = (tl.totalUnits + cores - 1) / cores;
        uint32_t begin = core * per;
        uint32_t end = begin + per < tl.totalUnits ? begin + per : tl.totalUnits;
        for (uint32_t u = begin; u < end; ++u) {
            uint32_t blk = u % tl.unitsPerSlice;
            uint32_t od = (u / tl.unitsPerSlice) % tl.outD;
            uint32_t plane = u / (tl.unitsPerSlice * tl.outD);
            uint32_t oh0 = blk * tl.rowsPerUnit;
            uint32_t rows = tl.outH - oh0 < tl.rowsPerUnit ? tl.outH - oh0 : tl.rowsPerUnit;
            ReduceDepth(plane, od, oh0);
            ReduceWidth();
            ReduceHeight(rows);
            Store(plane, od, oh0, rows);
        }
    }

private:
    // offsets (bytes) into oddBuf: column ow takes odd[ow-1] of the same row; ow == 0 reads the fill slot
    __aicore__ inline void BuildShiftTable()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t r = 0; r < stagedRows; ++r) {
            for (uint32_t ow = 0; ow < tl.outW; ++ow) {
                uint32_t slot = (ow == 0) ? halfElems : (r * tl.outW + ow - 1);
                off.SetValue(r * tl.outW + ow, slot * sizeof(float));
            }
        }
        LocalTensor<float> odd = oddBuf.Get<float>();
        odd.SetValue(halfElems, NEG_INF);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    // acc[j, w] = max over valid d of x[plane, d, 2*oh0 - 1 + j, w]
    __aicore__ inline void ReduceDepth(uint32_t plane, uint32_t od, uint32_t oh0)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, NEG_INF, stagedElems);
        const int32_t ihStart = static_cast<int32_t>(2 * oh0) - 1;
        // clip the staged rows to the image
        int32_t firstValid = ihStart < 0 ? 0 : ihStart;
        int32_t lastValid = ihStart + static_cast<int32_t>(stagedRows) - 1;
        if (lastValid > static_cast<int32_t>(tl.inH) - 1) {
            lastValid = static_cast<int32_t>(tl.inH) - 1;
        }
        const uint32_t skip = static_cast<uint32_t>(firstValid - ihStart);   // leading padded rows
        const uint32_t validRows = static_cast<uint32_t>(lastValid - firstValid + 1);
        const uint32_t validElems = validRows * tl.inW;

        for (int32_t kd = -1; kd <= 1; ++kd) {
            int32_t d = static_cast<int32_t>(2 * od) + kd;
            if (d < 0 || d >= static_cast<int32_t>(tl.inD)) {
                continue;
            }
            uint64_t src = (((uint64_t)plane * tl.inD + d) * tl.inH + firstValid) * tl.inW;
            LocalTensor<float> slab = inQue.AllocTensor<float>();
            DataCopy(slab, xGm[src], validElems);
            inQue.EnQue(slab);
            slab = inQue.DeQue<float>();
            Max(acc[skip * tl.inW], acc[skip * tl.inW], slab, validElems);
            inQue.FreeTensor(slab);
        }
    }

    // shiftBuf[j, ow] = max(acc[j, 2ow-1], acc[j, 2ow], acc[j, 2ow+1])
    __aicore__ inline void ReduceWidth()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> even = evenBuf.Get<float>();
        LocalTensor<float> odd = oddBuf.Get<float>();
        LocalTensor<float> wmax = shiftBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();

        uint64_t kept = 0;
        GatherMaskParams gp;
        gp.src0BlockStride = 1;
        gp.repeatTimes = static_cast<uint16_t>(stagedElems / 64);
        gp.src0RepeatStride = 8;
        gp.src1RepeatStride = 0;
        GatherMask(even, acc, 1, false, 0, gp, kept);   // pattern 1: elements 0, 2, 4, ...
        GatherMask(odd, acc, 2, false, 0, gp, kept);    // pattern 2: elements 1, 3, 5, ...
        PipeBarrier<PIPE_V>();
        Max(even, even, odd, halfElems);
        Gather(wmax, odd, off, 0, halfElems);           // odd[ow - 1], -inf at ow == 0
        PipeBarrier<PIPE_V>();
        Max(wmax, wmax, even, halfElems);
    }

    // out[r, :] = max(wmax[2r], wmax[2r+1], wmax[2r+2]) using one repeat per row
    __aicore__ inline void ReduceHeight(uint32_t rows)
    {
        LocalTensor<float> wmax = shiftBuf.Get<float>();
        LocalTensor<float> out = outQue.AllocTensor<float>();
        const uint8_t rowBlocks = static_cast<uint8_t>(tl.outW * sizeof(float) / 32);
        BinaryRepeatParams rp;
        rp.dstBlkStride = 1;
        rp.src0BlkStride = 1;
        rp.src1BlkStride = 1;
        rp.dstRepStride = rowBlocks;
        rp.src0RepStride = 2 * rowBlocks;
        rp.src1RepStride = 2 * rowBlocks;
        const uint64_t mask = tl.outW;
        Max(out, wmax, wmax[tl.outW], mask, static_cast<uint8_t>(rows), rp);
        PipeBarrier<PIPE_V>();
        rp.src0RepStride = rowBlocks;
        Max(out, out, wmax[2 * tl.outW], mask, static_cast<uint8_t>(rows), rp);
        outQue.EnQue(out);
    }

    __aicore__ inline void Store(uint32_t plane, uint32_t od, uint32_t oh0, uint32_t rows)
    {
        LocalTensor<float> out = outQue.DeQue<float>();
        uint64_t dst = (((uint64_t)plane * tl.outD + od) * tl.outH + oh0) * tl.outW;
        DataCopy(yGm[dst], out, rows * tl.outW);
        outQue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> accBuf, evenBuf, oddBuf, shiftBuf, offBuf;
    GlobalTensor<float> xGm, yGm;
    VolumePeakPoolTiling tl;
    uint32_t stagedRows = 0;
    uint32_t stagedElems = 0;
    uint32_t halfElems = 0;
};

extern "C" __global__ __aicore__ void volume_peak_pool(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    VolumePeakPool op;
    op.Init(x, y, tiling);
    op.Process();
}
