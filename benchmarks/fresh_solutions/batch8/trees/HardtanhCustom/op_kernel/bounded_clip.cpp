#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = min(max(x, lower), upper)  (hardtanh)
class KernelBoundedClip {
public:
    __aicore__ inline KernelBoundedClip() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t totalElems, uint64_t coreElems,
                                uint32_t tileElems, float lower, float upper)
    {
        uint64_t begin = coreElems * AscendC::GetBlockIdx();
        uint64_t remain = totalElems > begin ? totalElems - begin : 0;
        this->blockElems = remain < coreElems ? remain : coreElems;
        this->tileElems = tileElems;
        this->lower = lower;
        this->upper = upper;

        xGm.SetGlobalBuffer((__gm__ float *)x + begin, this->blockElems);
        yGm.SetGlobalBuffer((__gm__ float *)y + begin, this->blockElems);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileElems * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t loops = this->blockElems / this->tileElems;
        uint32_t tail = static_cast<uint32_t>(this->blockElems - loops * this->tileElems);
        for (uint64_t i = 0; i < loops; i++) {
            CopyIn(i * this->tileElems, this->tileElems);
            Compute(this->tileElems);
            CopyOut(i * this->tileElems, this->tileElems);
        }
        if (tail > 0) {
            CopyIn(loops * this->tileElems, tail);
            Compute(tail);
            CopyOut(loops * this->tileElems, tail);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        if (count % 8 == 0) {
            AscendC::DataCopy(xLocal, xGm[offset], count);
        } else {
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xLocal, xGm[offset], cp, pad);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::Maxs(yLocal, xLocal, this->lower, count);
        AscendC::Mins(yLocal, yLocal, this->upper, count);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        if (count % 8 == 0) {
            AscendC::DataCopy(yGm[offset], yLocal, count);
        } else {
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, cp);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint64_t blockElems;
    uint32_t tileElems;
    float lower;
    float upper;
};

extern "C" __global__ __aicore__ void bounded_clip_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelBoundedClip op;
    op.Init(x, y, tiling_data.totalElems, tiling_data.coreElems, tiling_data.tileElems,
            tiling_data.lower, tiling_data.upper);
    op.Process();
}
