#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_INF = -3.402823466e+38f;  // padding value; never wins against real data

// MaxPool1d with stride 1:
//   y[i] = max_{j < k} xp[i + j],  xp = x padded by `padding` (-inf) on both sides.
// Shift j is realised by DMA: row copy j is x starting at element (j - padding),
// written at UB offset 0. When j < padding the first (padding - j) slots are
// produced by DataCopyPad's left padding, so every vector operand starts aligned.
class KernelMaxPool1d {
public:
    __aicore__ inline KernelMaxPool1d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MaxPooling1dCustomTilingData &td)
    {
        inLen = td.inLen;
        outLen = td.outLen;
        outAlign = td.outLenAlign;
        ksize = td.kernelSize;
        pad = td.padding;

        uint32_t core = GetBlockIdx();
        if (core < td.rowsLeft) {
            rowCnt = td.rowsPerCore + 1;
            rowBeg = core * rowCnt;
        } else {
            rowCnt = td.rowsPerCore;
            rowBeg = td.rowsLeft * (td.rowsPerCore + 1) + (core - td.rowsLeft) * td.rowsPerCore;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(td.rows) * inLen);
        yGm.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(td.rows) * outLen);

        pipe.InitBuffer(shiftQ, BUFFER_NUM, (outAlign + 8) * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, outAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCnt; ++r) {
            uint64_t row = rowBeg + r;
            LocalTensor<float> acc = outQ.AllocTensor<float>();
            Duplicate(acc, NEG_INF, outAlign);
            for (uint32_t j = 0; j < ksize; ++j) {
                uint32_t validLen = LoadShift(row, j);
                LocalTensor<float> sh = shiftQ.DeQue<float>();
                // Only the first validLen slots of this copy hold data (incl. left pad).
                Max(acc, acc, sh, validLen);
                shiftQ.FreeTensor(sh);
            }
            outQ.EnQue(acc);
            StoreRow(row);
        }
    }

private:
    // Returns how many leading elements of the shifted copy are meaningful.
    __aicore__ inline uint32_t LoadShift(uint64_t row, uint32_t j)
    {
        LocalTensor<float> buf = shiftQ.AllocTensor<float>();
        int32_t srcStart = static_cast<int32_t>(j) - static_cast<int32_t>(pad);
        uint32_t leftPad = srcStart < 0 ? static_cast<uint32_t>(-srcStart) : 0;
        uint32_t src = srcStart < 0 ? 0 : static_cast<uint32_t>(srcStart);

        uint32_t avail = inLen - src;                      // elements left in the row
        uint32_t room = outLen - leftPad;                  // slots still needed in y
        uint32_t count = avail < room ? avail : room;
        uint32_t rightPad = (8 - (leftPad + count) % 8) % 8;

        DataCopyExtParams cp{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{true, static_cast<uint8_t>(leftPad), static_cast<uint8_t>(rightPad),
                                              NEG_INF};
        DataCopyPad(buf, xGm[row * inLen + src], cp, padParams);
        shiftQ.EnQue(buf);
        return leftPad + count;
    }

    __aicore__ inline void StoreRow(uint64_t row)
    {
        LocalTensor<float> res = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(outLen * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[row * outLen], res, cp);
        outQ.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> shiftQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<float> xGm, yGm;
    uint32_t inLen = 0;
    uint32_t outLen = 0;
    uint32_t outAlign = 0;
    uint32_t ksize = 1;
    uint32_t pad = 0;
    uint32_t rowBeg = 0;
    uint32_t rowCnt = 0;
};

extern "C" __global__ __aicore__ void max_pooling_1d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMaxPool1d op;
    op.Init(x, y, tilingData);
    op.Process();
}
