// y = gelu(clamp(leaky_relu(conv3d(x, w) + bias) + shift[c], lo, hi))
// Valid 3-D convolution, stride 1, computed on the vector unit:
//   one output row (n, od, oh) x width tile at a time; every kernel tap (ci, kd, kh, kw)
//   is staged as its own shifted input row so each tap is a single aligned Axpy.
#include "kernel_operator.h"

using namespace AscendC;

constexpr float GELU_K = -1.5957691216057308f;   // -2*sqrt(2/pi)
constexpr float GELU_C = 0.044715f;

class VolumeConvLeakyClampGeluKernel {
public:
    __aicore__ inline VolumeConvLeakyClampGeluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR shift, GM_ADDR y,
                                const VolumeConvLeakyClampGeluTiling &t)
    {
        tl = t;
        taps = t.inC * t.kD * t.kH * t.kW;
        uint32_t blk = GetBlockIdx();
        rowBegin = blk * t.rowsPerCore + (blk < t.rowsRemainder ? blk : t.rowsRemainder);
        rowEnd = rowBegin + t.rowsPerCore + (blk < t.rowsRemainder ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        biasGm.SetGlobalBuffer((__gm__ float *)bias);
        shiftGm.SetGlobalBuffer((__gm__ float *)shift);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        uint32_t tile = t.widthTile;
        pipe.InitBuffer(slabQ, 1, taps * tile * sizeof(float));
        pipe.InitBuffer(outQ, 1, t.chanTile * tile * sizeof(float));
        pipe.InitBuffer(weightBuf, ((t.chanTile * taps + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(paramBuf, 2 * ((t.chanTile + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(scratchBuf, t.chanTile * tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c0 = 0; c0 < tl.outC; c0 += tl.chanTile) {
            uint32_t nc = (tl.outC - c0) < tl.chanTile ? (tl.outC - c0) : tl.chanTile;
            LoadChannelParams(c0, nc);
            for (uint32_t row = rowBegin; row < rowEnd; ++row) {
                uint32_t oh = row % tl.outH;
                uint32_t od = (row / tl.outH) % tl.outD;
                uint32_t n = row / (tl.outH * tl.outD);
                for (uint32_t w0 = 0; w0 < tl.outW; w0 += tl.widthTile) {
                    uint32_t len = (tl.outW - w0) < tl.widthTile ? (tl.outW - w0) : tl.widthTile;
                    StageTaps(n, od, oh, w0, len);
                    Convolve(c0, nc, len);
                    Store(n, od, oh, w0, len, c0, nc);
                }
            }
        }
    }

private:
    __aicore__ inline void LoadChannelParams(uint32_t c0, uint32_t nc)
    {
        LocalTensor<float> wl = weightBuf.Get<float>();
        LocalTensor<float> pl = paramBuf.Get<float>();
        uint32_t half = (tl.chanTile + 7) / 8 * 8;
        // the previous channel group may still be read by scalar/vector code
        PipeBarrier<PIPE_ALL>();
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm[static_cast<uint64_t>(c0) * taps],
                    DataCopyExtParams{1, nc * taps * 4U, 0, 0, 0}, noPad);
        DataCopyPad(pl, biasGm[c0], DataCopyExtParams{1, nc * 4U, 0, 0, 0}, noPad);
        DataCopyPad(pl[half], shiftGm[c0], DataCopyExtParams{1, nc * 4U, 0, 0, 0}, noPad);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    // slab row index: ((ci*kD + kd)*kW + kw)*kH + kh ; row pitch = widthTile
    __aicore__ inline void StageTaps(uint32_t n, uint32_t od, uint32_t oh, uint32_t w0, uint32_t len)
    {
        LocalTensor<float> slab = slabQ.AllocTensor<float>();
        uint32_t lenPad = (len + 7) / 8 * 8;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(tl.kH);
        cp.blockLen = len * 4U;
        cp.srcStride = (tl.inW - len) * 4U;
        cp.dstStride = (tl.widthTile - lenPad) / 8;
        cp.rsv = 0;
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        uint64_t planeHW = static_cast<uint64_t>(tl.inH) * tl.inW;
        for (uint32_t ci = 0; ci < tl.inC; ++ci) {
            for (uint32_t kd = 0; kd < tl.kD; ++kd) {
                uint64_t base = ((static_cast<uint64_t>(n) * tl.inC + ci) * tl.inD + od + kd) * planeHW +
                                static_cast<uint64_t>(oh) * tl.inW + w0;
                for (uint32_t kw = 0; kw < tl.kW; ++kw) {
                    uint32_t r = ((ci * tl.kD + kd) * tl.kW + kw) * tl.kH;
                    DataCopyPad(slab[r * tl.widthTile], xGm[base + kw], cp, noPad);
                }
            }
        }
        slabQ.EnQue(slab);
    }

    __aicore__ inline void Convolve(uint32_t c0, uint32_t nc, uint32_t len)
    {
        LocalTensor<float> slab = slabQ.DeQue<float>();
        LocalTensor<float> acc = outQ.AllocTensor<float>();
        LocalTensor<float> wl = weightBuf.Get<float>();
        LocalTensor<float> pl = paramBuf.Get<float>();
        LocalTensor<float> tmp = scratchBuf.Get<float>();
        uint32_t half = (tl.chanTile + 7) / 8 * 8;
        uint32_t tile = tl.widthTile;

        for (uint32_t c = 0; c < nc; ++c) {
            LocalTensor<float> a = acc[c * tile];
            Duplicate(a, pl.GetValue(c), tile);
            uint32_t wBase = c * taps;
            for (uint32_t ci = 0; ci < tl.inC; ++ci) {
                for (uint32_t kd = 0; kd < tl.kD; ++kd) {
                    for (uint32_t kh = 0; kh < tl.kH; ++kh) {
                        for (uint32_t kw = 0; kw < tl.kW; ++kw) {
                            // torch weight order: (ci, kd, kh, kw)
                            float wv = wl.GetValue(wBase + ((ci * tl.kD + kd) * tl.kH + kh) * tl.kW + kw);
                            uint32_t r = ((ci * tl.kD + kd) * tl.kW + kw) * tl.kH + kh;
                            Axpy(a, slab[r * tile], wv, len);
                        }
                    }
                }
            }
        }
        slabQ.FreeTensor(slab);

        uint32_t total = nc * tile;
        LeakyRelu(acc, acc, tl.negativeSlope, total);
        for (uint32_t c = 0; c < nc; ++c) {
            Adds(acc[c * tile], acc[c * tile], pl.GetValue(half + c), tile);
        }
        Maxs(acc, acc, tl.clampMin, total);
        Mins(acc, acc, tl.clampMax, total);

        // gelu(v) ~= v / (1 + exp(-2*sqrt(2/pi)*(v + 0.044715 v^3)))
        Mul(tmp, acc, acc, total);
        Muls(tmp, tmp, GELU_C, total);
        Adds(tmp, tmp, 1.0f, total);
        Mul(tmp, tmp, acc, total);
        Muls(tmp, tmp, GELU_K, total);
        Exp(tmp, tmp, total);
        Adds(tmp, tmp, 1.0f, total);
        Div(acc, acc, tmp, total);
        outQ.EnQue(acc);
    }

    __aicore__ inline void Store(uint32_t n, uint32_t od, uint32_t oh, uint32_t w0, uint32_t len,
                                 uint32_t c0, uint32_t nc)
    {
        LocalTensor<float> res = outQ.DeQue<float>();
        uint64_t chanStride = static_cast<uint64_t>(tl.outD) * tl.outH * tl.outW;
        uint64_t dst = (static_cast<uint64_t>(n) * tl.outC + c0) * chanStride +
                       (static_cast<uint64_t>(od) * tl.outH + oh) * tl.outW + w0;
        uint32_t lenPad = (len + 7) / 8 * 8;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(nc);
        cp.blockLen = len * 4U;
        cp.srcStride = (tl.widthTile - lenPad) / 8;
        cp.dstStride = static_cast<uint32_t>((chanStride - len) * 4U);
        cp.rsv = 0;
        DataCopyPad(yGm[dst], res, cp);
        outQ.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> slabQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> weightBuf, paramBuf, scratchBuf;
    GlobalTensor<float> xGm, wGm, biasGm, shiftGm, yGm;
    VolumeConvLeakyClampGeluTiling tl;
    uint32_t taps = 0;
    uint32_t rowBegin = 0, rowEnd = 0;
};

extern "C" __global__ __aicore__ void volume_conv_leaky_clamp_gelu(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                   GM_ADDR channelShift, GM_ADDR y,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    VolumeConvLeakyClampGeluKernel op;
    op.Init(x, weight, bias, channelShift, y, tilingData);
    op.Process();
}
