#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_REPEAT = 64;   // 256 B vector repeat
constexpr uint32_t FLOATS_PER_BLOCK = 8;     // 32 B block

// Fused epilogue of ConvTranspose3d:
//   y = (avgpool3d_k2(x * scale1) + bias[c]) * scale2
//     = sum8(x) * (scale1 * scale2 / 8) + bias[c] * scale2
// One "task" is an output depth slice (n, c, od); it is produced in chunks of ohTile rows.
class KernelScaleAvgPoolBias {
public:
    __aicore__ inline KernelScaleAvgPoolBias() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                const ConvTranspose3dScalingAvgPoolBiasAddScalingCustomTilingData& td)
    {
        C = td.channels; D = td.inD; H = td.inH; W = td.inW;
        OD = td.outD; OH = td.outH; OW = td.outW;
        Wa = td.alignW;
        ohTile = td.ohTile;
        mulFactor = td.mulFactor;
        scale2 = td.scale2;

        uint32_t idx = GetBlockIdx();
        if (idx < td.tailCores) {
            taskNum = td.tasksPerCore + 1;
            taskBegin = idx * taskNum;
        } else {
            taskNum = td.tasksPerCore;
            taskBegin = td.tailCores * (td.tasksPerCore + 1) + (idx - td.tailCores) * td.tasksPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, C);

        // input rows for one pass: 2 slices x 2*ohTile rows x Wa
        sliceElems = 2 * ohTile * Wa;
        uint32_t inElems = RoundUp(2 * sliceElems, FLOATS_PER_REPEAT);
        uint32_t vElems = RoundUp(ohTile * Wa, FLOATS_PER_REPEAT);
        pipe.InitBuffer(inQueue, BUFFER_NUM, inElems * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, vElems / 2 * sizeof(float));
        pipe.InitBuffer(vertBuf, vElems * sizeof(float));
        pipe.InitBuffer(evenBuf, vElems / 2 * sizeof(float));
        pipe.InitBuffer(oddBuf, vElems / 2 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < taskNum; ++t) {
            uint32_t task = taskBegin + t;          // = nc * OD + od
            uint32_t od = task % OD;
            uint32_t nc = task / OD;
            float biasTerm = biasGm.GetValue(nc % C) * scale2;
            uint64_t inSliceBase = ((uint64_t)nc * D + 2 * od) * H * W;
            uint64_t outSliceBase = ((uint64_t)nc * OD + od) * OH * OW;
            for (uint32_t oh0 = 0; oh0 < OH; oh0 += ohTile) {
                uint32_t rows = (oh0 + ohTile <= OH) ? ohTile : (OH - oh0);
                CopyIn(inSliceBase + (uint64_t)(2 * oh0) * W, rows);
                Compute(rows, biasTerm);
                CopyOut(outSliceBase + (uint64_t)oh0 * OW, rows);
            }
        }
    }

private:
    __aicore__ inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

    // Loads input rows [2*oh0, 2*oh0 + 2*rows) of depth slices 2*od and 2*od+1.
    // Each GM row (W floats, unaligned) lands on an aligned UB row of Wa floats.
    __aicore__ inline void CopyIn(uint64_t gmOffset, uint32_t rows)
    {
        LocalTensor<float> inLocal = inQueue.AllocTensor<float>();
        uint32_t wBlocks = (W + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(2 * rows);
        cp.blockLen = W * sizeof(float);
        cp.srcStride = 0;                                   // rows are contiguous in GM
        cp.dstStride = Wa / FLOATS_PER_BLOCK - wBlocks;     // gap (in 32B blocks) up to Wa
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{true, 0, 0, 0.0f};
        DataCopyPad(inLocal, xGm[gmOffset], cp, pad);
        DataCopyPad(inLocal[sliceElems], xGm[gmOffset + (uint64_t)H * W], cp, pad);
        inQueue.EnQue(inLocal);
    }

    __aicore__ inline void Compute(uint32_t rows, float biasTerm)
    {
        LocalTensor<float> inLocal = inQueue.DeQue<float>();
        LocalTensor<float> vert = vertBuf.Get<float>();
        LocalTensor<float> even = evenBuf.Get<float>();
        LocalTensor<float> odd = oddBuf.Get<float>();
        LocalTensor<float> outLocal = outQueue.AllocTensor<float>();

        uint32_t pairElems = 2 * rows * Wa;
        // depth reduction: slice0 + slice1 (in place into slice0)
        Add(inLocal, inLocal, inLocal[sliceElems], pairElems);
        // height reduction: row 2r + row 2r+1
        for (uint32_t r = 0; r < rows; ++r) {
            Add(vert[r * Wa], inLocal[2 * r * Wa], inLocal[(2 * r + 1) * Wa], Wa);
        }
        // width reduction: split even / odd columns with GatherMask and add them.
        // Wa is even, so even flat positions are exactly the even columns of every row.
        uint32_t flat = rows * Wa;
        uint64_t rsvdCnt = 0;
        GatherMaskParams gp;
        gp.src0BlockStride = 1;
        gp.repeatTimes = static_cast<uint16_t>((flat + FLOATS_PER_REPEAT - 1) / FLOATS_PER_REPEAT);
        gp.src0RepeatStride = 8;
        gp.src1RepeatStride = 0;
        GatherMask(even, vert, 1, false, 0, gp, rsvdCnt);   // pattern 1: 0101... -> even lanes
        GatherMask(odd, vert, 2, false, 0, gp, rsvdCnt);    // pattern 2: 1010... -> odd lanes

        uint32_t halfFlat = flat / 2;
        Add(outLocal, even, odd, halfFlat);
        Muls(outLocal, outLocal, mulFactor, halfFlat);
        Adds(outLocal, outLocal, biasTerm, halfFlat);

        outQueue.EnQue(outLocal);
        inQueue.FreeTensor(inLocal);
    }

    // Each UB output row has Wa/2 floats (multiple of 8); only the first OW are stored.
    __aicore__ inline void CopyOut(uint64_t gmOffset, uint32_t rows)
    {
        LocalTensor<float> outLocal = outQueue.DeQue<float>();
        uint32_t owBlocks = (OW + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = OW * sizeof(float);
        cp.srcStride = (Wa / 2) / FLOATS_PER_BLOCK - owBlocks;
        cp.dstStride = 0;
        cp.rsv = 0;
        DataCopyPad(yGm[gmOffset], outLocal, cp);
        outQueue.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<TPosition::VECCALC> vertBuf, evenBuf, oddBuf;
    GlobalTensor<float> xGm, yGm, biasGm;

    uint32_t C, D, H, W, OD, OH, OW, Wa;
    uint32_t ohTile, sliceElems;
    uint32_t taskBegin, taskNum;
    float mulFactor, scale2;
};

extern "C" __global__ __aicore__ void conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom(
    GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelScaleAvgPoolBias op;
    op.Init(x, bias, y, tilingData);
    op.Process();
}
