/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * KernelAdamUpdate: one AdamW step applied in place to param, exp_avg and
 * exp_avg_sq. Four input queues and three output queues, double-buffered.
 */
#ifndef ADAM_UPDATE_KERNEL_H
#define ADAM_UPDATE_KERNEL_H

#include "kernel_operator.h"
#include "adam_update_tiling.h"
#include "kernel_utils.h"

class KernelAdamUpdate {
public:
    static constexpr int32_t BUFFER_NUM = 2;

    __aicore__ inline KernelAdamUpdate() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR expAvg, GM_ADDR expAvgSq,
                                const AdamUpdateTiling &tiling)
    {
        t = tiling;
        const uint32_t idx = AscendC::GetBlockIdx();
        uint32_t offset;
        if (idx < t.formerNum) {
            blockLength = t.formerLength;
            offset = idx * t.formerLength;
        } else {
            blockLength = t.tailLength;
            offset = t.formerNum * t.formerLength + (idx - t.formerNum) * t.tailLength;
        }
        paramGm.SetGlobalBuffer((__gm__ float *)param + offset, blockLength);
        gradGm.SetGlobalBuffer((__gm__ float *)grad + offset, blockLength);
        mGm.SetGlobalBuffer((__gm__ float *)expAvg + offset, blockLength);
        vGm.SetGlobalBuffer((__gm__ float *)expAvgSq + offset, blockLength);

        const uint32_t tileBytes = t.tileLength * sizeof(float);
        pipe.InitBuffer(paramIn, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(gradIn, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(mIn, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(vIn, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(paramOut, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(mOut, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(vOut, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(tmpBuf, tileBytes);
    }

    __aicore__ inline void Process()
    {
        const uint32_t tileNum = kernel_utils::CeilDiv(blockLength, t.tileLength);
        for (uint32_t i = 0; i < tileNum; ++i) {
            const uint32_t count = (i + 1 == tileNum) ? blockLength - i * t.tileLength : t.tileLength;
            CopyIn(i * t.tileLength, count);
            Compute(count);
            CopyOut(i * t.tileLength, count);
        }
    }

private:
    __aicore__ inline void LoadTile(AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> &que,
                                    AscendC::GlobalTensor<float> &src, uint32_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> local = que.AllocTensor<float>();
        AscendC::DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(local, src[offset], kernel_utils::ContiguousBurst<float>(count), noPad);
        que.EnQue(local);
    }

    __aicore__ inline void CopyIn(uint32_t offset, uint32_t count)
    {
        LoadTile(paramIn, paramGm, offset, count);
        LoadTile(gradIn, gradGm, offset, count);
        LoadTile(mIn, mGm, offset, count);
        LoadTile(vIn, vGm, offset, count);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<float> p = paramIn.DeQue<float>();
        AscendC::LocalTensor<float> g = gradIn.DeQue<float>();
        AscendC::LocalTensor<float> m = mIn.DeQue<float>();
        AscendC::LocalTensor<float> v = vIn.DeQue<float>();
        AscendC::LocalTensor<float> pNew = paramOut.AllocTensor<float>();
        AscendC::LocalTensor<float> mNew = mOut.AllocTensor<float>();
        AscendC::LocalTensor<float> vNew = vOut.AllocTensor<float>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();

        // m' = beta1 * m + (1 - beta1) * g
        AscendC::Muls(mNew, m, t.beta1, count);
        AscendC::Axpy(mNew, g, 1.0f - t.beta1, count);
        // v' = beta2 * v + (1 - beta2) * g^2
        AscendC::Mul(tmp, g, g, count);
        AscendC::Muls(vNew, v, t.beta2, count);
        AscendC::Axpy(vNew, tmp, 1.0f - t.beta2, count);
        AscendC::PipeBarrier<PIPE_V>();
        // denom = sqrt(v') / sqrt(1 - beta2^t) + eps
        AscendC::Sqrt(tmp, vNew, count);
        AscendC::Muls(tmp, tmp, 1.0f / t.biasCorrection2Sqrt, count);
        AscendC::Adds(tmp, tmp, t.eps, count);
        AscendC::Div(tmp, mNew, tmp, count);
        // p' = p * (1 - lr * wd) - lr / (1 - beta1^t) * m' / denom
        AscendC::Muls(pNew, p, 1.0f - t.lr * t.weightDecay, count);
        AscendC::Axpy(pNew, tmp, -t.lr / t.biasCorrection1, count);

        paramOut.EnQue(pNew);
        mOut.EnQue(mNew);
        vOut.EnQue(vNew);
        paramIn.FreeTensor(p);
        gradIn.FreeTensor(g);
        mIn.FreeTensor(m);
        vIn.FreeTensor(v);
    }

    __aicore__ inline void StoreTile(AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> &que,
                                     AscendC::GlobalTensor<float> &dst, uint32_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> local = que.DeQue<float>();
        AscendC::DataCopyPad(dst[offset], local, kernel_utils::ContiguousBurst<float>(count));
        que.FreeTensor(local);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t count)
    {
        StoreTile(paramOut, paramGm, offset, count);
        StoreTile(mOut, mGm, offset, count);
        StoreTile(vOut, vGm, offset, count);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> paramIn, gradIn, mIn, vIn;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> paramOut, mOut, vOut;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> paramGm, gradGm, mGm, vGm;
    AdamUpdateTiling t;
    uint32_t blockLength = 0;
};

#endif // ADAM_UPDATE_KERNEL_H
