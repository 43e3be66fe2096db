// softmax(Q K^T * scale) V per (batch, head), computed block by block over the keys with a
// running max / running denominator per query row, so the sequence length is not bounded by UB.
//
// q.k for a whole key block uses one strided Mul (query row broadcast with src1 repeat stride 0),
// a column fold down to 64 lanes, and one WholeReduceSum that emits one score per key.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t LANES = 64;   // fp32 elements per vector repeat
constexpr float NEG_BIG = -3.0e38f;
}

template <typename T>
class BlockAttention {
public:
    __aicore__ inline BlockAttention() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, const BlockwiseSoftmaxAttentionTiling &tiling)
    {
        t = tiling;
        d = t.headDim;
        blk = t.qBlock;
        repStride = static_cast<uint8_t>(d / 8);
        qGm.SetGlobalBuffer((__gm__ T *)q);
        kGm.SetGlobalBuffer((__gm__ T *)k);
        vGm.SetGlobalBuffer((__gm__ T *)v);
        oGm.SetGlobalBuffer((__gm__ T *)o);

        uint32_t tile = blk * d;
        pipe.InitBuffer(ldQ, 2, tile * sizeof(T));
        pipe.InitBuffer(stQ, 1, tile * sizeof(T));
        pipe.InitBuffer(qBuf, tile * sizeof(float));
        pipe.InitBuffer(oBuf, tile * sizeof(float));
        pipe.InitBuffer(kBuf, tile * sizeof(float));
        pipe.InitBuffer(vBuf, tile * sizeof(float));
        pipe.InitBuffer(prodBuf, tile * sizeof(float));
        pipe.InitBuffer(scoreBuf, blk * sizeof(float));
        pipe.InitBuffer(workBuf, blk * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(statBuf, 2 * blk * sizeof(float));   // running max | running sum
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = GetBlockIdx(); task < t.totalTasks; task += t.coreNum) {
            uint32_t head = task / t.qBlocksPerHead;
            uint32_t q0 = (task % t.qBlocksPerHead) * blk;
            uint32_t rows = (t.qLen - q0) < blk ? (t.qLen - q0) : blk;
            RunTask(head, q0, rows);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    // GM (T) -> UB float, rows*d contiguous elements
    __aicore__ inline void LoadTile(const LocalTensor<float> &dst, const GlobalTensor<T> &src, uint32_t cnt)
    {
        LocalTensor<T> st = ldQ.AllocTensor<T>();
        DataCopy(st, src, cnt);
        ldQ.EnQue(st);
        st = ldQ.DeQue<T>();
        if constexpr (std::is_same<T, half>::value) {
            Cast(dst, st, RoundMode::CAST_NONE, cnt);
        } else {
            Adds(dst, st, 0.0f, cnt);
        }
        ldQ.FreeTensor(st);
    }

    // scores[j] = sum_c K[j, c] * q[c]  for j < keys
    __aicore__ inline void Scores(const LocalTensor<float> &sc, const LocalTensor<float> &qRow,
                                  const LocalTensor<float> &kt, const LocalTensor<float> &prod, uint32_t keys)
    {
        for (uint32_t c0 = 0; c0 < d; c0 += LANES) {
            uint64_t m = (d - c0) < LANES ? (d - c0) : LANES;
            Mul(prod[c0], kt[c0], qRow[c0], m, static_cast<uint8_t>(keys),
                {1, 1, 1, repStride, repStride, 0});
        }
        PipeBarrier<PIPE_V>();
        for (uint32_t c0 = LANES; c0 < d; c0 += LANES) {
            uint64_t m = (d - c0) < LANES ? (d - c0) : LANES;
            Add(prod, prod, prod[c0], m, static_cast<uint8_t>(keys),
                {1, 1, 1, repStride, repStride, repStride});
            PipeBarrier<PIPE_V>();
        }
        int32_t m0 = static_cast<int32_t>(d < LANES ? d : LANES);
        WholeReduceSum(sc, prod, m0, static_cast<int32_t>(keys), 1, 1, repStride);
    }

    __aicore__ inline void RunTask(uint32_t head, uint32_t q0, uint32_t rows)
    {
        LocalTensor<float> qf = qBuf.Get<float>();
        LocalTensor<float> of = oBuf.Get<float>();
        LocalTensor<float> kf = kBuf.Get<float>();
        LocalTensor<float> vf = vBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> sc = scoreBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();

        uint64_t qBase = (static_cast<uint64_t>(head) * t.qLen + q0) * d;
        uint64_t kvBase = static_cast<uint64_t>(head) * t.kvLen * d;

        LoadTile(qf, qGm[qBase], rows * d);
        Muls(qf, qf, t.scale, rows * d);            // fold the softmax scale into Q
        Duplicate(of, 0.0f, rows * d);
        Sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < rows; ++i) {
            stat.SetValue(i, NEG_BIG);
            stat.SetValue(blk + i, 0.0f);
        }

        for (uint32_t k0 = 0; k0 < t.kvLen; k0 += t.kvBlock) {
            uint32_t keys = (t.kvLen - k0) < t.kvBlock ? (t.kvLen - k0) : t.kvBlock;
            Sync<HardEvent::S_V>();
            LoadTile(kf, kGm[kvBase + static_cast<uint64_t>(k0) * d], keys * d);
            LoadTile(vf, vGm[kvBase + static_cast<uint64_t>(k0) * d], keys * d);
            PipeBarrier<PIPE_V>();

            for (uint32_t i = 0; i < rows; ++i) {
                LocalTensor<float> oRow = of[i * d];
                Scores(sc, qf[i * d], kf, prod, keys);
                PipeBarrier<PIPE_V>();
                ReduceMax(red, sc, work, keys, false);
                Sync<HardEvent::V_S>();
                float blockMax = red.GetValue(0);
                float mOld = stat.GetValue(i);
                float mNew = blockMax > mOld ? blockMax : mOld;

                Adds(sc, sc, -mNew, keys);
                Exp(sc, sc, keys);
                PipeBarrier<PIPE_V>();
                ReduceSum(work, sc, prod, keys);      // prod is free again here
                Duplicate(red, mOld - mNew, 8);
                PipeBarrier<PIPE_V>();
                Exp(red, red, 8);
                Sync<HardEvent::V_S>();
                float corr = red.GetValue(0);
                float blockSum = work.GetValue(0);
                stat.SetValue(i, mNew);
                stat.SetValue(blk + i, stat.GetValue(blk + i) * corr + blockSum);

                // o_i = o_i * corr + sum_j p_j v_j
                Muls(oRow, oRow, corr, d);
                for (uint32_t j = 0; j < keys; ++j) {
                    Axpy(oRow, vf[j * d], sc.GetValue(j), d);
                }
                PipeBarrier<PIPE_V>();
            }
        }

        // normalise and write back
        for (uint32_t i = 0; i < rows; ++i) {
            float inv = 1.0f / stat.GetValue(blk + i);
            Muls(of[i * d], of[i * d], inv, d);
        }
        LocalTensor<T> out = stQ.AllocTensor<T>();
        if constexpr (std::is_same<T, half>::value) {
            Cast(out, of, RoundMode::CAST_ROUND, rows * d);
        } else {
            Adds(out, of, 0.0f, rows * d);
        }
        stQ.EnQue(out);
        out = stQ.DeQue<T>();
        DataCopy(oGm[qBase], out, rows * d);
        stQ.FreeTensor(out);
        Sync<HardEvent::MTE3_V>();
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> ldQ;
    TQue<QuePosition::VECOUT, 1> stQ;
    TBuf<TPosition::VECCALC> qBuf, oBuf, kBuf, vBuf, prodBuf, scoreBuf, workBuf, redBuf, statBuf;
    GlobalTensor<T> qGm, kGm, vGm, oGm;
    BlockwiseSoftmaxAttentionTiling t;
    uint32_t d = 0, blk = 0;
    uint8_t repStride = 0;
};

extern "C" __global__ __aicore__ void blockwise_softmax_attention(GM_ADDR query, GM_ADDR key, GM_ADDR value,
                                                                  GM_ADDR attn_out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        BlockAttention<float> op;
        op.Init(query, key, value, attn_out, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        BlockAttention<half> op;
        op.Init(query, key, value, attn_out, td);
        op.Process();
    }
}
