/**
 * ConvMishBatchNorm kernel (fp32, NCHW)
 *
 *   a = conv2d(x, weight) + bias                  (valid, stride 1)
 *   m = a * tanh(softplus(a))
 *   y = gamma * (m - mean_c) / sqrt(var_c + eps) + beta
 *
 * mean_c / var_c are the biased batch statistics over (N, OH, OW) – the
 * training-mode BatchNorm forward.
 *
 * Three phases in one launch:
 *   1. every core convolves its share of output rows, applies the activation,
 *      writes m to y and accumulates per-channel sum / sum of squares;
 *   2. partial sums go to the workspace, all cores meet in SyncAll, then each
 *      core folds all partials into scale/shift per channel;
 *   3. each core re-reads the rows it produced and normalises them in place.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t NUM_BUF = 2;
constexpr float SOFTPLUS_LIMIT = 20.0f;
}

class ConvMishBatchNormKernel {
public:
    __aicore__ inline ConvMishBatchNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR y, GM_ADDR usrWs, const ConvMishBatchNormTilingData &t)
    {
        t_ = t;
        uint32_t core = GetBlockIdx();
        core_ = core;
        rows_ = t.rowsPerCore + (core < t.rowsTail ? 1U : 0U);
        row0_ = core * t.rowsPerCore + (core < t.rowsTail ? core : t.rowsTail);
        stat2_ = 2 * t.coutAlign;

        xGm_.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(t.batch) * t.cin * t.height * t.width);
        wGm_.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(t.cout) * t.cin * t.kh * t.kw);
        biasGm_.SetGlobalBuffer((__gm__ float *)bias, t.cout);
        gammaGm_.SetGlobalBuffer((__gm__ float *)gamma, t.cout);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta, t.cout);
        yGm_.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(t.batch) * t.cout * t.oh * t.ow);
        wsGm_.SetGlobalBuffer((__gm__ float *)usrWs, static_cast<uint64_t>(t.usedCores) * stat2_);

        uint32_t ca = t.colAlign;
        pipe_.InitBuffer(rowQ_, NUM_BUF, ca * sizeof(float));
        pipe_.InitBuffer(outQ_, NUM_BUF, ca * sizeof(float));
        pipe_.InitBuffer(accB_, t.cout * ca * sizeof(float));
        pipe_.InitBuffer(t0B_, ca * sizeof(float));
        pipe_.InitBuffer(t1B_, ca * sizeof(float));
        pipe_.InitBuffer(workB_, ca * sizeof(float));
        pipe_.InitBuffer(wSliceB_, t.cout * t.tapStride * sizeof(float));
        pipe_.InitBuffer(chanB_, 5 * t.coutAlign * sizeof(float));
        pipe_.InitBuffer(statB_, stat2_ * sizeof(float));
        pipe_.InitBuffer(partB_, stat2_ * sizeof(float));
        pipe_.InitBuffer(redB_, 2 * t.coutAlign * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadChannelParams();
        LocalTensor<float> stat = statB_.Get<float>();
        Duplicate(stat, 0.0f, stat2_);
        SyncPipe<HardEvent::V_S>();

        for (uint32_t r = 0; r < rows_; ++r) {
            uint32_t row = row0_ + r;
            uint32_t b = row / t_.oh;
            uint32_t oy = row % t_.oh;
            for (uint32_t c0 = 0; c0 < t_.ow; c0 += t_.colTile) {
                uint32_t len = (t_.ow - c0) < t_.colTile ? (t_.ow - c0) : t_.colTile;
                ConvTile(b, oy, c0, len);
            }
        }

        PublishPartials();
        SyncAll<true>();
        ReduceStatistics();
        Normalise();
    }

private:
    template <HardEvent EV>
    __aicore__ inline void SyncPipe()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
        SetFlag<EV>(e);
        WaitFlag<EV>(e);
    }

    __aicore__ inline void LoadVec(const LocalTensor<float> &dst, const GlobalTensor<float> &src, uint32_t cnt)
    {
        DataCopyExtParams p{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(dst, src, p, pad);
    }

    // chan layout: [bias | gamma | beta | scale | shift], each coutAlign long
    __aicore__ inline void LoadChannelParams()
    {
        LocalTensor<float> ch = chanB_.Get<float>();
        uint32_t ca = t_.coutAlign;
        LoadVec(ch, biasGm_, t_.cout);
        LoadVec(ch[ca], gammaGm_, t_.cout);
        LoadVec(ch[2 * ca], betaGm_, t_.cout);
        SyncPipe<HardEvent::MTE2_S>();
        SyncPipe<HardEvent::MTE2_V>();
    }

    // weight[:, ic, :, :] -> UB rows of tapStride floats
    __aicore__ inline void LoadWeightSlice(uint32_t ic)
    {
        uint32_t taps = t_.kh * t_.kw;
        LocalTensor<float> ws = wSliceB_.Get<float>();
        DataCopyExtParams p{static_cast<uint16_t>(t_.cout), static_cast<uint32_t>(taps * sizeof(float)),
                            static_cast<uint32_t>((t_.cin - 1) * taps * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(ws, wGm_[static_cast<uint64_t>(ic) * taps], p, pad);
        SyncPipe<HardEvent::MTE2_S>();
    }

    __aicore__ inline void ConvTile(uint32_t b, uint32_t oy, uint32_t c0, uint32_t len)
    {
        const uint32_t ca = t_.colAlign;
        LocalTensor<float> acc = accB_.Get<float>();
        LocalTensor<float> ch = chanB_.Get<float>();
        LocalTensor<float> ws = wSliceB_.Get<float>();
        for (uint32_t oc = 0; oc < t_.cout; ++oc) {
            Duplicate(acc[oc * ca], ch.GetValue(oc), ca);
        }
        for (uint32_t ic = 0; ic < t_.cin; ++ic) {
            LoadWeightSlice(ic);
            for (uint32_t ky = 0; ky < t_.kh; ++ky) {
                uint64_t src = ((static_cast<uint64_t>(b) * t_.cin + ic) * t_.height + oy + ky) * t_.width + c0;
                for (uint32_t kx = 0; kx < t_.kw; ++kx) {
                    LocalTensor<float> rin = rowQ_.AllocTensor<float>();
                    DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
                    DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                    DataCopyPad(rin, xGm_[src + kx], p, pad);
                    rowQ_.EnQue(rin);
                    LocalTensor<float> xr = rowQ_.DeQue<float>();
                    uint32_t tap = ky * t_.kw + kx;
                    for (uint32_t oc = 0; oc < t_.cout; ++oc) {
                        Axpy(acc[oc * ca], xr, ws.GetValue(oc * t_.tapStride + tap), ca);
                    }
                    rowQ_.FreeTensor(xr);
                }
            }
            // weight slice is overwritten by the next ic: vector reads of scalars are
            // already captured, but keep MTE2 behind outstanding vector work
            SyncPipe<HardEvent::V_MTE2>();
        }

        LocalTensor<float> red = redB_.Get<float>();
        LocalTensor<float> work = workB_.Get<float>();
        LocalTensor<float> sq = t1B_.Get<float>();
        for (uint32_t oc = 0; oc < t_.cout; ++oc) {
            LocalTensor<float> o = outQ_.AllocTensor<float>();
            Activation(o, acc[oc * ca]);
            ReduceSum(red[oc * 8], o, work, static_cast<int32_t>(len));
            Mul(sq, o, o, len);
            ReduceSum(red[(t_.coutAlign + oc) * 8], sq, work, static_cast<int32_t>(len));
            outQ_.EnQue(o);
            LocalTensor<float> od = outQ_.DeQue<float>();
            uint64_t dst = ((static_cast<uint64_t>(b) * t_.cout + oc) * t_.oh + oy) * t_.ow + c0;
            DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm_[dst], od, p);
            outQ_.FreeTensor(od);
        }
        SyncPipe<HardEvent::V_S>();
        LocalTensor<float> stat = statB_.Get<float>();
        for (uint32_t oc = 0; oc < t_.cout; ++oc) {
            stat.SetValue(oc, stat.GetValue(oc) + red.GetValue(oc * 8));
            uint32_t q = t_.coutAlign + oc;
            stat.SetValue(q, stat.GetValue(q) + red.GetValue(q * 8));
        }
        SyncPipe<HardEvent::S_V>();
    }

    // dst = v * tanh(softplus(v)), tanh(softplus(v)) = (1 - r) / (1 + r), r = (1 + e^v)^-2
    __aicore__ inline void Activation(const LocalTensor<float> &dst, const LocalTensor<float> &v)
    {
        const uint32_t ca = t_.colAlign;
        LocalTensor<float> e = t0B_.Get<float>();
        LocalTensor<float> d = t1B_.Get<float>();
        Mins(e, v, SOFTPLUS_LIMIT, ca);
        Exp(e, e, ca);
        Adds(e, e, 1.0f, ca);
        Mul(e, e, e, ca);
        Duplicate(d, 1.0f, ca);
        Div(e, d, e, ca);             // r
        Adds(d, e, 1.0f, ca);         // 1 + r
        Muls(e, e, -1.0f, ca);
        Adds(e, e, 1.0f, ca);         // 1 - r
        Div(e, e, d, ca);
        Mul(dst, v, e, ca);
    }

    __aicore__ inline void PublishPartials()
    {
        LocalTensor<float> stat = statB_.Get<float>();
        SyncPipe<HardEvent::S_MTE3>();
        SyncPipe<HardEvent::V_MTE3>();
        DataCopyExtParams p{1, static_cast<uint32_t>(stat2_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(wsGm_[static_cast<uint64_t>(core_) * stat2_], stat, p);
        SyncPipe<HardEvent::MTE3_MTE2>();
    }

    __aicore__ inline void ReduceStatistics()
    {
        LocalTensor<float> stat = statB_.Get<float>();
        LocalTensor<float> part = partB_.Get<float>();
        LocalTensor<float> ch = chanB_.Get<float>();
        const uint32_t ca = t_.coutAlign;

        SyncPipe<HardEvent::S_V>();
        Duplicate(stat, 0.0f, stat2_);
        for (uint32_t c = 0; c < t_.usedCores; ++c) {
            SyncPipe<HardEvent::V_MTE2>();
            LoadVec(part, wsGm_[static_cast<uint64_t>(c) * stat2_], stat2_);
            SyncPipe<HardEvent::MTE2_V>();
            Add(stat, stat, part, stat2_);
        }
        LocalTensor<float> mean = stat;
        LocalTensor<float> ex2 = stat[ca];
        LocalTensor<float> gamma = ch[ca];
        LocalTensor<float> beta = ch[2 * ca];
        LocalTensor<float> scale = ch[3 * ca];
        LocalTensor<float> shift = ch[4 * ca];
        Muls(mean, mean, t_.invCount, ca);
        Muls(ex2, ex2, t_.invCount, ca);
        Mul(scale, mean, mean, ca);
        Sub(ex2, ex2, scale, ca);                 // biased variance
        Maxs(ex2, ex2, 0.0f, ca);
        Adds(ex2, ex2, t_.epsilon, ca);
        Sqrt(ex2, ex2, ca);
        Div(scale, gamma, ex2, ca);               // gamma / sqrt(var + eps)
        Mul(shift, mean, scale, ca);
        Sub(shift, beta, shift, ca);              // beta - mean * scale
        SyncPipe<HardEvent::V_S>();
    }

    __aicore__ inline void Normalise()
    {
        LocalTensor<float> buf = accB_.Get<float>();
        LocalTensor<float> ch = chanB_.Get<float>();
        const uint32_t ca = t_.coutAlign;
        const uint32_t chunk = t_.normChunk;
        uint32_t done = 0;
        while (done < rows_) {
            uint32_t row = row0_ + done;
            uint32_t b = row / t_.oh;
            uint32_t oy = row % t_.oh;
            uint32_t cnt = t_.oh - oy;
            if (cnt > rows_ - done) {
                cnt = rows_ - done;
            }
            uint32_t total = cnt * t_.ow;   // contiguous per (b, oc)
            for (uint32_t oc = 0; oc < t_.cout; ++oc) {
                float sc = ch.GetValue(3 * ca + oc);
                float sh = ch.GetValue(4 * ca + oc);
                uint64_t base = ((static_cast<uint64_t>(b) * t_.cout + oc) * t_.oh + oy) * t_.ow;
                for (uint32_t off = 0; off < total; off += chunk) {
                    uint32_t n = (total - off) < chunk ? (total - off) : chunk;
                    SyncPipe<HardEvent::MTE3_MTE2>();
                    LoadVec(buf, yGm_[base + off], n);
                    SyncPipe<HardEvent::MTE2_V>();
                    Muls(buf, buf, sc, n);
                    Adds(buf, buf, sh, n);
                    SyncPipe<HardEvent::V_MTE3>();
                    DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
                    DataCopyPad(yGm_[base + off], buf, p);
                }
            }
            done += cnt;
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, NUM_BUF> rowQ_;
    TQue<QuePosition::VECOUT, NUM_BUF> outQ_;
    TBuf<TPosition::VECCALC> accB_, t0B_, t1B_, workB_, wSliceB_, chanB_, statB_, partB_, redB_;

    GlobalTensor<float> xGm_, wGm_, biasGm_, gammaGm_, betaGm_, yGm_, wsGm_;
    ConvMishBatchNormTilingData t_;
    uint32_t core_ = 0, rows_ = 0, row0_ = 0, stat2_ = 0;
};

extern "C" __global__ __aicore__ void conv_mish_batchnorm(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                          GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    ConvMishBatchNormKernel op;
    op.Init(x, weight, bias, gamma, beta, y, usr, tilingData);
    op.Process();
}
