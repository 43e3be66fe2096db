#include "kernel_operator.h"

// C = A * s. Pure bandwidth-bound op: stream A through UB once, multiplying
// in place. A TQueBind (VECIN -> VECOUT) lets the same buffer carry the tile
// from MTE2 through the vector unit to MTE3, so no separate output buffer.
constexpr int32_t BUFFER_NUM = 2;

class KernelMatrixScalarMul {
public:
    __aicore__ inline KernelMatrixScalarMul() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR c, uint64_t totalLength, uint64_t formerLength,
                                uint64_t tailLength, uint32_t formerNum, uint32_t tileLength, float scalar)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint64_t start;
        if (idx < formerNum) {
            myLength = formerLength;
            start = formerLength * idx;
        } else {
            myLength = tailLength;
            start = formerLength * formerNum + tailLength * (idx - formerNum);
        }
        // lengths were computed in whole blocks; clip the last core to the real size
        if (start >= totalLength) {
            myLength = 0;
        } else if (start + myLength > totalLength) {
            myLength = totalLength - start;
        }
        this->tileLength = tileLength;
        this->scalar = scalar;

        aGm.SetGlobalBuffer((__gm__ float*)a + start, myLength);
        cGm.SetGlobalBuffer((__gm__ float*)c + start, myLength);
        pipe.InitBuffer(bindQueue, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t fullTiles = myLength / tileLength;
        uint32_t rest = static_cast<uint32_t>(myLength - fullTiles * tileLength);
        for (uint64_t i = 0; i < fullTiles; ++i) {
            Step(i * tileLength, tileLength);
        }
        if (rest > 0) {
            Step(fullTiles * tileLength, rest);
        }
    }

private:
    __aicore__ inline void Step(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> buf = bindQueue.AllocTensor<float>();
        bool aligned = (count % 8 == 0);
        AscendC::DataCopyExtParams ext{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        if (aligned) {
            AscendC::DataCopy(buf, aGm[offset], count);
        } else {
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(buf, aGm[offset], ext, pad);
        }
        bindQueue.EnQue(buf);
        buf = bindQueue.DeQue<float>();

        AscendC::Muls(buf, buf, scalar, count);

        bindQueue.EnQue(buf);
        buf = bindQueue.DeQue<float>();
        if (aligned) {
            AscendC::DataCopy(cGm[offset], buf, count);
        } else {
            AscendC::DataCopyPad(cGm[offset], buf, ext);
        }
        bindQueue.FreeTensor(buf);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::QuePosition::VECIN, AscendC::QuePosition::VECOUT, BUFFER_NUM> bindQueue;
    AscendC::GlobalTensor<float> aGm;
    AscendC::GlobalTensor<float> cGm;
    uint64_t myLength = 0;
    uint32_t tileLength = 0;
    float scalar = 1.0f;
};

extern "C" __global__ __aicore__ void matrix_scalar_multiplication_custom(GM_ADDR a, GM_ADDR c, GM_ADDR workspace,
                                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelMatrixScalarMul op;
    op.Init(a, c, tiling_data.totalLength, tiling_data.formerLength, tiling_data.tailLength,
            tiling_data.formerNum, tiling_data.tileLength, tiling_data.scalar);
    op.Process();
}
