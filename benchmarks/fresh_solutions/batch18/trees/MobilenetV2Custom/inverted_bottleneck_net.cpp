// inverted_bottleneck_net.cpp
//
// Kernels for a lightweight classifier built from inverted residual bottlenecks
// (1x1 expand -> 3x3 depthwise -> 1x1 linear project, shortcut when shapes match).
// Batch norm is folded on the host into per-channel scale/shift, so every layer is
// "conv -> y*scale+shift -> optional clamp to [0,6] -> optional + shortcut".
//
// The host selects a layer kind through tiling.mode:
//   0 DENSE3X3  : full 3x3 conv (only the stem, 3 input channels), weights [Cin][3][3][Cout]
//   1 DEPTHWISE : per-channel 3x3 conv, weights [C][9]
//   2 POINTWISE : 1x1 conv, weights [Cout][Cin]; optional residual input
//   3 POOL_FC   : global average pool + fully connected, weights [classes][C], bias in shift
#include "kernel_operator.h"

using namespace AscendC;

struct InvertedBottleneckNetTiling {
    uint32_t mode;
    uint32_t batch;
    uint32_t inC;
    uint32_t inH;
    uint32_t inW;
    uint32_t outC;
    uint32_t outH;
    uint32_t outW;
    uint32_t stride;
    uint32_t clamp6;    // apply min(max(y,0),6)
    uint32_t residual;  // add the shortcut tensor
    uint32_t coTile;    // pointwise: output channels kept in UB at once
    uint32_t pixTile;   // pointwise: pixels per tile (multiple of 8)
    uint32_t numClasses;
};

namespace {
constexpr uint32_t DENSE3X3 = 0;
constexpr uint32_t DEPTHWISE = 1;
constexpr uint32_t POINTWISE = 2;
constexpr uint32_t POOL_FC = 3;

__aicore__ inline uint32_t RoundUp8(uint32_t v) { return (v + 7U) & ~7U; }

template <HardEvent EV>
__aicore__ inline void Fence()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
    SetFlag<EV>(id);
    WaitFlag<EV>(id);
}
}  // namespace

class InvertedBottleneckNet {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR scale, GM_ADDR shift, GM_ADDR res, GM_ADDR y,
                                const InvertedBottleneckNetTiling &tiling)
    {
        tl = tiling;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        scaleGm.SetGlobalBuffer((__gm__ float *)scale);
        shiftGm.SetGlobalBuffer((__gm__ float *)shift);
        resGm.SetGlobalBuffer((__gm__ float *)res);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        uint32_t inLen, accLen, tmpLen;
        if (tl.mode == POINTWISE) {
            inLen = tl.pixTile;
            accLen = tl.coTile * tl.pixTile;
            tmpLen = tl.pixTile;
        } else if (tl.mode == POOL_FC) {
            inLen = RoundUp8(tl.inH * tl.inW > tl.inC ? tl.inH * tl.inW : tl.inC);
            accLen = RoundUp8(tl.inC);
            tmpLen = RoundUp8(tl.inC);
        } else {
            inLen = RoundUp8(tl.inW);
            accLen = (tl.mode == DENSE3X3 ? tl.outC : 1) * RoundUp8(tl.outW);
            tmpLen = RoundUp8(tl.outW);
        }
        pipe.InitBuffer(inQue, 2, inLen * sizeof(float));
        pipe.InitBuffer(outQue, 2, RoundUp8(tl.mode == POINTWISE ? tl.pixTile : tl.outW) * sizeof(float));
        pipe.InitBuffer(accTB, accLen * sizeof(float));
        pipe.InitBuffer(tmpTB, tmpLen * sizeof(float));
        pipe.InitBuffer(redTB, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        switch (tl.mode) {
            case DENSE3X3: Dense3x3(); break;
            case DEPTHWISE: Depthwise(); break;
            case POINTWISE: Pointwise(); break;
            default: PoolFc(); break;
        }
    }

private:
    __aicore__ inline LocalTensor<float> Fetch(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<float> t = inQue.AllocTensor<float>();
        DataCopyExtParams cp{1, len * 4U, 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, xGm[gmOff], cp, pad);
        inQue.EnQue(t);
        return inQue.DeQue<float>();
    }

    // y = y*scale + shift, optional clamp, optional shortcut, then write len floats at gmOff
    __aicore__ inline void Finish(LocalTensor<float> src, uint32_t ch, uint64_t gmOff, uint32_t len)
    {
        LocalTensor<float> o = outQue.AllocTensor<float>();
        Muls(o, src, scaleGm.GetValue(ch), len);
        Adds(o, o, shiftGm.GetValue(ch), len);
        if (tl.clamp6) {
            Maxs(o, o, 0.0f, len);
            Mins(o, o, 6.0f, len);
        }
        if (tl.residual) {
            LocalTensor<float> r = inQue.AllocTensor<float>();
            DataCopyExtParams cp{1, len * 4U, 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(r, resGm[gmOff], cp, pad);
            inQue.EnQue(r);
            r = inQue.DeQue<float>();
            Add(o, o, r, len);
            inQue.FreeTensor(r);
        }
        outQue.EnQue(o);
        o = outQue.DeQue<float>();
        DataCopyExtParams cp{1, len * 4U, 0, 0, 0};
        DataCopyPad(yGm[gmOff], o, cp);
        outQue.FreeTensor(o);
    }

    // collect row[ow*stride + kw - 1] for every output column (zero outside the row)
    __aicore__ inline void GatherTaps(LocalTensor<float> &dst, LocalTensor<float> &row, uint32_t kw)
    {
        Fence<HardEvent::V_S>();
        for (uint32_t ow = 0; ow < tl.outW; ++ow) {
            int32_t iw = static_cast<int32_t>(ow * tl.stride + kw) - 1;
            dst.SetValue(ow, (iw < 0 || iw >= static_cast<int32_t>(tl.inW)) ? 0.0f : row.GetValue(iw));
        }
        Fence<HardEvent::S_V>();
    }

    __aicore__ inline void Dense3x3()
    {
        const uint32_t wPad = RoundUp8(tl.outW);
        LocalTensor<float> acc = accTB.Get<float>();
        LocalTensor<float> taps = tmpTB.Get<float>();
        for (uint32_t job = GetBlockIdx(); job < tl.batch * tl.outH; job += GetBlockNum()) {
            uint32_t n = job / tl.outH, oh = job % tl.outH;
            Duplicate(acc, 0.0f, tl.outC * wPad);
            for (uint32_t ci = 0; ci < tl.inC; ++ci) {
                for (uint32_t kh = 0; kh < 3; ++kh) {
                    int32_t ih = static_cast<int32_t>(oh * tl.stride + kh) - 1;
                    if (ih < 0 || ih >= static_cast<int32_t>(tl.inH)) continue;
                    LocalTensor<float> row = Fetch(((uint64_t)(n * tl.inC + ci) * tl.inH + ih) * tl.inW, tl.inW);
                    for (uint32_t kw = 0; kw < 3; ++kw) {
                        GatherTaps(taps, row, kw);
                        uint64_t wb = ((uint64_t)(ci * 3 + kh) * 3 + kw) * tl.outC;
                        for (uint32_t co = 0; co < tl.outC; ++co) {
                            Axpy(acc[co * wPad], taps, wGm.GetValue(wb + co), wPad);
                        }
                    }
                    inQue.FreeTensor(row);
                }
            }
            for (uint32_t co = 0; co < tl.outC; ++co) {
                Finish(acc[co * wPad], co, ((uint64_t)(n * tl.outC + co) * tl.outH + oh) * tl.outW, tl.outW);
            }
        }
    }

    __aicore__ inline void Depthwise()
    {
        const uint32_t wPad = RoundUp8(tl.outW);
        LocalTensor<float> acc = accTB.Get<float>();
        LocalTensor<float> taps = tmpTB.Get<float>();
        const uint32_t jobs = tl.batch * tl.inC * tl.outH;
        for (uint32_t job = GetBlockIdx(); job < jobs; job += GetBlockNum()) {
            uint32_t oh = job % tl.outH;
            uint32_t c = (job / tl.outH) % tl.inC;
            uint32_t n = job / (tl.outH * tl.inC);
            Duplicate(acc, 0.0f, wPad);
            for (uint32_t kh = 0; kh < 3; ++kh) {
                int32_t ih = static_cast<int32_t>(oh * tl.stride + kh) - 1;
                if (ih < 0 || ih >= static_cast<int32_t>(tl.inH)) continue;
                LocalTensor<float> row = Fetch(((uint64_t)(n * tl.inC + c) * tl.inH + ih) * tl.inW, tl.inW);
                for (uint32_t kw = 0; kw < 3; ++kw) {
                    GatherTaps(taps, row, kw);
                    Axpy(acc, taps, wGm.GetValue(c * 9 + kh * 3 + kw), wPad);
                }
                inQue.FreeTensor(row);
            }
            Finish(acc, c, ((uint64_t)(n * tl.inC + c) * tl.outH + oh) * tl.outW, tl.outW);
        }
    }

    // 1x1 conv: out[co, p] = sum_ci w[co, ci] * x[ci, p]. A job is one image, one
    // block of coTile output channels and one block of pixTile pixels; every input
    // channel row of the pixel block is loaded once per job and broadcast over the
    // output channel block with Axpy.
    __aicore__ inline void Pointwise()
    {
        const uint32_t hw = tl.outH * tl.outW;
        const uint32_t pixBlocks = (hw + tl.pixTile - 1) / tl.pixTile;
        const uint32_t coBlocks = (tl.outC + tl.coTile - 1) / tl.coTile;
        LocalTensor<float> acc = accTB.Get<float>();
        const uint32_t jobs = tl.batch * coBlocks * pixBlocks;
        for (uint32_t job = GetBlockIdx(); job < jobs; job += GetBlockNum()) {
            uint32_t pb = job % pixBlocks;
            uint32_t cb = (job / pixBlocks) % coBlocks;
            uint32_t n = job / (pixBlocks * coBlocks);
            uint32_t p0 = pb * tl.pixTile;
            uint32_t pLen = (hw - p0 < tl.pixTile) ? (hw - p0) : tl.pixTile;
            uint32_t pPad = RoundUp8(pLen);
            uint32_t co0 = cb * tl.coTile;
            uint32_t coLen = (tl.outC - co0 < tl.coTile) ? (tl.outC - co0) : tl.coTile;

            Duplicate(acc, 0.0f, coLen * tl.pixTile);
            for (uint32_t ci = 0; ci < tl.inC; ++ci) {
                LocalTensor<float> xin = Fetch((uint64_t)(n * tl.inC + ci) * hw + p0, pLen);
                for (uint32_t j = 0; j < coLen; ++j) {
                    float wv = wGm.GetValue((uint64_t)(co0 + j) * tl.inC + ci);
                    Axpy(acc[j * tl.pixTile], xin, wv, pPad);
                }
                inQue.FreeTensor(xin);
            }
            for (uint32_t j = 0; j < coLen; ++j) {
                Finish(acc[j * tl.pixTile], co0 + j, (uint64_t)(n * tl.outC + co0 + j) * hw + p0, pLen);
            }
        }
    }

    __aicore__ inline void PoolFc()
    {
        const uint32_t hw = tl.inH * tl.inW;
        LocalTensor<float> feat = accTB.Get<float>();
        LocalTensor<float> prod = tmpTB.Get<float>();
        LocalTensor<float> red = redTB.Get<float>();
        for (uint32_t n = 0; n < tl.batch; ++n) {
            for (uint32_t c = 0; c < tl.inC; ++c) {
                LocalTensor<float> plane = Fetch((uint64_t)(n * tl.inC + c) * hw, hw);
                ReduceSum(red, plane, red[16], hw);
                Fence<HardEvent::V_S>();
                feat.SetValue(c, red.GetValue(0) / static_cast<float>(hw));
                inQue.FreeTensor(plane);
            }
            Fence<HardEvent::S_V>();
            // classes are spread across cores; every core recomputes the pooled vector
            for (uint32_t k = GetBlockIdx(); k < tl.numClasses; k += GetBlockNum()) {
                LocalTensor<float> wr = inQue.AllocTensor<float>();
                DataCopyExtParams cp{1, tl.inC * 4U, 0, 0, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                DataCopyPad(wr, wGm[(uint64_t)k * tl.inC], cp, pad);
                inQue.EnQue(wr);
                wr = inQue.DeQue<float>();
                Mul(prod, wr, feat, tl.inC);
                ReduceSum(red, prod, red[16], tl.inC);
                Fence<HardEvent::V_S>();
                yGm.SetValue((uint64_t)n * tl.numClasses + k, red.GetValue(0) + shiftGm.GetValue(k));
                inQue.FreeTensor(wr);
            }
        }
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(yGm);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<QuePosition::VECCALC> accTB, tmpTB, redTB;
    GlobalTensor<float> xGm, wGm, scaleGm, shiftGm, resGm, yGm;
    InvertedBottleneckNetTiling tl;
};

extern "C" __global__ __aicore__ void inverted_bottleneck_net(GM_ADDR x, GM_ADDR w, GM_ADDR scale, GM_ADDR shift,
                                                              GM_ADDR res, GM_ADDR y, GM_ADDR tiling)
{
    InvertedBottleneckNetTiling tl;
    __gm__ uint32_t *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(tl) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    InvertedBottleneckNet k;
    k.Init(x, w, scale, shift, res, y, tl);
    k.Process();
}
