/*
 * Device code for a width-1.0 depthwise-separable image classifier (13 separable stages).
 *
 * Three entries share one tiling struct:
 *   depthsep_classifier       : 3x3 grouped conv (stem conv when cinPerGroup == inC, depthwise
 *                               when cinPerGroup == 1) + folded batch-norm affine + ReLU
 *   depthsep_classifier_pw    : 1x1 conv (channel mixing) + folded batch-norm affine + ReLU
 *   depthsep_classifier_head  : global 7x7 average pool + fully connected layer with bias
 * All tensors are fp32 NCHW.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct DepthsepClassifierTiling {
    uint32_t batch;
    uint32_t inC;
    uint32_t outC;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t stride;
    uint32_t cinPerGroup;   // input channels feeding each output channel (3x3 conv only)
    uint32_t hwTile;        // spatial chunk for the 1x1 conv
    uint32_t coGroup;       // output channels accumulated together in the 1x1 conv
    uint32_t numClasses;    // head only
};

constexpr int32_t DB = 2;

__aicore__ inline void LoadTiling(DepthsepClassifierTiling &t, GM_ADDR tiling)
{
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(DepthsepClassifierTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
}

__aicore__ inline uint32_t AlignUp8(uint32_t v) { return (v + 7U) / 8U * 8U; }

/* ---------------------------------------------------------------- 3x3 conv ---- */
class Spatial3x3Stage {
public:
    __aicore__ inline Spatial3x3Stage() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const DepthsepClassifierTiling &tl)
    {
        t = tl;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        scGm.SetGlobalBuffer((__gm__ float *)scale);
        shGm.SetGlobalBuffer((__gm__ float *)shift);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        rowLen = AlignUp8(t.outW);
        rawLen = AlignUp8(t.inW + 2);
        pipe.InitBuffer(tapQ, DB, rowLen * sizeof(float));
        pipe.InitBuffer(outQ, DB, rowLen * sizeof(float));
        pipe.InitBuffer(rawBuf, rawLen * sizeof(float));
        pipe.InitBuffer(accBuf, rowLen * sizeof(float));

        // output planes (n, co) are split over the cores
        uint32_t planes = t.batch * t.outC;
        uint32_t per = (planes + GetBlockNum() - 1) / GetBlockNum();
        planeBegin = per * GetBlockIdx();
        planeEnd = planeBegin + per < planes ? planeBegin + per : planes;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = planeBegin; p < planeEnd; ++p) {
            uint32_t n = p / t.outC;
            uint32_t co = p % t.outC;
            float s = scGm.GetValue(co);
            float b = shGm.GetValue(co);
            for (uint32_t oh = 0; oh < t.outH; ++oh) {
                ComputeRow(n, co, oh);
                LocalTensor<float> acc = accBuf.Get<float>();
                LocalTensor<float> o = outQ.AllocTensor<float>();
                Muls(o, acc, s, t.outW);
                Adds(o, o, b, t.outW);
                Relu(o, o, t.outW);
                outQ.EnQue(o);
                o = outQ.DeQue<float>();
                uint64_t off = ((uint64_t)p * t.outH + oh) * t.outW;
                DataCopyExtParams cp{1, (uint32_t)(t.outW * sizeof(float)), 0, 0, 0};
                DataCopyPad(yGm[off], o, cp);
                outQ.FreeTensor(o);
            }
        }
    }

private:
    __aicore__ inline void ComputeRow(uint32_t n, uint32_t co, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, rowLen);
        // group of input channels: [ciBase, ciBase + cinPerGroup)
        uint32_t groups = t.inC / t.cinPerGroup;
        uint32_t coPerGroup = t.outC / groups;
        uint32_t ciBase = (co / coPerGroup) * t.cinPerGroup;
        for (uint32_t cg = 0; cg < t.cinPerGroup; ++cg) {
            uint32_t ci = ciBase + cg;
            for (uint32_t kh = 0; kh < 3; ++kh) {
                int32_t ih = (int32_t)(oh * t.stride + kh) - 1;
                if (ih < 0 || ih >= (int32_t)t.inH) {
                    continue;
                }
                uint64_t rowOff = (((uint64_t)n * t.inC + ci) * t.inH + ih) * t.inW;
                LoadPaddedRow(rowOff);
                for (uint32_t kw = 0; kw < 3; ++kw) {
                    float wv = wGm.GetValue(((co * t.cinPerGroup + cg) * 3 + kh) * 3 + kw);
                    LocalTensor<float> tap = tapQ.AllocTensor<float>();
                    BuildTap(tap, kw);
                    tapQ.EnQue(tap);
                    tap = tapQ.DeQue<float>();
                    Axpy(acc, tap, wv, t.outW);
                    PipeBarrier<PIPE_V>();
                    tapQ.FreeTensor(tap);
                }
            }
        }
    }

    // raw[0] = 0 (left pad), raw[1..inW] = row, raw[inW+1] = 0 (right pad)
    __aicore__ inline void LoadPaddedRow(uint64_t rowOff)
    {
        LocalTensor<float> raw = rawBuf.Get<float>();
        DataCopyExtParams cp{1, (uint32_t)(t.inW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 1, 0, 0.0f};
        DataCopyPad(raw, xGm[rowOff], cp, pad);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
        raw.SetValue(0, 0.0f);
        raw.SetValue(t.inW + 1, 0.0f);
    }

    // tap[ow] = raw[ow * stride + kw]; strided gather done on the scalar unit
    __aicore__ inline void BuildTap(LocalTensor<float> &tap, uint32_t kw)
    {
        LocalTensor<float> raw = rawBuf.Get<float>();
        for (uint32_t ow = 0; ow < t.outW; ++ow) {
            tap.SetValue(ow, raw.GetValue(ow * t.stride + kw));
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DB> tapQ;
    TQue<QuePosition::VECOUT, DB> outQ;
    TBuf<TPosition::VECCALC> rawBuf, accBuf;
    GlobalTensor<float> xGm, wGm, scGm, shGm, yGm;
    DepthsepClassifierTiling t;
    uint32_t rowLen, rawLen, planeBegin, planeEnd;
};

/* ---------------------------------------------------------------- 1x1 conv ---- */
class PointwiseStage {
public:
    __aicore__ inline PointwiseStage() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const DepthsepClassifierTiling &tl)
    {
        t = tl;
        hw = t.inH * t.inW;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        scGm.SetGlobalBuffer((__gm__ float *)scale);
        shGm.SetGlobalBuffer((__gm__ float *)shift);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(inQ, DB, t.hwTile * sizeof(float));
        pipe.InitBuffer(outQ, DB, t.hwTile * sizeof(float));
        pipe.InitBuffer(accBuf, t.coGroup * t.hwTile * sizeof(float));

        // work item = (n, co-group, hw chunk)
        chunks = (hw + t.hwTile - 1) / t.hwTile;
        coGroups = t.outC / t.coGroup;
        uint32_t items = t.batch * coGroups * chunks;
        uint32_t per = (items + GetBlockNum() - 1) / GetBlockNum();
        itemBegin = per * GetBlockIdx();
        itemEnd = itemBegin + per < items ? itemBegin + per : items;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t it = itemBegin; it < itemEnd; ++it) {
            uint32_t c = it % chunks;
            uint32_t g = (it / chunks) % coGroups;
            uint32_t n = it / (chunks * coGroups);
            uint32_t base = c * t.hwTile;
            uint32_t len = (hw - base) < t.hwTile ? (hw - base) : t.hwTile;
            RunItem(n, g * t.coGroup, base, len);
        }
    }

private:
    __aicore__ inline void RunItem(uint32_t n, uint32_t co0, uint32_t base, uint32_t len)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, t.coGroup * t.hwTile);
        DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        for (uint32_t ci = 0; ci < t.inC; ++ci) {
            LocalTensor<float> xin = inQ.AllocTensor<float>();
            DataCopyPad(xin, xGm[((uint64_t)n * t.inC + ci) * hw + base], cp, noPad);
            inQ.EnQue(xin);
            xin = inQ.DeQue<float>();
            // one input chunk feeds coGroup accumulators
            for (uint32_t j = 0; j < t.coGroup; ++j) {
                float wv = wGm.GetValue((co0 + j) * t.inC + ci);
                Axpy(acc[j * t.hwTile], xin, wv, len);
            }
            inQ.FreeTensor(xin);
        }
        for (uint32_t j = 0; j < t.coGroup; ++j) {
            LocalTensor<float> o = outQ.AllocTensor<float>();
            Muls(o, acc[j * t.hwTile], scGm.GetValue(co0 + j), len);
            Adds(o, o, shGm.GetValue(co0 + j), len);
            Relu(o, o, len);
            outQ.EnQue(o);
            o = outQ.DeQue<float>();
            DataCopyPad(yGm[((uint64_t)n * t.outC + co0 + j) * hw + base], o, cp);
            outQ.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DB> inQ;
    TQue<QuePosition::VECOUT, DB> outQ;
    TBuf<TPosition::VECCALC> accBuf;
    GlobalTensor<float> xGm, wGm, scGm, shGm, yGm;
    DepthsepClassifierTiling t;
    uint32_t hw, chunks, coGroups, itemBegin, itemEnd;
};

/* ------------------------------------------------------- avgpool + linear ---- */
class PoolFcHead {
public:
    __aicore__ inline PoolFcHead() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR fcW, GM_ADDR fcB, GM_ADDR y,
                                const DepthsepClassifierTiling &tl)
    {
        t = tl;
        hw = t.inH * t.inW;                 // 49
        hwPad = AlignUp8(hw);
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)fcW);
        bGm.SetGlobalBuffer((__gm__ float *)fcB);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(pooledBuf, t.batch * t.inC * sizeof(float));
        pipe.InitBuffer(planeQ, DB, hwPad * sizeof(float));
        pipe.InitBuffer(wQ, DB, t.inC * sizeof(float));
        pipe.InitBuffer(tmpBuf, t.inC * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));

        uint32_t per = (t.numClasses + GetBlockNum() - 1) / GetBlockNum();
        clsBegin = per * GetBlockIdx();
        clsEnd = clsBegin + per < t.numClasses ? clsBegin + per : t.numClasses;
    }

    __aicore__ inline void Process()
    {
        if (clsBegin >= clsEnd) {
            return;
        }
        Pool();
        LocalTensor<float> pooled = pooledBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        DataCopyExtParams cp{1, (uint32_t)(t.inC * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        for (uint32_t k = clsBegin; k < clsEnd; ++k) {
            LocalTensor<float> wRow = wQ.AllocTensor<float>();
            DataCopyPad(wRow, wGm[(uint64_t)k * t.inC], cp, noPad);
            wQ.EnQue(wRow);
            wRow = wQ.DeQue<float>();
            float bias = bGm.GetValue(k);
            for (uint32_t n = 0; n < t.batch; ++n) {
                Mul(tmp, wRow, pooled[n * t.inC], t.inC);
                ReduceSum(red, tmp, tmp, t.inC);
                event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
                SetFlag<HardEvent::V_S>(ev);
                WaitFlag<HardEvent::V_S>(ev);
                yGm.SetValue((uint64_t)n * t.numClasses + k, red.GetValue(0) + bias);
            }
            wQ.FreeTensor(wRow);
        }
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(yGm);
    }

private:
    // pooled[n][c] = mean over the final 7x7 plane
    __aicore__ inline void Pool()
    {
        LocalTensor<float> pooled = pooledBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        float inv = 1.0f / (float)hw;
        DataCopyExtParams cp{1, (uint32_t)(hw * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        for (uint32_t p = 0; p < t.batch * t.inC; ++p) {
            LocalTensor<float> plane = planeQ.AllocTensor<float>();
            DataCopyPad(plane, xGm[(uint64_t)p * hw], cp, noPad);
            planeQ.EnQue(plane);
            plane = planeQ.DeQue<float>();
            ReduceSum(red, plane, plane, hw);
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            pooled.SetValue(p, red.GetValue(0) * inv);
            planeQ.FreeTensor(plane);
        }
        event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DB> planeQ, wQ;
    TBuf<TPosition::VECCALC> pooledBuf, tmpBuf, redBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    DepthsepClassifierTiling t;
    uint32_t hw, hwPad, clsBegin, clsEnd;
};

extern "C" __global__ __aicore__ void depthsep_classifier(GM_ADDR x, GM_ADDR w, GM_ADDR scale,
                                                          GM_ADDR shift, GM_ADDR y, GM_ADDR tiling)
{
    DepthsepClassifierTiling t;
    LoadTiling(t, tiling);
    Spatial3x3Stage op;
    op.Init(x, w, scale, shift, y, t);
    op.Process();
}

extern "C" __global__ __aicore__ void depthsep_classifier_pw(GM_ADDR x, GM_ADDR w, GM_ADDR scale,
                                                             GM_ADDR shift, GM_ADDR y, GM_ADDR tiling)
{
    DepthsepClassifierTiling t;
    LoadTiling(t, tiling);
    PointwiseStage op;
    op.Init(x, w, scale, shift, y, t);
    op.Process();
}

extern "C" __global__ __aicore__ void depthsep_classifier_head(GM_ADDR x, GM_ADDR fcW, GM_ADDR fcB,
                                                               GM_ADDR y, GM_ADDR tiling)
{
    DepthsepClassifierTiling t;
    LoadTiling(t, tiling);
    PoolFcHead op;
    op.Init(x, fcW, fcB, y, t);
    op.Process();
}
