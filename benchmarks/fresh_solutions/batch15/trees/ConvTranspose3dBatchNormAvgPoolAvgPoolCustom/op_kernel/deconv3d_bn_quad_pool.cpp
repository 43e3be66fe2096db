/*
 * Deconv3dBnQuadPool kernel.
 *
 *   t   = conv_transpose3d(x, weight, bias, stride, padding)
 *   u   = batch_norm(t)   (batch statistics, affine gamma/beta)
 *   y   = avg_pool(avg_pool(u, 2), 2)
 *
 * Average pooling is linear and batch norm is a per-channel affine map, so
 *   y = gamma * (pool4(t) - mean) * rstd + beta
 * where pool4 is a 4x4x4 / stride 4 average. The kernel therefore
 *   1. computes t one depth slice at a time, accumulating sum / sum of squares
 *      of the channel and the 4x4x4 window sums, and stores the pooled t to y;
 *   2. once the whole channel has been seen, rewrites y with the affine map.
 * Each core owns whole output channels, so the statistics are core-local.
 */
#include "kernel_operator.h"

using namespace AscendC;

class Deconv3dBnQuadPoolKernel {
public:
    __aicore__ inline Deconv3dBnQuadPoolKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR y, const Deconv3dBnQuadPoolTilingData &t)
    {
        n_ = t.batch; cin_ = t.inChannels; cout_ = t.outChannels;
        d_ = t.inD; h_ = t.inH; w_ = t.inW;
        od_ = t.outD; oh_ = t.outH; ow_ = t.outW;
        pd_ = t.poolD; ph_ = t.poolH; pw_ = t.poolW;
        k_ = t.kernel; s_ = t.stride; p_ = t.pad; eps_ = t.eps;

        chBegin_ = GetBlockIdx() * t.chPerCore;
        chEnd_ = chBegin_ + t.chPerCore;
        if (chEnd_ > cout_) chEnd_ = cout_;

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)weight);
        bGm_.SetGlobalBuffer((__gm__ float *)bias);
        gGm_.SetGlobalBuffer((__gm__ float *)gamma);
        btGm_.SetGlobalBuffer((__gm__ float *)beta);
        yGm_.SetGlobalBuffer((__gm__ float *)y);

        sliceLen_ = h_ * w_;
        planeLen_ = oh_ * ow_;
        poolLen_ = ph_ * pw_;
        kVol_ = k_ * k_ * k_;

        pipe_.InitBuffer(inQ_, 1, Align(sliceLen_) * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, Align(pd_ * poolLen_) * sizeof(float));
        pipe_.InitBuffer(planeBuf_, Align(planeLen_) * sizeof(float));
        pipe_.InitBuffer(sqBuf_, Align(planeLen_) * sizeof(float));
        pipe_.InitBuffer(poolBuf_, Align(poolLen_) * sizeof(float));
        pipe_.InitBuffer(wBuf_, Align(cin_ * kVol_) * sizeof(float));
        pipe_.InitBuffer(redBuf_, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t co = chBegin_; co < chEnd_; ++co) {
            LoadChannelWeights(co);
            float sum = 0.0f;
            float sumSq = 0.0f;
            float b = bGm_.GetValue(co);
            for (uint32_t ni = 0; ni < n_; ++ni) {
                AccumulateSample(ni, co, b, sum, sumSq);
            }
            float count = static_cast<float>(n_) * od_ * oh_ * ow_;
            float mean = sum / count;
            float var = sumSq / count - mean * mean;
            if (var < 0.0f) var = 0.0f;
            float rstd = InvSqrt(var + eps_);
            float scale = gGm_.GetValue(co) * rstd;
            float shift = btGm_.GetValue(co) - mean * scale;
            // y was written by this core with MTE3; make sure it landed before reading back
            PipeBarrier<PIPE_ALL>();
            NormalizeChannel(co, scale, shift);
        }
    }

private:
    __aicore__ inline uint32_t Align(uint32_t v) { return (v + 7U) / 8U * 8U; }

    // scalar 1/sqrt via an 8-lane vector op
    __aicore__ inline float InvSqrt(float v)
    {
        LocalTensor<float> red = redBuf_.Get<float>();
        Duplicate(red, v, 8);
        Sqrt(red, red, 8);
        Duplicate(red[8], 1.0f, 8);
        Div(red, red[8], red, 8);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return red.GetValue(0);
    }

    __aicore__ inline void LoadChannelWeights(uint32_t co)
    {
        // weight(ci, co, kd, kh, kw) -> wLocal[ci * K^3 + ...]
        LocalTensor<float> wLocal = wBuf_.Get<float>();
        for (uint32_t ci = 0; ci < cin_; ++ci) {
            uint64_t base = (static_cast<uint64_t>(ci) * cout_ + co) * kVol_;
            for (uint32_t i = 0; i < kVol_; ++i) {
                wLocal.SetValue(ci * kVol_ + i, wGm_.GetValue(base + i));
            }
        }
    }

    __aicore__ inline void AccumulateSample(uint32_t ni, uint32_t co, float b, float &sum, float &sumSq)
    {
        LocalTensor<float> plane = planeBuf_.Get<float>();
        LocalTensor<float> sq = sqBuf_.Get<float>();
        LocalTensor<float> pool = poolBuf_.Get<float>();
        LocalTensor<float> red = redBuf_.Get<float>();
        const float inv64 = 1.0f / 64.0f;

        for (uint32_t pdIdx = 0; pdIdx <= pd_; ++pdIdx) {
            // the last iteration covers leftover depth slices that are dropped by
            // pooling but still belong to the batch statistics
            uint32_t dBegin = pdIdx * 4;
            uint32_t dEnd = (pdIdx == pd_) ? od_ : dBegin + 4;
            if (dBegin >= dEnd) break;
            bool pooled = pdIdx < pd_;
            if (pooled) Duplicate(pool, 0.0f, poolLen_);

            for (uint32_t odIdx = dBegin; odIdx < dEnd; ++odIdx) {
                ComputeSlice(ni, odIdx, b, plane);

                ReduceSum(red, plane, sq, planeLen_);
                sum += red.GetValue(0);
                Mul(sq, plane, plane, planeLen_);
                ReduceSum(red, sq, sq, planeLen_);
                sumSq += red.GetValue(0);

                if (pooled) {
                    for (uint32_t py = 0; py < ph_; ++py) {
                        for (uint32_t px = 0; px < pw_; ++px) {
                            float acc = pool.GetValue(py * pw_ + px);
                            for (uint32_t dy = 0; dy < 4; ++dy) {
                                uint32_t row = (py * 4 + dy) * ow_ + px * 4;
                                acc += plane.GetValue(row) + plane.GetValue(row + 1) +
                                       plane.GetValue(row + 2) + plane.GetValue(row + 3);
                            }
                            pool.SetValue(py * pw_ + px, acc);
                        }
                    }
                }
            }

            if (pooled) {
                LocalTensor<float> out = outQ_.AllocTensor<float>();
                Muls(out, pool, inv64, poolLen_);
                outQ_.EnQue(out);
                out = outQ_.DeQue<float>();
                uint64_t dst = ((static_cast<uint64_t>(ni) * cout_ + co) * pd_ + pdIdx) * poolLen_;
                DataCopyExtParams cp{1, static_cast<uint32_t>(poolLen_ * sizeof(float)), 0, 0, 0};
                DataCopyPad(yGm_[dst], out, cp);
                outQ_.FreeTensor(out);
            }
        }
    }

    // one output depth slice of the transposed convolution (gather formulation)
    __aicore__ inline void ComputeSlice(uint32_t ni, uint32_t odIdx, float b, LocalTensor<float> &plane)
    {
        LocalTensor<float> wLocal = wBuf_.Get<float>();
        Duplicate(plane, b, planeLen_);
        for (uint32_t ci = 0; ci < cin_; ++ci) {
            for (uint32_t kd = 0; kd < k_; ++kd) {
                int32_t tz = static_cast<int32_t>(odIdx + p_) - static_cast<int32_t>(kd);
                if (tz < 0 || tz % static_cast<int32_t>(s_) != 0) continue;
                uint32_t id = static_cast<uint32_t>(tz) / s_;
                if (id >= d_) continue;

                LocalTensor<float> in = inQ_.AllocTensor<float>();
                uint64_t src = ((static_cast<uint64_t>(ni) * cin_ + ci) * d_ + id) * sliceLen_;
                DataCopyExtParams cp{1, static_cast<uint32_t>(sliceLen_ * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                DataCopyPad(in, xGm_[src], cp, pad);
                inQ_.EnQue(in);
                in = inQ_.DeQue<float>();

                const uint32_t wBase = ci * kVol_ + kd * k_ * k_;
                for (uint32_t oy = 0; oy < oh_; ++oy) {
                    for (uint32_t kh = 0; kh < k_; ++kh) {
                        int32_t ty = static_cast<int32_t>(oy + p_) - static_cast<int32_t>(kh);
                        if (ty < 0 || ty % static_cast<int32_t>(s_) != 0) continue;
                        uint32_t iy = static_cast<uint32_t>(ty) / s_;
                        if (iy >= h_) continue;
                        for (uint32_t ox = 0; ox < ow_; ++ox) {
                            float acc = plane.GetValue(oy * ow_ + ox);
                            for (uint32_t kw = 0; kw < k_; ++kw) {
                                int32_t tx = static_cast<int32_t>(ox + p_) - static_cast<int32_t>(kw);
                                if (tx < 0 || tx % static_cast<int32_t>(s_) != 0) continue;
                                uint32_t ix = static_cast<uint32_t>(tx) / s_;
                                if (ix >= w_) continue;
                                acc += in.GetValue(iy * w_ + ix) * wLocal.GetValue(wBase + kh * k_ + kw);
                            }
                            plane.SetValue(oy * ow_ + ox, acc);
                        }
                    }
                }
                inQ_.FreeTensor(in);
            }
        }
    }

    __aicore__ inline void NormalizeChannel(uint32_t co, float scale, float shift)
    {
        const uint32_t len = pd_ * poolLen_;
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t ni = 0; ni < n_; ++ni) {
            uint64_t off = (static_cast<uint64_t>(ni) * cout_ + co) * len;
            LocalTensor<float> buf = outQ_.AllocTensor<float>();
            DataCopyPad(buf, yGm_[off], cp, pad);
            outQ_.EnQue(buf);
            buf = outQ_.DeQue<float>();
            Muls(buf, buf, scale, len);
            Adds(buf, buf, shift, len);
            PipeBarrier<PIPE_V>();
            event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_MTE3));
            SetFlag<HardEvent::V_MTE3>(ev);
            WaitFlag<HardEvent::V_MTE3>(ev);
            DataCopyPad(yGm_[off], buf, cp);
            outQ_.FreeTensor(buf);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> inQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<TPosition::VECCALC> planeBuf_, sqBuf_, poolBuf_, wBuf_, redBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, gGm_, btGm_, yGm_;

    uint32_t n_, cin_, cout_, d_, h_, w_;
    uint32_t od_, oh_, ow_, pd_, ph_, pw_;
    uint32_t k_, s_, p_;
    uint32_t sliceLen_, planeLen_, poolLen_, kVol_;
    uint32_t chBegin_, chEnd_;
    float eps_;
};

extern "C" __global__ __aicore__ void deconv3d_bn_quad_pool(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                             GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Deconv3dBnQuadPoolKernel op;
    op.Init(x, weight, bias, gamma, beta, y, tilingData);
    op.Process();
}
