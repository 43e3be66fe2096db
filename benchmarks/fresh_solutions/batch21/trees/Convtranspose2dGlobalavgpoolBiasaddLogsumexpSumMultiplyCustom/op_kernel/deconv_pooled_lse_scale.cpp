/*
 * DeconvPooledLseScale kernel.
 *
 * phase 1 (all cores): S[n, ci] = sum over the H*W plane of x[n, ci]        -> workspace
 * barrier
 * phase 2 (batch split): for sample n
 *     acc[co*K + k] = sum_ci S[n, ci] * w[ci, co, k]        (Axpy over weight rows)
 *     m[co]         = inv * sum_k acc[co*K + k] + conv_bias[co] + channel_bias[co]
 *     y[n]          = scale * logsumexp_co(m)
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t SLOT_FLOATS = 8;

class DeconvPooledLseScaleKernel {
public:
    __aicore__ inline DeconvPooledLseScaleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR convBias, GM_ADDR chBias, GM_ADDR y,
                                GM_ADDR ws, const DeconvPooledLseScaleTilingData &t)
    {
        t_ = t;
        blk_ = GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)weight);
        cbGm.SetGlobalBuffer((__gm__ float *)convBias, t.outChannels);
        bGm.SetGlobalBuffer((__gm__ float *)chBias, t.outChannels);
        yGm.SetGlobalBuffer((__gm__ float *)y, t.batch);
        sGm.SetGlobalBuffer((__gm__ float *)ws, t.batch * t.inChannels * SLOT_FLOATS);

        rowLen_ = t.outChannels * t.kernelArea;
        rowLenAligned_ = (rowLen_ + 7) / 8 * 8;
        coAligned_ = (t.outChannels + 63) / 64 * 64;

        pipe.InitBuffer(inQ, 2, t.planeTile * sizeof(float));
        pipe.InitBuffer(accBuf, t.planeTile * sizeof(float));
        pipe.InitBuffer(workBuf, t.planeTile * sizeof(float));
        pipe.InitBuffer(outQ, 1, SLOT_FLOATS * sizeof(float));
        // phase 2 buffers
        pipe.InitBuffer(wQ, 2, rowLenAligned_ * sizeof(float));
        pipe.InitBuffer(contractBuf, rowLenAligned_ * sizeof(float));
        pipe.InitBuffer(sumsBuf, t.inChannels * SLOT_FLOATS * sizeof(float));
        pipe.InitBuffer(chanBuf, coAligned_ * sizeof(float));
        pipe.InitBuffer(biasBuf, coAligned_ * sizeof(float));
        pipe.InitBuffer(tmpBuf, (2 * coAligned_ + 64) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        PlaneSums();
        SyncAll();
        uint32_t cnt = t_.batchPerCore + (blk_ < t_.batchRemainder ? 1 : 0);
        uint32_t first = blk_ * t_.batchPerCore + (blk_ < t_.batchRemainder ? blk_ : t_.batchRemainder);
        if (cnt == 0) {
            return;
        }
        LoadBias();
        for (uint32_t i = 0; i < cnt; ++i) {
            ReduceSample(first + i);
        }
    }

private:
    __aicore__ inline void PlaneSums()
    {
        uint32_t cnt = t_.planesPerCore + (blk_ < t_.planeRemainder ? 1 : 0);
        uint32_t first = blk_ * t_.planesPerCore + (blk_ < t_.planeRemainder ? blk_ : t_.planeRemainder);
        uint32_t tile = t_.planeTile;
        uint32_t tiles = (t_.planeSize + tile - 1) / tile;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();

        for (uint32_t p = 0; p < cnt; ++p) {
            uint64_t plane = first + p;
            uint64_t base = plane * t_.planeSize;
            Duplicate(acc, 0.0f, tile);
            for (uint32_t i = 0; i < tiles; ++i) {
                uint32_t len = (i == tiles - 1) ? (t_.planeSize - i * tile) : tile;
                LocalTensor<float> in = inQ.AllocTensor<float>();
                DataCopyPad(in, xGm[base + static_cast<uint64_t>(i) * tile],
                            DataCopyExtParams{1, len * 4u, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
                inQ.EnQue(in);
                in = inQ.DeQue<float>();
                Add(acc, acc, in, len);
                inQ.FreeTensor(in);
            }
            LocalTensor<float> o = outQ.AllocTensor<float>();
            Duplicate(o, 0.0f, SLOT_FLOATS);
            ReduceSum(o, acc, work, tiles > 1 ? tile : t_.planeSize);
            outQ.EnQue(o);
            o = outQ.DeQue<float>();
            DataCopy(sGm[plane * SLOT_FLOATS], o, SLOT_FLOATS);
            outQ.FreeTensor(o);
        }
    }

    __aicore__ inline void LoadBias()
    {
        LocalTensor<float> b = biasBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        Duplicate(b, 0.0f, coAligned_);
        Duplicate(tmp, 0.0f, coAligned_);
        event_t vToMte2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(vToMte2);
        WaitFlag<HardEvent::V_MTE2>(vToMte2);
        DataCopyExtParams cp{1, t_.outChannels * 4u, 0, 0, 0};
        DataCopyPadExtParams<float> nopad{false, 0, 0, 0};
        DataCopyPad(b, cbGm, cp, nopad);
        DataCopyPad(tmp, bGm, cp, nopad);
        event_t mte2ToV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mte2ToV);
        WaitFlag<HardEvent::MTE2_V>(mte2ToV);
        Add(b, b, tmp, t_.outChannels);
    }

    __aicore__ inline void ReduceSample(uint32_t n)
    {
        const uint32_t ci = t_.inChannels;
        const uint32_t co = t_.outChannels;
        const uint32_t k = t_.kernelArea;

        // bring in the plane sums of this sample
        LocalTensor<float> sums = sumsBuf.Get<float>();
        DataCopy(sums, sGm[static_cast<uint64_t>(n) * ci * SLOT_FLOATS], ci * SLOT_FLOATS);
        event_t e0 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e0);
        WaitFlag<HardEvent::MTE2_S>(e0);

        LocalTensor<float> contract = contractBuf.Get<float>();
        Duplicate(contract, 0.0f, rowLenAligned_);
        for (uint32_t c = 0; c < ci; ++c) {
            float s = sums.GetValue(c * SLOT_FLOATS);
            LocalTensor<float> wRow = wQ.AllocTensor<float>();
            DataCopyPad(wRow, wGm[static_cast<uint64_t>(c) * rowLen_],
                        DataCopyExtParams{1, rowLen_ * 4u, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
            wQ.EnQue(wRow);
            wRow = wQ.DeQue<float>();
            Axpy(contract, wRow, s, rowLen_);
            wQ.FreeTensor(wRow);
        }

        // collapse the kernel taps of every output channel (K is tiny, scalar loop)
        event_t e1 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e1);
        WaitFlag<HardEvent::V_S>(e1);
        LocalTensor<float> chan = chanBuf.Get<float>();
        for (uint32_t o = 0; o < co; ++o) {
            float acc = 0.0f;
            for (uint32_t j = 0; j < k; ++j) {
                acc += contract.GetValue(o * k + j);
            }
            chan.SetValue(o, acc);
        }
        event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e2);
        WaitFlag<HardEvent::S_V>(e2);

        LocalTensor<float> bias = biasBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        Muls(chan, chan, t_.invOutArea, co);
        Add(chan, chan, bias, co);

        // numerically stable log-sum-exp over channels
        ReduceMax(tmp, chan, tmp[64], co, false);
        event_t e3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e3);
        WaitFlag<HardEvent::V_S>(e3);
        float mx = tmp.GetValue(0);
        event_t e4 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e4);
        WaitFlag<HardEvent::S_V>(e4);
        Adds(chan, chan, -mx, co);
        Exp(chan, chan, co);
        ReduceSum(tmp, chan, tmp[64], co);
        Ln(tmp, tmp, 1);
        Adds(tmp, tmp, mx, 1);
        LocalTensor<float> o = outQ.AllocTensor<float>();
        Muls(o, tmp, t_.scale, 1);
        outQ.EnQue(o);
        o = outQ.DeQue<float>();
        DataCopyPad(yGm[n], o, DataCopyExtParams{1, 4u, 0, 0, 0});
        outQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ, wQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> accBuf, workBuf, contractBuf, sumsBuf, chanBuf, biasBuf, tmpBuf;
    GlobalTensor<float> xGm, wGm, cbGm, bGm, yGm, sGm;
    DeconvPooledLseScaleTilingData t_;
    uint32_t blk_ = 0;
    uint32_t rowLen_ = 0, rowLenAligned_ = 0, coAligned_ = 0;
};

extern "C" __global__ __aicore__ void deconv_pooled_lse_scale(GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias,
                                                               GM_ADDR channel_bias, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    DeconvPooledLseScaleKernel op;
    op.Init(x, weight, conv_bias, channel_bias, y, GetUserWorkspace(workspace), tilingData);
    op.Process();
}
