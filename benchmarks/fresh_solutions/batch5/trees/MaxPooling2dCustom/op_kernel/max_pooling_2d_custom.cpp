#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t PAD_HEAD = 8;                 // 行首预留 8 个元素（32B），用于放左侧 padding 的 -inf
constexpr float NEG_INF = -3.402823466e+38f;

/*
 * MaxPool2d（dilation=1, ceil_mode=False）
 * 一次处理一行输出：
 *   1) 用一次 DataCopyPad 搬入该输出行覆盖的 k 行输入（每行在 UB 中 32B 对齐）；
 *   2) 纵向 Max 得到一行 colMax，写入两侧预填 -inf 的 padRow；
 *   3) 横向窗口用 Gather 取出 k 个偏移后的序列，逐个 Max，天然支持任意 stride。
 */
class KernelMaxPool2d {
public:
    __aicore__ inline KernelMaxPool2d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MaxPooling2dCustomTilingData& td)
    {
        inH = td.inH;
        inW = td.inW;
        outH = td.outH;
        outW = td.outW;
        alignInW = td.alignInW;
        alignOutW = td.alignOutW;
        ksize = td.kernelSize;
        stride = td.stride;
        pad = td.padding;

        uint32_t idx = GetBlockIdx();
        if (idx < td.rowsTail) {
            rowCount = td.rowsPerCore + 1;
            rowStart = idx * rowCount;
        } else {
            rowCount = td.rowsPerCore;
            rowStart = td.rowsTail * (td.rowsPerCore + 1) + (idx - td.rowsTail) * td.rowsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQueue, BUFFER_NUM, ksize * alignInW * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, alignOutW * sizeof(float));
        pipe.InitBuffer(padRowBuf, (PAD_HEAD + alignInW + PAD_HEAD) * sizeof(float));
        pipe.InitBuffer(gatherBuf, alignOutW * sizeof(float));
        pipe.InitBuffer(offsetBuf, ksize * alignOutW * sizeof(uint32_t));
    }

    __aicore__ inline void Process()
    {
        BuildOffsets();
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint32_t row = rowStart + r;
            uint32_t plane = row / outH;
            uint32_t oh = row % outH;
            int32_t hStart = static_cast<int32_t>(oh * stride) - static_cast<int32_t>(pad);
            int32_t hEnd = hStart + static_cast<int32_t>(ksize);
            if (hStart < 0) {
                hStart = 0;
            }
            if (hEnd > static_cast<int32_t>(inH)) {
                hEnd = static_cast<int32_t>(inH);
            }
            uint32_t validRows = static_cast<uint32_t>(hEnd - hStart);
            CopyIn(plane, static_cast<uint32_t>(hStart), validRows);
            Compute(validRows);
            CopyOut(row);
        }
    }

private:
    // 预计算横向 Gather 的字节偏移：第 j 个窗口位置对应 padRow 中下标 PAD_HEAD + ow*stride + j - pad
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        for (uint32_t j = 0; j < ksize; ++j) {
            for (uint32_t ow = 0; ow < outW; ++ow) {
                uint32_t pos = PAD_HEAD + ow * stride + j - pad;
                offs.SetValue(j * alignOutW + ow, pos * static_cast<uint32_t>(sizeof(float)));
            }
        }
        // padRow 两侧整体填 -inf，后续纵向结果只覆盖中间 inW 个元素
        LocalTensor<float> padRow = padRowBuf.Get<float>();
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);
        Duplicate(padRow, NEG_INF, PAD_HEAD + alignInW + PAD_HEAD);
    }

    __aicore__ inline void CopyIn(uint32_t plane, uint32_t hStart, uint32_t validRows)
    {
        LocalTensor<float> inLocal = inQueue.AllocTensor<float>();
        uint64_t gmOffset = (static_cast<uint64_t>(plane) * inH + hStart) * inW;
        // 连续 validRows 行，每行 inW 个元素；UB 侧每行自动补齐到 32B
        DataCopyExtParams params{static_cast<uint16_t>(validRows), static_cast<uint32_t>(inW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(inLocal, xGm[gmOffset], params, padParams);
        inQueue.EnQue(inLocal);
    }

    __aicore__ inline void Compute(uint32_t validRows)
    {
        LocalTensor<float> inLocal = inQueue.DeQue<float>();
        LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> padRow = padRowBuf.Get<float>();
        LocalTensor<float> colMax = padRow[PAD_HEAD];
        LocalTensor<float> gathered = gatherBuf.Get<float>();
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();

        // 纵向：k 行逐元素取最大
        if (validRows == 1) {
            Max(colMax, inLocal, inLocal, inW);
        } else {
            Max(colMax, inLocal, inLocal[alignInW], inW);
            for (uint32_t i = 2; i < validRows; ++i) {
                Max(colMax, colMax, inLocal[i * alignInW], inW);
            }
        }
        inQueue.FreeTensor(inLocal);

        // 横向：按窗口内偏移 j 依次 gather 后取最大
        Gather(outLocal, padRow, offs, static_cast<uint32_t>(0), outW);
        for (uint32_t j = 1; j < ksize; ++j) {
            Gather(gathered, padRow, offs[j * alignOutW], static_cast<uint32_t>(0), outW);
            Max(outLocal, outLocal, gathered, outW);
        }
        outQueue.EnQue<float>(outLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<float> outLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(row) * outW], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> padRowBuf, gatherBuf, offsetBuf;
    GlobalTensor<float> xGm, yGm;

    uint32_t inH = 0, inW = 0, outH = 0, outW = 0;
    uint32_t alignInW = 0, alignOutW = 0;
    uint32_t ksize = 0, stride = 1, pad = 0;
    uint32_t rowStart = 0, rowCount = 0;
};

extern "C" __global__ __aicore__ void max_pooling_2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMaxPool2d op;
    op.Init(x, y, tilingData);
    op.Process();
}
