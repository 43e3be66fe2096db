#include "kernel_operator.h"

using namespace AscendC;

// Transposed 1D convolution, stride 1, written in gather form:
//   y[n, co, t] = sum_{ci, k} w[ci, co, k] * x[n, ci, t + pad - k * dil]
// The bulk of the output ("interior", where every tap lands inside x) is
// computed with vector Axpy on UB tiles. The few output columns near the two
// ends of each row are computed with scalar code and written with DataCopyPad.
constexpr int32_t X_BUFFER_NUM = 2;

class KernelConvTransposed1dDilated {
public:
    __aicore__ inline KernelConvTransposed1dDilated() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const ConvTransposed1dDilatedCustomTilingData* td)
    {
        batch = td->batch;
        cin = td->inChannels;
        cout = td->outChannels;
        ks = td->kernelSize;
        inLen = td->inLength;
        outLen = td->outLength;
        pad = td->padding;
        dil = td->dilation;
        lo = td->interiorBegin;
        hi = td->interiorEnd;
        tileLen = td->tileLength;
        tilesPerRow = td->tilesPerRow;
        unitsPerCore = td->unitsPerCore;
        unitsRem = td->unitsRemainder;
        edgeCap = td->edgeCapacity;
        wLen = td->weightLength;

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(batch) * cin * inLen);
        wGm.SetGlobalBuffer((__gm__ float*)w, wLen);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(batch) * cout * outLen);

        pipe.InitBuffer(xQue, X_BUFFER_NUM, cin * tileLen * sizeof(float));
        pipe.InitBuffer(accQue, 1, cout * tileLen * sizeof(float));
        pipe.InitBuffer(wBuf, (wLen + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(edgeBuf, cout * edgeCap * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadWeights();

        uint32_t bid = GetBlockIdx();
        uint32_t bnum = GetBlockNum();
        uint32_t myUnits = unitsPerCore + (bid < unitsRem ? 1 : 0);
        uint32_t first = bid * unitsPerCore + (bid < unitsRem ? bid : unitsRem);
        for (uint32_t u = first; u < first + myUnits; ++u) {
            uint32_t n = u / tilesPerRow;
            uint32_t tile = u % tilesPerRow;
            uint32_t o0 = lo + tile * tileLen;
            uint32_t len = (hi - o0) < tileLen ? (hi - o0) : tileLen;
            ComputeTile(n, o0, len);
        }

        // borders: rows are dealt round-robin over the cores
        for (uint32_t n = bid; n < batch; n += bnum) {
            if (lo > 0) {
                ComputeEdge(n, 0, lo);
            }
            if (outLen > hi) {
                ComputeEdge(n, hi, outLen - hi);
            }
        }
    }

private:
    __aicore__ inline void LoadWeights()
    {
        wLocal = wBuf.Get<float>();
        DataCopyExtParams cp{1, wLen * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(wLocal, wGm, cp, pp);
        // weights are consumed as scalars, so the scalar unit must wait for MTE2
        event_t evt = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evt);
        WaitFlag<HardEvent::MTE2_S>(evt);
    }

    __aicore__ inline void CopyInTap(uint32_t n, uint32_t o0, uint32_t len, uint32_t k)
    {
        LocalTensor<float> xk = xQue.AllocTensor<float>();
        uint32_t lenPad = (len + 7) / 8 * 8;
        uint64_t src = static_cast<uint64_t>(n) * cin * inLen + (o0 + pad - k * dil);
        // one strided DMA brings the shifted window of every input channel
        DataCopyExtParams cp{static_cast<uint16_t>(cin), len * static_cast<uint32_t>(sizeof(float)),
                             (inLen - len) * static_cast<uint32_t>(sizeof(float)), (tileLen - lenPad) / 8, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(xk, xGm[src], cp, pp);
        xQue.EnQue(xk);
    }

    __aicore__ inline void ComputeTile(uint32_t n, uint32_t o0, uint32_t len)
    {
        LocalTensor<float> acc = accQue.AllocTensor<float>();
        Duplicate(acc, 0.0f, cout * tileLen);

        CopyInTap(n, o0, len, 0);
        for (uint32_t k = 0; k < ks; ++k) {
            if (k + 1 < ks) {
                CopyInTap(n, o0, len, k + 1);   // prefetch next tap while this one is consumed
            }
            LocalTensor<float> xk = xQue.DeQue<float>();
            for (uint32_t co = 0; co < cout; ++co) {
                LocalTensor<float> dst = acc[co * tileLen];
                for (uint32_t ci = 0; ci < cin; ++ci) {
                    float wv = wLocal.GetValue((ci * cout + co) * ks + k);
                    Axpy(dst, xk[ci * tileLen], wv, len);
                }
            }
            xQue.FreeTensor(xk);
        }

        accQue.EnQue(acc);
        acc = accQue.DeQue<float>();
        uint32_t lenPad = (len + 7) / 8 * 8;
        DataCopyExtParams cp{static_cast<uint16_t>(cout), len * static_cast<uint32_t>(sizeof(float)),
                             (tileLen - lenPad) / 8, (outLen - len) * static_cast<uint32_t>(sizeof(float)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(n) * cout * outLen + o0], acc, cp);
        accQue.FreeTensor(acc);
    }

    // Scalar path for output positions whose taps may fall outside [0, inLen).
    __aicore__ inline void ComputeEdge(uint32_t n, uint32_t start, uint32_t cnt)
    {
        LocalTensor<float> e = edgeBuf.Get<float>();
        uint64_t xBase = static_cast<uint64_t>(n) * cin * inLen;
        for (uint32_t co = 0; co < cout; ++co) {
            for (uint32_t j = 0; j < cnt; ++j) {
                int32_t t = static_cast<int32_t>(start + j);
                float s = 0.0f;
                for (uint32_t k = 0; k < ks; ++k) {
                    int32_t idx = t + static_cast<int32_t>(pad) - static_cast<int32_t>(k * dil);
                    if (idx < 0 || idx >= static_cast<int32_t>(inLen)) {
                        continue;
                    }
                    for (uint32_t ci = 0; ci < cin; ++ci) {
                        s += xGm.GetValue(xBase + ci * inLen + idx) * wLocal.GetValue((ci * cout + co) * ks + k);
                    }
                }
                e.SetValue(co * edgeCap + j, s);
            }
        }
        event_t toMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(toMte3);
        WaitFlag<HardEvent::S_MTE3>(toMte3);

        uint32_t cntPad = (cnt + 7) / 8 * 8;
        DataCopyExtParams cp{static_cast<uint16_t>(cout), cnt * static_cast<uint32_t>(sizeof(float)),
                             (edgeCap - cntPad) / 8, (outLen - cnt) * static_cast<uint32_t>(sizeof(float)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(n) * cout * outLen + start], e, cp);

        // the scratch row is rewritten by the next call, wait for the DMA to drain
        event_t toS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(toS);
        WaitFlag<HardEvent::MTE3_S>(toS);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, X_BUFFER_NUM> xQue;
    TQue<QuePosition::VECOUT, 1> accQue;
    TBuf<QuePosition::VECCALC> wBuf;
    TBuf<QuePosition::VECCALC> edgeBuf;
    LocalTensor<float> wLocal;

    GlobalTensor<float> xGm;
    GlobalTensor<float> wGm;
    GlobalTensor<float> yGm;

    uint32_t batch, cin, cout, ks, inLen, outLen, pad, dil;
    uint32_t lo, hi, tileLen, tilesPerRow, unitsPerCore, unitsRem, edgeCap, wLen;
};

extern "C" __global__ __aicore__ void conv_transposed_1d_dilated_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvTransposed1dDilated op;
    op.Init(x, weight, y, &tilingData);
    op.Process();
}
