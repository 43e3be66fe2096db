/*
 * invres_net.cpp - device code for an inverted-residual image classifier
 * (3x3 stem, 17 expand / depthwise / project blocks, 1x1 head conv, global pool, FC).
 *
 * BatchNorm is folded on the host into a per-channel (scale, shift) pair that follows
 * every convolution. Three kernels cover the whole network:
 *
 *   invres_net          1x1 convolution + scale/shift + optional ReLU6 + optional residual
 *   invres_net_spatial  3x3 convolution, padding 1, stride 1 or 2, dense or depthwise,
 *                       + scale/shift + ReLU6 (stem and all depthwise layers)
 *   invres_net_head     global average pool + fully connected classifier
 *
 * Activations are NCHW float32.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct InvresNetTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t stride;     // 1 or 2 (spatial kernel)
    uint32_t depthwise;  // spatial kernel: one input channel per output channel
    uint32_t relu6;
    uint32_t residual;   // pointwise kernel: add the block input
    uint32_t tileHw;     // pointwise kernel: pixels per tile
    uint32_t classes;    // head kernel
    uint32_t chanChunk;  // head kernel: channels pooled per DMA
};

__aicore__ inline void ReadTiling(InvresNetTiling &t, GM_ADDR gm)
{
    auto s = reinterpret_cast<__gm__ uint32_t *>(gm);
    auto d = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(InvresNetTiling) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

__aicore__ inline uint32_t Align8(uint32_t v)
{
    return (v + 7) / 8 * 8;
}

__aicore__ inline void ScaleShiftClip(const LocalTensor<float> &v, float sc, float sh, bool clip, uint32_t len)
{
    Muls(v, v, sc, len);
    Adds(v, v, sh, len);
    if (clip) {
        Maxs(v, v, 0.0f, len);
        Mins(v, v, 6.0f, len);
    }
}

// ======================================================================================
// 1x1 convolution
// ======================================================================================
class PointwiseConv {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bn, GM_ADDR res, GM_ADDR y, const InvresNetTiling &t)
    {
        tl = t;
        hw = tl.inH * tl.inW;
        tilePad = Align8(tl.tileHw);
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bnGm.SetGlobalBuffer((__gm__ float *)bn);  // [scale(cout) | shift(cout)]
        resGm.SetGlobalBuffer((__gm__ float *)res);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(inQ, 1, tl.cin * tilePad * sizeof(float));
        pipe.InitBuffer(resQ, 2, tilePad * sizeof(float));
        pipe.InitBuffer(outQ, 2, tilePad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = (hw + tl.tileHw - 1) / tl.tileHw;
        uint32_t units = tl.batch * tiles;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t n = u / tiles;
            uint32_t p0 = (u % tiles) * tl.tileHw;
            uint32_t len = (hw - p0) < tl.tileHw ? (hw - p0) : tl.tileHw;
            Tile(n, p0, len);
        }
    }

private:
    __aicore__ inline void Tile(uint32_t n, uint32_t p0, uint32_t len)
    {
        // all input channels of this pixel range, one padded row per channel
        LocalTensor<float> in = inQ.AllocTensor<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(tl.cin), static_cast<uint32_t>(len * sizeof(float)),
                             static_cast<uint32_t>((hw - len) * sizeof(float)), 0, 0};
        DataCopyPad(in, xGm[(uint64_t)n * tl.cin * hw + p0], cp, {false, 0, 0, 0.0f});
        inQ.EnQue(in);
        in = inQ.DeQue<float>();

        DataCopyExtParams row{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        for (uint32_t co = 0; co < tl.cout; ++co) {
            uint64_t outOff = ((uint64_t)n * tl.cout + co) * hw + p0;
            if (tl.residual) {
                LocalTensor<float> r = resQ.AllocTensor<float>();
                DataCopyPad(r, resGm[outOff], row, {false, 0, 0, 0.0f});
                resQ.EnQue(r);
            }
            LocalTensor<float> acc = outQ.AllocTensor<float>();
            Duplicate(acc, 0.0f, tilePad);
            uint64_t wRow = (uint64_t)co * tl.cin;
            for (uint32_t ci = 0; ci < tl.cin; ++ci) {
                Axpy(acc, in[ci * tilePad], wGm.GetValue(wRow + ci), len);
            }
            ScaleShiftClip(acc, bnGm.GetValue(co), bnGm.GetValue(tl.cout + co), tl.relu6 != 0, len);
            if (tl.residual) {
                LocalTensor<float> r = resQ.DeQue<float>();
                Add(acc, acc, r, len);
                resQ.FreeTensor(r);
            }
            outQ.EnQue(acc);
            acc = outQ.DeQue<float>();
            DataCopyPad(yGm[outOff], acc, row);
            outQ.FreeTensor(acc);
        }
        inQ.FreeTensor(in);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECIN, 2> resQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<float> xGm, wGm, bnGm, resGm, yGm;
    InvresNetTiling tl;
    uint32_t hw = 0;
    uint32_t tilePad = 0;
};

// ======================================================================================
// 3x3 convolution, pad 1, stride 1/2, dense (stem) or depthwise
// ======================================================================================
class Spatial3x3 {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bn, GM_ADDR y, const InvresNetTiling &t)
    {
        tl = t;
        // GatherMask walks 64 floats per repeat, so rows are padded to 64
        rowPad = (tl.inW + 63) / 64 * 64;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bnGm.SetGlobalBuffer((__gm__ float *)bn);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(rowQ, 2, 3 * rowPad * sizeof(float));
        pipe.InitBuffer(outQ, 2, rowPad * sizeof(float));
        pipe.InitBuffer(pickBuf, 3 * rowPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t units = tl.batch * tl.cout * tl.outH;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t oh = u % tl.outH;
            uint32_t co = (u / tl.outH) % tl.cout;
            uint32_t n = u / (tl.outH * tl.cout);
            Row(n, co, oh);
        }
    }

private:
    // rows: [x[w-1] | x[w] | x[w+1]] with zero fill at the borders
    __aicore__ inline void LoadShifted(uint64_t off)
    {
        uint32_t W = tl.inW;
        LocalTensor<float> r = rowQ.AllocTensor<float>();
        Duplicate(r, 0.0f, 3 * rowPad);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(e);
        WaitFlag<HardEvent::V_MTE2>(e);
        uint8_t tailL = static_cast<uint8_t>((8 - (W % 8)) % 8);
        uint8_t tailR = static_cast<uint8_t>((8 - ((W - 1) % 8)) % 8);
        DataCopyPad(r, xGm[off], {1, static_cast<uint32_t>((W - 1) * sizeof(float)), 0, 0, 0},
                    {true, 1, tailL, 0.0f});
        DataCopyPad(r[rowPad], xGm[off], {1, static_cast<uint32_t>(W * sizeof(float)), 0, 0, 0},
                    {true, 0, tailL, 0.0f});
        DataCopyPad(r[2 * rowPad], xGm[off + 1], {1, static_cast<uint32_t>((W - 1) * sizeof(float)), 0, 0, 0},
                    {true, 0, tailR, 0.0f});
        rowQ.EnQue(r);
    }

    __aicore__ inline void Row(uint32_t n, uint32_t co, uint32_t oh)
    {
        uint32_t OW = tl.outW;
        uint32_t ciBegin = tl.depthwise ? co : 0;
        uint32_t ciEnd = tl.depthwise ? co + 1 : tl.cin;
        uint32_t wPerCo = tl.depthwise ? 9 : tl.cin * 9;
        LocalTensor<float> acc = outQ.AllocTensor<float>();
        Duplicate(acc, 0.0f, rowPad);

        for (uint32_t ci = ciBegin; ci < ciEnd; ++ci) {
            for (uint32_t kh = 0; kh < 3; ++kh) {
                int32_t ih = static_cast<int32_t>(oh * tl.stride + kh) - 1;
                if (ih < 0 || ih >= static_cast<int32_t>(tl.inH)) {
                    continue;  // zero padding row
                }
                LoadShifted((((uint64_t)n * tl.cin + ci) * tl.inH + ih) * tl.inW);
                LocalTensor<float> r = rowQ.DeQue<float>();
                uint64_t wb = (uint64_t)co * wPerCo + (ci - ciBegin) * 9 + kh * 3;
                if (tl.stride == 1) {
                    for (uint32_t kw = 0; kw < 3; ++kw) {
                        Axpy(acc, r[kw * rowPad], wGm.GetValue(wb + kw), OW);
                    }
                } else {
                    // out[ow] needs x[2ow-1], x[2ow], x[2ow+1]: the even lanes of the three
                    // shifted copies (x[w-1], x[w], x[w+1]) at w = 2ow
                    LocalTensor<float> pick = pickBuf.Get<float>();
                    uint64_t kept = 0;
                    GatherMaskParams gp{1, static_cast<uint16_t>(rowPad / 64), 8, 0};
                    for (uint32_t kw = 0; kw < 3; ++kw) {
                        GatherMask(pick[kw * rowPad], r[kw * rowPad], 1, false, 0, gp, kept);
                    }
                    PipeBarrier<PIPE_V>();
                    for (uint32_t kw = 0; kw < 3; ++kw) {
                        Axpy(acc, pick[kw * rowPad], wGm.GetValue(wb + kw), OW);
                    }
                }
                PipeBarrier<PIPE_V>();
                rowQ.FreeTensor(r);
            }
        }
        ScaleShiftClip(acc, bnGm.GetValue(co), bnGm.GetValue(tl.cout + co), tl.relu6 != 0, OW);
        outQ.EnQue(acc);
        acc = outQ.DeQue<float>();
        uint64_t dst = (((uint64_t)n * tl.cout + co) * tl.outH + oh) * OW;
        DataCopyPad(yGm[dst], acc, {1, static_cast<uint32_t>(OW * sizeof(float)), 0, 0, 0});
        outQ.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> pickBuf;
    GlobalTensor<float> xGm, wGm, bnGm, yGm;
    InvresNetTiling tl;
    uint32_t rowPad = 0;
};

// ======================================================================================
// global average pool + classifier
// ======================================================================================
class PoolClassify {
public:
    __aicore__ inline void Init(GM_ADDR feat, GM_ADDR w, GM_ADDR b, GM_ADDR out, const InvresNetTiling &t)
    {
        tl = t;
        hw = tl.inH * tl.inW;
        hwPad = Align8(hw);
        fGm.SetGlobalBuffer((__gm__ float *)feat);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        oGm.SetGlobalBuffer((__gm__ float *)out);

        uint32_t classes = tl.classes;
        uint32_t cores = GetBlockNum();
        uint32_t per = (classes + cores - 1) / cores;
        jBegin = GetBlockIdx() * per;
        jCount = jBegin >= classes ? 0 : ((classes - jBegin) < per ? (classes - jBegin) : per);

        pipe.InitBuffer(pooledBuf, tl.batch * tl.cin * sizeof(float));
        pipe.InitBuffer(featQ, 1, tl.chanChunk * hwPad * sizeof(float));
        pipe.InitBuffer(wQ, 2, tl.cin * sizeof(float));
        pipe.InitBuffer(prodBuf, tl.cin * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(resBuf, tl.batch * Align8(per) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (jCount == 0) {
            return;
        }
        Pool();
        Classify();
    }

private:
    __aicore__ inline void Pool()
    {
        LocalTensor<float> pooled = pooledBuf.Get<float>();
        uint8_t repStride = static_cast<uint8_t>(hwPad / 8);
        for (uint32_t n = 0; n < tl.batch; ++n) {
            for (uint32_t c0 = 0; c0 < tl.cin; c0 += tl.chanChunk) {
                uint32_t cc = (tl.cin - c0) < tl.chanChunk ? (tl.cin - c0) : tl.chanChunk;
                LocalTensor<float> f = featQ.AllocTensor<float>();
                DataCopyExtParams cp{static_cast<uint16_t>(cc), static_cast<uint32_t>(hw * sizeof(float)), 0, 0, 0};
                DataCopyPad(f, fGm[((uint64_t)n * tl.cin + c0) * hw], cp, {false, 0, 0, 0.0f});
                featQ.EnQue(f);
                f = featQ.DeQue<float>();
                // one repeat per channel row of hw values
                WholeReduceSum<float>(pooled[n * tl.cin + c0], f, static_cast<int32_t>(hw), static_cast<int32_t>(cc),
                                      1, 1, repStride);
                PipeBarrier<PIPE_V>();
                featQ.FreeTensor(f);
            }
        }
        Muls(pooled, pooled, 1.0f / static_cast<float>(hw), tl.batch * tl.cin);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Classify()
    {
        LocalTensor<float> pooled = pooledBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> res = resBuf.Get<float>();
        uint32_t stride = Align8((tl.classes + GetBlockNum() - 1) / GetBlockNum());
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));

        for (uint32_t j = 0; j < jCount; ++j) {
            LocalTensor<float> wr = wQ.AllocTensor<float>();
            DataCopy(wr, wGm[(uint64_t)(jBegin + j) * tl.cin], tl.cin);
            wQ.EnQue(wr);
            wr = wQ.DeQue<float>();
            float bias = bGm.GetValue(jBegin + j);
            for (uint32_t n = 0; n < tl.batch; ++n) {
                Mul(prod, wr, pooled[n * tl.cin], tl.cin);
                ReduceSum<float>(red, prod, prod, tl.cin);
                SetFlag<HardEvent::V_S>(vs);
                WaitFlag<HardEvent::V_S>(vs);
                res.SetValue(n * stride + j, red.GetValue(0) + bias);
            }
            wQ.FreeTensor(wr);
        }
        event_t sm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sm);
        WaitFlag<HardEvent::S_MTE3>(sm);
        // UB rows are `stride` floats apart (srcStride in 32B blocks), GM rows `classes` apart
        uint32_t ubGap = (stride - Align8(jCount)) / 8;
        DataCopyExtParams cp{static_cast<uint16_t>(tl.batch), static_cast<uint32_t>(jCount * sizeof(float)), ubGap,
                             static_cast<uint32_t>((tl.classes - jCount) * sizeof(float)), 0};
        DataCopyPad(oGm[jBegin], res, cp);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> pooledBuf, prodBuf, redBuf, resBuf;
    TQue<QuePosition::VECIN, 1> featQ;
    TQue<QuePosition::VECIN, 2> wQ;
    GlobalTensor<float> fGm, wGm, bGm, oGm;
    InvresNetTiling tl;
    uint32_t hw = 0, hwPad = 0, jBegin = 0, jCount = 0;
};

extern "C" __global__ __aicore__ void invres_net(GM_ADDR x, GM_ADDR w, GM_ADDR bn, GM_ADDR res, GM_ADDR y,
                                                 GM_ADDR tiling)
{
    InvresNetTiling t;
    ReadTiling(t, tiling);
    PointwiseConv k;
    k.Init(x, w, bn, res, y, t);
    k.Process();
}

extern "C" __global__ __aicore__ void invres_net_spatial(GM_ADDR x, GM_ADDR w, GM_ADDR bn, GM_ADDR y,
                                                         GM_ADDR tiling)
{
    InvresNetTiling t;
    ReadTiling(t, tiling);
    Spatial3x3 k;
    k.Init(x, w, bn, y, t);
    k.Process();
}

extern "C" __global__ __aicore__ void invres_net_head(GM_ADDR feat, GM_ADDR w, GM_ADDR b, GM_ADDR out,
                                                      GM_ADDR tiling)
{
    InvresNetTiling t;
    ReadTiling(t, tiling);
    PoolClassify k;
    k.Init(feat, w, b, out, t);
    k.Process();
}
