/*
 * ratio_squash: y = x / (1 + |x|)
 *
 * Smooth squashing of every element into (-1, 1). Pure element-wise, so the
 * flat buffer is split evenly over the cores and every core walks its part in
 * equal tiles with double-buffered queues:
 *     CopyIn  -> Abs, Adds(1), Div -> CopyOut
 */
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

struct RatioSquashTiling {
    uint32_t blockLength;   // elements owned by one core
    uint32_t tileNum;       // tiles per core (per buffer slot)
    uint32_t tileLength;    // elements per tile = blockLength / tileNum / BUFFER_NUM
};

class KernelRatioSquash {
public:
    __aicore__ inline KernelRatioSquash() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RatioSquashTiling &tiling)
    {
        blockLength = tiling.blockLength;
        tileNum = tiling.tileNum;
        tileLength = tiling.tileLength;

        uint64_t base = static_cast<uint64_t>(blockLength) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + base, blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + base, blockLength);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(denomBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const int32_t loops = static_cast<int32_t>(tileNum * BUFFER_NUM);
        for (int32_t i = 0; i < loops; ++i) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[static_cast<uint64_t>(progress) * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(int32_t progress)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> denom = denomBuf.Get<float>();

        AscendC::Abs(denom, xLocal, tileLength);            // |x|
        AscendC::Adds(denom, denom, 1.0f, tileLength);      // 1 + |x|
        AscendC::Div(yLocal, xLocal, denom, tileLength);    // x / (1 + |x|)

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(int32_t progress)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopy(yGm[static_cast<uint64_t>(progress) * tileLength], yLocal, tileLength);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> denomBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t blockLength = 0;
    uint32_t tileNum = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void ratio_squash(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    RatioSquashTiling tilingData;
    auto src = reinterpret_cast<__gm__ RatioSquashTiling *>(tiling);
    tilingData.blockLength = src->blockLength;
    tilingData.tileNum = src->tileNum;
    tilingData.tileLength = src->tileLength;

    KernelRatioSquash op;
    op.Init(x, y, tilingData);
    op.Process();
}
