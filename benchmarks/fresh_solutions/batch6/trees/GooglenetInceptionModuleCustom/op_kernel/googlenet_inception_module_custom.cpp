#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_INF = -3.402823466e+38f;

// MaxPool2d(kernel 3, stride 1, padding 1) for the pool branch of the inception block.
// Each output row is max over 3 input rows x 3 horizontal shifts. The horizontal shift is done
// on the GM side (unaligned GM reads are fine for DataCopyPad), the missing border element is
// filled with -inf through the pad parameters, so every UB operand stays 32B aligned.
class KernelInceptionMaxPool {
public:
    __aicore__ inline KernelInceptionMaxPool() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GooglenetInceptionModuleCustomTilingData& t)
    {
        H = t.height;
        W = t.width;
        WA = t.widthAlign;
        uint64_t idx = GetBlockIdx();
        myRows = t.rowsPerCore + (idx < t.rowsRemain ? 1 : 0);
        firstRow = idx * t.rowsPerCore + (idx < t.rowsRemain ? idx : t.rowsRemain);

        xGm.SetGlobalBuffer((__gm__ float*)x, t.totalRows * W);
        yGm.SetGlobalBuffer((__gm__ float*)y, t.totalRows * W);
        pipe.InitBuffer(inQue, BUFFER_NUM, WA * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, WA * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t i = 0; i < myRows; ++i) {
            uint64_t row = firstRow + i;
            uint32_t h = static_cast<uint32_t>(row % H);
            uint64_t planeBase = (row - h) * W;       // start of this (n, c) plane
            LocalTensor<float> acc = outQue.AllocTensor<float>();
            bool first = true;
            for (int32_t dh = -1; dh <= 1; ++dh) {
                int32_t ih = static_cast<int32_t>(h) + dh;
                if (ih < 0 || ih >= static_cast<int32_t>(H)) {
                    continue;
                }
                uint64_t rowBase = planeBase + (uint64_t)ih * W;
                for (int32_t dw = -1; dw <= 1; ++dw) {
                    LoadShifted(rowBase, dw);
                    LocalTensor<float> cur = inQue.DeQue<float>();
                    if (first) {
                        Adds(acc, cur, 0.0f, WA);
                        first = false;
                    } else {
                        Max(acc, acc, cur, WA);
                    }
                    inQue.FreeTensor(cur);
                }
            }
            outQue.EnQue(acc);
            Store(row * W);
        }
    }

private:
    // buf[w] = x[row, w + dw], out of range -> -inf
    __aicore__ inline void LoadShifted(uint64_t rowBase, int32_t dw)
    {
        LocalTensor<float> buf = inQue.AllocTensor<float>();
        uint32_t len = W;
        uint8_t left = 0;
        uint64_t src = rowBase;
        if (dw < 0) {
            len = W - 1;
            left = 1;
        } else if (dw > 0) {
            len = W - 1;
            src = rowBase + 1;
        }
        uint8_t right = static_cast<uint8_t>(WA - left - len);
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> padCfg{true, left, right, NEG_INF};
        DataCopyPad(buf, xGm[src], cp, padCfg);
        inQue.EnQue(buf);
    }

    __aicore__ inline void Store(uint64_t dst)
    {
        LocalTensor<float> res = outQue.DeQue<float>();
        DataCopyExtParams cp{1, W * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[dst], res, cp);
        outQue.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    GlobalTensor<float> xGm, yGm;
    uint32_t H, W, WA;
    uint64_t myRows, firstRow;
};

extern "C" __global__ __aicore__ void googlenet_inception_module_custom(GM_ADDR x, GM_ADDR y,
                                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelInceptionMaxPool op;
    op.Init(x, y, tilingData);
    op.Process();
}
