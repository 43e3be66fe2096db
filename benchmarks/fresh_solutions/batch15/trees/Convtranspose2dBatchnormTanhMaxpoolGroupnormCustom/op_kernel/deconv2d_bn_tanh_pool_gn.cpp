/*
 * Deconv2dBnTanhPoolGn
 *   t = conv_transpose2d(x, weight, bias, stride, padding)
 *   u = tanh(batch_norm(t))            batch statistics per channel
 *   p = max_pool2d(u, 2, 2)
 *   y = group_norm(p, num_groups)
 *
 * Phase A (cores own channel blocks): transposed conv for every sample of the
 *   block, raw result to workspace, channel sums for the batch statistics.
 * Phase B (same ownership): BN affine + tanh + 2x2 max pooling, pooled values
 *   go to y, per (sample, channel) sums of the pooled values to workspace.
 * SyncAll.
 * Phase C (cores own (sample, group) pairs): group statistics from the partial
 *   sums, in-place normalization of y.
 *
 * Conv rows are produced with Gather: for kernel column kw a table maps each
 * output column to the byte offset of its input column inside a staged input
 * row (or to a zero slot), so zero insertion and padding cost nothing.
 */
#include "kernel_operator.h"

using namespace AscendC;

class Deconv2dBnTanhPoolGnKernel {
public:
    __aicore__ inline Deconv2dBnTanhPoolGnKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR bnG, GM_ADDR bnB,
                                GM_ADDR gnG, GM_ADDR gnB, GM_ADDR y, GM_ADDR ws,
                                const Deconv2dBnTanhPoolGnTilingData &td)
    {
        T = td;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        biasGm.SetGlobalBuffer((__gm__ float *)bias);
        bnGGm.SetGlobalBuffer((__gm__ float *)bnG);
        bnBGm.SetGlobalBuffer((__gm__ float *)bnB);
        gnGGm.SetGlobalBuffer((__gm__ float *)gnG);
        gnBGm.SetGlobalBuffer((__gm__ float *)gnB);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        rawGm.SetGlobalBuffer((__gm__ float *)ws);
        statGm.SetGlobalBuffer((__gm__ float *)ws + T.statsOffset);

        planeLen = T.oh * T.owPitch;
        pwPitch = (T.pw + 7) / 8 * 8;
        c0 = GetBlockIdx() * T.chPerCore;
        c1 = c0 + T.chPerCore;
        if (c1 > T.cout) c1 = T.cout;
        if (c0 > T.cout) c0 = T.cout;

        pipe.InitBuffer(inQ, 1, T.h * T.wPitch * sizeof(float));
        pipe.InitBuffer(tabBuf, T.k * T.owPitch * sizeof(uint32_t));
        pipe.InitBuffer(rowBuf, T.owPitch * sizeof(float));
        pipe.InitBuffer(accBuf, T.chPerCore * planeLen * sizeof(float));
        pipe.InitBuffer(planeBuf, planeLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, planeLen * sizeof(float));
        pipe.InitBuffer(poolQ, 1, T.ph * pwPitch * sizeof(float));
        pipe.InitBuffer(halfBuf, 2 * T.owPitch * sizeof(float));
        pipe.InitBuffer(chStat, (4 * ((T.chPerCore + 7) / 8 * 8) + 64) * sizeof(float));
        pipe.InitBuffer(redBuf, 128 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (c0 < c1) {
            BuildTables();
            ConvAndMoments();
            ActivatePool();
        }
        SyncAll();
        GroupNormalize();
    }

private:
    __aicore__ inline void FullSync()
    {
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void BuildTables()
    {
        LocalTensor<uint32_t> tab = tabBuf.Get<uint32_t>();
        const int32_t s = static_cast<int32_t>(T.stride);
        for (uint32_t kw = 0; kw < T.k; ++kw) {
            for (uint32_t ox = 0; ox < T.owPitch; ++ox) {
                int32_t tap = static_cast<int32_t>(ox) + static_cast<int32_t>(T.pad) - static_cast<int32_t>(kw);
                uint32_t col = T.w;   // zero slot
                if (ox < T.ow && tap >= 0 && tap % s == 0 && static_cast<uint32_t>(tap / s) < T.w) {
                    col = static_cast<uint32_t>(tap / s);
                }
                tab.SetValue(kw * T.owPitch + ox, col * sizeof(float));
            }
        }
        // the staged input keeps its zero columns for the whole run
        LocalTensor<float> in = inQ.AllocTensor<float>();
        Duplicate(in, 0.0f, T.h * T.wPitch);
        inQ.FreeTensor(in);
        FullSync();
    }

    __aicore__ inline void ConvAndMoments()
    {
        const uint32_t nCh = c1 - c0;
        const uint32_t kk = T.k * T.k;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<uint32_t> tab = tabBuf.Get<uint32_t>();
        const uint32_t chAl = (nCh + 7) / 8 * 8;        // 32 B aligned section stride
        LocalTensor<float> st = chStat.Get<float>();   // [sum | sumsq | a | b], chAl each
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> scratch = tmpBuf.Get<float>();
        Duplicate(st, 0.0f, 2 * chAl);
        FullSync();

        const uint32_t alignedW = (T.w + 7) / 8 * 8;
        const float padLanes = static_cast<float>(T.oh) * (T.owPitch - T.ow);

        for (uint32_t n = 0; n < T.n; ++n) {
            for (uint32_t c = 0; c < nCh; ++c) {
                Duplicate(acc[c * planeLen], biasGm.GetValue(c0 + c), planeLen);
            }
            for (uint32_t ci = 0; ci < T.cin; ++ci) {
                LocalTensor<float> in = inQ.AllocTensor<float>();
                DataCopyExtParams cp;
                cp.blockCount = static_cast<uint16_t>(T.h);
                cp.blockLen = T.w * sizeof(float);
                cp.srcStride = 0;
                cp.dstStride = (T.wPitch - alignedW) / 8;
                cp.rsv = 0;
                DataCopyPadExtParams<float> zpad{true, 0, static_cast<uint8_t>(alignedW - T.w), 0.0f};
                DataCopyPad(in, xGm[(static_cast<uint64_t>(n) * T.cin + ci) * T.h * T.w], cp, zpad);
                inQ.EnQue(in);
                in = inQ.DeQue<float>();

                for (uint32_t iy = 0; iy < T.h; ++iy) {
                    for (uint32_t kw = 0; kw < T.k; ++kw) {
                        Gather(row, in, tab[kw * T.owPitch], iy * T.wPitch * static_cast<uint32_t>(sizeof(float)),
                               T.owPitch);
                        PipeBarrier<PIPE_V>();
                        for (uint32_t kh = 0; kh < T.k; ++kh) {
                            int32_t oy = static_cast<int32_t>(iy * T.stride + kh) - static_cast<int32_t>(T.pad);
                            if (oy < 0 || oy >= static_cast<int32_t>(T.oh)) continue;
                            for (uint32_t c = 0; c < nCh; ++c) {
                                uint64_t wi = (static_cast<uint64_t>(ci) * T.cout + c0 + c) * kk + kh * T.k + kw;
                                Axpy(acc[c * planeLen + oy * T.owPitch], row, wGm.GetValue(wi), T.owPitch);
                            }
                        }
                        PipeBarrier<PIPE_V>();
                    }
                }
                inQ.FreeTensor(in);
            }

            // moments (pad lanes hold exactly the bias and are removed) + raw store
            for (uint32_t c = 0; c < nCh; ++c) {
                LocalTensor<float> pl = acc[c * planeLen];
                float b = biasGm.GetValue(c0 + c);
                ReduceSum(red, pl, scratch, planeLen);
                Mul(scratch, pl, pl, planeLen);
                ReduceSum(red[8], scratch, scratch, planeLen);
                FullSync();
                st.SetValue(c, st.GetValue(c) + red.GetValue(0) - padLanes * b);
                st.SetValue(chAl + c, st.GetValue(chAl + c) + red.GetValue(8) - padLanes * b * b);

                DataCopyExtParams oc;
                oc.blockCount = static_cast<uint16_t>(T.oh);
                oc.blockLen = T.ow * sizeof(float);
                oc.srcStride = (T.owPitch - (T.ow + 7) / 8 * 8) / 8;
                oc.dstStride = 0;
                oc.rsv = 0;
                DataCopyPad(rawGm[(static_cast<uint64_t>(n) * T.cout + c0 + c) * T.oh * T.ow], pl, oc);
            }
            FullSync();
        }

        // BN affine per channel: a = gamma * rstd, b = beta - mean * a
        const float inv = 1.0f / (static_cast<float>(T.n) * T.oh * T.ow);
        for (uint32_t c = 0; c < nCh; ++c) {
            float mean = st.GetValue(c) * inv;
            float var = st.GetValue(chAl + c) * inv - mean * mean;
            st.SetValue(c, mean);
            st.SetValue(chAl + c, (var > 0.0f ? var : 0.0f) + T.bnEps);
        }
        FullSync();
        Sqrt(st[chAl], st[chAl], nCh);
        FullSync();
        for (uint32_t c = 0; c < nCh; ++c) {
            float a = bnGGm.GetValue(c0 + c) / st.GetValue(chAl + c);
            st.SetValue(2 * chAl + c, a);
            st.SetValue(3 * chAl + c, bnBGm.GetValue(c0 + c) - st.GetValue(c) * a);
        }
        FullSync();
    }

    __aicore__ inline void ActivatePool()
    {
        const uint32_t nCh = c1 - c0;
        const uint32_t chAl = (nCh + 7) / 8 * 8;
        LocalTensor<float> st = chStat.Get<float>();
        LocalTensor<float> pl = planeBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> halves = halfBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        const uint16_t rep = static_cast<uint16_t>((T.owPitch + 63) / 64);

        for (uint32_t n = 0; n < T.n; ++n) {
            for (uint32_t c = 0; c < nCh; ++c) {
                const uint32_t ch = c0 + c;
                DataCopyExtParams ic;
                ic.blockCount = static_cast<uint16_t>(T.oh);
                ic.blockLen = T.ow * sizeof(float);
                ic.srcStride = 0;
                ic.dstStride = (T.owPitch - (T.ow + 7) / 8 * 8) / 8;
                ic.rsv = 0;
                DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
                DataCopyPad(pl, rawGm[(static_cast<uint64_t>(n) * T.cout + ch) * T.oh * T.ow], ic, np);
                FullSync();

                // tanh(a*t + b) = 1 - 2 / (exp(2v) + 1)
                float a = st.GetValue(2 * chAl + c);
                float b = st.GetValue(3 * chAl + c);
                Muls(pl, pl, a, planeLen);
                Adds(pl, pl, b, planeLen);
                Mins(pl, pl, 15.0f, planeLen);
                Maxs(pl, pl, -15.0f, planeLen);
                Muls(tmp, pl, 2.0f, planeLen);
                Exp(tmp, tmp, planeLen);
                Adds(tmp, tmp, 1.0f, planeLen);
                Duplicate(pl, -2.0f, planeLen);
                Div(pl, pl, tmp, planeLen);
                Adds(pl, pl, 1.0f, planeLen);

                LocalTensor<float> pooled = poolQ.AllocTensor<float>();
                Duplicate(pooled, 0.0f, T.ph * pwPitch);
                for (uint32_t py = 0; py < T.ph; ++py) {
                    // vertical pair max, then even/odd lanes for the horizontal pair
                    Max(tmp, pl[(2 * py) * T.owPitch], pl[(2 * py + 1) * T.owPitch], T.owPitch);
                    PipeBarrier<PIPE_V>();
                    uint64_t kept = 0;
                    GatherMask(halves, tmp, static_cast<uint8_t>(1), false, 0U, {1, rep, 8, 0}, kept);
                    GatherMask(halves[T.owPitch], tmp, static_cast<uint8_t>(2), false, 0U, {1, rep, 8, 0}, kept);
                    PipeBarrier<PIPE_V>();
                    Max(pooled[py * pwPitch], halves, halves[T.owPitch], T.pw);
                    PipeBarrier<PIPE_V>();
                }

                // pooled moments for the group norm (zero pads do not contribute)
                ReduceSum(red, pooled, tmp, T.ph * pwPitch);
                Mul(tmp, pooled, pooled, T.ph * pwPitch);
                ReduceSum(red[8], tmp, tmp, T.ph * pwPitch);
                FullSync();
                red.SetValue(16, red.GetValue(0));
                red.SetValue(17, red.GetValue(8));
                FullSync();
                DataCopyExtParams sc{1, 2 * sizeof(float), 0, 0, 0};
                DataCopyPad(statGm[(static_cast<uint64_t>(n) * T.cout + ch) * 2], red[16], sc);

                poolQ.EnQue(pooled);
                pooled = poolQ.DeQue<float>();
                DataCopyExtParams pc;
                pc.blockCount = static_cast<uint16_t>(T.ph);
                pc.blockLen = T.pw * sizeof(float);
                pc.srcStride = 0;
                pc.dstStride = 0;
                pc.rsv = 0;
                DataCopyPad(yGm[(static_cast<uint64_t>(n) * T.cout + ch) * T.ph * T.pw], pooled, pc);
                poolQ.FreeTensor(pooled);
                FullSync();
            }
        }
    }

    __aicore__ inline void GroupNormalize()
    {
        const uint32_t cpg = T.cout / T.groups;
        const uint32_t units = T.n * T.groups;
        const uint32_t area = T.ph * T.pw;
        const float inv = 1.0f / (static_cast<float>(cpg) * area);
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> buf = planeBuf.Get<float>();
        LocalTensor<float> sums = tmpBuf.Get<float>();
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};

        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            const uint32_t n = u / T.groups;
            const uint32_t g = u % T.groups;
            const uint64_t chBase = static_cast<uint64_t>(n) * T.cout + g * cpg;

            DataCopyExtParams sc{1, static_cast<uint32_t>(2 * cpg * sizeof(float)), 0, 0, 0};
            DataCopyPad(sums, statGm[chBase * 2], sc, np);
            FullSync();
            float s1 = 0.0f, s2 = 0.0f;
            for (uint32_t c = 0; c < cpg; ++c) {
                s1 += sums.GetValue(2 * c);
                s2 += sums.GetValue(2 * c + 1);
            }
            float mean = s1 * inv;
            float var = s2 * inv - mean * mean;
            Duplicate(red, (var > 0.0f ? var : 0.0f) + T.gnEps, 8);
            Sqrt(red, red, 8);
            FullSync();
            float rstd = 1.0f / red.GetValue(0);

            for (uint32_t c = 0; c < cpg; ++c) {
                const uint32_t ch = g * cpg + c;
                const float A = rstd * gnGGm.GetValue(ch);
                const float B = gnBGm.GetValue(ch) - mean * A;
                const uint64_t off = (chBase + c) * area;
                DataCopyExtParams pc{1, static_cast<uint32_t>(area * sizeof(float)), 0, 0, 0};
                DataCopyPad(buf, yGm[off], pc, np);
                FullSync();
                Muls(buf, buf, A, area);
                Adds(buf, buf, B, area);
                FullSync();
                DataCopyPad(yGm[off], buf, pc);
                FullSync();
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> poolQ;
    TBuf<TPosition::VECCALC> tabBuf, rowBuf, accBuf, planeBuf, tmpBuf, halfBuf, chStat, redBuf;
    GlobalTensor<float> xGm, wGm, biasGm, bnGGm, bnBGm, gnGGm, gnBGm, yGm, rawGm, statGm;
    Deconv2dBnTanhPoolGnTilingData T;
    uint32_t planeLen = 0, pwPitch = 0, c0 = 0, c1 = 0;
};

extern "C" __global__ __aicore__ void deconv2d_bn_tanh_pool_gn(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                GM_ADDR bn_gamma, GM_ADDR bn_beta,
                                                                GM_ADDR gn_gamma, GM_ADDR gn_beta, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    Deconv2dBnTanhPoolGnKernel op;
    op.Init(x, weight, bias, bn_gamma, bn_beta, gn_gamma, gn_beta, y, usr, td);
    op.Process();
}
