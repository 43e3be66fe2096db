// mask_to_neg_inf.cpp
// out[i] = flag[i] ? -inf : x[i]      (x float32, flag one byte per element, 0/1)
//
// Vector path per tile:
//   flag(u8) --Cast--> half --CompareScalar(== 0)--> bit mask --Select--> out
// Select in tensor/scalar mode keeps x where the bit is set (flag == 0) and writes
// the scalar -inf elsewhere.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t NUM_BUFS = 2;
constexpr uint32_t CMP_ALIGN = 128;   // 128 halves = 256 B, the granule CompareScalar works on

struct MaskToNegInfTiling {
    uint32_t total;       // number of elements
    uint32_t perCore;     // multiple of 32 (so the u8 flag slices stay 32-byte aligned)
    uint32_t tileLen;     // multiple of CMP_ALIGN
};

class MaskToNegInf {
public:
    __aicore__ inline MaskToNegInf() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR flag, GM_ADDR out, const MaskToNegInfTiling &tiling)
    {
        uint32_t begin = tiling.perCore * GetBlockIdx();
        length = 0;
        if (begin < tiling.total) {
            length = tiling.total - begin;
            if (length > tiling.perCore) length = tiling.perCore;
        }
        tileLen = tiling.tileLen;

        xGm.SetGlobalBuffer((__gm__ float *)x + begin, length);
        flagGm.SetGlobalBuffer((__gm__ uint8_t *)flag + begin, length);
        outGm.SetGlobalBuffer((__gm__ float *)out + begin, length);

        pipe.InitBuffer(xQ, NUM_BUFS, tileLen * sizeof(float));
        pipe.InitBuffer(flagQ, NUM_BUFS, tileLen * sizeof(uint8_t));
        pipe.InitBuffer(outQ, NUM_BUFS, tileLen * sizeof(float));
        pipe.InitBuffer(halfBuf, tileLen * sizeof(half));
        pipe.InitBuffer(bitBuf, tileLen / 8);

        uint32_t bits = 0xFF800000u;     // IEEE-754 single precision -inf
        negInf = *reinterpret_cast<float *>(&bits);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < length; off += tileLen) {
            uint32_t cnt = length - off < tileLen ? length - off : tileLen;
            CopyIn(off, cnt);
            Compute(cnt);
            CopyOut(off, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t cnt)
    {
        LocalTensor<float> xl = xQ.AllocTensor<float>();
        LocalTensor<uint8_t> fl = flagQ.AllocTensor<uint8_t>();
        DataCopyPad(xl, xGm[off], {1, cnt * (uint32_t)sizeof(float), 0, 0, 0}, {false, 0, 0, 0});
        DataCopyPad(fl, flagGm[off], {1, cnt, 0, 0, 0}, {false, 0, 0, 0});
        xQ.EnQue(xl);
        flagQ.EnQue(fl);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        LocalTensor<float> xl = xQ.DeQue<float>();
        LocalTensor<uint8_t> fl = flagQ.DeQue<uint8_t>();
        LocalTensor<float> ol = outQ.AllocTensor<float>();
        LocalTensor<half> fh = halfBuf.Get<half>();
        LocalTensor<uint8_t> bits = bitBuf.Get<uint8_t>();

        // the compare works on whole 256-byte granules; lanes past cnt are computed but never stored
        uint32_t n = (cnt + CMP_ALIGN - 1) / CMP_ALIGN * CMP_ALIGN;

        Cast(fh, fl, RoundMode::CAST_NONE, n);
        PipeBarrier<PIPE_V>();
        CompareScalar(bits, fh, (half)0, CMPMODE::EQ, n);
        PipeBarrier<PIPE_V>();
        Select(ol, bits, xl, negInf, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);

        outQ.EnQue(ol);
        xQ.FreeTensor(xl);
        flagQ.FreeTensor(fl);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t cnt)
    {
        LocalTensor<float> ol = outQ.DeQue<float>();
        DataCopyPad(outGm[off], ol, {1, cnt * (uint32_t)sizeof(float), 0, 0, 0});
        outQ.FreeTensor(ol);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, NUM_BUFS> xQ, flagQ;
    TQue<QuePosition::VECOUT, NUM_BUFS> outQ;
    TBuf<TPosition::VECCALC> halfBuf, bitBuf;
    GlobalTensor<float> xGm, outGm;
    GlobalTensor<uint8_t> flagGm;
    uint32_t length = 0;
    uint32_t tileLen = 0;
    float negInf = 0.0f;
};

extern "C" __global__ __aicore__ void mask_to_neg_inf(GM_ADDR x, GM_ADDR flag, GM_ADDR out, GM_ADDR tiling)
{
    MaskToNegInfTiling tiling;
    __gm__ uint32_t *p = (__gm__ uint32_t *)tiling;
    tiling.total = p[0];
    tiling.perCore = p[1];
    tiling.tileLen = p[2];

    MaskToNegInf op;
    op.Init(x, flag, out, tiling);
    op.Process();
}
