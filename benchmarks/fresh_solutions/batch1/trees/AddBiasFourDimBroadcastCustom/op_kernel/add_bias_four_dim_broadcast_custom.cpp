#include "kernel_operator.h"

// y[n, c, h, w] = x[n, c, h, w] + bias[c]
// Work is split by (n, c) planes. Small aligned planes are batched several per
// tile; otherwise a plane is streamed in chunks. Either way every vector op
// sees a single channel, so the broadcast is just Adds with a scalar.
constexpr int32_t BUFFER_NUM = 2;

class KernelAddBias4D {
public:
    __aicore__ inline KernelAddBias4D() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, uint32_t channels, uint32_t planeSize,
                                uint32_t planesPerTile, uint32_t chunkLength, uint32_t basePlanes,
                                uint32_t extraPlanes)
    {
        this->channels = channels;
        this->planeSize = planeSize;
        this->planesPerTile = planesPerTile;
        this->chunkLength = chunkLength;

        uint32_t blk = AscendC::GetBlockIdx();
        this->myPlanes = basePlanes + (blk < extraPlanes ? 1 : 0);
        this->firstPlane = blk * basePlanes + (blk < extraPlanes ? blk : extraPlanes);

        uint64_t off = static_cast<uint64_t>(firstPlane) * planeSize;
        uint64_t len = static_cast<uint64_t>(myPlanes) * planeSize;
        xGm.SetGlobalBuffer((__gm__ float*)x + off, len);
        yGm.SetGlobalBuffer((__gm__ float*)y + off, len);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, channels);

        uint32_t bufElems = planesPerTile * chunkLength;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, bufElems * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, bufElems * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (planesPerTile > 1) {
            ProcessBatched();
        } else {
            ProcessChunked();
        }
    }

private:
    // several whole planes per tile
    __aicore__ inline void ProcessBatched()
    {
        for (uint32_t p = 0; p < myPlanes; p += planesPerTile) {
            uint32_t group = (myPlanes - p) < planesPerTile ? (myPlanes - p) : planesPerTile;
            uint64_t gmOff = static_cast<uint64_t>(p) * planeSize;
            uint32_t count = group * planeSize;
            CopyIn(gmOff, count);

            AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
            AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
            for (uint32_t i = 0; i < group; ++i) {
                float b = biasGm.GetValue((firstPlane + p + i) % channels);
                AscendC::Adds(yLocal[i * planeSize], xLocal[i * planeSize], b, planeSize);
            }
            outQueueY.EnQue<float>(yLocal);
            inQueueX.FreeTensor(xLocal);

            CopyOut(gmOff, count);
        }
    }

    // one plane at a time, split into chunks
    __aicore__ inline void ProcessChunked()
    {
        for (uint32_t p = 0; p < myPlanes; ++p) {
            float b = biasGm.GetValue((firstPlane + p) % channels);
            uint64_t planeOff = static_cast<uint64_t>(p) * planeSize;
            for (uint32_t done = 0; done < planeSize; done += chunkLength) {
                uint32_t count = (planeSize - done) < chunkLength ? (planeSize - done) : chunkLength;
                CopyIn(planeOff + done, count);

                AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
                AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
                AscendC::Adds(yLocal, xLocal, b, count);
                outQueueY.EnQue<float>(yLocal);
                inQueueX.FreeTensor(xLocal);

                CopyOut(planeOff + done, count);
            }
        }
    }

    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        if (count % 8 == 0) {
            AscendC::DataCopy(xLocal, xGm[gmOff], count);
        } else {
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xLocal, xGm[gmOff], cp, pad);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t count)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        if (count % 8 == 0) {
            AscendC::DataCopy(yGm[gmOff], yLocal, count);
        } else {
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[gmOff], yLocal, cp);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    AscendC::GlobalTensor<float> biasGm;
    uint32_t channels;
    uint32_t planeSize;
    uint32_t planesPerTile;
    uint32_t chunkLength;
    uint32_t myPlanes;
    uint32_t firstPlane;
};

extern "C" __global__ __aicore__ void add_bias_four_dim_broadcast_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelAddBias4D op;
    op.Init(x, bias, y, tiling_data.channels, tiling_data.planeSize, tiling_data.planesPerTile,
            tiling_data.chunkLength, tiling_data.basePlanes, tiling_data.extraPlanes);
    op.Process();
}
