/*
 * VolumeConvPoolLseRelu kernel.
 *
 * Work item = pooled output row (n, pd, ph). For the four conv rows (d, h) in
 * {2pd, 2pd+1} x {2ph, 2ph+1} the convolution of every output channel is accumulated at full
 * input resolution with shifted-row Axpy's, and folded with Max into `pooled`. Then:
 *   - stride / 2-wide W pooling picks columns,   - bias is added (commutes with max),
 *   - log-sum-exp over channels is done lane-wise along W, followed by ReLU.
 */
#include "kernel_operator.h"

using namespace AscendC;

class VolumeConvPoolLseReluKernel {
public:
    __aicore__ inline VolumeConvPoolLseReluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const VolumeConvPoolLseReluTilingData &td)
    {
        t = td;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        kkk = t.ksize * t.ksize * t.ksize;

        pipe.InitBuffer(rowBuf, t.rowLen * sizeof(float));
        pipe.InitBuffer(accBuf, t.cout * t.rowLen * sizeof(float));
        pipe.InitBuffer(poolBuf, t.cout * t.rowLen * sizeof(float));
        pipe.InitBuffer(chanBuf, t.cout * t.poolLen * sizeof(float));
        pipe.InitBuffer(lseBuf, 3 * t.poolLen * sizeof(float));
        pipe.InitBuffer(outQ, 2, t.poolLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t blk = GetBlockIdx();
        uint32_t cnt = t.itemsPerCore + (blk < t.itemsExtra ? 1 : 0);
        uint32_t first = blk * t.itemsPerCore + (blk < t.itemsExtra ? blk : t.itemsExtra);
        for (uint32_t i = 0; i < cnt; ++i) {
            DoItem(first + i);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t id = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    // input row (n, c, z, yy) shifted by dx columns into rowBuf, zeros outside [0, W)
    __aicore__ inline void LoadRow(uint64_t rowOff, int32_t dx)
    {
        LocalTensor<float> row = rowBuf.Get<float>();
        int32_t W = static_cast<int32_t>(t.inW);
        int32_t start = dx < 0 ? 0 : dx;
        int32_t lpad = dx < 0 ? -dx : 0;
        int32_t cnt = W - start;
        if (cnt <= 0) {
            Duplicate(row, 0.0f, t.rowLen);
            return;
        }
        int32_t used = lpad + cnt;
        uint8_t rpad = static_cast<uint8_t>((used + 7) / 8 * 8 - used);
        Duplicate(row, 0.0f, t.rowLen);
        Sync<HardEvent::V_MTE2>();
        DataCopyPad(row, xGm[rowOff + start], DataCopyExtParams{1, static_cast<uint32_t>(cnt) * 4u, 0, 0, 0},
                    DataCopyPadExtParams<float>{true, static_cast<uint8_t>(lpad), rpad, 0.0f});
        Sync<HardEvent::MTE2_V>();
    }

    // one conv output row (all channels) at full width into accBuf
    __aicore__ inline void ConvRow(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> row = rowBuf.Get<float>();
        const uint32_t R = t.rowLen, k = t.ksize;
        Duplicate(acc, 0.0f, t.cout * R);
        for (uint32_t c = 0; c < t.cin; ++c) {
            uint64_t chanOff = (static_cast<uint64_t>(n) * t.cin + c) * t.inD * t.inH * t.inW;
            for (uint32_t kd = 0; kd < k; ++kd) {
                int32_t iz = static_cast<int32_t>(od * t.stride + kd) - static_cast<int32_t>(t.pad);
                if (iz < 0 || iz >= static_cast<int32_t>(t.inD)) continue;
                for (uint32_t kh = 0; kh < k; ++kh) {
                    int32_t iy = static_cast<int32_t>(oh * t.stride + kh) - static_cast<int32_t>(t.pad);
                    if (iy < 0 || iy >= static_cast<int32_t>(t.inH)) continue;
                    uint64_t rowOff = chanOff + (static_cast<uint64_t>(iz) * t.inH + iy) * t.inW;
                    for (uint32_t kw = 0; kw < k; ++kw) {
                        LoadRow(rowOff, static_cast<int32_t>(kw) - static_cast<int32_t>(t.pad));
                        uint64_t wOff = static_cast<uint64_t>(c) * kkk + (kd * k + kh) * k + kw;
                        for (uint32_t o = 0; o < t.cout; ++o) {
                            float wv = wGm.GetValue(static_cast<uint64_t>(o) * t.cin * kkk + wOff);
                            Axpy(acc[o * R], row, wv, t.inW);
                        }
                    }
                }
            }
        }
    }

    __aicore__ inline void DoItem(uint32_t item)
    {
        uint32_t ph = item % t.poolH;
        uint32_t pd = (item / t.poolH) % t.poolD;
        uint32_t n = item / (t.poolH * t.poolD);
        const uint32_t R = t.rowLen, P = t.poolLen;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> pooled = poolBuf.Get<float>();

        // 2x2 window over (d, h)
        for (uint32_t q = 0; q < 4; ++q) {
            ConvRow(n, 2 * pd + (q >> 1), 2 * ph + (q & 1));
            if (q == 0) {
                Adds(pooled, acc, 0.0f, t.cout * R);
            } else {
                Max(pooled, pooled, acc, t.cout * R);
            }
        }

        // W pooling (pairs of conv columns, conv column j sits at full-res index j*stride) + bias
        LocalTensor<float> chan = chanBuf.Get<float>();
        Sync<HardEvent::V_S>();
        for (uint32_t o = 0; o < t.cout; ++o) {
            float bv = bGm.GetValue(o);
            for (uint32_t j = 0; j < t.poolW; ++j) {
                float a = pooled.GetValue(o * R + (2 * j) * t.stride);
                float b = pooled.GetValue(o * R + (2 * j + 1) * t.stride);
                chan.SetValue(o * P + j, (a > b ? a : b) + bv);
            }
        }
        Sync<HardEvent::S_V>();

        // lane-wise log-sum-exp over channels, then ReLU
        LocalTensor<float> lse = lseBuf.Get<float>();
        LocalTensor<float> mx = lse;
        LocalTensor<float> sum = lse[P];
        LocalTensor<float> tmp = lse[2 * P];
        const uint32_t L = t.poolW;
        Adds(mx, chan, 0.0f, L);
        for (uint32_t o = 1; o < t.cout; ++o) {
            Max(mx, mx, chan[o * P], L);
        }
        Duplicate(sum, 0.0f, P);
        for (uint32_t o = 0; o < t.cout; ++o) {
            Sub(tmp, chan[o * P], mx, L);
            Exp(tmp, tmp, L);
            Add(sum, sum, tmp, L);
        }
        LocalTensor<float> out = outQ.AllocTensor<float>();
        Ln(out, sum, L);
        Add(out, out, mx, L);
        Relu(out, out, L);
        outQ.EnQue(out);
        out = outQ.DeQue<float>();
        uint64_t yOff = ((static_cast<uint64_t>(n) * t.poolD + pd) * t.poolH + ph) * t.poolW;
        DataCopyPad(yGm[yOff], out, DataCopyExtParams{1, L * 4u, 0, 0, 0});
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> rowBuf, accBuf, poolBuf, chanBuf, lseBuf;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    VolumeConvPoolLseReluTilingData t;
    uint32_t kkk = 0;
};

extern "C" __global__ __aicore__ void volume_conv_pool_lse_relu(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    VolumeConvPoolLseReluKernel op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
