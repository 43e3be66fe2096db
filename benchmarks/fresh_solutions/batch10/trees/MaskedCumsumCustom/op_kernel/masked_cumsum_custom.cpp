#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y[r, :] = cumsum(x[r, :] * mask[r, :])
// Masking and dtype conversion are vectorised; the scan itself is a sequential
// pass over each UB tile with a running carry that crosses tile boundaries.
class KernelMaskedCumsum {
public:
    __aicore__ inline KernelMaskedCumsum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, const MaskedCumsumCustomTilingData& td)
    {
        scanLen = td.scanLen;
        tileLen = td.tileLen;
        uint32_t bid = GetBlockIdx();
        rowCnt = td.rowsPerCore + (bid < td.remRows ? 1 : 0);
        rowBeg = bid * td.rowsPerCore + (bid < td.remRows ? bid : td.remRows);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        mGm.SetGlobalBuffer((__gm__ uint8_t*)mask);   // torch bool is one byte, 0 or 1
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(xQue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(mQue, BUFFER_NUM, tileLen * sizeof(uint8_t));
        pipe.InitBuffer(yQue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(halfBuf, tileLen * sizeof(half));
        pipe.InitBuffer(maskFloatBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCnt; ++r) {
            uint64_t base = (uint64_t)(rowBeg + r) * scanLen;
            float carry = 0.0f;
            for (uint32_t off = 0; off < scanLen; off += tileLen) {
                uint32_t len = (off + tileLen <= scanLen) ? tileLen : (scanLen - off);
                CopyIn(base + off, len);
                carry = Scan(len, carry);
                CopyOut(base + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> xt = xQue.AllocTensor<float>();
        LocalTensor<uint8_t> mt = mQue.AllocTensor<uint8_t>();
        DataCopyExtParams xp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyExtParams mp{1, static_cast<uint32_t>(len * sizeof(uint8_t)), 0, 0, 0};
        DataCopyPad(xt, xGm[off], xp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        DataCopyPad(mt, mGm[off], mp, DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
        xQue.EnQue(xt);
        mQue.EnQue(mt);
    }

    __aicore__ inline float Scan(uint32_t len, float carry)
    {
        LocalTensor<float> xt = xQue.DeQue<float>();
        LocalTensor<uint8_t> mt = mQue.DeQue<uint8_t>();
        LocalTensor<float> yt = yQue.AllocTensor<float>();
        LocalTensor<half> mh = halfBuf.Get<half>();
        LocalTensor<float> mf = maskFloatBuf.Get<float>();

        // mask (u8 0/1) -> half -> float, then y = x * mask
        uint32_t n = (len + 31) / 32 * 32;
        Cast(mh, mt, RoundMode::CAST_NONE, n);
        Cast(mf, mh, RoundMode::CAST_NONE, n);
        Mul(yt, xt, mf, n);

        // vector results must be visible before the scalar scan reads them
        event_t eVS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eVS);
        WaitFlag<HardEvent::V_S>(eVS);

        float acc = carry;
        for (uint32_t i = 0; i < len; ++i) {
            acc += yt.GetValue(i);
            yt.SetValue(i, acc);
        }

        // scalar writes must land before MTE3 moves the tile out
        event_t eSM = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(eSM);
        WaitFlag<HardEvent::S_MTE3>(eSM);

        yQue.EnQue(yt);
        xQue.FreeTensor(xt);
        mQue.FreeTensor(mt);
        return acc;
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<float> yt = yQue.DeQue<float>();
        DataCopyExtParams yp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[off], yt, yp);
        yQue.FreeTensor(yt);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, mQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<TPosition::VECCALC> halfBuf, maskFloatBuf;
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<uint8_t> mGm;
    uint32_t scanLen = 0;
    uint32_t tileLen = 0;
    uint32_t rowBeg = 0;
    uint32_t rowCnt = 0;
};

extern "C" __global__ __aicore__ void masked_cumsum_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMaskedCumsum op;
    op.Init(x, mask, y, tilingData);
    op.Process();
}
