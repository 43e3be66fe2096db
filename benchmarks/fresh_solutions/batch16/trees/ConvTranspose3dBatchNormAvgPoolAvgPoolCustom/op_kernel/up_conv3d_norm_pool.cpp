/*
 * UpConv3dNormPool
 *   z = conv_transpose3d(x, weight, bias, stride, padding)
 *   z = batch_norm(z) using the statistics of this batch (biased variance), then gamma/beta
 *   y = avg_pool(avg_pool(z, 2), 2)            == mean over 4x4x4 windows (floor mode)
 *
 * Batch norm is a per-channel affine map, so it commutes with mean pooling:
 * phase 1 writes the pooled raw conv output to y while accumulating the
 * per-channel sum / sum of squares of the *full* conv output; after a global
 * barrier phase 2 rescales the pooled values in place.
 *
 * Transposed conv in H/W is done as an ordinary correlation over a zero-inserted
 * input plane with a flipped kernel. To keep every vector operand 32B aligned
 * we hold K copies of that plane, copy j pre-shifted left by j columns.
 */
#include "kernel_operator.h"

using namespace AscendC;

class UpConv3dNormPoolKernel {
public:
    __aicore__ inline UpConv3dNormPoolKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                GM_ADDR usrWs, const UpConv3dNormPoolTilingData &t)
    {
        td = t;
        core = GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        gGm.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm.SetGlobalBuffer((__gm__ float *)beta);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        statGm.SetGlobalBuffer((__gm__ float *)usrWs, (uint64_t)td.coreNum * td.statStride);

        dilPlane = td.dilH * td.dilWAlign;
        convPlane = td.outH * td.outWAlign;
        const uint32_t xPlane = ((td.inH * td.inW) + 7) / 8 * 8;

        pipe.InitBuffer(xBuf, xPlane * sizeof(float));
        pipe.InitBuffer(dilBuf, td.ksize * dilPlane * sizeof(float));
        pipe.InitBuffer(convBuf, convPlane * sizeof(float));
        pipe.InitBuffer(sqBuf, convPlane * sizeof(float));
        pipe.InitBuffer(redBuf, convPlane * sizeof(float));
        pipe.InitBuffer(hAccBuf, td.poolH * td.outWAlign * sizeof(float) + 32);
        pipe.InitBuffer(poolBuf, td.poolH * td.poolWAlign * sizeof(float) + 32);
        pipe.InitBuffer(statBuf, td.statStride * sizeof(float));
        pipe.InitBuffer(outQue, 1, td.poolH * td.poolWAlign * sizeof(float) + 32);
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> stat = statBuf.Get<float>();
        Duplicate(stat, 0.0f, td.statStride);
        // the zero-inserted planes only ever get the same positions rewritten
        Duplicate(dilBuf.Get<float>(), 0.0f, td.ksize * dilPlane);
        PipeBarrier<PIPE_ALL>();

        for (uint32_t task = core; task < td.taskNum; task += td.coreNum) {
            ConvPoolTask(task);
        }

        // publish this core's partial statistics
        PipeBarrier<PIPE_ALL>();
        DataCopy(statGm[(uint64_t)core * td.statStride], stat, td.statStride);
        PipeBarrier<PIPE_ALL>();
        SyncAll();

        Normalize();
    }

private:
    __aicore__ inline void ConvPoolTask(uint32_t task)
    {
        const uint32_t g = task % td.depthGroups;
        const uint32_t co = (task / td.depthGroups) % td.cout;
        const uint32_t nb = task / (td.depthGroups * td.cout);

        LocalTensor<float> hAcc = hAccBuf.Get<float>();
        Duplicate(hAcc, 0.0f, td.poolH * td.outWAlign);

        float chSum = 0.0f;
        float chSq = 0.0f;
        const uint32_t odEnd = (g * 4 + 4) < td.outD ? (g * 4 + 4) : td.outD;
        for (uint32_t od = g * 4; od < odEnd; ++od) {
            LocalTensor<float> conv = convBuf.Get<float>();
            ConvPlane(nb, co, od, conv);

            // statistics over the full plane (row padding is zero)
            LocalTensor<float> sq = sqBuf.Get<float>();
            LocalTensor<float> red = redBuf.Get<float>();
            Mul(sq, conv, conv, convPlane);
            ReduceSum(red, conv, red, convPlane);
            PipeBarrier<PIPE_ALL>();
            chSum += red.GetValue(0);
            ReduceSum(red, sq, red, convPlane);
            PipeBarrier<PIPE_ALL>();
            chSq += red.GetValue(0);

            if (g < td.poolD) {
                // vertical part of the pooling window: add 4 rows into each pooled row
                for (uint32_t ph = 0; ph < td.poolH; ++ph) {
                    for (uint32_t r = 0; r < 4; ++r) {
                        Add(hAcc[ph * td.outWAlign], hAcc[ph * td.outWAlign],
                            conv[(ph * 4 + r) * td.outWAlign], td.outWAlign);
                    }
                }
            }
        }

        LocalTensor<float> stat = statBuf.Get<float>();
        stat.SetValue(2 * co, stat.GetValue(2 * co) + chSum);
        stat.SetValue(2 * co + 1, stat.GetValue(2 * co + 1) + chSq);

        if (g >= td.poolD) {
            return;   // tail planes only feed the statistics
        }

        // horizontal part of the window, scalar: the pooled plane is tiny
        PipeBarrier<PIPE_ALL>();
        LocalTensor<float> pooled = outQue.AllocTensor<float>();
        const float inv = 1.0f / 64.0f;
        for (uint32_t ph = 0; ph < td.poolH; ++ph) {
            for (uint32_t pw = 0; pw < td.poolW; ++pw) {
                const uint32_t base = ph * td.outWAlign + pw * 4;
                float s = hAcc.GetValue(base) + hAcc.GetValue(base + 1) + hAcc.GetValue(base + 2) +
                          hAcc.GetValue(base + 3);
                pooled.SetValue(ph * td.poolWAlign + pw, s * inv);
            }
        }
        outQue.EnQue(pooled);
        pooled = outQue.DeQue<float>();
        const uint64_t yOff = PooledOffset(nb, co, g);
        DataCopyExtParams cp{(uint16_t)td.poolH, (uint32_t)(td.poolW * sizeof(float)),
                             (uint32_t)((td.poolWAlign - td.poolW) * sizeof(float) / 32), 0, 0};
        DataCopyPad(yGm[yOff], pooled, cp);
        outQue.FreeTensor(pooled);
    }

    // One output depth slice of the transposed conv for batch nb, channel co.
    __aicore__ inline void ConvPlane(uint32_t nb, uint32_t co, uint32_t od, LocalTensor<float> &conv)
    {
        const uint32_t K = td.ksize;
        const uint32_t S = td.stride;
        const uint32_t edge = K - 1 - td.pad;
        Duplicate(conv, 0.0f, convPlane);

        for (uint32_t ci = 0; ci < td.cin; ++ci) {
            for (uint32_t kd = 0; kd < K; ++kd) {
                const int32_t t = (int32_t)od + (int32_t)td.pad - (int32_t)kd;
                if (t < 0 || (t % (int32_t)S) != 0 || (uint32_t)(t / (int32_t)S) >= td.inD) {
                    continue;
                }
                const uint32_t id = (uint32_t)t / S;
                BuildDilated(nb, ci, id);

                LocalTensor<float> dil = dilBuf.Get<float>();
                const uint64_t wBase = ((((uint64_t)ci * td.cout + co) * K + kd) * K) * K;
                for (uint32_t kh = 0; kh < K; ++kh) {
                    for (uint32_t kw = 0; kw < K; ++kw) {
                        // flipped tap for the correlation form
                        const float wv = wGm.GetValue(wBase + (K - 1 - kh) * K + (K - 1 - kw));
                        const uint32_t shiftBase = kw * dilPlane;
                        for (uint32_t oh = 0; oh < td.outH; ++oh) {
                            Axpy(conv[oh * td.outWAlign], dil[shiftBase + (oh + kh) * td.dilWAlign], wv,
                                 td.outW);
                        }
                    }
                }
                PipeBarrier<PIPE_V>();
            }
        }
        // bias, only on the valid columns so the padding stays zero
        const float bv = bGm.GetValue(co);
        for (uint32_t oh = 0; oh < td.outH; ++oh) {
            Adds(conv[oh * td.outWAlign], conv[oh * td.outWAlign], bv, td.outW);
        }
        PipeBarrier<PIPE_V>();
        (void)edge;
    }

    // Scatter x[nb, ci, id] into the K column-shifted zero-inserted planes.
    __aicore__ inline void BuildDilated(uint32_t nb, uint32_t ci, uint32_t id)
    {
        const uint32_t K = td.ksize;
        const uint32_t S = td.stride;
        const uint32_t edge = K - 1 - td.pad;
        const uint32_t hw = td.inH * td.inW;
        const uint64_t src = (((uint64_t)nb * td.cin + ci) * td.inD + id) * hw;

        LocalTensor<float> xl = xBuf.Get<float>();
        PipeBarrier<PIPE_ALL>();   // previous Axpy reads of dil must be finished
        DataCopyPad(xl, xGm[src], DataCopyExtParams{1, (uint32_t)(hw * sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();

        LocalTensor<float> dil = dilBuf.Get<float>();
        for (uint32_t ih = 0; ih < td.inH; ++ih) {
            const uint32_t row = edge + ih * S;
            for (uint32_t iw = 0; iw < td.inW; ++iw) {
                const float v = xl.GetValue(ih * td.inW + iw);
                const uint32_t col = edge + iw * S;
                for (uint32_t j = 0; j < K && j <= col; ++j) {
                    dil.SetValue(j * dilPlane + row * td.dilWAlign + (col - j), v);
                }
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline uint64_t PooledOffset(uint32_t nb, uint32_t co, uint32_t pd)
    {
        return ((((uint64_t)nb * td.cout + co) * td.poolD + pd) * td.poolH) * td.poolW;
    }

    __aicore__ inline void Normalize()
    {
        // gather every core's partial sums (small: coreNum x 2*Cout floats)
        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> part = sqBuf.Get<float>();
        Duplicate(stat, 0.0f, td.statStride);
        for (uint32_t c = 0; c < td.coreNum; ++c) {
            PipeBarrier<PIPE_ALL>();
            DataCopy(part, statGm[(uint64_t)c * td.statStride], td.statStride);
            PipeBarrier<PIPE_ALL>();
            Add(stat, stat, part, td.statStride);
        }
        PipeBarrier<PIPE_ALL>();

        const float count = (float)td.batch * td.outD * td.outH * td.outW;
        const uint32_t plane = td.poolH * td.poolW;
        DataCopyExtParams cp{1, (uint32_t)(plane * sizeof(float)), 0, 0, 0};

        for (uint32_t task = core; task < td.taskNum; task += td.coreNum) {
            const uint32_t g = task % td.depthGroups;
            if (g >= td.poolD) {
                continue;
            }
            const uint32_t co = (task / td.depthGroups) % td.cout;
            const uint32_t nb = task / (td.depthGroups * td.cout);

            const float mean = stat.GetValue(2 * co) / count;
            float var = stat.GetValue(2 * co + 1) / count - mean * mean;
            var = var > 0.0f ? var : 0.0f;
            // 1/sqrt on the scalar unit via a one-element vector op
            LocalTensor<float> red = redBuf.Get<float>();
            red.SetValue(0, var + td.eps);
            PipeBarrier<PIPE_ALL>();
            Rsqrt(red, red, 1);
            PipeBarrier<PIPE_ALL>();
            const float scale = red.GetValue(0) * gGm.GetValue(co);
            const float shift = betaGm.GetValue(co) - mean * scale;

            const uint64_t off = PooledOffset(nb, co, g);
            LocalTensor<float> v = outQue.AllocTensor<float>();
            DataCopyPad(v, yGm[off], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            PipeBarrier<PIPE_ALL>();
            Muls(v, v, scale, plane);
            Adds(v, v, shift, plane);
            outQue.EnQue(v);
            v = outQue.DeQue<float>();
            DataCopyPad(yGm[off], v, cp);
            outQue.FreeTensor(v);
        }
    }

    TPipe pipe;
    UpConv3dNormPoolTilingData td;
    uint32_t core = 0;
    uint32_t dilPlane = 0;
    uint32_t convPlane = 0;
    GlobalTensor<float> xGm, wGm, bGm, gGm, betaGm, yGm, statGm;
    TBuf<TPosition::VECCALC> xBuf, dilBuf, convBuf, sqBuf, redBuf, hAccBuf, poolBuf, statBuf;
    TQue<QuePosition::VECOUT, 1> outQue;
};

extern "C" __global__ __aicore__ void up_conv3d_norm_pool(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma,
                                                          GM_ADDR beta, GM_ADDR y, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    UpConv3dNormPoolKernel op;
    op.Init(x, weight, bias, gamma, beta, y, usrWs, td);
    op.Process();
}
