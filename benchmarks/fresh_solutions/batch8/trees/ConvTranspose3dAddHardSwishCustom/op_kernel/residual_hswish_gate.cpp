#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr float HSWISH_OFFSET = 3.0f;
constexpr float HSWISH_CAP = 6.0f;
constexpr float INV_SIX = 1.0f / 6.0f;

// s   = x + residual
// out = s * hardswish(s) = s * s * clamp(s + 3, 0, 6) / 6
class ResidualHswishGate {
public:
    __aicore__ inline ResidualHswishGate() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR res, GM_ADDR y, uint64_t total, uint64_t perCore,
                                uint32_t tileLen)
    {
        const uint64_t start = perCore * AscendC::GetBlockIdx();
        myLen = (start + perCore <= total) ? perCore : (total > start ? total - start : 0);
        tileLength = tileLen;

        xGm.SetGlobalBuffer((__gm__ float *)x + start, myLen);
        rGm.SetGlobalBuffer((__gm__ float *)res + start, myLen);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, myLen);

        pipe.InitBuffer(xQue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(rQue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(yQue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(gateBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myLen == 0) {
            return;
        }
        const uint64_t fullTiles = myLen / tileLength;
        const uint32_t tail = static_cast<uint32_t>(myLen - fullTiles * tileLength);
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
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = xQue.AllocTensor<float>();
        AscendC::LocalTensor<float> rLocal = rQue.AllocTensor<float>();
        if (count % 8 == 0) {
            AscendC::DataCopy(xLocal, xGm[offset], count);
            AscendC::DataCopy(rLocal, rGm[offset], count);
        } else {
            AscendC::DataCopyExtParams cp{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xLocal, xGm[offset], cp, pad);
            AscendC::DataCopyPad(rLocal, rGm[offset], cp, pad);
        }
        xQue.EnQue(xLocal);
        rQue.EnQue(rLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = xQue.DeQue<float>();
        AscendC::LocalTensor<float> rLocal = rQue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = yQue.AllocTensor<float>();
        AscendC::LocalTensor<float> gate = gateBuf.Get<float>();
        // Round the vector length up to a full 32B block; the extra lanes are never stored.
        const int32_t n = static_cast<int32_t>((count + 7) / 8 * 8);

        AscendC::Add(xLocal, xLocal, rLocal, n);                 // s
        AscendC::Adds(gate, xLocal, HSWISH_OFFSET, n);           // s + 3
        AscendC::Maxs(gate, gate, 0.0f, n);                      // relu6 lower bound
        AscendC::Mins(gate, gate, HSWISH_CAP, n);                // relu6 upper bound
        AscendC::Mul(gate, gate, xLocal, n);                     // s * relu6(s + 3)
        AscendC::Muls(gate, gate, INV_SIX, n);                   // hardswish(s)
        AscendC::Mul(yLocal, gate, xLocal, n);                   // s * hardswish(s)

        yQue.EnQue(yLocal);
        xQue.FreeTensor(xLocal);
        rQue.FreeTensor(rLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<float> yLocal = yQue.DeQue<float>();
        if (count % 8 == 0) {
            AscendC::DataCopy(yGm[offset], yLocal, count);
        } else {
            AscendC::DataCopyExtParams cp{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, cp);
        }
        yQue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> xQue, rQue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> yQue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> gateBuf;
    AscendC::GlobalTensor<float> xGm, rGm, yGm;
    uint64_t myLen = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void residual_hswish_gate_custom(GM_ADDR x, GM_ADDR residual, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ResidualHswishGate op;
    op.Init(x, residual, y, td.totalLength, td.perCoreLength, td.tileLength);
    op.Process();
}
