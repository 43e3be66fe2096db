#include "kernel_operator.h"

// y = mish(mish(conv_out)),  mish(x) = x * tanh(softplus(x))
//
// tanh(log(1 + e^x)) = ((1+e^x)^2 - 1) / ((1+e^x)^2 + 1) = n / (n + 2),  n = e^x * (e^x + 2)
// so mish(x) = x * n / (n + 2). x is clamped to 20 before the exp: beyond that the ratio is 1.0f.

constexpr int32_t BUFFER_NUM = 2;
constexpr float EXP_CLAMP = 20.0f;

class KernelMishMish {
public:
    __aicore__ inline KernelMishMish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Conv2dMishMishCustomTilingData& t)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint64_t start;
        if (idx < t.formerNum) {
            length = t.formerLength;
            start = (uint64_t)idx * t.formerLength;
        } else {
            length = t.tailLength;
            start = (uint64_t)t.formerNum * t.formerLength + (uint64_t)(idx - t.formerNum) * t.tailLength;
        }
        if (start >= t.totalLength) {
            length = 0;
        } else if (start + length > t.totalLength) {
            length = t.totalLength - start;   // last core may own a partial 32B block
        }
        tileLen = t.tileLength;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, length);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(expBuf, tileLen * sizeof(float));
        pipe.InitBuffer(ratioBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t tiles = (length + tileLen - 1) / tileLen;
        for (uint64_t i = 0; i < tiles; ++i) {
            uint64_t off = i * tileLen;
            uint32_t cnt = (length - off) < tileLen ? (uint32_t)(length - off) : tileLen;
            CopyIn(off, cnt);
            Compute(cnt);
            CopyOut(off, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        if (cnt % 8 == 0) {
            AscendC::DataCopy(xl, xGm[off], cnt);
        } else {
            AscendC::DataCopyExtParams cp{1, cnt * (uint32_t)sizeof(float), 0, 0, 0};
            AscendC::DataCopyPad(xl, xGm[off], cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        }
        inQ.EnQue(xl);
    }

    // dst = src * n / (n + 2), n = e*(e+2), e = exp(min(src, 20)); dst may alias src
    __aicore__ inline void Mish(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                uint32_t cnt)
    {
        AscendC::LocalTensor<float> e = expBuf.Get<float>();
        AscendC::LocalTensor<float> r = ratioBuf.Get<float>();
        AscendC::Mins(e, src, EXP_CLAMP, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Exp(e, e, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(r, e, 2.0f, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(e, e, r, cnt);            // n
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(r, e, 2.0f, cnt);        // n + 2
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Div(e, e, r, cnt);            // tanh(softplus(x))
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(dst, src, e, cnt);
        AscendC::PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        Mish(yl, xl, cnt);
        Mish(yl, yl, cnt);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> yl = outQ.DeQue<float>();
        if (cnt % 8 == 0) {
            AscendC::DataCopy(yGm[off], yl, cnt);
        } else {
            AscendC::DataCopyExtParams cp{1, cnt * (uint32_t)sizeof(float), 0, 0, 0};
            AscendC::DataCopyPad(yGm[off], yl, cp);
        }
        outQ.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> expBuf, ratioBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint64_t length = 0;
    uint32_t tileLen = 0;
};

extern "C" __global__ __aicore__ void conv2d_mish_mish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelMishMish op;
    op.Init(x, y, tiling_data);
    op.Process();
}
