#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// One RMSprop step (no momentum, not centered):
//   v'  = alpha * v + (1 - alpha) * g^2
//   p'  = p - lr * g / (sqrt(v') + eps)
// Only p' is returned, matching the reference module.
class KernelRmsScaledDescent {
public:
    __aicore__ inline KernelRmsScaledDescent() {}
    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR sqAvg, GM_ADDR out,
                                const RmsScaledDescentTilingData &t)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t start;
        if (idx < t.formerNum) {
            this->blockLength = t.formerLength;
            start = idx * t.formerLength;
        } else {
            this->blockLength = t.tailLength;
            start = t.formerNum * t.formerLength + (idx - t.formerNum) * t.tailLength;
        }
        // last core may own a partial block at the end of the tensor
        if (start + this->blockLength > t.totalLength) {
            this->blockLength = t.totalLength - start;
        }
        this->tileLength = t.tileLength;
        this->lr = t.lr;
        this->alpha = t.alpha;
        this->oneMinusAlpha = 1.0f - t.alpha;
        this->eps = t.eps;

        paramGm.SetGlobalBuffer((__gm__ float *)param + start, this->blockLength);
        gradGm.SetGlobalBuffer((__gm__ float *)grad + start, this->blockLength);
        sqGm.SetGlobalBuffer((__gm__ float *)sqAvg + start, this->blockLength);
        outGm.SetGlobalBuffer((__gm__ float *)out + start, this->blockLength);

        pipe.InitBuffer(inQueueP, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(inQueueG, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(inQueueV, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(tmpBuf, this->tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t loops = (this->blockLength + this->tileLength - 1) / this->tileLength;
        for (uint32_t i = 0; i < loops; i++) {
            uint32_t offset = i * this->tileLength;
            uint32_t len = this->blockLength - offset;
            if (len > this->tileLength) {
                len = this->tileLength;
            }
            CopyIn(offset, len);
            Compute(len);
            CopyOut(offset, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> pLocal = inQueueP.AllocTensor<float>();
        AscendC::LocalTensor<float> gLocal = inQueueG.AllocTensor<float>();
        AscendC::LocalTensor<float> vLocal = inQueueV.AllocTensor<float>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(pLocal, paramGm[offset], copyParams, padParams);
        AscendC::DataCopyPad(gLocal, gradGm[offset], copyParams, padParams);
        AscendC::DataCopyPad(vLocal, sqGm[offset], copyParams, padParams);
        inQueueP.EnQue(pLocal);
        inQueueG.EnQue(gLocal);
        inQueueV.EnQue(vLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> pLocal = inQueueP.DeQue<float>();
        AscendC::LocalTensor<float> gLocal = inQueueG.DeQue<float>();
        AscendC::LocalTensor<float> vLocal = inQueueV.DeQue<float>();
        AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();

        // v' = alpha * v + (1 - alpha) * g^2
        AscendC::Mul(tmp, gLocal, gLocal, len);
        AscendC::Muls(vLocal, vLocal, this->alpha, len);
        AscendC::Axpy(vLocal, tmp, this->oneMinusAlpha, len);
        // denom = sqrt(v') + eps
        AscendC::Sqrt(vLocal, vLocal, len);
        AscendC::Adds(vLocal, vLocal, this->eps, len);
        // p' = p - lr * g / denom
        AscendC::Div(tmp, gLocal, vLocal, len);
        AscendC::Muls(tmp, tmp, -this->lr, len);
        AscendC::Add(outLocal, pLocal, tmp, len);

        outQueue.EnQue<float>(outLocal);
        inQueueP.FreeTensor(pLocal);
        inQueueG.FreeTensor(gLocal);
        inQueueV.FreeTensor(vLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> outLocal = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(outGm[offset], outLocal, copyParams);
        outQueue.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueP, inQueueG, inQueueV;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> paramGm, gradGm, sqGm, outGm;
    uint32_t blockLength;
    uint32_t tileLength;
    float lr;
    float alpha;
    float oneMinusAlpha;
    float eps;
};

extern "C" __global__ __aicore__ void rms_scaled_descent_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR sq_avg,
                                                                GM_ADDR param_out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelRmsScaledDescent op;
    op.Init(param, grad, sq_avg, param_out, tiling_data);
    op.Process();
}
