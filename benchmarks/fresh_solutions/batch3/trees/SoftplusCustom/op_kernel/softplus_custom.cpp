#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// softplus(x) = max(x, 0) + log(1 + exp(-|x|))   (overflow-safe form)
class KernelSoftplus {
public:
    __aicore__ inline KernelSoftplus() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t tileLen)
    {
        uint64_t start = perCore * AscendC::GetBlockIdx();
        length = (start + perCore > total) ? (total - start) : perCore;
        this->tileLen = tileLen;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, length);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t full = length / tileLen;
        uint32_t tail = static_cast<uint32_t>(length % tileLen);
        for (uint64_t i = 0; i < full; ++i) {
            CopyIn(i * tileLen, tileLen);
            Compute(tileLen);
            CopyOut(i * tileLen, tileLen);
        }
        if (tail > 0) {
            CopyIn(full * tileLen, tail);
            Compute(tail);
            CopyOut(full * tileLen, tail);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[off], cp, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> t = tmpBuf.Get<float>();

        AscendC::Abs(t, xLocal, cnt);
        AscendC::Muls(t, t, -1.0f, cnt);
        AscendC::Exp(t, t, cnt);
        AscendC::Adds(t, t, 1.0f, cnt);
        AscendC::Ln(t, t, cnt);
        AscendC::Relu(yLocal, xLocal, cnt);
        AscendC::Add(yLocal, yLocal, t, cnt);

        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> yLocal = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yLocal, cp);
        outQueue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint64_t length;
    uint32_t tileLen;
};

extern "C" __global__ __aicore__ void softplus_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (AscendC::GetBlockIdx() >= tilingData.usedCores) {
        return;
    }
    KernelSoftplus op;
    op.Init(x, y, tilingData.totalLength, tilingData.perCore, tilingData.tileLength);
    op.Process();
}
