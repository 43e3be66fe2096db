#include "kernel_operator.h"

using namespace AscendC;

class ConvPoolTanhAffine {
public:
    __aicore__ inline ConvPoolTanhAffine() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR cb, GM_ADDR pb, GM_ADDR y,
                                const ConvPoolTanhAffineTiling &td)
    {
        N = td.n; CI = td.cin; CO = td.cout; H = td.h; W = td.w; K = td.k;
        P = td.pool; PH = td.ph; PW = td.pw;
        pwSeg = td.pwPerSeg; pitch = td.colPitch; segs = td.segs; tasks = td.tasks;
        useMin = td.useMin != 0;
        scale = td.scale;
        taps = CI * K * K;
        outPitch = pitch / P;            // pooled columns per UB row (multiple of 8 for P in {1,2,4,8})
        outPitch = (outPitch + 7) / 8 * 8;

        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(N) * CI * H * W);
        wGm.SetGlobalBuffer((__gm__ float *)wt, static_cast<uint64_t>(CO) * taps);
        cbGm.SetGlobalBuffer((__gm__ float *)cb, CO);
        pbGm.SetGlobalBuffer((__gm__ float *)pb, CO);
        yGm.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(N) * CO * PH * PW);

        pipe.InitBuffer(tapQ, 1, taps * pitch * sizeof(float));
        pipe.InitBuffer(outQ, 1, CO * outPitch * sizeof(float));
        pipe.InitBuffer(extBuf, CO * pitch * sizeof(float));
        pipe.InitBuffer(accBuf, pitch * sizeof(float));
        pipe.InitBuffer(wBuf, (CO * taps + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(g1Buf, outPitch * sizeof(float));
        pipe.InitBuffer(g2Buf, outPitch * sizeof(float));
        pipe.InitBuffer(g3Buf, outPitch * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        PreloadWeights();
        for (uint32_t t = GetBlockIdx(); t < tasks; t += GetBlockNum()) {
            uint32_t s = t % segs;
            uint32_t prow = (t / segs) % PH;
            uint32_t img = t / segs / PH;
            uint32_t pw0 = s * pwSeg;
            uint32_t pwLen = PW - pw0 < pwSeg ? PW - pw0 : pwSeg;
            RunTask(img, prow, pw0, pwLen);
        }
    }

private:
    __aicore__ inline void PreloadWeights()
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(CO * taps * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> nopad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm, cp, nopad);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    // taps[(ci*K + kh)*K + kw] = x[img, ci, oh + kh, c0 + kw : c0 + kw + len]
    __aicore__ inline void LoadTaps(uint32_t img, uint32_t oh, uint32_t c0, uint32_t len)
    {
        LocalTensor<float> tp = tapQ.AllocTensor<float>();
        uint32_t lenAl = (len + 7) / 8 * 8;
        DataCopyPadExtParams<float> pad{lenAl != len, 0, static_cast<uint8_t>(lenAl - len), 0.0f};
        // one DMA per column shift: the GM side may start at any element,
        // the UB side always starts on a 32B boundary
        DataCopyExtParams one{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        for (uint32_t ci = 0; ci < CI; ++ci) {
            for (uint32_t kh = 0; kh < K; ++kh) {
                uint64_t src = ((static_cast<uint64_t>(img) * CI + ci) * H + oh + kh) * W + c0;
                uint32_t dst = (ci * K + kh) * K * pitch;
                for (uint32_t kw = 0; kw < K; ++kw) {
                    DataCopyPad(tp[dst + kw * pitch], xGm[src + kw], one, pad);
                }
            }
        }
        tapQ.EnQue(tp);
    }

    __aicore__ inline void RunTask(uint32_t img, uint32_t prow, uint32_t pw0, uint32_t pwLen)
    {
        const uint32_t c0 = pw0 * P;
        const uint32_t len = pwLen * P;
        LocalTensor<float> ext = extBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();

        // 1) conv rows prow*P .. prow*P+P-1, folded vertically into ext[co]
        for (uint32_t r = 0; r < P; ++r) {
            LoadTaps(img, prow * P + r, c0, len);
            LocalTensor<float> tp = tapQ.DeQue<float>();
            for (uint32_t co = 0; co < CO; ++co) {
                LocalTensor<float> dst = (r == 0) ? ext[co * pitch] : acc;
                Duplicate(dst, 0.0f, pitch);
                uint32_t wb = co * taps;
                for (uint32_t j = 0; j < taps; ++j) {
                    Axpy(dst, tp[j * pitch], wl.GetValue(wb + j), pitch);
                }
                if (r != 0) {
                    if (useMin) {
                        Min(ext[co * pitch], ext[co * pitch], acc, pitch);
                    } else {
                        Max(ext[co * pitch], ext[co * pitch], acc, pitch);
                    }
                }
            }
            tapQ.FreeTensor(tp);
        }

        // 2) horizontal fold (stride P) + 3) tanh / scale / bias per channel
        LocalTensor<float> out = outQ.AllocTensor<float>();
        for (uint32_t co = 0; co < CO; ++co) {
            LocalTensor<float> o = out[co * outPitch];
            HorizontalFold(o, ext[co * pitch]);
            Epilogue(o, cbGm.GetValue(co), pbGm.GetValue(co));
        }
        outQ.EnQue(out);
        Store(img, prow, pw0, pwLen);
    }

    __aicore__ inline void Fold(const LocalTensor<float> &d, const LocalTensor<float> &a, uint32_t cnt)
    {
        if (useMin) {
            Min(d, d, a, cnt);
        } else {
            Max(d, d, a, cnt);
        }
    }

    // o[j] = ext-reduce(row[j*P .. j*P+P-1])
    __aicore__ inline void HorizontalFold(const LocalTensor<float> &o, const LocalTensor<float> &row)
    {
        uint64_t kept = 0;
        GatherMaskParams gp{1, static_cast<uint16_t>(pitch / 64), 8, 0};
        if (P == 4) {
            // built-in patterns 3..6 pick element 0/1/2/3 of every group of four
            LocalTensor<float> g1 = g1Buf.Get<float>();
            LocalTensor<float> g2 = g2Buf.Get<float>();
            LocalTensor<float> g3 = g3Buf.Get<float>();
            GatherMask(o, row, static_cast<uint8_t>(3), false, 0, gp, kept);
            GatherMask(g1, row, static_cast<uint8_t>(4), false, 0, gp, kept);
            GatherMask(g2, row, static_cast<uint8_t>(5), false, 0, gp, kept);
            GatherMask(g3, row, static_cast<uint8_t>(6), false, 0, gp, kept);
            Fold(o, g1, outPitch);
            Fold(g2, g3, outPitch);
            Fold(o, g2, outPitch);
        } else if (P == 2) {
            LocalTensor<float> g1 = g1Buf.Get<float>();
            GatherMask(o, row, static_cast<uint8_t>(1), false, 0, gp, kept);
            GatherMask(g1, row, static_cast<uint8_t>(2), false, 0, gp, kept);
            Fold(o, g1, outPitch);
        } else if (P == 1) {
            DataCopy(o, row, outPitch);
        } else {
            // generic pool size: scalar walk
            event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            uint32_t groups = pitch / P;
            for (uint32_t j = 0; j < groups; ++j) {
                float best = row.GetValue(j * P);
                for (uint32_t i = 1; i < P; ++i) {
                    float v = row.GetValue(j * P + i);
                    best = useMin ? (v < best ? v : best) : (v > best ? v : best);
                }
                o.SetValue(j, best);
            }
            event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(sv);
            WaitFlag<HardEvent::S_V>(sv);
        }
    }

    // o = tanh(o + cb) * scale + pb, tanh(z) = (e^{2z} - 1) / (e^{2z} + 1)
    __aicore__ inline void Epilogue(const LocalTensor<float> &o, float cbv, float pbv)
    {
        LocalTensor<float> e = g1Buf.Get<float>();
        LocalTensor<float> d = g2Buf.Get<float>();
        Adds(o, o, cbv, outPitch);
        Mins(o, o, 15.0f, outPitch);
        Maxs(o, o, -15.0f, outPitch);
        Muls(e, o, 2.0f, outPitch);
        Exp(e, e, outPitch);
        Adds(d, e, 1.0f, outPitch);
        Adds(e, e, -1.0f, outPitch);
        Div(o, e, d, outPitch);
        Muls(o, o, scale, outPitch);
        Adds(o, o, pbv, outPitch);
    }

    __aicore__ inline void Store(uint32_t img, uint32_t prow, uint32_t pw0, uint32_t pwLen)
    {
        LocalTensor<float> out = outQ.DeQue<float>();
        uint64_t dst = ((static_cast<uint64_t>(img) * CO) * PH + prow) * PW + pw0;
        uint32_t lenBlk = (pwLen * sizeof(float) + 31) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(CO), static_cast<uint32_t>(pwLen * sizeof(float)),
                             outPitch / 8 - lenBlk,
                             static_cast<uint32_t>((static_cast<uint64_t>(PH) * PW - pwLen) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], out, cp);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> tapQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> extBuf, accBuf, wBuf, g1Buf, g2Buf, g3Buf;
    GlobalTensor<float> xGm, wGm, cbGm, pbGm, yGm;
    uint32_t N = 0, CI = 0, CO = 0, H = 0, W = 0, K = 0, P = 1, PH = 0, PW = 0;
    uint32_t pwSeg = 0, pitch = 0, segs = 0, tasks = 0, taps = 0, outPitch = 0;
    bool useMin = false;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void conv_pool_tanh_affine_custom(GM_ADDR x, GM_ADDR conv_weight, GM_ADDR conv_bias,
                                                                   GM_ADDR post_bias, GM_ADDR y, GM_ADDR workspace,
                                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ConvPoolTanhAffine op;
    op.Init(x, conv_weight, conv_bias, post_bias, y, td);
    op.Process();
}
