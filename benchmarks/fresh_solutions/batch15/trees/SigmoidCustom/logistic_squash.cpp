/*
 * logistic_squash.cpp
 * Elementwise logistic function y = 1 / (1 + exp(-x)) over a flat float32 buffer.
 * The buffer is split evenly between cores (the last core takes the remainder);
 * each core streams its slice through UB in tiles with double buffering.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct LogisticSquashTiling {
    uint64_t totalLength;   // number of elements
    uint64_t blockLength;   // elements per core (multiple of 8)
    uint32_t tileLength;    // elements per UB tile (multiple of 64)
    uint32_t reserved;
};

class LogisticSquash {
public:
    __aicore__ inline LogisticSquash() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LogisticSquashTiling &tiling)
    {
        tileLength = tiling.tileLength;
        uint64_t start = tiling.blockLength * GetBlockIdx();
        if (start >= tiling.totalLength) {
            myLength = 0;
            return;
        }
        myLength = tiling.totalLength - start;
        if (myLength > tiling.blockLength) {
            myLength = tiling.blockLength;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x + start, myLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, myLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myLength == 0) {
            return;
        }
        uint64_t fullTiles = myLength / tileLength;
        uint32_t tail = static_cast<uint32_t>(myLength % tileLength);
        for (uint64_t i = 0; i < fullTiles; ++i) {
            CopyIn(i * tileLength, tileLength);
            Compute(tileLength);
            CopyOut(i * tileLength, tileLength);
        }
        if (tail > 0) {
            CopyIn(fullTiles * tileLength, tail);
            Compute(tail);
            CopyOut(fullTiles * tileLength, tail);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        if (len % 8 == 0) {
            DataCopy(xLocal, xGm[offset], len);
        } else {
            DataCopyExtParams p{1, len * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(xLocal, xGm[offset], p, pad);
        }
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        // exp(-x) -> 1 + exp(-x) -> reciprocal; for very negative x exp overflows to
        // +inf and the reciprocal gives the correct limit 0
        Muls(yLocal, xLocal, -1.0f, len);
        Exp(yLocal, yLocal, len);
        Adds(yLocal, yLocal, 1.0f, len);
        Reciprocal(yLocal, yLocal, len);
        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        if (len % 8 == 0) {
            DataCopy(yGm[offset], yLocal, len);
        } else {
            DataCopyExtParams p{1, len * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPad(yGm[offset], yLocal, p);
        }
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint64_t myLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void logistic_squash(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    LogisticSquashTiling t;
    __gm__ uint32_t *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(LogisticSquashTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    LogisticSquash op;
    op.Init(x, y, t);
    op.Process();
}
