#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr float ONE_SIXTH = 1.0f / 6.0f;

// 逐元素：z = conv_out + add_input;  y = z * hardswish(z) = z * z * clamp(z + 3, 0, 6) / 6
class KernelAddHardSwishMul {
public:
    __aicore__ inline KernelAddHardSwishMul() {}

    __aicore__ inline void Init(GM_ADDR convOut, GM_ADDR addIn, GM_ADDR y,
                                const ConvTranspose3dAddHardSwishCustomTilingData& td)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint64_t start;
        uint64_t len;
        if (idx < td.formerNum) {
            start = idx * td.formerLength;
            len = td.formerLength;
        } else {
            start = td.formerNum * td.formerLength + (idx - td.formerNum) * td.tailLength;
            len = td.tailLength;
        }
        // 最后一个核可能越过真实长度（按 32B 块向上取整导致），这里截断
        if (start >= td.totalLength) {
            len = 0;
        } else if (start + len > td.totalLength) {
            len = td.totalLength - start;
        }
        coreLen = len;
        tileLen = td.tileLength;

        convGm.SetGlobalBuffer((__gm__ float*)convOut + start, coreLen);
        addGm.SetGlobalBuffer((__gm__ float*)addIn + start, coreLen);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, coreLen);

        pipe.InitBuffer(inQueueA, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(inQueueB, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t loops = (coreLen + tileLen - 1) / tileLen;
        for (uint64_t i = 0; i < loops; ++i) {
            uint64_t off = i * tileLen;
            uint32_t cur = static_cast<uint32_t>((coreLen - off) > tileLen ? tileLen : (coreLen - off));
            CopyIn(off, cur);
            Compute(cur);
            CopyOut(off, cur);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cur)
    {
        AscendC::LocalTensor<float> a = inQueueA.AllocTensor<float>();
        AscendC::LocalTensor<float> b = inQueueB.AllocTensor<float>();
        AscendC::DataCopyExtParams params{1, cur * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(a, convGm[off], params, pad);
        AscendC::DataCopyPad(b, addGm[off], params, pad);
        inQueueA.EnQue(a);
        inQueueB.EnQue(b);
    }

    __aicore__ inline void Compute(uint32_t cur)
    {
        AscendC::LocalTensor<float> a = inQueueA.DeQue<float>();
        AscendC::LocalTensor<float> b = inQueueB.DeQue<float>();
        AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> gate = tmpBuf.Get<float>();

        AscendC::Add(a, a, b, cur);                   // z
        AscendC::Adds(gate, a, 3.0f, cur);            // z + 3
        AscendC::Maxs(gate, gate, 0.0f, cur);
        AscendC::Mins(gate, gate, 6.0f, cur);         // relu6(z + 3)
        AscendC::Muls(gate, gate, ONE_SIXTH, cur);    // relu6(z + 3) / 6
        AscendC::Mul(b, a, a, cur);                   // z^2，复用 b
        AscendC::Mul(out, b, gate, cur);

        outQueue.EnQue<float>(out);
        inQueueA.FreeTensor(a);
        inQueueB.FreeTensor(b);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cur)
    {
        AscendC::LocalTensor<float> out = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams params{1, cur * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], out, params);
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueA, inQueueB;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> convGm, addGm, yGm;
    uint64_t coreLen = 0;
    uint32_t tileLen = 0;
};

extern "C" __global__ __aicore__ void conv_transpose3d_add_hard_swish_custom(
    GM_ADDR conv_out, GM_ADDR add_input, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddHardSwishMul op;
    op.Init(conv_out, add_input, y, tilingData);
    op.Process();
}
