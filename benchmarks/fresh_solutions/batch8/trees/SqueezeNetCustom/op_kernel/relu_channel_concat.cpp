#include "kernel_operator.h"

// out[n] = concat(relu(first[n]), relu(second[n])) along channels.
//
// For NCHW tensors one sample of the output is just the two samples of the inputs laid end to
// end, so the op is a set of contiguous "segments" (2 per sample). Each segment is cut into
// chunks of tileLen elements and chunks are dealt round-robin over the cores.
class ReluChannelConcat {
public:
    __aicore__ inline ReluChannelConcat() {}

    __aicore__ inline void Init(GM_ADDR first, GM_ADDR second, GM_ADDR out, const ReluChannelConcatTilingData &td)
    {
        batch = td.batch;
        lenA = td.firstLen;
        lenB = td.secondLen;
        tileLen = td.tileLen;
        chunksA = td.firstChunks;
        chunksB = td.secondChunks;

        aGm.SetGlobalBuffer((__gm__ float *)first, static_cast<uint64_t>(batch) * lenA);
        bGm.SetGlobalBuffer((__gm__ float *)second, static_cast<uint64_t>(batch) * lenB);
        oGm.SetGlobalBuffer((__gm__ float *)out, static_cast<uint64_t>(batch) * (lenA + lenB));

        pipe.InitBuffer(inQueue, 2, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, 2, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t perSample = chunksA + chunksB;
        const uint32_t total = batch * perSample;
        const uint32_t step = AscendC::GetBlockNum();
        for (uint32_t id = AscendC::GetBlockIdx(); id < total; id += step) {
            const uint32_t n = id / perSample;
            const uint32_t local = id % perSample;
            const uint64_t outSample = static_cast<uint64_t>(n) * (lenA + lenB);
            if (local < chunksA) {
                const uint32_t off = local * tileLen;
                const uint32_t cnt = (lenA - off) < tileLen ? (lenA - off) : tileLen;
                RunChunk(aGm, static_cast<uint64_t>(n) * lenA + off, outSample + off, cnt);
            } else {
                const uint32_t off = (local - chunksA) * tileLen;
                const uint32_t cnt = (lenB - off) < tileLen ? (lenB - off) : tileLen;
                RunChunk(bGm, static_cast<uint64_t>(n) * lenB + off, outSample + lenA + off, cnt);
            }
        }
    }

private:
    __aicore__ inline void RunChunk(AscendC::GlobalTensor<float> &src, uint64_t srcOff, uint64_t dstOff, uint32_t cnt)
    {
        // The output offset of the second segment is lenA past the sample start, which is
        // generally not 32B aligned; DataCopyPad handles both ends without touching neighbours.
        AscendC::DataCopyExtParams cp{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};

        AscendC::LocalTensor<float> inLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(inLocal, src[srcOff], cp, pad);
        inQueue.EnQue(inLocal);

        inLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        AscendC::Relu(outLocal, inLocal, static_cast<int32_t>(cnt));
        outQueue.EnQue(outLocal);
        inQueue.FreeTensor(inLocal);

        outLocal = outQueue.DeQue<float>();
        AscendC::DataCopyPad(oGm[dstOff], outLocal, cp);
        outQueue.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQueue;
    AscendC::GlobalTensor<float> aGm, bGm, oGm;
    uint32_t batch, lenA, lenB, tileLen, chunksA, chunksB;
};

extern "C" __global__ __aicore__ void relu_channel_concat_custom(GM_ADDR first, GM_ADDR second, GM_ADDR out,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ReluChannelConcat op;
    op.Init(first, second, out, td);
    op.Process();
}
