#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr uint32_t MAX_TILE_COLS = 4096;   // floats per UB column tile

class KernelMatmulGroupNormLeakyReluSum {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float, false>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline KernelMatmulGroupNormLeakyReluSum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const MatmulGroupNormLeakyReluSumCustomTilingData& td)
    {
        M = td.M; N = td.N; K = td.K;
        groupSize = td.groupSize;
        eps = td.eps;
        slope = td.negSlope;
        uint32_t blk = GetBlockIdx();
        rowStart = blk * td.rowsPerCore;
        rowCnt = (rowStart + td.rowsPerCore > M) ? (M - rowStart) : td.rowsPerCore;

        // column tile = whole number of groups
        groupsPerTile = MAX_TILE_COLS / groupSize;
        if (groupsPerTile == 0) groupsPerTile = 1;
        if (groupsPerTile > td.numGroups) groupsPerTile = td.numGroups;
        tileCols = groupsPerTile * groupSize;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)M * K);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)N * K);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, N);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, N);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, N);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)M * N);

        pipe.InitBuffer(inQ, 2, tileCols * sizeof(float));
        pipe.InitBuffer(outQ, 2, tileCols * sizeof(float));
        pipe.InitBuffer(gammaBuf, tileCols * sizeof(float));
        pipe.InitBuffer(betaBuf, tileCols * sizeof(float));
        pipe.InitBuffer(sqBuf, groupSize * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, 256 * sizeof(float));
    }

    __aicore__ inline void RunMatmul()
    {
        if (rowCnt == 0) return;
        // y[rows] = x[rows] @ W^T + b
        mm.SetTensorA(xGm[(uint64_t)rowStart * K]);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(rowCnt, N, K);
        mm.IterateAll(yGm[(uint64_t)rowStart * N]);
        mm.End();
    }

    __aicore__ inline void RunNorm()
    {
        if (rowCnt == 0) return;
        PipeBarrier<PIPE_ALL>();   // matmul result must be in GM
        for (uint32_t c0 = 0; c0 < N; c0 += tileCols) {
            uint32_t cols = (c0 + tileCols > N) ? (N - c0) : tileCols;
            LocalTensor<float> gLocal = gammaBuf.Get<float>();
            LocalTensor<float> bLocal = betaBuf.Get<float>();
            DataCopy(gLocal, gammaGm[c0], cols);
            DataCopy(bLocal, betaGm[c0], cols);
            PipeBarrier<PIPE_ALL>();
            for (uint32_t r = 0; r < rowCnt; ++r) {
                uint64_t off = (uint64_t)(rowStart + r) * N + c0;
                CopyIn(off, cols);
                Compute(cols, gLocal, bLocal);
                CopyOut(off, cols);
            }
        }
    }

    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cols)
    {
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopy(t, yGm[off], cols);
        inQ.EnQue(t);
    }

    __aicore__ inline float ToScalar(const LocalTensor<float>& red)
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        float v = red.GetValue(0);
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
        return v;
    }

    __aicore__ inline float ReduceScalar(const LocalTensor<float>& src, uint32_t cnt)
    {
        LocalTensor<float> red = redBuf.Get<float>();
        ReduceSum<float>(red, src, workBuf.Get<float>(), cnt);
        return ToScalar(red);
    }

    __aicore__ inline void Compute(uint32_t cols, const LocalTensor<float>& gLocal, const LocalTensor<float>& bLocal)
    {
        LocalTensor<float> xin = inQ.DeQue<float>();
        LocalTensor<float> yout = outQ.AllocTensor<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        float inv = 1.0f / (float)groupSize;
        uint32_t nGroups = cols / groupSize;
        for (uint32_t g = 0; g < nGroups; ++g) {
            LocalTensor<float> seg = xin[g * groupSize];
            LocalTensor<float> dst = yout[g * groupSize];
            float mean = ReduceScalar(seg, groupSize) * inv;
            Adds(dst, seg, -mean, groupSize);
            Mul(sq, dst, dst, groupSize);
            // rstd = 1 / sqrt(var + eps), done on an 8-lane scratch
            LocalTensor<float> red = redBuf.Get<float>();
            ReduceSum<float>(red, sq, workBuf.Get<float>(), groupSize);
            Muls(red, red, inv, 1);
            Adds(red, red, eps, 1);
            Sqrt(red, red, 1);
            float rstd = 1.0f / ToScalar(red);
            Muls(dst, dst, rstd, groupSize);
        }
        // affine, leaky relu, x + x
        Mul(yout, yout, gLocal, cols);
        Add(yout, yout, bLocal, cols);
        LeakyRelu(yout, yout, slope, cols);
        Muls(yout, yout, 2.0f, cols);
        outQ.EnQue(yout);
        inQ.FreeTensor(xin);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cols)
    {
        LocalTensor<float> t = outQ.DeQue<float>();
        DataCopy(yGm[off], t, cols);
        outQ.FreeTensor(t);
    }

    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> gammaBuf, betaBuf, sqBuf, redBuf, workBuf;
    GlobalTensor<float> xGm, wGm, biasGm, gammaGm, betaGm, yGm;
    uint32_t M, N, K, groupSize, groupsPerTile, tileCols;
    uint32_t rowStart, rowCnt;
    float eps, slope;
};

extern "C" __global__ __aicore__ void matmul_group_norm_leaky_relu_sum_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetBlockIdx() >= td.usedCoreNum) return;
    KernelMatmulGroupNormLeakyReluSum op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.cubeTiling);
    op.Init(x, weight, bias, gamma, beta, y, td);
    op.RunMatmul();
    op.RunNorm();
}
