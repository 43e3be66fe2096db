/*
 * Deconv2dMishClipScale
 *   t = conv_transpose2d(x, weight, bias, stride, padding, output_padding)
 *   y = clamp(mish(t) + add_value, clip_min, clip_max) * scale
 *
 * Work unit = (n, output row oy, block of output channels). For a fixed kernel
 * column kw, output column ox reads input column (ox + pad - kw) / stride when
 * that division is exact. Those indices are precomputed once per kernel column
 * as byte-offset tables, so each input row is turned into a "stride-expanded,
 * shifted" row with a single Gather (invalid taps point at a zero slot). The
 * expanded row is then accumulated into every output channel with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

class Deconv2dMishClipScaleKernel {
public:
    __aicore__ inline Deconv2dMishClipScaleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const Deconv2dMishClipScaleTilingData &td)
    {
        t_ = td;
        xG.SetGlobalBuffer((__gm__ float *)x);
        wG.SetGlobalBuffer((__gm__ float *)w);
        bG.SetGlobalBuffer((__gm__ float *)b);
        yG.SetGlobalBuffer((__gm__ float *)y);

        const uint32_t blockLen = t_.coTile * t_.owAlign;
        pipe.InitBuffer(rowQ, 2, t_.iwAlign * sizeof(float));
        pipe.InitBuffer(outQ, 1, blockLen * sizeof(float));
        pipe.InitBuffer(tableBuf, t_.ksize * t_.owAlign * sizeof(uint32_t));
        pipe.InitBuffer(expBuf, t_.owAlign * sizeof(float));
        pipe.InitBuffer(accBuf, blockLen * sizeof(float));
        pipe.InitBuffer(scratchA, blockLen * sizeof(float));
        pipe.InitBuffer(scratchB, blockLen * sizeof(float));

        BuildTables();

        uint32_t cores = GetBlockNum();
        uint32_t per = (t_.totalUnits + cores - 1) / cores;
        first = GetBlockIdx() * per;
        last = first + per;
        if (last > t_.totalUnits) last = t_.totalUnits;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = first; u < last; ++u) {
            uint32_t cb = u % t_.coTiles;
            uint32_t rowId = u / t_.coTiles;
            uint32_t oy = rowId % t_.oh;
            uint32_t n = rowId / t_.oh;
            uint32_t co0 = cb * t_.coTile;
            uint32_t coCnt = (t_.cout - co0 < t_.coTile) ? t_.cout - co0 : t_.coTile;

            AccumulateRow(n, oy, co0, coCnt);
            Epilogue(coCnt, co0);
            Store(n, oy, co0, coCnt);
        }
    }

private:
    __aicore__ inline void BuildTables()
    {
        LocalTensor<uint32_t> tab = tableBuf.Get<uint32_t>();
        const int32_t s = static_cast<int32_t>(t_.stride);
        const uint32_t zeroSlot = t_.iw * sizeof(float);
        for (uint32_t kw = 0; kw < t_.ksize; ++kw) {
            for (uint32_t ox = 0; ox < t_.owAlign; ++ox) {
                int32_t tap = static_cast<int32_t>(ox + t_.pad) - static_cast<int32_t>(kw);
                uint32_t off = zeroSlot;
                if (ox < t_.ow && tap >= 0 && tap % s == 0 && static_cast<uint32_t>(tap / s) < t_.iw) {
                    off = static_cast<uint32_t>(tap / s) * sizeof(float);
                }
                tab.SetValue(kw * t_.owAlign + ox, off);
            }
        }
    }

    __aicore__ inline void AccumulateRow(uint32_t n, uint32_t oy, uint32_t co0, uint32_t coCnt)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> expanded = expBuf.Get<float>();
        LocalTensor<uint32_t> tab = tableBuf.Get<uint32_t>();
        Duplicate(acc, 0.0f, coCnt * t_.owAlign);

        const int32_t s = static_cast<int32_t>(t_.stride);
        const uint32_t kk = t_.ksize * t_.ksize;
        for (uint32_t ci = 0; ci < t_.cin; ++ci) {
            for (uint32_t kh = 0; kh < t_.ksize; ++kh) {
                int32_t tap = static_cast<int32_t>(oy + t_.pad) - static_cast<int32_t>(kh);
                if (tap < 0 || tap % s != 0) continue;
                uint32_t iy = static_cast<uint32_t>(tap / s);
                if (iy >= t_.ih) continue;

                // stage input row x[n, ci, iy, :] followed by a zero slot
                LocalTensor<float> row = rowQ.AllocTensor<float>();
                uint64_t src = ((static_cast<uint64_t>(n) * t_.cin + ci) * t_.ih + iy) * t_.iw;
                DataCopyExtParams cp{1, static_cast<uint32_t>(t_.iw * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                DataCopyPad(row, xG[src], cp, pad);
                rowQ.EnQue(row);
                row = rowQ.DeQue<float>();
                event_t evVS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
                SetFlag<HardEvent::V_S>(evVS);
                WaitFlag<HardEvent::V_S>(evVS);
                row.SetValue(t_.iw, 0.0f);
                event_t evSV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
                SetFlag<HardEvent::S_V>(evSV);
                WaitFlag<HardEvent::S_V>(evSV);

                for (uint32_t kw = 0; kw < t_.ksize; ++kw) {
                    Gather(expanded, row, tab[kw * t_.owAlign], 0U, t_.owAlign);
                    PipeBarrier<PIPE_V>();
                    uint64_t wIdx = (static_cast<uint64_t>(ci) * t_.cout + co0) * kk + kh * t_.ksize + kw;
                    for (uint32_t c = 0; c < coCnt; ++c) {
                        float wv = wG.GetValue(wIdx + static_cast<uint64_t>(c) * kk);
                        Axpy(acc[c * t_.owAlign], expanded, wv, t_.owAlign);
                    }
                    PipeBarrier<PIPE_V>();
                }
                rowQ.FreeTensor(row);
            }
        }
    }

    __aicore__ inline void Epilogue(uint32_t coCnt, uint32_t co0)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> ex = scratchA.Get<float>();
        LocalTensor<float> den = scratchB.Get<float>();
        const uint32_t len = coCnt * t_.owAlign;

        for (uint32_t c = 0; c < coCnt; ++c) {
            Adds(acc[c * t_.owAlign], acc[c * t_.owAlign], bG.GetValue(co0 + c), t_.owAlign);
        }
        PipeBarrier<PIPE_V>();

        // mish(v) = v * ((1+e^v)^2 - 1) / ((1+e^v)^2 + 1)
        Mins(ex, acc, 20.0f, len);
        Exp(ex, ex, len);
        Adds(ex, ex, 1.0f, len);
        Mul(ex, ex, ex, len);
        Adds(den, ex, 1.0f, len);
        Adds(ex, ex, -1.0f, len);
        Div(ex, ex, den, len);

        LocalTensor<float> out = outQ.AllocTensor<float>();
        Mul(out, acc, ex, len);
        Adds(out, out, t_.addValue, len);
        Maxs(out, out, t_.clipMin, len);
        Mins(out, out, t_.clipMax, len);
        Muls(out, out, t_.scale, len);
        outQ.EnQue(out);
    }

    __aicore__ inline void Store(uint32_t n, uint32_t oy, uint32_t co0, uint32_t coCnt)
    {
        LocalTensor<float> out = outQ.DeQue<float>();
        const uint64_t plane = static_cast<uint64_t>(t_.oh) * t_.ow;
        uint64_t dst = (static_cast<uint64_t>(n) * t_.cout + co0) * plane + static_cast<uint64_t>(oy) * t_.ow;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(coCnt);
        cp.blockLen = t_.ow * sizeof(float);
        cp.srcStride = 0;  // UB rows are already 32 B aligned (owAlign)
        cp.dstStride = static_cast<uint32_t>((plane - t_.ow) * sizeof(float));
        cp.rsv = 0;
        DataCopyPad(yG[dst], out, cp);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tableBuf, expBuf, accBuf, scratchA, scratchB;
    GlobalTensor<float> xG, wG, bG, yG;
    Deconv2dMishClipScaleTilingData t_;
    uint32_t first = 0, last = 0;
};

extern "C" __global__ __aicore__ void deconv2d_mish_clip_scale(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Deconv2dMishClipScaleKernel k;
    k.Init(x, weight, bias, y, td);
    k.Process();
}
