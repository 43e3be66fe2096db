/**
 * logistic_squash.cpp
 *
 * Element-wise logistic function y = 1 / (1 + exp(-x)) over a flat fp32 buffer.
 * The buffer is split evenly across AI cores; every core streams its slice
 * through UB in fixed-size tiles with double buffering. The last core also
 * picks up the remainder that does not divide evenly.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct LogisticSquashTiling {
    uint64_t totalLength;   // number of elements in x
    uint64_t perCore;       // elements handled by each core (multiple of 8)
    uint32_t tileLength;    // elements per UB tile (multiple of 8)
    uint32_t coreNum;       // number of cores used
};

class KernelLogisticSquash {
public:
    __aicore__ inline KernelLogisticSquash() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LogisticSquashTiling &t)
    {
        uint32_t core = GetBlockIdx();
        uint64_t start = t.perCore * core;
        myLength = t.perCore;
        if (core == t.coreNum - 1) {
            myLength = t.totalLength - start;     // last core takes the tail
        }
        tileLength = t.tileLength;

        xGm.SetGlobalBuffer((__gm__ float *)x + start, myLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, myLength);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t fullTiles = myLength / tileLength;
        uint32_t rest = static_cast<uint32_t>(myLength % tileLength);
        for (uint64_t i = 0; i < fullTiles; ++i) {
            uint64_t off = i * tileLength;
            CopyIn(off, tileLength);
            Compute(tileLength);
            CopyOut(off, tileLength);
        }
        if (rest > 0) {
            uint64_t off = fullTiles * tileLength;
            // round up to a 32-byte block for the copy; garbage lanes are never stored
            uint32_t padded = (rest + 7) / 8 * 8;
            CopyIn(off, padded);
            Compute(padded);
            CopyOutTail(off, rest);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopy(xl, xGm[off], len);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        // y = 1 / (1 + exp(-x))
        Muls(yl, xl, -1.0f, len);
        Exp(yl, yl, len);
        Adds(yl, yl, 1.0f, len);
        Reciprocal(yl, yl, len);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopy(yGm[off], yl, len);
        outQ.FreeTensor(yl);
    }

    __aicore__ inline void CopyOutTail(uint64_t off, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, params);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint64_t myLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void logistic_squash(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    LogisticSquashTiling t;
    // copy the plain tiling struct out of global memory
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(LogisticSquashTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    KernelLogisticSquash op;
    op.Init(x, y, t);
    op.Process();
}
