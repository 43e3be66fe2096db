#include "kernel_operator.h"

using namespace AscendC;

// Epilogue of ConvTranspose3d: y = (avgpool3d_2(x * scale1) + bias[c]) * scale2
//                              = sum_{2x2x2}(x) * (scale1*scale2/8) + bias[c]*scale2
// A unit of work is (n*c, od, block of pooled rows). For a unit we bring in the two depth
// slices (2*rows input rows each, one UB row per input row, pitch wAlign), add them, add row
// pairs, then split even/odd columns with GatherMask and add those.

constexpr int32_t BUFFER_NUM = 2;
constexpr uint8_t PATTERN_EVEN = 1;   // 0b0101... picks elements 0,2,4,...
constexpr uint8_t PATTERN_ODD = 2;    // 0b1010... picks elements 1,3,5,...

class KernelPoolBiasScale {
public:
    __aicore__ inline KernelPoolBiasScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                const ConvTranspose3dScalingAvgPoolBiasAddScalingCustomTilingData& td)
    {
        channels = td.channels;
        inD = td.inD; inH = td.inH; inW = td.inW;
        outD = td.outD; outH = td.outH; outW = td.outW;
        wa = td.wAlign;
        rowsPerTile = td.rowsPerTile;
        tilesPerSlice = td.tilesPerSlice;
        poolScale = td.poolScale;
        scale2 = td.scale2;

        unitStart = GetBlockIdx() * td.unitsPerCore;
        unitEnd = unitStart + td.unitsPerCore;
        if (unitEnd > td.totalUnits) {
            unitEnd = td.totalUnits;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        biasGm.SetGlobalBuffer((__gm__ float*)bias);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        uint32_t inElems = 2 * rowsPerTile * wa;
        uint32_t rowElems = (rowsPerTile * wa + 63) / 64 * 64;
        pipe.InitBuffer(inQueA, BUFFER_NUM, inElems * sizeof(float));
        pipe.InitBuffer(inQueB, BUFFER_NUM, inElems * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, rowElems / 2 * sizeof(float));
        pipe.InitBuffer(depthSumBuf, inElems * sizeof(float));
        pipe.InitBuffer(rowSumBuf, rowElems * sizeof(float));
        pipe.InitBuffer(evenBuf, rowElems / 2 * sizeof(float));
        pipe.InitBuffer(oddBuf, rowElems / 2 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = unitStart; u < unitEnd; ++u) {
            uint32_t tile = u % tilesPerSlice;
            uint32_t rest = u / tilesPerSlice;
            uint32_t od = rest % outD;
            uint32_t nc = rest / outD;
            uint32_t oh0 = tile * rowsPerTile;
            uint32_t rows = (oh0 + rowsPerTile <= outH) ? rowsPerTile : (outH - oh0);

            CopyIn(nc, od, oh0, rows);
            Compute(nc % channels, rows);
            CopyOut(nc, od, oh0, rows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t nc, uint32_t od, uint32_t oh0, uint32_t rows)
    {
        LocalTensor<float> a = inQueA.AllocTensor<float>();
        LocalTensor<float> b = inQueB.AllocTensor<float>();
        uint64_t sliceSize = (uint64_t)inH * inW;
        uint64_t base0 = ((uint64_t)nc * inD + 2 * od) * sliceSize + (uint64_t)(2 * oh0) * inW;
        uint64_t base1 = base0 + sliceSize;

        uint32_t rowBytes = inW * sizeof(float);
        uint32_t gap = (wa * sizeof(float) - (rowBytes + 31) / 32 * 32) / 32;   // in 32B blocks
        DataCopyExtParams cp{(uint16_t)(2 * rows), rowBytes, 0, gap, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(a, xGm[base0], cp, noPad);
        DataCopyPad(b, xGm[base1], cp, noPad);
        inQueA.EnQue(a);
        inQueB.EnQue(b);
    }

    __aicore__ inline void Compute(uint32_t c, uint32_t rows)
    {
        LocalTensor<float> a = inQueA.DeQue<float>();
        LocalTensor<float> b = inQueB.DeQue<float>();
        LocalTensor<float> dsum = depthSumBuf.Get<float>();
        LocalTensor<float> hsum = rowSumBuf.Get<float>();
        LocalTensor<float> ev = evenBuf.Get<float>();
        LocalTensor<float> od = oddBuf.Get<float>();

        // depth pair
        Add(dsum, a, b, 2 * rows * wa);
        inQueA.FreeTensor(a);
        inQueB.FreeTensor(b);
        PipeBarrier<PIPE_V>();

        // height pair: pooled row i <- input rows 2i and 2i+1
        for (uint32_t i = 0; i < rows; ++i) {
            Add(hsum[i * wa], dsum[2 * i * wa], dsum[(2 * i + 1) * wa], wa);
        }
        PipeBarrier<PIPE_V>();

        // width pair: wa is even, so the even/odd split stays row-aligned (wa/2 per row)
        uint64_t kept = 0;
        uint8_t repeats = (uint8_t)((rows * wa + 63) / 64);
        GatherMaskParams gp{1, repeats, 8, 0};
        GatherMask(ev, hsum, PATTERN_EVEN, false, 0, gp, kept);
        GatherMask(od, hsum, PATTERN_ODD, false, 0, gp, kept);
        PipeBarrier<PIPE_V>();

        uint32_t half = rows * wa / 2;
        LocalTensor<float> y = outQue.AllocTensor<float>();
        Add(y, ev, od, half);
        PipeBarrier<PIPE_V>();
        Muls(y, y, poolScale, half);
        PipeBarrier<PIPE_V>();
        Adds(y, y, biasGm.GetValue(c) * scale2, half);
        outQue.EnQue(y);
    }

    __aicore__ inline void CopyOut(uint32_t nc, uint32_t od, uint32_t oh0, uint32_t rows)
    {
        LocalTensor<float> y = outQue.DeQue<float>();
        uint64_t dst = (((uint64_t)nc * outD + od) * outH + oh0) * outW;
        uint32_t rowBytes = outW * sizeof(float);
        uint32_t srcGap = ((wa / 2) * sizeof(float) - (rowBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{(uint16_t)rows, rowBytes, srcGap, 0, 0};
        DataCopyPad(yGm[dst], y, cp);
        outQue.FreeTensor(y);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueA, inQueB;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<QuePosition::VECCALC> depthSumBuf, rowSumBuf, evenBuf, oddBuf;
    GlobalTensor<float> xGm, biasGm, yGm;

    uint32_t channels, inD, inH, inW, outD, outH, outW, wa;
    uint32_t rowsPerTile, tilesPerSlice, unitStart, unitEnd;
    float poolScale, scale2;
};

extern "C" __global__ __aicore__ void conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom(
    GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelPoolBiasScale op;
    op.Init(x, bias, y, tilingData);
    op.Process();
}
