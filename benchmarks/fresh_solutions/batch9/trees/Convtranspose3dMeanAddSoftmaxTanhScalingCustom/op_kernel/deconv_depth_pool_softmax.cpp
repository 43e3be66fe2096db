/*
 * DeconvDepthPoolSoftmax
 *   t = conv_transpose3d(x, weight, conv_bias)   stride 1, symmetric padding
 *   t = mean over depth (kept as size-1 axis) + channel_bias
 *   y = scale * tanh(softmax over channels(t))
 *
 * The depth mean is linear, so it is pushed through the deconvolution:
 *   mean_od t[co, od] = sum_{ci, kd} S_kd[ci] (*) w[ci, co, kd]  + conv_bias
 *   S_kd[ci, ih, iw] = (1/Dout) * sum over the input depths id whose tap kd lands
 *                      inside [0, Dout)  (od = id - pad + kd)
 * Phase 1 writes S to the workspace, phase 2 runs a 2-D transposed conv over S per
 * output row and finishes the channel softmax / tanh / scale in registers of UB.
 */
#include "kernel_operator.h"

using namespace AscendC;

class DeconvDepthPoolSoftmaxKernel {
public:
    __aicore__ inline DeconvDepthPoolSoftmaxKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR cb, GM_ADDR chb, GM_ADDR y, GM_ADDR ws,
                                const DeconvDepthPoolSoftmaxTiling &tiling)
    {
        t = tiling;
        k3 = t.k * t.k * t.k;
        hw = t.h * t.w;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        convBiasGm.SetGlobalBuffer((__gm__ float *)cb);
        chanBiasGm.SetGlobalBuffer((__gm__ float *)chb);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        sGm.SetGlobalBuffer((__gm__ float *)ws);
    }

    __aicore__ inline void Process()
    {
        CollapseDepth();
        SyncAll();
        pipe.Reset();
        PlanarDeconvSoftmax();
    }

private:
    template <HardEvent E>
    __aicore__ inline void Wait()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    // ---------------- phase 1: depth sums ----------------
    __aicore__ inline void CollapseDepth()
    {
        uint32_t chunk = t.planeChunk;
        pipe.InitBuffer(xIn, 2, chunk * sizeof(float));
        pipe.InitBuffer(sOut, 2, chunk * sizeof(float));
        float invD = 1.0f / static_cast<float>(t.dOut);

        for (uint32_t unit = GetBlockIdx(); unit < t.n * t.cin; unit += GetBlockNum()) {
            uint32_t nb = unit / t.cin;
            uint32_t ci = unit % t.cin;
            uint64_t xBase = (static_cast<uint64_t>(nb) * t.cin + ci) * t.d * hw;
            for (uint32_t off = 0; off < hw; off += chunk) {
                uint32_t len = (hw - off) < chunk ? (hw - off) : chunk;
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
                for (uint32_t kd = 0; kd < t.k; ++kd) {
                    // od = id - pad + kd must lie in [0, dOut)
                    int32_t lo = static_cast<int32_t>(t.pad) - static_cast<int32_t>(kd);
                    int32_t hi = static_cast<int32_t>(t.dOut + t.pad) - static_cast<int32_t>(kd);
                    lo = lo < 0 ? 0 : lo;
                    hi = hi > static_cast<int32_t>(t.d) ? static_cast<int32_t>(t.d) : hi;

                    LocalTensor<float> acc = sOut.AllocTensor<float>();
                    Duplicate(acc, 0.0f, len);
                    for (int32_t id = lo; id < hi; ++id) {
                        LocalTensor<float> xl = xIn.AllocTensor<float>();
                        DataCopyPad(xl, xGm[xBase + static_cast<uint64_t>(id) * hw + off], cp, {false, 0, 0, 0.0f});
                        xIn.EnQue(xl);
                        xl = xIn.DeQue<float>();
                        Add(acc, acc, xl, len);
                        xIn.FreeTensor(xl);
                    }
                    Muls(acc, acc, invD, len);
                    sOut.EnQue(acc);
                    acc = sOut.DeQue<float>();
                    uint64_t sOff = ((static_cast<uint64_t>(nb) * t.k + kd) * t.cin + ci) * hw + off;
                    DataCopyPad(sGm[sOff], acc, cp);
                    sOut.FreeTensor(acc);
                }
            }
        }
    }

    // ---------------- phase 2: 2-D deconv + channel softmax ----------------
    __aicore__ inline void PlanarDeconvSoftmax()
    {
        uint32_t P = t.pitch;
        pipe.InitBuffer(accBuf, t.cout * P * sizeof(float));
        pipe.InitBuffer(rowBuf, t.k * P * sizeof(float));
        pipe.InitBuffer(wBuf, ((t.cout * k3 + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(mxBuf, P * sizeof(float));
        pipe.InitBuffer(sumBuf, P * sizeof(float));
        pipe.InitBuffer(biasBuf, ((t.cout + 7) / 8 * 8) * sizeof(float));

        // folded bias per channel
        LocalTensor<float> bias = biasBuf.Get<float>();
        for (uint32_t c = 0; c < t.cout; ++c) {
            bias.SetValue(c, convBiasGm.GetValue(c) + chanBiasGm.GetValue(c));
        }
        LocalTensor<float> rows = rowBuf.Get<float>();
        Duplicate(rows, 0.0f, t.k * P);  // column gaps of the shifted rows stay zero

        for (uint32_t r = GetBlockIdx(); r < t.n * t.hOut; r += GetBlockNum()) {
            ComputeRow(r / t.hOut, r % t.hOut);
        }
    }

    __aicore__ inline void ComputeRow(uint32_t nb, uint32_t oh)
    {
        uint32_t P = t.pitch;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> rows = rowBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        Duplicate(acc, 0.0f, t.cout * P);

        for (uint32_t ci = 0; ci < t.cin; ++ci) {
            Wait<HardEvent::V_MTE2>();
            DataCopyPad(wl, wGm[static_cast<uint64_t>(ci) * t.cout * k3],
                        {1, static_cast<uint32_t>(t.cout * k3 * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0.0f});
            Wait<HardEvent::MTE2_S>();
            for (uint32_t kd = 0; kd < t.k; ++kd) {
                for (uint32_t kh = 0; kh < t.k; ++kh) {
                    int32_t ih = static_cast<int32_t>(oh + t.pad) - static_cast<int32_t>(kh);
                    if (ih < 0 || ih >= static_cast<int32_t>(t.h)) {
                        continue;
                    }
                    uint64_t sRow = (((static_cast<uint64_t>(nb) * t.k + kd) * t.cin + ci) * t.h + ih) * t.w;
                    LoadShiftedRows(sRow);
                    for (uint32_t co = 0; co < t.cout; ++co) {
                        for (uint32_t kw = 0; kw < t.k; ++kw) {
                            float wv = wl.GetValue(co * k3 + (kd * t.k + kh) * t.k + kw);
                            Axpy(acc[co * P], rows[kw * P], wv, t.wOut);
                        }
                    }
                }
            }
        }
        Epilogue(nb, oh);
    }

    // rows[kw][ow] = S[ow + pad - kw], zero where that index leaves [0, W)
    __aicore__ inline void LoadShiftedRows(uint64_t sRow)
    {
        LocalTensor<float> rows = rowBuf.Get<float>();
        Wait<HardEvent::V_MTE2>();
        for (uint32_t kw = 0; kw < t.k; ++kw) {
            int32_t shift = static_cast<int32_t>(kw) - static_cast<int32_t>(t.pad);
            uint32_t lead = shift > 0 ? shift : 0;            // zeros in front
            uint32_t srcStart = shift < 0 ? -shift : 0;       // skipped input columns
            uint32_t len = t.w - srcStart;
            if (lead + len > t.wOut) {
                len = t.wOut - lead;
            }
            uint32_t used = lead + len;
            uint8_t tail = static_cast<uint8_t>((used + 7) / 8 * 8 - used);
            DataCopyPad(rows[kw * t.pitch], sGm[sRow + srcStart],
                        {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0},
                        {true, static_cast<uint8_t>(lead), tail, 0.0f});
        }
        Wait<HardEvent::MTE2_V>();
    }

    __aicore__ inline void Epilogue(uint32_t nb, uint32_t oh)
    {
        uint32_t P = t.pitch;
        uint32_t W = t.wOut;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> mx = mxBuf.Get<float>();
        LocalTensor<float> sm = sumBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();

        for (uint32_t co = 0; co < t.cout; ++co) {
            Adds(acc[co * P], acc[co * P], bias.GetValue(co), W);
        }
        // softmax over channels is element-wise across the channel rows
        DataCopy(mx, acc, P);
        for (uint32_t co = 1; co < t.cout; ++co) {
            Max(mx, mx, acc[co * P], W);
        }
        Duplicate(sm, 0.0f, W);
        for (uint32_t co = 0; co < t.cout; ++co) {
            Sub(acc[co * P], acc[co * P], mx, W);
            Exp(acc[co * P], acc[co * P], W);
            Add(sm, sm, acc[co * P], W);
        }
        Duplicate(mx, 1.0f, W);
        Div(sm, mx, sm, W);  // 1 / sum
        for (uint32_t co = 0; co < t.cout; ++co) {
            Mul(acc[co * P], acc[co * P], sm, W);
            Tanh(acc[co * P], acc[co * P], W);
            Muls(acc[co * P], acc[co * P], t.scaling, W);
        }

        Wait<HardEvent::V_MTE3>();
        uint64_t dst = (static_cast<uint64_t>(nb) * t.cout * t.hOut + oh) * W;
        DataCopyPad(yGm[dst], acc,
                    {static_cast<uint16_t>(t.cout), static_cast<uint32_t>(W * sizeof(float)), 0,
                     static_cast<uint32_t>((t.hOut - 1) * W * sizeof(float)), 0});
        Wait<HardEvent::MTE3_V>();
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> xIn;
    TQue<QuePosition::VECOUT, 2> sOut;
    TBuf<TPosition::VECCALC> accBuf, rowBuf, wBuf, mxBuf, sumBuf, biasBuf;
    GlobalTensor<float> xGm, wGm, convBiasGm, chanBiasGm, yGm, sGm;
    DeconvDepthPoolSoftmaxTiling t;
    uint32_t k3 = 0, hw = 0;
};

extern "C" __global__ __aicore__ void deconv_depth_pool_softmax(GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias,
                                                                GM_ADDR channel_bias, GM_ADDR y, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DeconvDepthPoolSoftmaxKernel op;
    op.Init(x, weight, conv_bias, channel_bias, y, GetUserWorkspace(workspace), td);
    op.Process();
}
