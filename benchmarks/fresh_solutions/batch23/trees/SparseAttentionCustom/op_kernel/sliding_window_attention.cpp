/*
 * SlidingWindowAttention: per head softmax(q k^T * scale) v where query i only sees keys
 * j in [i - window, i + window).  A task covers (batch, head, block of queries); the K and
 * V rows the block can reach (a "band") are loaded once with strided DMA and reused.
 */
#include "kernel_operator.h"
using namespace AscendC;

class SlidingWindowAttentionKernel {
public:
    __aicore__ inline SlidingWindowAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out,
                                const SlidingWindowAttentionTilingData& tiling)
    {
        td = tiling;
        dh = td.headDim;
        qGm.SetGlobalBuffer((__gm__ float*)q);
        kGm.SetGlobalBuffer((__gm__ float*)k);
        vGm.SetGlobalBuffer((__gm__ float*)v);
        oGm.SetGlobalBuffer((__gm__ float*)out);
        pipe.InitBuffer(kBand, td.bandRows * dh * sizeof(float));
        pipe.InitBuffer(vBand, td.bandRows * dh * sizeof(float));
        pipe.InitBuffer(qQue, 2, dh * sizeof(float));
        pipe.InitBuffer(oQue, 2, dh * sizeof(float));
        pipe.InitBuffer(prodBuf, td.keysPerQuery * dh * sizeof(float));
        pipe.InitBuffer(scoreBuf, 256 * sizeof(float));
        pipe.InitBuffer(workBuf, 256 * sizeof(float));
        pipe.InitBuffer(accBuf, dh * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = GetBlockIdx(); task < td.taskNum; task += GetBlockNum()) {
            uint32_t blk = task % td.blocksPerSeq;
            uint32_t head = (task / td.blocksPerSeq) % td.heads;
            uint32_t b = task / (td.blocksPerSeq * td.heads);
            uint32_t q0 = blk * td.queryBlock;
            uint32_t q1 = q0 + td.queryBlock < td.seqLen ? q0 + td.queryBlock : td.seqLen;
            // union of all windows of the block
            uint32_t lo = q0 > td.window ? q0 - td.window : 0;
            uint32_t hi = q1 - 1 + td.window < td.seqLen ? q1 - 1 + td.window : td.seqLen;
            LoadBand(b, head, lo, hi);
            for (uint32_t i = q0; i < q1; ++i) {
                AttendOne(b, head, i, lo);
            }
        }
    }

private:
    __aicore__ inline uint64_t RowOffset(uint32_t b, uint32_t s, uint32_t head) const
    {
        return ((uint64_t)b * td.seqLen + s) * td.embed + (uint64_t)head * dh;
    }

    __aicore__ inline void LoadBand(uint32_t b, uint32_t head, uint32_t lo, uint32_t hi)
    {
        // band copies must not overwrite rows still read by the previous task
        event_t vm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(vm);
        WaitFlag<HardEvent::V_MTE2>(vm);
        LocalTensor<float> kb = kBand.Get<float>();
        LocalTensor<float> vb = vBand.Get<float>();
        uint16_t rows = static_cast<uint16_t>(hi - lo);
        // rows of one head are dh contiguous floats, E floats apart in GM
        DataCopyExtParams cp{rows, (uint32_t)(dh * sizeof(float)), (uint32_t)((td.embed - dh) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(kb, kGm[RowOffset(b, lo, head)], cp, pad);
        DataCopyPad(vb, vGm[RowOffset(b, lo, head)], cp, pad);
        event_t mv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mv);
        WaitFlag<HardEvent::MTE2_V>(mv);
    }

    __aicore__ inline void AttendOne(uint32_t b, uint32_t head, uint32_t i, uint32_t bandLo)
    {
        uint32_t j0 = i > td.window ? i - td.window : 0;
        uint32_t j1 = i + td.window < td.seqLen ? i + td.window : td.seqLen;
        uint32_t nk = j1 - j0;
        LocalTensor<float> kb = kBand.Get<float>()[(j0 - bandLo) * dh];
        LocalTensor<float> vb = vBand.Get<float>()[(j0 - bandLo) * dh];

        LocalTensor<float> q = qQue.AllocTensor<float>();
        DataCopy(q, qGm[RowOffset(b, i, head)], dh);
        qQue.EnQue(q);
        q = qQue.DeQue<float>();
        Muls(q, q, td.scale, dh);
        PipeBarrier<PIPE_V>();

        // prod[k, :] = K[k, :] * q ; then fold each row to 64 lanes and reduce per row
        LocalTensor<float> prod = prodBuf.Get<float>();
        for (uint32_t kk = 0; kk < nk; ++kk) {
            Mul(prod[kk * dh], kb[kk * dh], q, dh);
        }
        PipeBarrier<PIPE_V>();
        uint8_t rowRep = static_cast<uint8_t>(dh / 8);
        for (uint32_t c = 64; c < dh; c += 64) {
            uint32_t lanes = dh - c < 64 ? dh - c : 64;
            Add(prod, prod, prod[c], lanes, static_cast<uint8_t>(nk), {1, 1, 1, rowRep, rowRep, rowRep});
            PipeBarrier<PIPE_V>();
        }
        LocalTensor<float> scores = scoreBuf.Get<float>();
        uint32_t lanes0 = dh < 64 ? dh : 64;
        WholeReduceSum<float>(scores, prod, lanes0, static_cast<int32_t>(nk), 1, 1, rowRep);
        PipeBarrier<PIPE_V>();

        // numerically stable softmax over nk scores
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = work[128];
        ReduceMax<float>(red, scores, work, nk, false);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float mx = red.GetValue(0);
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Adds(scores, scores, -mx, nk);
        PipeBarrier<PIPE_V>();
        Exp(scores, scores, nk);
        PipeBarrier<PIPE_V>();
        ReduceSum<float>(red, scores, work, nk);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float inv = 1.0f / red.GetValue(0);

        // out = sum_k p_k * V[k, :]
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, dh);
        PipeBarrier<PIPE_V>();
        for (uint32_t kk = 0; kk < nk; ++kk) {
            float p = scores.GetValue(kk) * inv;
            Axpy(acc, vb[kk * dh], p, dh);
            PipeBarrier<PIPE_V>();
        }
        qQue.FreeTensor(q);

        LocalTensor<float> o = oQue.AllocTensor<float>();
        DataCopy(o, acc, dh);
        oQue.EnQue(o);
        o = oQue.DeQue<float>();
        DataCopy(oGm[RowOffset(b, i, head)], o, dh);
        oQue.FreeTensor(o);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> kBand, vBand, prodBuf, scoreBuf, workBuf, accBuf;
    TQue<QuePosition::VECIN, 2> qQue;
    TQue<QuePosition::VECOUT, 2> oQue;
    GlobalTensor<float> qGm, kGm, vGm, oGm;
    SlidingWindowAttentionTilingData td;
    uint32_t dh = 0;
};

extern "C" __global__ __aicore__ void sliding_window_attention(GM_ADDR query, GM_ADDR key, GM_ADDR value,
                                                               GM_ADDR attention_out, GM_ADDR workspace,
                                                               GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SlidingWindowAttentionKernel op;
    op.Init(query, key, value, attention_out, td);
    op.Process();
}
