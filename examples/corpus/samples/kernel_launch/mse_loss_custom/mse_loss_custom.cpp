/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Mean squared error, reduction "mean": z = sum((x - y)^2) / N. Each core folds
 * its slice into one partial mean and adds it to z with an atomic store, so the
 * host must zero z before the launch.
 */
#include "kernel_operator.h"
#include "mse_loss_tiling.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelMseLoss {
public:
    __aicore__ inline KernelMseLoss() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const MseLossTiling &tiling)
    {
        tileLength = tiling.tileLength;
        invTotal = tiling.invTotal;
        const uint32_t start = tiling.blockLength * AscendC::GetBlockIdx();
        // Tail core: only what is left of the tensor; cores past the end get nothing.
        blockLength = start >= tiling.totalLength ? 0 : tiling.totalLength - start;
        if (blockLength > tiling.blockLength) {
            blockLength = tiling.blockLength;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x + start, blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, blockLength);
        zGm.SetGlobalBuffer((__gm__ float *)z, 1);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(accBuf, tileLength * sizeof(float));
        pipe.InitBuffer(workBuf, tileLength * sizeof(float));
        pipe.InitBuffer(sumBuf, 32); // one 32-byte block holds the partial mean
    }

    __aicore__ inline void Process()
    {
        if (blockLength == 0) {
            return;
        }
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tileLength);

        const uint32_t tileNum = (blockLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < tileNum; ++i) {
            const uint32_t count = (i == tileNum - 1) ? blockLength - i * tileLength : tileLength;
            CopyIn(i, count);
            Accumulate(acc, count);
        }
        WriteMean(acc);
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        // DataCopyPad moves an exact byte count, so the last tile needs no 32-byte alignment.
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[progress * tileLength], copyParams, padParams);
        AscendC::DataCopyPad(yLocal, yGm[progress * tileLength], copyParams, padParams);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Accumulate(AscendC::LocalTensor<float> &acc, uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        AscendC::Sub(xLocal, xLocal, yLocal, count);
        AscendC::Mul(xLocal, xLocal, xLocal, count);
        AscendC::Add(acc, acc, xLocal, count);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void WriteMean(AscendC::LocalTensor<float> &acc)
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> sum = sumBuf.Get<float>();
        AscendC::ReduceSum(sum, acc, work, tileLength);
        AscendC::Muls(sum, sum, invTotal, 1);

        // sum lives in a TBuf, not a queue: order the vector result before MTE3 by hand.
        event_t eventVToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_MTE3));
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(eventVToMte3);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(eventVToMte3);

        AscendC::SetAtomicAdd<float>();
        AscendC::DataCopyExtParams outParams{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(zGm, sum, outParams);
        AscendC::SetAtomicNone();
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sumBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    AscendC::GlobalTensor<float> zGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    float invTotal = 0.0f;
};

extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, MseLossTiling tiling)
{
    KernelMseLoss op;
    op.Init(x, y, z, tiling);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
// Host-callable wrapper so main.cpp does not need the <<<>>> syntax.
void mse_loss_custom_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *x, uint8_t *y, uint8_t *z,
                        MseLossTiling tiling)
{
    mse_loss_custom<<<blockDim, l2ctrl, stream>>>(x, y, z, tiling);
}
#endif
