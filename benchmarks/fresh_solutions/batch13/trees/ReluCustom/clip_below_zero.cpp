// clip_below_zero: y = max(x, 0), element-wise over a flat float32 buffer.
//
// The flat buffer is cut into one contiguous slice per core (slices are
// multiples of 8 floats so every GM address stays 32-byte aligned); the
// last core additionally picks up whatever is left over. Inside a slice we
// stream fixed-size tiles through a double-buffered in/out queue pair.
#include "kernel_operator.h"

constexpr int32_t kBufNum = 2;

struct ClipBelowZeroTiling {
    uint32_t totalLenLo;     // total element count, low 32 bits
    uint32_t totalLenHi;     // total element count, high 32 bits
    uint32_t sliceLen;       // elements per core (multiple of 8)
    uint32_t tileLen;        // elements per tile (multiple of 64)
};

class ClipBelowZero {
public:
    __aicore__ inline ClipBelowZero() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ClipBelowZeroTiling &tiling)
    {
        uint64_t total = (static_cast<uint64_t>(tiling.totalLenHi) << 32) | tiling.totalLenLo;
        uint64_t start = static_cast<uint64_t>(tiling.sliceLen) * AscendC::GetBlockIdx();
        uint64_t myLen = tiling.sliceLen;
        if (AscendC::GetBlockIdx() == AscendC::GetBlockNum() - 1) {
            myLen = total - start;       // the last core absorbs the remainder
        }
        tileLen = tiling.tileLen;
        fullTiles = static_cast<uint32_t>(myLen / tileLen);
        lastLen = static_cast<uint32_t>(myLen % tileLen);

        xGm.SetGlobalBuffer((__gm__ float *)x + start, myLen);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, myLen);
        pipe.InitBuffer(qIn, kBufNum, tileLen * sizeof(float));
        pipe.InitBuffer(qOut, kBufNum, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < fullTiles; ++i) {
            Stage(static_cast<uint64_t>(i) * tileLen, tileLen);
        }
        if (lastLen > 0) {
            Stage(static_cast<uint64_t>(fullTiles) * tileLen, lastLen);
        }
    }

private:
    __aicore__ inline void Stage(uint64_t offset, uint32_t len)
    {
        CopyIn(offset, len);
        Compute(len);
        CopyOut(offset, len);
    }

    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = qIn.AllocTensor<float>();
        if (len % 8 == 0) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xLocal, xGm[offset], cp, pad);
        }
        qIn.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = qIn.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = qOut.AllocTensor<float>();
        AscendC::Relu(yLocal, xLocal, len);
        qOut.EnQue(yLocal);
        qIn.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = qOut.DeQue<float>();
        if (len % 8 == 0) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, cp);
        }
        qOut.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, kBufNum> qIn;
    AscendC::TQue<AscendC::TPosition::VECOUT, kBufNum> qOut;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t tileLen = 0;
    uint32_t fullTiles = 0;
    uint32_t lastLen = 0;
};

extern "C" __global__ __aicore__ void clip_below_zero(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    ClipBelowZeroTiling t;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    t.totalLenLo = src[0];
    t.totalLenHi = src[1];
    t.sliceLen = src[2];
    t.tileLen = src[3];

    ClipBelowZero op;
    op.Init(x, y, t);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void clip_below_zero_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling)
{
    clip_below_zero<<<blockDim, nullptr, stream>>>(x, y, tiling);
}
#endif
