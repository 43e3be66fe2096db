#include "kernel_operator.h"

// Epilogue of Conv2d -> min(., c) -> + bias[c] -> * s.
// The convolution itself is produced by the cube (aclnn conv) in the binding;
// this kernel fuses the three elementwise steps in one pass over the conv output.
// Each core owns a contiguous range of (n, c) planes so the per-channel bias is a scalar.
constexpr int32_t BUFFER_NUM = 2;

class KernelConv2dMinAddMultiply {
public:
    __aicore__ inline KernelConv2dMinAddMultiply() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, uint32_t channels, uint32_t planeCount,
                                uint32_t planeSize, uint32_t planesPerCore, uint32_t extraPlanes,
                                uint32_t tileLength, float constantValue, float scalingFactor)
    {
        this->channels = channels;
        this->planeSize = planeSize;
        this->tileLength = tileLength;
        this->cv = constantValue;
        this->scale = scalingFactor;

        uint32_t bid = AscendC::GetBlockIdx();
        this->planeNum = planesPerCore + (bid < extraPlanes ? 1 : 0);
        this->planeBegin = bid * planesPerCore + (bid < extraPlanes ? bid : extraPlanes);

        uint64_t offset = static_cast<uint64_t>(planeBegin) * planeSize;
        uint64_t size = static_cast<uint64_t>(planeNum) * planeSize;
        xGm.SetGlobalBuffer((__gm__ float*)x + offset, size);
        yGm.SetGlobalBuffer((__gm__ float*)y + offset, size);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, channels);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = (planeSize + tileLength - 1) / tileLength;
        for (uint32_t p = 0; p < planeNum; ++p) {
            uint32_t ch = (planeBegin + p) % channels;
            // (min(x, c) + b) * s  ==  min(x, c) * s + b * s
            float shift = biasGm.GetValue(ch) * scale;
            uint64_t base = static_cast<uint64_t>(p) * planeSize;
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t off = t * tileLength;
                uint32_t cnt = (planeSize - off) < tileLength ? (planeSize - off) : tileLength;
                CopyIn(base + off, cnt);
                Compute(cnt, shift);
                CopyOut(base + off, cnt);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t cnt)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[gmOff], params, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t cnt, float shift)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        AscendC::Mins(yLocal, xLocal, cv, cnt);
        AscendC::Muls(yLocal, yLocal, scale, cnt);
        AscendC::Adds(yLocal, yLocal, shift, cnt);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t cnt)
    {
        AscendC::LocalTensor<float> yLocal = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[gmOff], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    AscendC::GlobalTensor<float> biasGm;
    uint32_t channels;
    uint32_t planeSize;
    uint32_t planeNum;
    uint32_t planeBegin;
    uint32_t tileLength;
    float cv;
    float scale;
};

extern "C" __global__ __aicore__ void conv2d_min_add_multiply_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelConv2dMinAddMultiply op;
    op.Init(x, bias, y, tiling_data.channels, tiling_data.planeCount, tiling_data.planeSize,
            tiling_data.planesPerCore, tiling_data.extraPlanes, tiling_data.tileLength,
            tiling_data.constantValue, tiling_data.scalingFactor);
    op.Process();
}
