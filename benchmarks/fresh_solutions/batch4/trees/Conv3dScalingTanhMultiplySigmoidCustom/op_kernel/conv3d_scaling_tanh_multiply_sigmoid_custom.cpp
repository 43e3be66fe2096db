// kernel: y = sigmoid(tanh(x * s[c]) * b[c]) on the conv3d output
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KScaleTanhMulSig {
public:
    __aicore__ inline KScaleTanhMulSig() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR s, GM_ADDR b, GM_ADDR y, uint32_t ch, uint32_t pl,
                                uint32_t tl, uint32_t tpp, uint32_t tot)
    {
        channels = ch; plane = pl; tileLen = tl; tilesPerPlane = tpp;
        uint32_t blk = GetBlockNum(), idx = GetBlockIdx();
        uint32_t base = tot / blk, extra = tot % blk;
        first = idx * base + (idx < extra ? idx : extra);
        count = base + (idx < extra ? 1 : 0);
        xGm.SetGlobalBuffer((__gm__ float *)x);
        sGm.SetGlobalBuffer((__gm__ float *)s, ch);
        bGm.SetGlobalBuffer((__gm__ float *)b, ch);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(inQ, BUFFER_NUM, tl * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tl * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < count; i++) {
            uint32_t g = first + i;
            uint32_t pidx = g / tilesPerPlane;
            uint32_t off = (g % tilesPerPlane) * tileLen;
            uint32_t len = (plane - off) < tileLen ? (plane - off) : tileLen;
            uint64_t gofs = (uint64_t)pidx * plane + off;
            uint32_t ch = pidx % channels;
            CopyIn(gofs, len);
            Compute(len, sGm.GetValue(ch), bGm.GetValue(ch));
            CopyOut(gofs, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gofs, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[gofs], cp, pad);
        inQ.EnQue(xl);
    }
    __aicore__ inline void Compute(uint32_t len, float sv, float bv)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        Muls(yl, xl, 2.0f * sv, len);
        Mins(yl, yl, 80.0f, len);
        Exp(yl, yl, len);
        Adds(yl, yl, 1.0f, len);
        Reciprocal(yl, yl, len);
        Muls(yl, yl, -2.0f, len);
        Adds(yl, yl, 1.0f, len);
        Muls(yl, yl, -bv, len);
        Exp(yl, yl, len);
        Adds(yl, yl, 1.0f, len);
        Reciprocal(yl, yl, len);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }
    __aicore__ inline void CopyOut(uint64_t gofs, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[gofs], yl, cp);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<float> xGm, sGm, bGm, yGm;
    uint32_t channels, plane, tileLen, tilesPerPlane, first, count;
};

extern "C" __global__ __aicore__ void conv3d_scaling_tanh_multiply_sigmoid_custom(GM_ADDR x, GM_ADDR scaling, GM_ADDR bias,
                                                                                   GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KScaleTanhMulSig op;
    op.Init(x, scaling, bias, y, td.channels, td.plane, td.tileLen, td.tilesPerPlane, td.totalTiles);
    op.Process();
}
