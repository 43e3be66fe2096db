// Soft-assignment residual pooling of a set of descriptors into K cluster residuals.
// Per sample b (x_b: [N, D]):
//   p_n      = softmax_k( (x_n . C[:, k]) * bnScale[k] + bnShift[k] )
//   V[k, :]  = sum_n p_n[k] * x_n  -  (sum_n p_n[k]) * C2[:, k]
//   V[k, :] /= ||V[k, :]||,  then the whole D x K descriptor is L2 normalized
// Output layout is [B, D*K] with element (d, k) at d*K + k. One core per sample.
#include "kernel_operator.h"

using namespace AscendC;

struct ResidualClusterPoolTiling {
    uint32_t batch;
    uint32_t points;     // N
    uint32_t dim;        // D (multiple of 64)
    uint32_t clusters;   // K (32)
};

class ResidualClusterPool {
public:
    __aicore__ inline ResidualClusterPool() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR centT, GM_ADDR bnScale, GM_ADDR bnShift, GM_ADDR anchorT,
                                GM_ADDR out, const ResidualClusterPoolTiling &t)
    {
        B = t.batch; N = t.points; D = t.dim; K = t.clusters;
        xG.SetGlobalBuffer((__gm__ float *)x);
        cG.SetGlobalBuffer((__gm__ float *)centT);     // [K, D] (assignment weights, transposed)
        sG.SetGlobalBuffer((__gm__ float *)bnScale);
        hG.SetGlobalBuffer((__gm__ float *)bnShift);
        aG.SetGlobalBuffer((__gm__ float *)anchorT);   // [K, D] (visual words, transposed)
        oG.SetGlobalBuffer((__gm__ float *)out);
        pipe.InitBuffer(bigA, K * D * sizeof(float));   // centroids, later the transposed output
        pipe.InitBuffer(vladBuf, K * D * sizeof(float));
        pipe.InitBuffer(rowQ, 2, D * sizeof(float));
        pipe.InitBuffer(prodBuf, D * sizeof(float));
        pipe.InitBuffer(partBuf, K * 8 * sizeof(float));
        pipe.InitBuffer(probBuf, 64 * sizeof(float));
        pipe.InitBuffer(massBuf, 64 * sizeof(float));
        pipe.InitBuffer(bnBuf, 2 * 64 * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t b = GetBlockIdx(); b < B; b += GetBlockNum()) {
            LocalTensor<float> cent = bigA.Get<float>();
            LocalTensor<float> bn = bnBuf.Get<float>();
            DataCopy(cent, cG, K * D);
            DataCopy(bn, sG, K);
            DataCopy(bn[64], hG, K);
            PipeBarrier<PIPE_ALL>();
            LocalTensor<float> vlad = vladBuf.Get<float>();
            LocalTensor<float> mass = massBuf.Get<float>();
            Duplicate(vlad, 0.0f, K * D);
            Duplicate(mass, 0.0f, K);
            for (uint32_t n = 0; n < N; ++n) {
                AccumulatePoint(b, n);
            }
            Finish(b);
        }
    }

private:
    __aicore__ inline float ScalarOf(const LocalTensor<float> &t)
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return t.GetValue(0);
    }

    __aicore__ inline void AccumulatePoint(uint32_t b, uint32_t n)
    {
        LocalTensor<float> xr = rowQ.AllocTensor<float>();
        DataCopy(xr, xG[((uint64_t)b * N + n) * D], D);
        rowQ.EnQue(xr);
        xr = rowQ.DeQue<float>();

        LocalTensor<float> cent = bigA.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> part = partBuf.Get<float>();
        LocalTensor<float> p = probBuf.Get<float>();
        LocalTensor<float> bn = bnBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> vlad = vladBuf.Get<float>();
        LocalTensor<float> mass = massBuf.Get<float>();
        uint32_t reps = D / 64;

        // logits: per cluster, elementwise product then 64-wide partial sums (reps per cluster)
        for (uint32_t k = 0; k < K; ++k) {
            Mul(prod, cent[k * D], xr, D);
            PipeBarrier<PIPE_V>();
            WholeReduceSum(part[k * reps], prod, 64, (int32_t)reps, 1, 1, 8);
            PipeBarrier<PIPE_V>();
        }
        // fold the `reps` partials of each cluster (reps = 8 -> one 32B block per cluster)
        WholeReduceSum(p, part, (int32_t)reps, (int32_t)K, 1, 1, 1);
        PipeBarrier<PIPE_V>();
        Mul(p, p, bn, K);
        Add(p, p, bn[64], K);
        PipeBarrier<PIPE_V>();

        // softmax over K
        ReduceMax(red, p, prod, K, false);
        float mx = ScalarOf(red);
        Adds(p, p, -mx, K);
        Exp(p, p, K);
        ReduceSum(red, p, prod, K);
        float s = ScalarOf(red);
        Muls(p, p, 1.0f / s, K);
        Add(mass, mass, p, K);
        float pv[32];
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        for (uint32_t k = 0; k < K; ++k) pv[k] = p.GetValue(k);
        for (uint32_t k = 0; k < K; ++k) {
            Axpy(vlad[k * D], xr, pv[k], D);
        }
        rowQ.FreeTensor(xr);
    }

    __aicore__ inline void Finish(uint32_t b)
    {
        LocalTensor<float> vlad = vladBuf.Get<float>();
        LocalTensor<float> mass = massBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> outT = bigA.Get<float>();   // centroids no longer needed

        float m[32];
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        for (uint32_t k = 0; k < K; ++k) m[k] = mass.GetValue(k);

        float total = 0.0f;
        for (uint32_t k = 0; k < K; ++k) {
            LocalTensor<float> anc = rowQ.AllocTensor<float>();
            DataCopy(anc, aG[(uint64_t)k * D], D);
            rowQ.EnQue(anc);
            anc = rowQ.DeQue<float>();
            Axpy(vlad[k * D], anc, -m[k], D);
            rowQ.FreeTensor(anc);
            PipeBarrier<PIPE_V>();
            // intra normalization of cluster k over D
            Mul(prod, vlad[k * D], vlad[k * D], D);
            PipeBarrier<PIPE_V>();
            ReduceSum(red, prod, prod, D);
            float ss = ScalarOf(red);
            float nrm = ss > 1e-24f ? ss : 1e-24f;
            red.SetValue(0, nrm);
            event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(e2);
            WaitFlag<HardEvent::S_V>(e2);
            Sqrt(red, red, 8);
            float inv = 1.0f / ScalarOf(red);
            Muls(vlad[k * D], vlad[k * D], inv, D);
            total += ss * inv * inv;
        }
        float g = total > 1e-24f ? total : 1e-24f;
        red.SetValue(0, g);
        event_t e3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e3);
        WaitFlag<HardEvent::S_V>(e3);
        Sqrt(red, red, 8);
        float ginv = 1.0f / ScalarOf(red);
        Muls(vlad, vlad, ginv, K * D);

        // [K, D] -> [D, K]
        event_t e4 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e4);
        WaitFlag<HardEvent::V_S>(e4);
        for (uint32_t d = 0; d < D; ++d) {
            for (uint32_t k = 0; k < K; ++k) {
                outT.SetValue(d * K + k, vlad.GetValue(k * D + d));
            }
        }
        event_t e5 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e5);
        WaitFlag<HardEvent::S_MTE3>(e5);
        DataCopy(oG[(uint64_t)b * K * D], outT, K * D);
        PipeBarrier<PIPE_ALL>();
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> bigA, vladBuf, prodBuf, partBuf, probBuf, massBuf, bnBuf, redBuf;
    TQue<QuePosition::VECIN, 2> rowQ;
    GlobalTensor<float> xG, cG, sG, hG, aG, oG;
    uint32_t B, N, D, K;
};

extern "C" __global__ __aicore__ void residual_cluster_pool(GM_ADDR x, GM_ADDR centT, GM_ADDR bnScale,
                                                            GM_ADDR bnShift, GM_ADDR anchorT, GM_ADDR out,
                                                            GM_ADDR tiling)
{
    ResidualClusterPoolTiling t;
    __gm__ uint32_t *src = (__gm__ uint32_t *)tiling;
    t.batch = src[0];
    t.points = src[1];
    t.dim = src[2];
    t.clusters = src[3];
    ResidualClusterPool op;
    op.Init(x, centT, bnScale, bnShift, anchorT, out, t);
    op.Process();
}
