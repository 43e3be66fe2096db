#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t OUT_BUFS = 2;
constexpr uint32_t KS = 3;

// Depthwise 3x3 conv, padding 1, NHWC layout.
// Channels-last makes the depthwise conv a per-channel multiply-add over contiguous
// channel vectors, so every tap is one MulAddDst with repeats walking along the width:
//   out[ow, c] += w[kh, kw, c] * in[ih, ow*stride + kw - 1, c]
// The weight operand uses repeat stride 0, i.e. the same channel vector for every ow.
class KernelDepthwise3x3 {
public:
    __aicore__ inline KernelDepthwise3x3() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR y, const MobilenetV1CustomTilingData &t)
    {
        N = t.batch; H = t.inH; W = t.inW; C = t.channels;
        OH = t.outH; OW = t.outW; S = t.stride; CT = t.cTile;

        uint32_t blk = GetBlockIdx();
        taskBeg = blk * t.tasksPerCore;
        taskEnd = taskBeg + t.tasksPerCore;
        if (taskEnd > t.totalTasks) {
            taskEnd = t.totalTasks;
        }

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)weight);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(inQue, 1, KS * W * CT * sizeof(float));
        pipe.InitBuffer(outQue, OUT_BUFS, OW * CT * sizeof(float));
        pipe.InitBuffer(wQue, 1, KS * KS * CT * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t rowsPerSlice = N * OH;
        int32_t curSlice = -1;
        LocalTensor<float> wLocal;
        for (uint32_t task = taskBeg; task < taskEnd; ++task) {
            uint32_t slice = task / rowsPerSlice;     // channel tile index
            uint32_t row = task % rowsPerSlice;       // n * OH + oh
            if ((int32_t)slice != curSlice) {
                if (curSlice >= 0) {
                    wQue.FreeTensor(wLocal);
                }
                LoadWeights(slice);
                wLocal = wQue.DeQue<float>();
                curSlice = (int32_t)slice;
            }
            uint32_t n = row / OH;
            uint32_t oh = row % OH;
            CopyIn(n, oh, slice);
            Compute(oh, wLocal);
            CopyOut(n, oh, slice);
        }
        if (curSlice >= 0) {
            wQue.FreeTensor(wLocal);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t slice)
    {
        LocalTensor<float> wLocal = wQue.AllocTensor<float>();
        DataCopyParams p;
        p.blockCount = KS * KS;
        p.blockLen = CT * sizeof(float) / 32;
        p.srcStride = (C - CT) * sizeof(float) / 32;
        p.dstStride = 0;
        DataCopy(wLocal, wGm[slice * CT], p);
        wQue.EnQue(wLocal);
    }

    __aicore__ inline void CopyIn(uint32_t n, uint32_t oh, uint32_t slice)
    {
        LocalTensor<float> inLocal = inQue.AllocTensor<float>();
        DataCopyParams p;
        p.blockCount = W;
        p.blockLen = CT * sizeof(float) / 32;
        p.srcStride = (C - CT) * sizeof(float) / 32;
        p.dstStride = 0;
        for (uint32_t kh = 0; kh < KS; ++kh) {
            int32_t ih = (int32_t)(oh * S + kh) - 1;
            if (ih < 0 || ih >= (int32_t)H) {
                continue;   // padded row, never read by Compute
            }
            uint64_t src = (((uint64_t)n * H + ih) * W) * C + slice * CT;
            DataCopy(inLocal[kh * W * CT], xGm[src], p);
        }
        inQue.EnQue(inLocal);
    }

    __aicore__ inline void Compute(uint32_t oh, LocalTensor<float> &wLocal)
    {
        LocalTensor<float> inLocal = inQue.DeQue<float>();
        LocalTensor<float> outLocal = outQue.AllocTensor<float>();
        Duplicate(outLocal, 0.0f, OW * CT);

        const uint8_t vecBlocks = static_cast<uint8_t>(CT * sizeof(float) / 32);
        for (uint32_t kh = 0; kh < KS; ++kh) {
            int32_t ih = (int32_t)(oh * S + kh) - 1;
            if (ih < 0 || ih >= (int32_t)H) {
                continue;
            }
            for (uint32_t kw = 0; kw < KS; ++kw) {
                // valid output columns for this tap: 0 <= ow*S + kw - 1 <= W - 1
                uint32_t owBeg = (kw == 0) ? 1 : 0;
                uint32_t owLast = (W - kw) / S;
                if (owLast > OW - 1) {
                    owLast = OW - 1;
                }
                if (owBeg > owLast) {
                    continue;
                }
                uint32_t cnt = owLast - owBeg + 1;
                uint32_t iwBeg = owBeg * S + kw - 1;

                BinaryRepeatParams rp;
                rp.dstBlkStride = 1;
                rp.src0BlkStride = 1;
                rp.src1BlkStride = 1;
                rp.dstRepStride = vecBlocks;
                rp.src0RepStride = static_cast<uint8_t>(vecBlocks * S);
                rp.src1RepStride = 0;   // broadcast the tap weights over ow
                uint64_t mask = CT;
                // repeat count is bounded by OW (<= 112 for MobileNet) so one call suffices
                MulAddDst(outLocal[owBeg * CT], inLocal[kh * W * CT + iwBeg * CT],
                          wLocal[(kh * KS + kw) * CT], mask, static_cast<uint8_t>(cnt), rp);
            }
        }
        outQue.EnQue(outLocal);
        inQue.FreeTensor(inLocal);
    }

    __aicore__ inline void CopyOut(uint32_t n, uint32_t oh, uint32_t slice)
    {
        LocalTensor<float> outLocal = outQue.DeQue<float>();
        DataCopyParams p;
        p.blockCount = OW;
        p.blockLen = CT * sizeof(float) / 32;
        p.srcStride = 0;
        p.dstStride = (C - CT) * sizeof(float) / 32;
        uint64_t dst = (((uint64_t)n * OH + oh) * OW) * C + slice * CT;
        DataCopy(yGm[dst], outLocal, p);
        outQue.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQue;
    TQue<QuePosition::VECIN, 1> wQue;
    TQue<QuePosition::VECOUT, OUT_BUFS> outQue;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t N, H, W, C, OH, OW, S, CT;
    uint32_t taskBeg, taskEnd;
};

extern "C" __global__ __aicore__ void mobilenet_v1_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelDepthwise3x3 op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
