/*
 * Conv2dCapBiasScale kernel (stride 1, symmetric zero padding, NCHW).
 *
 *   y[n, o, i, j] = (min(sum_{c,u,v} x[n, c, i+u-p, j+v-p] * w[o, c, u, v] + b0[o], cap) + b1[o]) * scale
 *
 * A work unit computes one output row for a tile of output channels. For every
 * (input channel c, kernel row u) the K horizontally shifted copies of input row
 * i+u-p are fetched once into UB ("taps"), and every channel of the tile folds them
 * into its fp32 row accumulator with Axpy. The left zero padding is produced by the
 * DMA pad feature so every vector operand stays 32-byte aligned.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class Conv2dCapBiasScaleKernel {
    static constexpr int32_t SLOTS = 2;

public:
    __aicore__ inline Conv2dCapBiasScaleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b0, GM_ADDR b1, GM_ADDR y,
                                const Conv2dCapBiasScaleTilingData &td)
    {
        cfg = td;
        xG.SetGlobalBuffer((__gm__ T *)x);
        wG.SetGlobalBuffer((__gm__ T *)w);
        b0G.SetGlobalBuffer((__gm__ T *)b0);
        b1G.SetGlobalBuffer((__gm__ T *)b1);
        yG.SetGlobalBuffer((__gm__ T *)y);

        const uint32_t pitch = cfg.rowStride;
        pipe.InitBuffer(tapQ, SLOTS, cfg.ksize * pitch * sizeof(T));
        pipe.InitBuffer(outQ, SLOTS, pitch * sizeof(T));
        pipe.InitBuffer(wideBuf, cfg.ksize * pitch * sizeof(float));
        pipe.InitBuffer(accBuf, cfg.ocTile * pitch * sizeof(float));
        pipe.InitBuffer(epiBuf, pitch * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t unit = GetBlockIdx(); unit < cfg.totalUnits; unit += cfg.coreNum) {
            uint32_t row = unit % cfg.outH;
            uint32_t tileIdx = (unit / cfg.outH) % cfg.ocTiles;
            uint32_t img = unit / (cfg.outH * cfg.ocTiles);
            uint32_t oc0 = tileIdx * cfg.ocTile;
            uint32_t ocCnt = cfg.outC - oc0 < cfg.ocTile ? cfg.outC - oc0 : cfg.ocTile;

            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, ocCnt * cfg.rowStride);
            PipeBarrier<PIPE_V>();

            for (uint32_t u = 0; u < cfg.ksize; ++u) {
                int32_t ih = (int32_t)row + (int32_t)u - (int32_t)cfg.pad;
                if (ih < 0 || ih >= (int32_t)cfg.inH) {
                    continue;   // whole kernel row lies in the zero padding
                }
                for (uint32_t c = 0; c < cfg.inC; ++c) {
                    uint64_t rowBase = (((uint64_t)img * cfg.inC + c) * cfg.inH + (uint32_t)ih) * cfg.inW;
                    LoadTaps(rowBase);
                    Accumulate(acc, oc0, ocCnt, c, u);
                }
            }

            for (uint32_t k = 0; k < ocCnt; ++k) {
                Finish(acc[k * cfg.rowStride], img, oc0 + k, row);
            }
        }
    }

private:
    // valid output columns for tap v: [lo, hi), first source column lo + v - pad
    __aicore__ inline void TapRange(uint32_t v, int32_t &lo, int32_t &hi)
    {
        int32_t shift = (int32_t)v - (int32_t)cfg.pad;
        lo = shift < 0 ? -shift : 0;
        hi = (int32_t)cfg.inW - shift;
        if (hi > (int32_t)cfg.outW) {
            hi = (int32_t)cfg.outW;
        }
    }

    __aicore__ inline void LoadTaps(uint64_t rowBase)
    {
        LocalTensor<T> taps = tapQ.AllocTensor<T>();
        for (uint32_t v = 0; v < cfg.ksize; ++v) {
            int32_t lo, hi;
            TapRange(v, lo, hi);
            if (hi <= lo) {
                continue;
            }
            DataCopyExtParams cp{1, (uint32_t)((hi - lo) * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> padCfg{lo > 0, (uint8_t)lo, 0, (T)0};
            DataCopyPad(taps[v * cfg.rowStride], xG[rowBase + (uint64_t)(lo + (int32_t)v - (int32_t)cfg.pad)], cp,
                        padCfg);
        }
        tapQ.EnQue(taps);
    }

    __aicore__ inline void Accumulate(LocalTensor<float> &acc, uint32_t oc0, uint32_t ocCnt, uint32_t c, uint32_t u)
    {
        LocalTensor<T> taps = tapQ.DeQue<T>();
        LocalTensor<float> src;
        if constexpr (std::is_same<T, float>::value) {
            src = taps;
        } else {
            src = wideBuf.Get<float>();
            Cast(src, taps, RoundMode::CAST_NONE, cfg.ksize * cfg.rowStride);
            PipeBarrier<PIPE_V>();
        }
        const uint32_t kk = cfg.ksize * cfg.ksize;
        for (uint32_t k = 0; k < ocCnt; ++k) {
            // weight layout (O, C, K, K)
            uint64_t wOff = ((uint64_t)(oc0 + k) * cfg.inC + c) * kk + u * cfg.ksize;
            LocalTensor<float> dst = acc[k * cfg.rowStride];
            for (uint32_t v = 0; v < cfg.ksize; ++v) {
                int32_t lo, hi;
                TapRange(v, lo, hi);
                if (hi <= lo) {
                    continue;
                }
                Axpy(dst, src[v * cfg.rowStride], (float)wG.GetValue(wOff + v), (uint32_t)hi);
                PipeBarrier<PIPE_V>();
            }
        }
        tapQ.FreeTensor(taps);
    }

    __aicore__ inline void Finish(const LocalTensor<float> &accRow, uint32_t img, uint32_t oc, uint32_t row)
    {
        const uint32_t len = cfg.outW;
        LocalTensor<float> v = epiBuf.Get<float>();
        Adds(v, accRow, (float)b0G.GetValue(oc), len);
        PipeBarrier<PIPE_V>();
        Mins(v, v, cfg.cap, len);
        PipeBarrier<PIPE_V>();
        Adds(v, v, (float)b1G.GetValue(oc), len);
        PipeBarrier<PIPE_V>();

        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            Muls(out, v, cfg.scale, len);
        } else {
            Muls(v, v, cfg.scale, len);
            PipeBarrier<PIPE_V>();
            Cast(out, v, RoundMode::CAST_ROUND, len);
        }
        outQ.EnQue(out);

        out = outQ.DeQue<T>();
        uint64_t dst = (((uint64_t)img * cfg.outC + oc) * cfg.outH + row) * cfg.outW;
        DataCopyExtParams cp{1, (uint32_t)(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yG[dst], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, SLOTS> tapQ;
    TQue<QuePosition::VECOUT, SLOTS> outQ;
    TBuf<TPosition::VECCALC> wideBuf, accBuf, epiBuf;
    GlobalTensor<T> xG, wG, b0G, b1G, yG;
    Conv2dCapBiasScaleTilingData cfg;
};

extern "C" __global__ __aicore__ void conv2d_cap_bias_scale(GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias,
                                                            GM_ADDR channel_bias, GM_ADDR y, GM_ADDR workspace,
                                                            GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Conv2dCapBiasScaleKernel<DTYPE_X> op;
    op.Init(x, weight, conv_bias, channel_bias, y, td);
    op.Process();
}
