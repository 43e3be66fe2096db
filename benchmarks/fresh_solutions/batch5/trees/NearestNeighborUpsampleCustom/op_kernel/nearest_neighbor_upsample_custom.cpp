#include "kernel_operator.h"

using namespace AscendC;

/*
 * 最近邻上采样（mode='nearest'）
 * 每个核负责一段连续的输出行。同一输入行会对应多条连续输出行（整数倍放大时恰好 scale 行），
 * 因此横向展开（Gather）只在源行变化时做一次，展开结果直接多次写到各输出行。
 */
class KernelNearestUpsample {
public:
    __aicore__ inline KernelNearestUpsample() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const NearestNeighborUpsampleCustomTilingData& td)
    {
        inH = td.inH;
        inW = td.inW;
        outH = td.outH;
        outW = td.outW;
        invScaleH = td.invScaleH;
        invScaleW = td.invScaleW;
        alignInW = (inW + 7) / 8 * 8;
        alignOutW = (outW + 7) / 8 * 8;

        uint32_t idx = GetBlockIdx();
        rowBegin = idx * td.rowsPerCore + (idx < td.rowsRemain ? idx : td.rowsRemain);
        rowNum = td.rowsPerCore + (idx < td.rowsRemain ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQue, 2, alignInW * sizeof(float));
        pipe.InitBuffer(outQue, 2, alignOutW * sizeof(float));
        pipe.InitBuffer(offBuf, alignOutW * sizeof(uint32_t));
    }

    __aicore__ inline void Process()
    {
        if (rowNum == 0) {
            return;
        }
        BuildColumnOffsets();

        uint32_t cachedSrc = 0xFFFFFFFFu;
        LocalTensor<float> expanded;
        bool holding = false;
        DataCopyExtParams outParams{1, static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};

        for (uint32_t r = 0; r < rowNum; ++r) {
            uint32_t row = rowBegin + r;
            uint32_t plane = row / outH;
            uint32_t oh = row - plane * outH;
            uint32_t srcRow = plane * inH + SrcIndex(oh, invScaleH, inH);

            if (srcRow != cachedSrc) {
                if (holding) {
                    outQue.FreeTensor(expanded);
                }
                LoadRow(srcRow);
                ExpandRow();
                expanded = outQue.DeQue<float>();
                holding = true;
                cachedSrc = srcRow;
            }
            DataCopyPad(yGm[static_cast<uint64_t>(row) * outW], expanded, outParams);
        }
        if (holding) {
            outQue.FreeTensor(expanded);
        }
    }

private:
    __aicore__ inline uint32_t SrcIndex(uint32_t dst, float invScale, uint32_t inSize)
    {
        uint32_t src = static_cast<uint32_t>(static_cast<float>(dst) * invScale);
        return src < inSize ? src : inSize - 1;
    }

    // 横向展开的字节偏移表：ow -> floor(ow / scale_w) * 4
    __aicore__ inline void BuildColumnOffsets()
    {
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        for (uint32_t ow = 0; ow < outW; ++ow) {
            offs.SetValue(ow, SrcIndex(ow, invScaleW, inW) * static_cast<uint32_t>(sizeof(float)));
        }
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);
    }

    __aicore__ inline void LoadRow(uint32_t srcRow)
    {
        LocalTensor<float> inLocal = inQue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(inW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(inLocal, xGm[static_cast<uint64_t>(srcRow) * inW], params, pad);
        inQue.EnQue(inLocal);
    }

    __aicore__ inline void ExpandRow()
    {
        LocalTensor<float> inLocal = inQue.DeQue<float>();
        LocalTensor<float> outLocal = outQue.AllocTensor<float>();
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        Gather(outLocal, inLocal, offs, static_cast<uint32_t>(0), outW);
        outQue.EnQue(outLocal);
        inQue.FreeTensor(inLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<QuePosition::VECCALC> offBuf;
    GlobalTensor<float> xGm, yGm;

    uint32_t inH = 0, inW = 0, outH = 0, outW = 0;
    uint32_t alignInW = 0, alignOutW = 0;
    float invScaleH = 1.0f, invScaleW = 1.0f;
    uint32_t rowBegin = 0, rowNum = 0;
};

extern "C" __global__ __aicore__ void nearest_neighbor_upsample_custom(GM_ADDR x, GM_ADDR y,
                                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelNearestUpsample op;
    op.Init(x, y, tilingData);
    op.Process();
}
