// dilated_upconv1d.cpp
//
// 1-D transposed convolution (no bias) with arbitrary stride, padding and
// dilation:
//
//   out[b, co, o] = sum_{ci, k} x[b, ci, i] * w[ci, co, k],   o = i*stride - pad + k*dil
//
// Formulated as a gather instead of a scatter: write o = stride*q + r. For
// phase r only the taps k with (r + pad - k*dil) divisible by stride
// contribute, each with a fixed input shift sh = (r + pad - k*dil)/stride,
// i.e. i = q + sh. Every tap therefore belongs to exactly one phase, and a
// phase is a dense sum of shifted input rows scaled by one weight - a chain
// of Axpy calls. The phases of a chunk are interleaved with Gather and the
// chunk is written back with DataCopyPad (output length is arbitrary).
//
// The host precomputes the (phase, shift) of every tap into the tiling.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t MAX_TAPS = 8;

struct DilatedUpconv1dTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inLen;
    uint32_t outLen;
    uint32_t taps;            // kernel size
    uint32_t stride;
    uint32_t qTile;           // q positions per chunk (multiple of 8)
    uint32_t chunksPerRow;    // ceil(ceil(outLen / stride) / qTile)
    uint32_t unitsPerCore;    // (batch, chunk) units
    uint32_t unitsTail;
    int32_t tapPhase[MAX_TAPS];
    int32_t tapShift[MAX_TAPS];
};

class DilatedUpconv1d {
public:
    __aicore__ inline DilatedUpconv1d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const DilatedUpconv1dTiling &tiling)
    {
        tl = tiling;
        q = tl.qTile;
        span = tl.stride * q;
        uint32_t bid = GetBlockIdx();
        unitNum = tl.unitsPerCore + (bid < tl.unitsTail ? 1 : 0);
        unitBegin = bid * tl.unitsPerCore + (bid < tl.unitsTail ? bid : tl.unitsTail);

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tl.batch * tl.cin * tl.inLen);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)tl.cin * tl.cout * tl.taps);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)tl.batch * tl.cout * tl.outLen);

        pipe.InitBuffer(srcQue, 1, tl.cin * tl.taps * q * sizeof(float));
        pipe.InitBuffer(dstQue, 2, span * sizeof(float));
        pipe.InitBuffer(weightBuf, AlignUp(tl.cin * tl.cout * tl.taps, 8) * sizeof(float));
        pipe.InitBuffer(phaseBuf, span * sizeof(float));
        pipe.InitBuffer(offsetBuf, span * sizeof(uint32_t));
    }

    __aicore__ inline void Process()
    {
        Setup();
        for (uint32_t u = 0; u < unitNum; ++u) {
            uint32_t unit = unitBegin + u;
            uint32_t b = unit / tl.chunksPerRow;
            uint32_t chunk = unit % tl.chunksPerRow;
            StageInputs(b, chunk * q);
            LocalTensor<float> src = srcQue.DeQue<float>();
            for (uint32_t co = 0; co < tl.cout; ++co) {
                ComputeChannel(src, co);
                StoreChannel(b, co, chunk * span);
            }
            srcQue.FreeTensor(src);
        }
    }

private:
    __aicore__ inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

    __aicore__ inline void Setup()
    {
        // all weights stay resident: [ci][co][k]
        LocalTensor<float> wl = weightBuf.Get<float>();
        uint32_t wCount = tl.cin * tl.cout * tl.taps;
        DataCopyExtParams cp{1, wCount * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm, cp, noPad);

        // out[m] comes from phase (m % stride), position (m / stride)
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        for (uint32_t m = 0; m < span; ++m) {
            offs.SetValue(m, ((m % tl.stride) * q + m / tl.stride) * (uint32_t)sizeof(float));
        }
        event_t e0 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e0);
        WaitFlag<HardEvent::MTE2_S>(e0);
        event_t e1 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e1);
        WaitFlag<HardEvent::S_V>(e1);
    }

    // slot (ci, k) holds x[b, ci, q0 + shift_k + t] for t in [0, q), zero outside the signal
    __aicore__ inline void StageInputs(uint32_t b, uint32_t q0)
    {
        LocalTensor<float> src = srcQue.AllocTensor<float>();
        DataCopyExtParams cp{1, q * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        bool scalarTouched = false;
        for (uint32_t ci = 0; ci < tl.cin; ++ci) {
            uint64_t rowBase = ((uint64_t)b * tl.cin + ci) * tl.inLen;
            for (uint32_t k = 0; k < tl.taps; ++k) {
                LocalTensor<float> slot = src[(ci * tl.taps + k) * q];
                int64_t start = (int64_t)q0 + tl.tapShift[k];
                if (start >= 0 && start + q <= (int64_t)tl.inLen) {
                    DataCopyPad(slot, xGm[rowBase + (uint64_t)start], cp, noPad);
                } else {
                    // signal boundary: only the first / last chunk of a row lands here
                    for (uint32_t t = 0; t < q; ++t) {
                        int64_t i = start + t;
                        float v = (i >= 0 && i < (int64_t)tl.inLen) ? xGm.GetValue(rowBase + (uint64_t)i) : 0.0f;
                        slot.SetValue(t, v);
                    }
                    scalarTouched = true;
                }
            }
        }
        if (scalarTouched) {
            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(e);
            WaitFlag<HardEvent::S_V>(e);
        }
        srcQue.EnQue(src);
    }

    __aicore__ inline void ComputeChannel(const LocalTensor<float> &src, uint32_t co)
    {
        LocalTensor<float> phase = phaseBuf.Get<float>();
        LocalTensor<float> wl = weightBuf.Get<float>();
        Duplicate(phase, 0.0f, span);
        for (uint32_t ci = 0; ci < tl.cin; ++ci) {
            uint32_t wRow = (ci * tl.cout + co) * tl.taps;
            for (uint32_t k = 0; k < tl.taps; ++k) {
                float wv = wl.GetValue(wRow + k);
                Axpy(phase[(uint32_t)tl.tapPhase[k] * q], src[(ci * tl.taps + k) * q], wv, q);
            }
        }
        LocalTensor<float> dst = dstQue.AllocTensor<float>();
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        Gather(dst, phase, offs, (uint32_t)0, span);
        dstQue.EnQue(dst);
    }

    __aicore__ inline void StoreChannel(uint32_t b, uint32_t co, uint32_t o0)
    {
        LocalTensor<float> dst = dstQue.DeQue<float>();
        uint32_t valid = (o0 + span <= tl.outLen) ? span : (tl.outLen - o0);
        uint64_t gmOff = ((uint64_t)b * tl.cout + co) * tl.outLen + o0;
        DataCopyExtParams cp{1, valid * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[gmOff], dst, cp);
        dstQue.FreeTensor(dst);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> srcQue;
    TQue<QuePosition::VECOUT, 2> dstQue;
    TBuf<TPosition::VECCALC> weightBuf, phaseBuf, offsetBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    DilatedUpconv1dTiling tl;
    uint32_t q = 0;
    uint32_t span = 0;
    uint32_t unitBegin = 0;
    uint32_t unitNum = 0;
};

extern "C" __global__ __aicore__ void dilated_upconv1d(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR tiling)
{
    DilatedUpconv1dTiling tl;
    auto *words = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto *local = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(DilatedUpconv1dTiling) / 4; ++i) {
        local[i] = words[i];
    }
    DilatedUpconv1d op;
    op.Init(x, w, y, tl);
    op.Process();
}
