#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

/*
 * y = x / scale，x 视为 [outer, channel, inner]，scale 视为 [channel]。
 * 每核处理一段连续的元素区间，按 “不跨 inner 切片 + 不超过 tileLength” 切段，
 * 每段内除数相同：把 scale[c] 广播到一块 UB 上再做 Div（与 torch 的逐元素除法结果一致）。
 */
class KernelDivBroadcast {
public:
    __aicore__ inline KernelDivBroadcast() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR y, const DivisionBroadcastCustomTilingData& td)
    {
        channel = td.channel;
        inner = td.inner;
        tileLength = td.tileLength;
        beginPos = td.perCore * AscendC::GetBlockIdx();
        uint64_t endPos = beginPos + td.perCore;
        if (endPos > td.totalLength) {
            endPos = td.totalLength;
        }
        length = endPos > beginPos ? endPos - beginPos : 0;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, channel);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(divisorBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t pos = beginPos;
        uint64_t endPos = beginPos + length;
        uint32_t curChannel = 0xFFFFFFFFu;
        AscendC::LocalTensor<float> divisor = divisorBuf.Get<float>();

        while (pos < endPos) {
            // 当前位置所在的 inner 切片及其剩余长度
            uint64_t slab = pos / inner;
            uint32_t c = static_cast<uint32_t>(slab % channel);
            uint64_t slabEnd = (slab + 1) * inner;
            uint64_t segEnd = slabEnd < endPos ? slabEnd : endPos;
            uint32_t len = static_cast<uint32_t>((segEnd - pos) < tileLength ? (segEnd - pos) : tileLength);

            if (c != curChannel) {
                float s = scaleGm.GetValue(c);
                AscendC::Duplicate(divisor, s, tileLength);
                curChannel = c;
            }
            CopyIn(pos, len);
            Compute(len);
            CopyOut(pos, len);
            pos += len;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t pos, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[pos], params, pad);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> divisor = divisorBuf.Get<float>();
        AscendC::Div(yLocal, xLocal, divisor, len);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t pos, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[pos], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> divisorBuf;
    AscendC::GlobalTensor<float> xGm, yGm, scaleGm;

    uint32_t channel = 1;
    uint32_t inner = 1;
    uint32_t tileLength = 0;
    uint64_t beginPos = 0;
    uint64_t length = 0;
};

extern "C" __global__ __aicore__ void division_broadcast_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelDivBroadcast op;
    op.Init(x, scale, y, tilingData);
    op.Process();
}
