// Element-wise z = x + y on float vectors, eight cores, double buffered.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TOTAL_LENGTH = 8 * 8192;
constexpr uint32_t CORE_NUM = 8;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / CORE_NUM;
constexpr uint32_t TILE_LENGTH = 512;
constexpr uint32_t TILE_NUM = BLOCK_LENGTH / TILE_LENGTH;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        uint32_t offset = BLOCK_LENGTH * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, BLOCK_LENGTH);
        pipe.InitBuffer(inX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(inY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < TILE_NUM; i++) {
            AscendC::LocalTensor<float> xLocal = inX.AllocTensor<float>();
            AscendC::LocalTensor<float> yLocal = inY.AllocTensor<float>();
            AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            AscendC::DataCopy(yLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);
            inX.EnQue(xLocal);
            inY.EnQue(yLocal);

            xLocal = inX.DeQue<float>();
            yLocal = inY.DeQue<float>();
            AscendC::LocalTensor<float> zLocal = outZ.AllocTensor<float>();
            AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);
            outZ.EnQue(zLocal);
            inX.FreeTensor(xLocal);
            inY.FreeTensor(yLocal);

            zLocal = outZ.DeQue<float>();
            AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);
            outZ.FreeTensor(zLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inX, inY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    KernelAdd op;
    op.Init(x, y, z);
    op.Process();
}
