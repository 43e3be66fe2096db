#include "kernel_operator.h"

using namespace AscendC;

// ConvTranspose3d (stride 1, pad 0) -> ReLU -> GroupNorm, all on the vector unit.
// out[oc, od, oh, ow] = sum_{ic,kd,kh,kw} w[ic, oc, kd, kh, kw] * x[ic, od-kd, oh-kh, ow-kw]
// For each (ic, id) the 9 in-plane shifts of x are materialised as zero-padded OHxOW planes
// (DataCopyPad with left padding does the column shift), then accumulated with Axpy.
class KernelConvT3dReluGn {
public:
    __aicore__ inline KernelConvT3dReluGn() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const Convtranspose3dReluGroupnormCustomTilingData& t)
    {
        N = t.batch; Cin = t.cin; Cout = t.cout;
        D = t.inD; H = t.inH; W = t.inW; K = t.ksize;
        OD = t.outD; OH = t.outH; OW = t.outW; RS = t.rowStride;
        groups = t.groups; cpg = t.chPerGroup; eps = t.eps;
        planeStride = OH * RS;
        outVol = OD * OH * OW;

        uint32_t bid = GetBlockIdx();
        unitCnt = t.unitsPerCore + (bid < t.extraUnits ? 1 : 0);
        unitBeg = bid * t.unitsPerCore + (bid < t.extraUnits ? bid : t.extraUnits);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        gGm.SetGlobalBuffer((__gm__ float*)gamma);
        bGm.SetGlobalBuffer((__gm__ float*)beta);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(viewBuf, K * K * planeStride * sizeof(float));
        pipe.InitBuffer(accBuf, cpg * planeStride * sizeof(float));
        pipe.InitBuffer(sqBuf, cpg * planeStride * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(outQ, 1, cpg * planeStride * sizeof(float));
        normLen = (outVol + 7) / 8 * 8;
        pipe.InitBuffer(normInQ, 1, normLen * sizeof(float));
        pipe.InitBuffer(normOutQ, 1, normLen * sizeof(float));

        // shifted planes: rows/cols never written by the loads stay zero
        LocalTensor<float> views = viewBuf.Get<float>();
        Duplicate(views, 0.0f, K * K * planeStride);
        evVM = static_cast<event_t>(pipe.AllocEventID<HardEvent::V_MTE2>());
        evMV = static_cast<event_t>(pipe.AllocEventID<HardEvent::MTE2_V>());
        SetFlag<HardEvent::V_MTE2>(evVM);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unitCnt; ++u) {
            uint32_t unit = unitBeg + u;
            uint32_t n = unit / groups;
            uint32_t g = unit % groups;
            float s1 = 0.0f, s2 = 0.0f;
            for (uint32_t od = 0; od < OD; ++od) {
                ConvPlane(n, g, od, s1, s2);
            }
            WaitFlag<HardEvent::V_MTE2>(evVM);
            PipeBarrier<PIPE_ALL>();   // conv results must be in GM before normalising
            float cnt = static_cast<float>(cpg) * static_cast<float>(outVol);
            float mean = s1 / cnt;
            float var = s2 / cnt - mean * mean;
            if (var < 0.0f) {
                var = 0.0f;
            }
            float rstd = 1.0f / ScalarSqrt(var + eps);
            Normalize(n, g, mean, rstd);
            SetFlag<HardEvent::V_MTE2>(evVM);
        }
        WaitFlag<HardEvent::V_MTE2>(evVM);
    }

private:
    __aicore__ inline float ScalarSqrt(float v)
    {
        LocalTensor<float> red = redBuf.Get<float>();
        Duplicate(red, v, 8);
        PipeBarrier<PIPE_V>();
        Sqrt(red, red, 8);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return red.GetValue(0);
    }

    __aicore__ inline void LoadViews(uint32_t n, uint32_t ic, uint32_t id)
    {
        LocalTensor<float> views = viewBuf.Get<float>();
        uint64_t src = (((uint64_t)n * Cin + ic) * D + id) * H * W;
        for (uint32_t kh = 0; kh < K; ++kh) {
            for (uint32_t kw = 0; kw < K; ++kw) {
                uint32_t rowElems = kw + W;
                uint32_t rowBlocks = (rowElems + 7) / 8;
                uint8_t rightPad = static_cast<uint8_t>(rowBlocks * 8 - rowElems);
                DataCopyExtParams cp{static_cast<uint16_t>(H), static_cast<uint32_t>(W * sizeof(float)), 0,
                                     static_cast<uint32_t>(RS / 8 - rowBlocks), 0};
                DataCopyPadExtParams<float> pad{true, static_cast<uint8_t>(kw), rightPad, 0.0f};
                uint32_t dstOff = (kh * K + kw) * planeStride + kh * RS;
                DataCopyPad(views[dstOff], xGm[src], cp, pad);
            }
        }
    }

    __aicore__ inline void ConvPlane(uint32_t n, uint32_t g, uint32_t od, float& s1, float& s2)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> views = viewBuf.Get<float>();
        uint32_t oc0 = g * cpg;
        uint32_t accLen = cpg * planeStride;
        Duplicate(acc, 0.0f, accLen);

        for (uint32_t ic = 0; ic < Cin; ++ic) {
            for (uint32_t kd = 0; kd < K; ++kd) {
                int32_t id = static_cast<int32_t>(od) - static_cast<int32_t>(kd);
                if (id < 0 || id >= static_cast<int32_t>(D)) {
                    continue;
                }
                WaitFlag<HardEvent::V_MTE2>(evVM);
                LoadViews(n, ic, static_cast<uint32_t>(id));
                SetFlag<HardEvent::MTE2_V>(evMV);
                WaitFlag<HardEvent::MTE2_V>(evMV);
                for (uint32_t t = 0; t < K * K; ++t) {
                    uint64_t wBase = (((uint64_t)ic * Cout + oc0) * K + kd) * K * K + t;
                    for (uint32_t c = 0; c < cpg; ++c) {
                        float wv = wGm.GetValue(wBase + (uint64_t)c * K * K * K);
                        Axpy(acc[c * planeStride], views[t * planeStride], wv, planeStride);
                    }
                }
                PipeBarrier<PIPE_V>();
                SetFlag<HardEvent::V_MTE2>(evVM);
            }
        }

        // relu + running group statistics (padding columns are exactly zero)
        LocalTensor<float> outLocal = outQ.AllocTensor<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        Relu(outLocal, acc, accLen);
        PipeBarrier<PIPE_V>();
        Mul(sq, outLocal, outLocal, accLen);
        ReduceSum(red, outLocal, acc, accLen);
        PipeBarrier<PIPE_V>();
        ReduceSum(red[8], sq, acc, accLen);
        event_t evVS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        s1 += red.GetValue(0);
        s2 += red.GetValue(8);
        outQ.EnQue(outLocal);

        outLocal = outQ.DeQue<float>();
        uint32_t rowBytes = OW * sizeof(float);
        uint32_t srcGap = RS / 8 - (rowBytes + 31) / 32;
        for (uint32_t c = 0; c < cpg; ++c) {
            uint64_t dst = (((uint64_t)n * Cout + oc0 + c) * OD + od) * OH * OW;
            DataCopyExtParams cp{static_cast<uint16_t>(OH), rowBytes, srcGap, 0, 0};
            DataCopyPad(yGm[dst], outLocal[c * planeStride], cp);
        }
        outQ.FreeTensor(outLocal);
    }

    __aicore__ inline void Normalize(uint32_t n, uint32_t g, float mean, float rstd)
    {
        for (uint32_t c = 0; c < cpg; ++c) {
            uint32_t oc = g * cpg + c;
            float scale = gGm.GetValue(oc) * rstd;
            float shift = bGm.GetValue(oc) - mean * scale;
            uint64_t off = ((uint64_t)n * Cout + oc) * outVol;
            DataCopyExtParams cp{1, static_cast<uint32_t>(outVol * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};

            LocalTensor<float> in = normInQ.AllocTensor<float>();
            DataCopyPad(in, yGm[off], cp, pad);
            normInQ.EnQue(in);
            in = normInQ.DeQue<float>();
            LocalTensor<float> o = normOutQ.AllocTensor<float>();
            Muls(o, in, scale, normLen);
            PipeBarrier<PIPE_V>();
            Adds(o, o, shift, normLen);
            normInQ.FreeTensor(in);
            normOutQ.EnQue(o);
            o = normOutQ.DeQue<float>();
            DataCopyPad(yGm[off], o, cp);
            normOutQ.FreeTensor(o);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> viewBuf, accBuf, sqBuf, redBuf;
    TQue<QuePosition::VECOUT, 1> outQ, normOutQ;
    TQue<QuePosition::VECIN, 1> normInQ;
    GlobalTensor<float> xGm, wGm, gGm, bGm, yGm;
    event_t evVM, evMV;
    uint32_t N, Cin, Cout, D, H, W, K, OD, OH, OW, RS;
    uint32_t groups, cpg, planeStride, outVol, normLen;
    uint32_t unitCnt, unitBeg;
    float eps;
};

extern "C" __global__ __aicore__ void convtranspose3d_relu_groupnorm_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR gamma,
                                                                            GM_ADDR beta, GM_ADDR y,
                                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvT3dReluGn op;
    op.Init(x, weight, gamma, beta, y, tilingData);
    op.Process();
}
