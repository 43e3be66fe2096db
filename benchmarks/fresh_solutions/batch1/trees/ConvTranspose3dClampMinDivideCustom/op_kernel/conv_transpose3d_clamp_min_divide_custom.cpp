#include "kernel_operator.h"
using namespace AscendC;

// Fused epilogue for ConvTranspose3d: y = max(conv + bias[c], min_value) / divisor
// The transposed convolution (without bias) runs on the cube via aclnn in the
// binding. Each core walks its flat slice of the NCDHW output; a chunk never
// crosses a channel plane so the bias stays a scalar for the whole chunk.
constexpr int32_t BUFFER_NUM = 2;

class KernelClampMinDivide {
public:
    __aicore__ inline KernelClampMinDivide() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                const ConvTranspose3dClampMinDivideCustomTilingData* td)
    {
        spatial = td->spatialSize;
        channels = td->channels;
        tileLen = td->tileLength;
        minValue = td->minValue;
        invDiv = td->invDivisor;

        uint64_t begin = static_cast<uint64_t>(GetBlockIdx()) * td->coreLength;
        uint64_t end = begin + td->coreLength;
        if (end > td->totalLength) {
            end = td->totalLength;
        }
        rangeBegin = begin;
        rangeEnd = end > begin ? end : begin;

        xGm.SetGlobalBuffer((__gm__ float*)x, td->totalLength);
        yGm.SetGlobalBuffer((__gm__ float*)y, td->totalLength);
        bGm.SetGlobalBuffer((__gm__ float*)bias, channels);

        pipe.InitBuffer(qIn, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(qOut, BUFFER_NUM, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t pos = rangeBegin;
        while (pos < rangeEnd) {
            uint64_t plane = pos / spatial;
            uint64_t planeEnd = (plane + 1) * spatial;
            uint64_t stop = planeEnd < rangeEnd ? planeEnd : rangeEnd;
            uint32_t cnt = static_cast<uint32_t>((stop - pos) < tileLen ? (stop - pos) : tileLen);
            float b = bGm.GetValue(static_cast<uint32_t>(plane % channels));

            CopyIn(pos, cnt);
            Compute(cnt, b);
            CopyOut(pos, cnt);
            pos += cnt;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t pos, uint32_t cnt)
    {
        LocalTensor<float> in = qIn.AllocTensor<float>();
        DataCopyExtParams ext{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(in, xGm[pos], ext, pad);
        qIn.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t cnt, float b)
    {
        LocalTensor<float> in = qIn.DeQue<float>();
        LocalTensor<float> out = qOut.AllocTensor<float>();
        Adds(out, in, b, cnt);              // + conv bias
        Maxs(out, out, minValue, cnt);      // clamp(min=min_value)
        Muls(out, out, invDiv, cnt);        // / divisor
        qOut.EnQue(out);
        qIn.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint64_t pos, uint32_t cnt)
    {
        LocalTensor<float> out = qOut.DeQue<float>();
        DataCopyExtParams ext{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[pos], out, ext);
        qOut.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qIn;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qOut;
    GlobalTensor<float> xGm, yGm, bGm;
    uint64_t rangeBegin = 0;
    uint64_t rangeEnd = 0;
    uint32_t spatial = 1;
    uint32_t channels = 1;
    uint32_t tileLen = 0;
    float minValue = 0.0f;
    float invDiv = 1.0f;
};

extern "C" __global__ __aicore__ void conv_transpose3d_clamp_min_divide_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelClampMinDivide op;
    op.Init(x, bias, y, &tilingData);
    op.Process();
}
