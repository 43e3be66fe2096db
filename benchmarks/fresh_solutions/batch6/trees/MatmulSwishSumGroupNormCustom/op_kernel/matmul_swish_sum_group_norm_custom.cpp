#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr uint32_t STAT_SLOT = 256;     // floats reserved per statistics vector
constexpr uint32_t REP_ELEMS = 64;      // fp32 elements per vector repeat (256 B)

// out = GroupNorm(swish(x @ W^T + b_lin) + bias) * gamma + beta
// Each AIV core owns a contiguous band of rows: the cube writes the band's linear output into y,
// then the vector core walks the band row by row (a row holds all groups of one sample).
class MatmulSwishSumGroupNormKernel {
public:
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float, true>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;

    __aicore__ inline MatmulSwishSumGroupNormKernel() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR linBias, GM_ADDR bias, GM_ADDR gamma,
                                GM_ADDR beta, GM_ADDR y, const MatmulSwishSumGroupNormCustomTilingData& td,
                                TPipe* pipeIn)
    {
        pipe = pipeIn;
        M = td.M; N = td.N; K = td.K;
        G = td.numGroups;
        gs = td.groupSize;
        eps = td.eps;
        uint32_t rowBeg = GetBlockIdx() * td.rowsPerCore;
        if (rowBeg >= M) {
            return false;
        }
        rows = (M - rowBeg) < td.rowsPerCore ? (M - rowBeg) : td.rowsPerCore;

        xGm.SetGlobalBuffer((__gm__ float*)x + (uint64_t)rowBeg * K);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        linBiasGm.SetGlobalBuffer((__gm__ float*)linBias);
        yGm.SetGlobalBuffer((__gm__ float*)y + (uint64_t)rowBeg * N);

        pipe->InitBuffer(inQ, 2, N * sizeof(float));
        pipe->InitBuffer(outQ, 2, N * sizeof(float));
        pipe->InitBuffer(workBuf, N * sizeof(float));
        pipe->InitBuffer(paramBuf, 3 * N * sizeof(float));
        pipe->InitBuffer(statBuf, 5 * STAT_SLOT * sizeof(float));

        // bias / gamma / beta stay resident for the whole band
        LocalTensor<float> params = paramBuf.Get<float>();
        GlobalTensor<float> tmpGm;
        tmpGm.SetGlobalBuffer((__gm__ float*)bias);
        DataCopy(params, tmpGm, N);
        tmpGm.SetGlobalBuffer((__gm__ float*)gamma);
        DataCopy(params[N], tmpGm, N);
        tmpGm.SetGlobalBuffer((__gm__ float*)beta);
        DataCopy(params[2 * N], tmpGm, N);
        event_t ev = static_cast<event_t>(pipe->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);

        LocalTensor<float> stat = statBuf.Get<float>();
        Duplicate(stat[4 * STAT_SLOT], 1.0f, STAT_SLOT);
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(linBiasGm);
        mm.SetTail(rows, N, K);
        mm.IterateAll(yGm);
        mm.End();
        PipeBarrier<PIPE_ALL>();

        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> zin = inQ.AllocTensor<float>();
            DataCopy(zin, yGm[(uint64_t)r * N], N);
            inQ.EnQue(zin);
            ComputeRow();
            LocalTensor<float> res = outQ.DeQue<float>();
            DataCopy(yGm[(uint64_t)r * N], res, N);
            outQ.FreeTensor(res);
        }
    }

private:
    __aicore__ inline void ComputeRow()
    {
        LocalTensor<float> z = inQ.DeQue<float>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        LocalTensor<float> act = workBuf.Get<float>();
        LocalTensor<float> params = paramBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> sumV = stat;
        LocalTensor<float> sqV = stat[STAT_SLOT];
        LocalTensor<float> meanV = stat[2 * STAT_SLOT];
        LocalTensor<float> rstdV = stat[3 * STAT_SLOT];
        LocalTensor<float> ones = stat[4 * STAT_SLOT];

        // swish(z) = z / (1 + exp(-z)), then + bias
        Muls(out, z, -1.0f, N);
        Exp(out, out, N);
        Adds(out, out, 1.0f, N);
        Div(act, z, out, N);
        inQ.FreeTensor(z);
        Add(act, act, params, N);

        // per-64 partial sums of v and v^2
        uint32_t reps = N / REP_ELEMS;
        WholeReduceSum(sumV, act, REP_ELEMS, reps, 1, 1, 8);
        Mul(out, act, act, N);
        WholeReduceSum(sqV, out, REP_ELEMS, reps, 1, 1, 8);

        uint32_t k = gs / REP_ELEMS;
        if (k > 1) {
            // fold k partials into one value per group
            event_t evVS = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            for (uint32_t g = 0; g < G; ++g) {
                float s = 0.0f;
                float q = 0.0f;
                for (uint32_t j = 0; j < k; ++j) {
                    s += sumV.GetValue(g * k + j);
                    q += sqV.GetValue(g * k + j);
                }
                sumV.SetValue(g, s);
                sqV.SetValue(g, q);
            }
            event_t evSV = static_cast<event_t>(pipe->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(evSV);
            WaitFlag<HardEvent::S_V>(evSV);
        }

        // mean, var = E[v^2] - mean^2, rstd = 1 / sqrt(var + eps)  (vectorised over groups)
        float inv = 1.0f / static_cast<float>(gs);
        uint32_t gA = (G + 7) / 8 * 8;
        Muls(meanV, sumV, inv, gA);
        Muls(sqV, sqV, inv, gA);
        Mul(rstdV, meanV, meanV, gA);
        Sub(rstdV, sqV, rstdV, gA);
        Maxs(rstdV, rstdV, 0.0f, gA);
        Adds(rstdV, rstdV, eps, gA);
        Sqrt(rstdV, rstdV, gA);
        Div(rstdV, ones, rstdV, gA);

        event_t ev = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        for (uint32_t g = 0; g < G; ++g) {
            float mu = meanV.GetValue(g);
            float rs = rstdV.GetValue(g);
            Adds(act[g * gs], act[g * gs], -mu, gs);
            Muls(act[g * gs], act[g * gs], rs, gs);
        }

        // affine
        Mul(out, act, params[N], N);
        Add(out, out, params[2 * N], N);
        outQ.EnQue(out);
    }

private:
    TPipe* pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> workBuf, paramBuf, statBuf;
    GlobalTensor<float> xGm, wGm, linBiasGm, yGm;
    uint32_t M, N, K, G, gs, rows;
    float eps;
};

extern "C" __global__ __aicore__ void matmul_swish_sum_group_norm_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR linear_bias, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta,
    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    MatmulSwishSumGroupNormKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    if (!op.Init(x, weight, linear_bias, bias, gamma, beta, y, td, &pipe)) {
        op.mm.End();
        return;
    }
    op.Process();
}
