/*
 * streaming_softmax_mix.cpp
 *
 * out[b, i, :] = sum_j softmax_j(q_i . k_j / sqrt(D)) * v_j      (no mask)
 *
 * Built for very long sequences with a very wide head (D = 12288): a single query
 * row, its output accumulator and one key/value row fill most of UB, so each core
 * owns whole query rows and streams the keys/values past them. The softmax is
 * computed online over key blocks of KEY_BLOCK rows (running max m, running
 * denominator l), so the S x S score matrix never exists.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t KEY_BLOCK = 64;

struct StreamingSoftmaxMixTiling {
    uint32_t batch;
    uint32_t seqQ;
    uint32_t seqK;
    uint32_t dim;        // head width, multiple of 8
    float scale;         // 1 / sqrt(dim)
    uint32_t workElems;  // scratch size for ReduceSum over `dim` elements
};

template <HardEvent E>
__aicore__ inline void Barrier()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(id);
    WaitFlag<E>(id);
}

class StreamingSoftmaxMix {
public:
    __aicore__ inline StreamingSoftmaxMix() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out, const StreamingSoftmaxMixTiling &t)
    {
        tiling = t;
        qGm.SetGlobalBuffer((__gm__ float *)q);
        kGm.SetGlobalBuffer((__gm__ float *)k);
        vGm.SetGlobalBuffer((__gm__ float *)v);
        oGm.SetGlobalBuffer((__gm__ float *)out);

        const uint32_t rowBytes = t.dim * sizeof(float);
        pipe.InitBuffer(qQueue, 1, rowBytes);
        pipe.InitBuffer(kvQueue, 1, rowBytes);
        pipe.InitBuffer(accBuf, rowBytes);
        pipe.InitBuffer(scoreBuf, KEY_BLOCK * sizeof(float));
        pipe.InitBuffer(workBuf, (t.workElems + 64) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t rows = tiling.batch * tiling.seqQ;
        for (uint32_t r = GetBlockIdx(); r < rows; r += GetBlockNum()) {
            OneQuery(r / tiling.seqQ, r % tiling.seqQ);
        }
    }

private:
    __aicore__ inline LocalTensor<float> LoadRow(GlobalTensor<float> &src, uint64_t row, TQue<QuePosition::VECIN, 1> &q)
    {
        LocalTensor<float> t = q.AllocTensor<float>();
        DataCopy(t, src[row * tiling.dim], tiling.dim);
        q.EnQue(t);
        return q.DeQue<float>();
    }

    __aicore__ inline void OneQuery(uint32_t b, uint32_t i)
    {
        const uint32_t d = tiling.dim;
        LocalTensor<float> qRow = LoadRow(qGm, (uint64_t)b * tiling.seqQ + i, qQueue);
        // fold the 1/sqrt(D) scale into q once
        Muls(qRow, qRow, tiling.scale, d);

        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> score = scoreBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = work[tiling.workElems];
        Duplicate(acc, 0.0f, d);

        float runMax = -3.4e38f;
        float runSum = 0.0f;
        const uint64_t kvBase = (uint64_t)b * tiling.seqK;

        for (uint32_t j0 = 0; j0 < tiling.seqK; j0 += KEY_BLOCK) {
            uint32_t blk = (tiling.seqK - j0 < KEY_BLOCK) ? (tiling.seqK - j0) : KEY_BLOCK;

            // 1) scores of this key block
            float blkMax = -3.4e38f;
            for (uint32_t j = 0; j < blk; ++j) {
                LocalTensor<float> kRow = LoadRow(kGm, kvBase + j0 + j, kvQueue);
                Mul(kRow, kRow, qRow, d);
                ReduceSum(red, kRow, work, d);
                Barrier<HardEvent::V_S>();
                float s = red.GetValue(0);
                score.SetValue(j, s);
                blkMax = s > blkMax ? s : blkMax;
                kvQueue.FreeTensor(kRow);
            }

            // 2) online softmax bookkeeping
            float newMax = blkMax > runMax ? blkMax : runMax;
            Barrier<HardEvent::S_V>();
            Adds(score, score, -newMax, blk);
            Exp(score, score, blk);
            ReduceSum(red, score, work, blk);
            // correction factor exp(oldMax - newMax) computed on the vector unit
            Duplicate(red[8], runMax - newMax, 8);
            Exp(red[8], red[8], 8);
            Barrier<HardEvent::V_S>();
            float alpha = red.GetValue(8);
            runSum = runSum * alpha + red.GetValue(0);
            runMax = newMax;
            Barrier<HardEvent::S_V>();
            Muls(acc, acc, alpha, d);

            // 3) acc += p_j * v_j
            for (uint32_t j = 0; j < blk; ++j) {
                float p = score.GetValue(j);
                LocalTensor<float> vRow = LoadRow(vGm, kvBase + j0 + j, kvQueue);
                Axpy(acc, vRow, p, d);
                kvQueue.FreeTensor(vRow);
            }
        }

        // normalise in place and store straight from the accumulator (UB is too
        // small for a separate D-wide output buffer next to q, acc and a k/v row)
        Muls(acc, acc, 1.0f / runSum, d);
        Barrier<HardEvent::V_MTE3>();
        DataCopy(oGm[((uint64_t)b * tiling.seqQ + i) * d], acc, d);
        Barrier<HardEvent::MTE3_V>();
        qQueue.FreeTensor(qRow);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qQueue, kvQueue;
    TBuf<QuePosition::VECCALC> accBuf, scoreBuf, workBuf;
    GlobalTensor<float> qGm, kGm, vGm, oGm;
    StreamingSoftmaxMixTiling tiling;
};

extern "C" __global__ __aicore__ void streaming_softmax_mix(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out,
                                                            GM_ADDR tilingGm)
{
    StreamingSoftmaxMixTiling t;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    auto dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t n = 0; n < sizeof(t) / 4; ++n) {
        dst[n] = src[n];
    }
    StreamingSoftmaxMix op;
    op.Init(q, k, v, out, t);
    op.Process();
}
