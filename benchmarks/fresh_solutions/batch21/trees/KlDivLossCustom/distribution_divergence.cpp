// distribution_divergence.cpp
// loss = sum( t * (ln t - ln p) ) / rows      ("batch mean" relative entropy)
// p: predicted probabilities (row-wise softmax), t: target probabilities.
// Each core reduces a contiguous slice to one partial value and atomically adds it
// into the single output float, which the host zero-fills before launch.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;

struct DistributionDivergenceTiling {
    uint32_t totalLo;       // element count, low 32 bits
    uint32_t totalHi;       // element count, high 32 bits
    uint32_t rows;          // divisor of the final sum
    uint32_t tileLen;       // elements per UB tile (multiple of 8)
    uint32_t perCore;       // elements per core (multiple of 8) ; last core gets the remainder
};

class DistributionDivergence {
public:
    __aicore__ inline DistributionDivergence() {}

    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR target, GM_ADDR loss, const DistributionDivergenceTiling &tt)
    {
        uint64_t total = ((uint64_t)tt.totalHi << 32) | tt.totalLo;
        uint64_t start = (uint64_t)tt.perCore * GetBlockIdx();
        count = 0;
        if (start < total) {
            uint64_t remain = total - start;
            count = remain < tt.perCore ? remain : tt.perCore;
            if (GetBlockIdx() == GetBlockNum() - 1) count = remain;
        }
        tileLen = tt.tileLen;
        invRows = 1.0f / (float)tt.rows;

        predGm.SetGlobalBuffer((__gm__ float *)pred + start);
        tgtGm.SetGlobalBuffer((__gm__ float *)target + start);
        lossGm.SetGlobalBuffer((__gm__ float *)loss, 1);

        pipe.InitBuffer(predQ, DEPTH, tileLen * sizeof(float));
        pipe.InitBuffer(tgtQ, DEPTH, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, 1, 32);
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, tileLen);

        uint64_t done = 0;
        while (done < count) {
            uint32_t len = (count - done) > tileLen ? tileLen : (uint32_t)(count - done);
            CopyIn(done, len);
            Compute(acc, len);
            done += len;
        }
        Finish(acc);
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> p = predQ.AllocTensor<float>();
        LocalTensor<float> t = tgtQ.AllocTensor<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(p, predGm[off], cp, pad);
        DataCopyPad(t, tgtGm[off], cp, pad);
        predQ.EnQue(p);
        tgtQ.EnQue(t);
    }

    __aicore__ inline void Compute(LocalTensor<float> &acc, uint32_t len)
    {
        LocalTensor<float> p = predQ.DeQue<float>();
        LocalTensor<float> t = tgtQ.DeQue<float>();
        LocalTensor<float> lt = tmpBuf.Get<float>();

        Ln(p, p, len);          // ln p
        Ln(lt, t, len);         // ln t
        PipeBarrier<PIPE_V>();
        Sub(lt, lt, p, len);    // ln t - ln p
        PipeBarrier<PIPE_V>();
        Mul(lt, lt, t, len);    // t * (ln t - ln p)
        PipeBarrier<PIPE_V>();
        Add(acc, acc, lt, len);

        predQ.FreeTensor(p);
        tgtQ.FreeTensor(t);
    }

    __aicore__ inline void Finish(LocalTensor<float> &acc)
    {
        LocalTensor<float> res = outQ.AllocTensor<float>();
        LocalTensor<float> work = tmpBuf.Get<float>();
        PipeBarrier<PIPE_V>();
        ReduceSum(res, acc, work, tileLen);
        PipeBarrier<PIPE_V>();
        Muls(res, res, invRows, 1);
        outQ.EnQue(res);

        res = outQ.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopyPad(lossGm, res, {1, (uint32_t)sizeof(float), 0, 0, 0});
        SetAtomicNone();
        outQ.FreeTensor(res);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> predQ, tgtQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<QuePosition::VECCALC> accBuf, tmpBuf;
    GlobalTensor<float> predGm, tgtGm, lossGm;
    uint64_t count;
    uint32_t tileLen;
    float invRows;
};

extern "C" __global__ __aicore__ void distribution_divergence(GM_ADDR pred, GM_ADDR target, GM_ADDR loss,
                                                              GM_ADDR tiling)
{
    DistributionDivergenceTiling tt;
    __gm__ uint32_t *src = (__gm__ uint32_t *)tiling;
    uint32_t *dst = (uint32_t *)&tt;
    for (uint32_t i = 0; i < sizeof(tt) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    DistributionDivergence op;
    op.Init(pred, target, loss, tt);
    op.Process();
}
