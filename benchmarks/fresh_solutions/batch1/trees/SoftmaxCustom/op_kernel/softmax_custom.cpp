#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Softmax over the last dim for very long rows.
// pass 1 (online): running max M and running sum S = sum exp(x - M); when a tile
//                  raises the max, S is rescaled by exp(M_old - M_new).
// pass 2        : y = exp(x - M) / S, tile by tile.
class KernelSoftmaxLongRow {
public:
    __aicore__ inline KernelSoftmaxLongRow() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t rowLen, uint32_t rowsPerCore,
                                uint32_t tileLen, uint32_t tileNum, uint32_t tailLen)
    {
        this->rowLen = rowLen;
        this->tileLen = tileLen;
        this->tileNum = tileNum;
        this->tailLen = tailLen;

        uint32_t first = AscendC::GetBlockIdx() * rowsPerCore;
        uint32_t last = first + rowsPerCore;
        if (last > rows) last = rows;
        this->rowCount = last > first ? last - first : 0;

        uint64_t base = static_cast<uint64_t>(first) * rowLen;
        xGm.SetGlobalBuffer((__gm__ float*)x + base, static_cast<uint64_t>(rowCount) * rowLen);
        yGm.SetGlobalBuffer((__gm__ float*)y + base, static_cast<uint64_t>(rowCount) * rowLen);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(expBuf, tileLen * sizeof(float));
        pipe.InitBuffer(workBuf, tileLen * sizeof(float));
        pipe.InitBuffer(scalarBuf, 16 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = tileNum + (tailLen > 0 ? 1 : 0);
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t rowOff = static_cast<uint64_t>(r) * rowLen;
            float rowMax = -3.402823466e+38f;
            float rowSum = 0.0f;

            // ---- pass 1: online max / sum ----
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t len = (t < tileNum) ? tileLen : tailLen;
                CopyIn(rowOff + static_cast<uint64_t>(t) * tileLen, len);
                AccumulateStats(len, rowMax, rowSum);
            }
            float invSum = 1.0f / rowSum;

            // ---- pass 2: normalize ----
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t len = (t < tileNum) ? tileLen : tailLen;
                uint64_t off = rowOff + static_cast<uint64_t>(t) * tileLen;
                CopyIn(off, len);
                Normalize(len, rowMax, invSum);
                CopyOut(off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void WaitVector()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
    }

    // exp() of a scalar through the vector unit
    __aicore__ inline float ScalarExp(float v)
    {
        AscendC::LocalTensor<float> sc = scalarBuf.Get<float>();
        AscendC::Duplicate(sc[8], v, 8);
        AscendC::Exp(sc[8], sc[8], 8);
        WaitVector();
        return sc.GetValue(8);
    }

    __aicore__ inline void AccumulateStats(uint32_t len, float& rowMax, float& rowSum)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> e = expBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> sc = scalarBuf.Get<float>();

        AscendC::ReduceMax(sc, xLocal, work, len, false);
        WaitVector();
        float tileMax = sc.GetValue(0);
        if (tileMax > rowMax) {
            if (rowSum > 0.0f) {
                rowSum *= ScalarExp(rowMax - tileMax);
            }
            rowMax = tileMax;
        }
        AscendC::Adds(e, xLocal, -rowMax, len);
        AscendC::Exp(e, e, len);
        AscendC::ReduceSum(sc, e, work, len);
        WaitVector();
        rowSum += sc.GetValue(0);

        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void Normalize(uint32_t len, float rowMax, float invSum)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::Adds(yLocal, xLocal, -rowMax, len);
        AscendC::Exp(yLocal, yLocal, len);
        AscendC::Muls(yLocal, yLocal, invSum, len);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, cp);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> expBuf, workBuf, scalarBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t rowLen, tileLen, tileNum, tailLen, rowCount;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSoftmaxLongRow op;
    op.Init(x, y, tiling_data.rows, tiling_data.rowLen, tiling_data.rowsPerCore, tiling_data.tileLen,
            tiling_data.tileNum, tiling_data.tailLen);
    op.Process();
}
