#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// sigmoid(x) = 1 / (1 + exp(-x))
class KernelSigmoid {
public:
    __aicore__ inline KernelSigmoid() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t totalLength, uint64_t perCoreLength,
                                uint32_t tileLength)
    {
        uint64_t start = perCoreLength * AscendC::GetBlockIdx();
        uint64_t remain = totalLength > start ? totalLength - start : 0;
        this->coreLength = remain < perCoreLength ? remain : perCoreLength;
        this->tileLength = tileLength;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, this->coreLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, this->coreLength);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(onesBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (coreLength == 0) {
            return;
        }
        // 分母用 Div 而不是 Reciprocal，精度和 torch 更接近
        AscendC::LocalTensor<float> ones = onesBuf.Get<float>();
        AscendC::Duplicate(ones, 1.0f, tileLength);

        uint64_t loopCount = (coreLength + tileLength - 1) / tileLength;
        for (uint64_t i = 0; i < loopCount; i++) {
            uint64_t offset = i * tileLength;
            uint32_t len = static_cast<uint32_t>((coreLength - offset) < tileLength ? (coreLength - offset) : tileLength);
            CopyIn(offset, len);
            Compute(len);
            CopyOut(offset, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        if (len % 8 == 0) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            // 尾块不满 32B 时走 DataCopyPad
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xLocal, xGm[offset], params, pad);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> ones = onesBuf.Get<float>();

        AscendC::Muls(yLocal, xLocal, -1.0f, len);   // -x
        AscendC::Exp(yLocal, yLocal, len);           // exp(-x)
        AscendC::Adds(yLocal, yLocal, 1.0f, len);    // 1 + exp(-x)
        AscendC::Div(yLocal, ones, yLocal, len);     // 1 / (1 + exp(-x))

        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        if (len % 8 == 0) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, params);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> onesBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint64_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void sigmoid_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSigmoid op;
    op.Init(x, y, tilingData.totalLength, tilingData.perCoreLength, tilingData.tileLength);
    op.Process();
}
