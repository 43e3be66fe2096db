/*
 * DenseRowNormResidualGate
 *   h   = x @ weight^T + bias                       (cube, float result in workspace)
 *   hn  = (h - mean_row(h)) / sqrt(var_row(h) + eps) (biased variance, no affine)
 *   out = (hn + gate) * gate
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class DenseRowNormResidualGateKernel {
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;

public:
    __aicore__ inline DenseRowNormResidualGateKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR gate, GM_ADDR y, GM_ADDR ws,
                                const DenseRowNormResidualGateTilingData &td)
    {
        cube = td.mmTiling;
        rows = td.rows;
        cols = td.cols;
        vecCoreNum = td.vecCoreNum;
        rowsPerCore = td.rowsPerCore;
        rowsTail = td.rowsTail;
        colTile = td.colTile;
        eps = td.eps;
        invCols = td.invCols;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        biasGm.SetGlobalBuffer((__gm__ T *)bias);
        gateGm.SetGlobalBuffer((__gm__ T *)gate);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        hGm.SetGlobalBuffer((__gm__ float *)ws);
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        RunMatmul(pipe);
        SyncAll();
        RunNorm(pipe);
    }

    Matmul<AType, BType, CType, BiasType> mm;

private:
    __aicore__ inline void RunMatmul(TPipe *pipe)
    {
        uint32_t idx = GetBlockIdx();
        if (idx >= static_cast<uint32_t>(cube.usedCoreNum)) {
            return;
        }
        uint32_t mBlocks = (cube.M + cube.singleCoreM - 1) / cube.singleCoreM;
        uint32_t mIdx = idx % mBlocks;
        uint32_t nIdx = idx / mBlocks;
        uint64_t offA = static_cast<uint64_t>(mIdx) * cube.singleCoreM * cube.Ka;
        uint64_t offB = static_cast<uint64_t>(nIdx) * cube.singleCoreN * cube.Kb;   // weight is [N, K]
        uint64_t offC = static_cast<uint64_t>(mIdx) * cube.singleCoreM * cube.N + nIdx * cube.singleCoreN;
        uint64_t offBias = static_cast<uint64_t>(nIdx) * cube.singleCoreN;
        int32_t tailM = cube.M - mIdx * cube.singleCoreM;
        int32_t tailN = cube.N - nIdx * cube.singleCoreN;
        if (tailM <= 0 || tailN <= 0) {
            return;
        }
        tailM = tailM < cube.singleCoreM ? tailM : cube.singleCoreM;
        tailN = tailN < cube.singleCoreN ? tailN : cube.singleCoreN;

        mm.SetTail(tailM, tailN);
        mm.SetTensorA(xGm[offA]);
        mm.SetTensorB(wGm[offB], true);
        mm.SetBias(biasGm[offBias]);
        mm.IterateAll(hGm[offC]);
        mm.End();
    }

    __aicore__ inline void RunNorm(TPipe *pipe)
    {
        uint32_t idx = GetBlockIdx();
        if (idx >= vecCoreNum) {
            return;
        }
        pipe->Reset();
        pipe->InitBuffer(hQue, 2, colTile * sizeof(float));
        pipe->InitBuffer(gQue, 2, colTile * sizeof(T));
        pipe->InitBuffer(oQue, 2, colTile * sizeof(T));
        pipe->InitBuffer(sumBuf, colTile * sizeof(float));
        pipe->InitBuffer(sqBuf, colTile * sizeof(float));
        pipe->InitBuffer(tmpBuf, colTile * sizeof(float));
        pipe->InitBuffer(statBuf, 64 * sizeof(float));

        uint32_t myRows = rowsPerCore + (idx < rowsTail ? 1 : 0);
        uint32_t row0 = idx * rowsPerCore + (idx < rowsTail ? idx : rowsTail);
        for (uint32_t r = 0; r < myRows; ++r) {
            NormRow(row0 + r);
        }
    }

    __aicore__ inline void LoadH(uint64_t off, uint32_t len)
    {
        LocalTensor<float> h = hQue.AllocTensor<float>();
        DataCopyPad(h, hGm[off], {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
        hQue.EnQue(h);
    }

    __aicore__ inline void NormRow(uint32_t row)
    {
        uint64_t base = static_cast<uint64_t>(row) * cols;
        uint32_t tiles = (cols + colTile - 1) / colTile;
        LocalTensor<float> s1 = sumBuf.Get<float>();
        LocalTensor<float> s2 = sqBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        Duplicate(s1, 0.0f, colTile);
        Duplicate(s2, 0.0f, colTile);

        // pass 1: first and second moments
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t len = (t + 1 == tiles) ? cols - t * colTile : colTile;
            LoadH(base + t * colTile, len);
            LocalTensor<float> h = hQue.DeQue<float>();
            Add(s1, s1, h, len);
            MulAddDst(s2, h, h, len);
            hQue.FreeTensor(h);
        }
        uint32_t redLen = tiles > 1 ? colTile : cols;
        ReduceSum(stat, s1, tmp, redLen);
        ReduceSum(stat[8], s2, tmp, redLen);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float mean = stat.GetValue(0) * invCols;
        float var = stat.GetValue(8) * invCols - mean * mean;
        var = var > 0.0f ? var : 0.0f;
        // rstd computed on the vector unit to stay in IEEE sqrt
        stat.SetValue(16, var + eps);
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Sqrt(stat[16], stat[16], 1);
        event_t vs2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs2);
        WaitFlag<HardEvent::V_S>(vs2);
        float rstd = 1.0f / stat.GetValue(16);
        float shift = -mean * rstd;

        // pass 2: normalise, add gate, multiply by gate
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t len = (t + 1 == tiles) ? cols - t * colTile : colTile;
            uint64_t off = base + t * colTile;
            LoadH(off, len);
            LocalTensor<T> g = gQue.AllocTensor<T>();
            DataCopyPad(g, gateGm[off], {1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0}, {false, 0, 0, 0});
            gQue.EnQue(g);

            LocalTensor<float> h = hQue.DeQue<float>();
            g = gQue.DeQue<T>();
            LocalTensor<T> o = oQue.AllocTensor<T>();
            Muls(h, h, rstd, len);
            Adds(h, h, shift, len);
            if constexpr (sizeof(T) == sizeof(float)) {
                Add(h, h, g, len);
                Mul(o, h, g, len);
            } else {
                Cast(tmp, g, RoundMode::CAST_NONE, len);
                Add(h, h, tmp, len);
                Mul(h, h, tmp, len);
                Cast(o, h, RoundMode::CAST_ROUND, len);
            }
            hQue.FreeTensor(h);
            gQue.FreeTensor(g);
            oQue.EnQue(o);
            o = oQue.DeQue<T>();
            DataCopyPad(yGm[off], o, {1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
            oQue.FreeTensor(o);
        }
    }

private:
    TCubeTiling cube;
    GlobalTensor<T> xGm, wGm, biasGm, gateGm, yGm;
    GlobalTensor<float> hGm;
    TQue<QuePosition::VECIN, 2> hQue, gQue;
    TQue<QuePosition::VECOUT, 2> oQue;
    TBuf<TPosition::VECCALC> sumBuf, sqBuf, tmpBuf, statBuf;
    uint32_t rows, cols, vecCoreNum, rowsPerCore, rowsTail, colTile;
    float eps, invCols;
};

template <typename T>
__aicore__ inline void RunDenseRowNorm(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR g, GM_ADDR y, GM_ADDR ws,
                                       const DenseRowNormResidualGateTilingData &td)
{
    TPipe pipe;
    DenseRowNormResidualGateKernel<T> op;
    op.Init(x, w, b, g, y, ws, td);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mmTiling);
    op.Process(&pipe);
}

extern "C" __global__ __aicore__ void dense_row_norm_residual_gate(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                    GM_ADDR gate, GM_ADDR y,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(0)) {
        RunDenseRowNorm<float>(x, weight, bias, gate, y, userWs, td);
    } else if (TILING_KEY_IS(1)) {
        RunDenseRowNorm<half>(x, weight, bias, gate, y, userWs, td);
    }
}
