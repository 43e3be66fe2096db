#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ZERO_PAD = 8;   // one zeroed block behind the chunk, target for out-of-range gathers

class KernelCumsumReverse {
public:
    __aicore__ inline KernelCumsumReverse() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CumsumReverseCustomTilingData& t)
    {
        rowLen = t.rowLen;
        chunkLen = t.chunkLen;
        chunkNum = t.chunkNum;
        headLen = t.headLen;

        uint32_t idx = GetBlockIdx();
        myRows = t.rowsPerCore + (idx < t.extraRows ? 1 : 0);
        rowStart = idx * t.rowsPerCore + (idx < t.extraRows ? idx : t.extraRows);

        xGm.SetGlobalBuffer((__gm__ float*)x + (uint64_t)rowStart * rowLen, (uint64_t)myRows * rowLen);
        yGm.SetGlobalBuffer((__gm__ float*)y + (uint64_t)rowStart * rowLen, (uint64_t)myRows * rowLen);

        pipe.InitBuffer(inQ, BUFFER_NUM, (chunkLen + ZERO_PAD) * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, chunkLen * sizeof(float));
        pipe.InitBuffer(pingBuf, (chunkLen + ZERO_PAD) * sizeof(float));
        pipe.InitBuffer(pongBuf, (chunkLen + ZERO_PAD) * sizeof(float));
        pipe.InitBuffer(tmpBuf, chunkLen * sizeof(float));
        pipe.InitBuffer(offBuf, 3 * chunkLen * sizeof(uint32_t));

        // byte offsets for the sub-block shifts s = 1, 2, 4: src[i + s], clamped onto the zero pad
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t k = 0; k < 3; ++k) {
            uint32_t s = 1u << k;
            for (uint32_t i = 0; i < chunkLen; ++i) {
                uint32_t j = i + s;
                if (j > chunkLen) {
                    j = chunkLen;
                }
                off.SetValue(k * chunkLen + i, j * sizeof(float));
            }
        }
        event_t evt = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows; ++r) {
            float carry = 0.0f;
            // walk the row from its tail towards its head
            for (int32_t c = static_cast<int32_t>(chunkNum) - 1; c >= 0; --c) {
                uint32_t n = (c == 0) ? headLen : chunkLen;
                uint64_t base = (uint64_t)r * rowLen + (c == 0 ? 0 : headLen + (uint64_t)(c - 1) * chunkLen);
                CopyIn(base, n);
                carry = Compute(n, carry);
                CopyOut(base, n);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t base, uint32_t n)
    {
        LocalTensor<float> xLocal = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[base], cp, pad);
        inQ.EnQue(xLocal);
    }

    __aicore__ inline float Compute(uint32_t n, float carry)
    {
        LocalTensor<float> xLocal = inQ.DeQue<float>();
        LocalTensor<float> yLocal = outQ.AllocTensor<float>();
        LocalTensor<float> a = pingBuf.Get<float>();
        LocalTensor<float> b = pongBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();

        uint32_t nAlign = n;   // host guarantees n % 8 == 0
        // a = x, zeros from n up to chunkLen + pad
        Duplicate(a, 0.0f, chunkLen + ZERO_PAD);
        PipeBarrier<PIPE_V>();
        DataCopy(a, xLocal, nAlign);
        PipeBarrier<PIPE_V>();
        inQ.FreeTensor(xLocal);

        // Hillis-Steele suffix scan, small strides through gather
        uint32_t lim = n < 8 ? n : 8;
        for (uint32_t k = 0; (1u << k) < lim; ++k) {
            Gather(tmp, a, off[k * chunkLen], 0, nAlign);
            PipeBarrier<PIPE_V>();
            Add(a, a, tmp, nAlign);
            PipeBarrier<PIPE_V>();
        }
        // block-aligned strides: ping-pong between a and b
        LocalTensor<float> src = a;
        LocalTensor<float> dst = b;
        for (uint32_t s = 8; s < nAlign; s <<= 1) {
            Add(dst, src, src[s], nAlign - s);
            DataCopy(dst[nAlign - s], src[nAlign - s], s);
            PipeBarrier<PIPE_V>();
            LocalTensor<float> t = src;
            src = dst;
            dst = t;
        }

        // src[0] is the chunk total before the carry
        event_t evt = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
        float chunkTotal = src.GetValue(0);

        Adds(yLocal, src, carry, nAlign);
        outQ.EnQue(yLocal);
        return carry + chunkTotal;
    }

    __aicore__ inline void CopyOut(uint64_t base, uint32_t n)
    {
        LocalTensor<float> yLocal = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[base], yLocal, cp);
        outQ.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> pingBuf, pongBuf, tmpBuf, offBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t rowLen, chunkLen, chunkNum, headLen;
    uint32_t myRows, rowStart;
};

extern "C" __global__ __aicore__ void cumsum_reverse_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCumsumReverse op;
    op.Init(x, y, tilingData);
    op.Process();
}
