/*
 * Deconv3dRowNormPoolGelu
 * A unit of work is one pooled output row (n, co, pd_idx, ph_idx).  It needs poolD*poolH
 * rows of the transposed-convolution output; each of those is produced by scattering input
 * rows through the kernel (scalar unit, strided taps), then post-processed on the vector
 * unit: + bias + addend, LayerNorm over W, summed into the pooling accumulator.
 * Finally the W-direction pooling and GELU are applied and the row is written out.
 */
#include "kernel_operator.h"
using namespace AscendC;

class Deconv3dRowNormPoolGeluKernel {
public:
    __aicore__ inline Deconv3dRowNormPoolGeluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR g, GM_ADDR be, GM_ADDR y,
                                const Deconv3dRowNormPoolGeluTilingData& tiling)
    {
        tt = tiling;
        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        bGm.SetGlobalBuffer((__gm__ float*)b, tt.co);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        GlobalTensor<float> gGm, beGm;
        gGm.SetGlobalBuffer((__gm__ float*)g, tt.wOut);
        beGm.SetGlobalBuffer((__gm__ float*)be, tt.wOut);

        pipe.InitBuffer(xQ, 2, tt.wInAlign * sizeof(float));
        pipe.InitBuffer(yQ, 2, tt.wPoolAlign * sizeof(float));
        pipe.InitBuffer(rowB, tt.wOutAlign * sizeof(float));
        pipe.InitBuffer(poolB, tt.wOutAlign * sizeof(float));
        pipe.InitBuffer(gammaB, tt.wOutAlign * sizeof(float));
        pipe.InitBuffer(betaB, tt.wOutAlign * sizeof(float));
        pipe.InitBuffer(tmpB, (tt.wOutAlign + 64) * sizeof(float));

        DataCopyExtParams cp{1, (uint32_t)(tt.wOut * sizeof(float)), 0, 0, 0};
        DataCopyPad(gammaB.Get<float>(), gGm, cp, {false, 0, 0, 0.0f});
        DataCopyPad(betaB.Get<float>(), beGm, cp, {false, 0, 0, 0.0f});
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = GetBlockIdx(); u < tt.units; u += GetBlockNum()) {
            uint32_t hp = u % tt.hPool;
            uint32_t dp = (u / tt.hPool) % tt.dPool;
            uint32_t c = (u / (tt.hPool * tt.dPool)) % tt.co;
            uint32_t n = u / (tt.hPool * tt.dPool * tt.co);

            LocalTensor<float> pool = poolB.Get<float>();
            Duplicate(pool, 0.0f, tt.wOutAlign);
            PipeBarrier<PIPE_V>();
            for (uint32_t a = 0; a < tt.poolD; ++a) {
                for (uint32_t r = 0; r < tt.poolH; ++r) {
                    DeconvRow(n, c, dp * tt.poolD + a, hp * tt.poolH + r);
                    NormalizeInto(pool);
                }
            }
            PoolGeluStore(pool, n, c, dp, hp);
        }
    }

private:
    // row[ow] = sum over (ci, kd, kh, kw) of x * w, where od = id*s - p + kd etc.
    __aicore__ inline void DeconvRow(uint32_t n, uint32_t c, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> row = rowB.Get<float>();
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float init = bGm.GetValue(c) + tt.addend;
        for (uint32_t i = 0; i < tt.wOut; ++i) {
            row.SetValue(i, init);
        }
        const uint64_t kVol = (uint64_t)tt.kd * tt.kh * tt.kw;
        DataCopyExtParams cp{1, (uint32_t)(tt.wi * sizeof(float)), 0, 0, 0};

        for (uint32_t a = 0; a < tt.kd; ++a) {
            int32_t tD = (int32_t)od + (int32_t)tt.pd - (int32_t)a;
            if (tD < 0 || tD % (int32_t)tt.sd != 0 || tD / (int32_t)tt.sd >= (int32_t)tt.di) {
                continue;
            }
            uint32_t id = tD / tt.sd;
            for (uint32_t r = 0; r < tt.kh; ++r) {
                int32_t tH = (int32_t)oh + (int32_t)tt.ph - (int32_t)r;
                if (tH < 0 || tH % (int32_t)tt.sh != 0 || tH / (int32_t)tt.sh >= (int32_t)tt.hi) {
                    continue;
                }
                uint32_t ih = tH / tt.sh;
                for (uint32_t ic = 0; ic < tt.ci; ++ic) {
                    uint64_t src = ((((uint64_t)n * tt.ci + ic) * tt.di + id) * tt.hi + ih) * tt.wi;
                    LocalTensor<float> xr = xQ.AllocTensor<float>();
                    DataCopyPad(xr, xGm[src], cp, {false, 0, 0, 0.0f});
                    xQ.EnQue(xr);
                    xr = xQ.DeQue<float>();
                    // the taps are applied by the scalar unit: wait for the DMA itself
                    event_t ms = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
                    SetFlag<HardEvent::MTE2_S>(ms);
                    WaitFlag<HardEvent::MTE2_S>(ms);
                    uint64_t wBase = (((uint64_t)ic * tt.co + c) * kVol) + ((uint64_t)a * tt.kh + r) * tt.kw;
                    for (uint32_t q = 0; q < tt.kw; ++q) {
                        float wv = wGm.GetValue(wBase + q);
                        // ow = iw * sw - pw + q
                        for (uint32_t iw = 0; iw < tt.wi; ++iw) {
                            int32_t ow = (int32_t)(iw * tt.sw + q) - (int32_t)tt.pw;
                            if (ow >= 0 && ow < (int32_t)tt.wOut) {
                                row.SetValue(ow, row.GetValue(ow) + xr.GetValue(iw) * wv);
                            }
                        }
                    }
                    xQ.FreeTensor(xr);
                }
            }
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    // pool += gamma * (row - mean) / sqrt(var + eps) + beta
    __aicore__ inline void NormalizeInto(const LocalTensor<float>& pool)
    {
        const uint32_t L = tt.wOut;
        LocalTensor<float> row = rowB.Get<float>();
        LocalTensor<float> tmp = tmpB.Get<float>();
        LocalTensor<float> red = tmp[tt.wOutAlign];
        ReduceSum<float>(red, row, tmp, L);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float mean = red.GetValue(0) / (float)L;
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Adds(row, row, -mean, L);
        PipeBarrier<PIPE_V>();
        Mul(tmp, row, row, L);
        PipeBarrier<PIPE_V>();
        ReduceSum<float>(red, tmp, tmp, L);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float rstd = 1.0f / sqrt(red.GetValue(0) / (float)L + tt.eps);
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Muls(row, row, rstd, L);
        PipeBarrier<PIPE_V>();
        Mul(row, row, gammaB.Get<float>(), L);
        PipeBarrier<PIPE_V>();
        Add(row, row, betaB.Get<float>(), L);
        PipeBarrier<PIPE_V>();
        Add(pool, pool, row, L);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void PoolGeluStore(const LocalTensor<float>& pool, uint32_t n, uint32_t c, uint32_t dp, uint32_t hp)
    {
        const uint32_t P = tt.wPool;
        LocalTensor<float> o = yQ.AllocTensor<float>();
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float inv = 1.0f / (float)(tt.poolD * tt.poolH * tt.poolW);
        for (uint32_t j = 0; j < P; ++j) {
            float s = 0.0f;
            for (uint32_t k = 0; k < tt.poolW; ++k) {
                s += pool.GetValue(j * tt.poolW + k);
            }
            o.SetValue(j, s * inv);
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);

        // gelu(v) ~= v * sigmoid(1.5957691 * (v + 0.044715 v^3))
        LocalTensor<float> t = tmpB.Get<float>();
        Mul(t, o, o, P);
        PipeBarrier<PIPE_V>();
        Muls(t, t, 0.044715f, P);
        PipeBarrier<PIPE_V>();
        Adds(t, t, 1.0f, P);
        PipeBarrier<PIPE_V>();
        Mul(t, t, o, P);
        PipeBarrier<PIPE_V>();
        Muls(t, t, -1.5957691f, P);
        PipeBarrier<PIPE_V>();
        Exp(t, t, P);
        PipeBarrier<PIPE_V>();
        Adds(t, t, 1.0f, P);
        PipeBarrier<PIPE_V>();
        Div(o, o, t, P);
        yQ.EnQue(o);
        o = yQ.DeQue<float>();
        uint64_t dst = ((((uint64_t)n * tt.co + c) * tt.dPool + dp) * tt.hPool + hp) * P;
        DataCopyPad(yGm[dst], o, {1, (uint32_t)(P * sizeof(float)), 0, 0, 0});
        yQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> xQ;
    TQue<QuePosition::VECOUT, 2> yQ;
    TBuf<TPosition::VECCALC> rowB, poolB, gammaB, betaB, tmpB;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    Deconv3dRowNormPoolGeluTilingData tt;
};

extern "C" __global__ __aicore__ void deconv3d_row_norm_pool_gelu(GM_ADDR x, GM_ADDR filter, GM_ADDR bias,
                                                                  GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Deconv3dRowNormPoolGeluKernel op;
    op.Init(x, filter, bias, gamma, beta, y, td);
    op.Process();
}
