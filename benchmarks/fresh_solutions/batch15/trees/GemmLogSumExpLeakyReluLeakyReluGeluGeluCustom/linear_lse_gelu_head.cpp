/**
 * linear_lse_gelu_head.cpp
 *
 * Two device kernels that are launched back to back from main.cpp:
 *
 *   1. linear_lse_gelu_head_gemm : Y = X * W^T + b on the cube unit (Matmul API),
 *      X (M, K), W (N, K), b (N), Y (M, N) float32 in a GM workspace.
 *   2. linear_lse_gelu_head      : per row of Y
 *          s  = log(sum_j exp(Y[i, j]))          (max-shifted for stability)
 *          s  = leaky(leaky(s, 0.01), 0.01)
 *          s  = gelu(gelu(s))                    (exact erf form)
 *      written to out (M, 1).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// -------------------------------------------------------------------------------------
// part 1 : dense layer on the cube core
// -------------------------------------------------------------------------------------
__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

__aicore__ inline void LoadCubeTiling(TCubeTiling *dst, GM_ADDR src)
{
    uint32_t *d = reinterpret_cast<uint32_t *>(dst);
    __gm__ uint32_t *s = reinterpret_cast<__gm__ uint32_t *>(src);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

class DenseBiasGemm {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // W stored (N, K)
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<AType, BType, CType, BiasType> mm;
    TCubeTiling tiling;

    __aicore__ inline DenseBiasGemm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tiling.M * tiling.Ka);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)tiling.N * tiling.Kb);
        bGm.SetGlobalBuffer((__gm__ float *)bias, tiling.N);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)tiling.M * tiling.N);

        // block -> (mIdx, nIdx) of the single-core output tile
        uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        uint32_t mIdx = GetBlockIdx() % mBlocks;
        uint32_t nIdx = GetBlockIdx() / mBlocks;
        uint64_t m0 = (uint64_t)mIdx * tiling.singleCoreM;
        uint64_t n0 = (uint64_t)nIdx * tiling.singleCoreN;

        xGm = xGm[m0 * tiling.Ka];
        wGm = wGm[n0 * tiling.Kb];
        bGm = bGm[n0];
        yGm = yGm[m0 * tiling.N + n0];

        tailM = tiling.M - m0 < (uint64_t)tiling.singleCoreM ? (int32_t)(tiling.M - m0) : tiling.singleCoreM;
        tailN = tiling.N - n0 < (uint64_t)tiling.singleCoreN ? (int32_t)(tiling.N - n0) : tiling.singleCoreN;
        active = (m0 < tiling.M) && (n0 < tiling.N);
    }

    __aicore__ inline void Process()
    {
        if (!active) {
            return;
        }
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(bGm);
        mm.SetTail(tailM, tailN);
        mm.IterateAll(yGm);
        mm.End();
    }

private:
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    int32_t tailM = 0;
    int32_t tailN = 0;
    bool active = false;
};

extern "C" __global__ __aicore__ void linear_lse_gelu_head_gemm(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR cubeTiling)
{
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    DenseBiasGemm op;
    LoadCubeTiling(&op.tiling, cubeTiling);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &op.tiling);
    op.Init(x, w, bias, y);
    op.Process();
}

// -------------------------------------------------------------------------------------
// part 2 : row log-sum-exp + activation tail on the vector cores
// -------------------------------------------------------------------------------------
struct LinearLseGeluHeadTiling {
    uint32_t rows;          // M
    uint32_t cols;          // N
    uint32_t rowsPerCore;   // multiple of 8 so every core's output slice is 32B aligned
    float slope;            // leaky relu negative slope
};

class RowLseAct {
public:
    __aicore__ inline RowLseAct() {}

    __aicore__ inline void Init(GM_ADDR y, GM_ADDR out, const LinearLseGeluHeadTiling &t)
    {
        cfg = t;
        rowBegin = GetBlockIdx() * cfg.rowsPerCore;
        rowEnd = rowBegin + cfg.rowsPerCore;
        if (rowEnd > cfg.rows) rowEnd = cfg.rows;
        myRows = rowEnd > rowBegin ? rowEnd - rowBegin : 0;

        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)cfg.rows * cfg.cols);
        oGm.SetGlobalBuffer((__gm__ float *)out, cfg.rows);

        colsAlign = (cfg.cols + 7) / 8 * 8;
        resAlign = (cfg.rowsPerCore + 7) / 8 * 8;
        pipe.InitBuffer(rowQ, 2, colsAlign * sizeof(float));
        pipe.InitBuffer(resQ, 1, resAlign * sizeof(float));
        pipe.InitBuffer(workBuf, colsAlign * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(maxBuf, resAlign * sizeof(float));
        pipe.InitBuffer(tmpBuf, resAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) {
            return;
        }
        LocalTensor<float> res = resQ.AllocTensor<float>();
        LocalTensor<float> rowMax = maxBuf.Get<float>();
        Duplicate(res, 1.0f, resAlign);      // padding lanes stay finite through Ln
        Duplicate(rowMax, 0.0f, resAlign);
        PipeBarrier<PIPE_V>();

        for (uint32_t r = 0; r < myRows; ++r) {
            LoadRow(rowBegin + r);
            ReduceRow(r, res, rowMax);
        }

        // lse = ln(sum) + max, then leaky, leaky, gelu, gelu
        Ln(res, res, resAlign);
        Add(res, res, rowMax, resAlign);
        LeakyRelu(res, res, cfg.slope, resAlign);
        LeakyRelu(res, res, cfg.slope, resAlign);
        GeluErf(res);
        GeluErf(res);

        resQ.EnQue(res);
        res = resQ.DeQue<float>();
        DataCopyExtParams p{1, (uint32_t)(myRows * sizeof(float)), 0, 0, 0};
        DataCopyPad(oGm[rowBegin], res, p);
        resQ.FreeTensor(res);
    }

private:
    __aicore__ inline void LoadRow(uint32_t row)
    {
        LocalTensor<float> buf = rowQ.AllocTensor<float>();
        DataCopyExtParams p{1, (uint32_t)(cfg.cols * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(buf, yGm[(uint64_t)row * cfg.cols], p, pad);
        rowQ.EnQue(buf);
    }

    __aicore__ inline void ReduceRow(uint32_t r, LocalTensor<float> &res, LocalTensor<float> &rowMax)
    {
        LocalTensor<float> buf = rowQ.DeQue<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();

        ReduceMax(red, buf, work, cfg.cols, false);
        event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float m = red.GetValue(0);

        Adds(buf, buf, -m, cfg.cols);
        Exp(buf, buf, cfg.cols);
        ReduceSum(red, buf, work, cfg.cols);
        vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float s = red.GetValue(0);

        res.SetValue(r, s);
        rowMax.SetValue(r, m);
        event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        rowQ.FreeTensor(buf);
    }

    // gelu(x) = 0.5 * x * (1 + erf(x / sqrt(2)))
    __aicore__ inline void GeluErf(LocalTensor<float> &v)
    {
        LocalTensor<float> t = tmpBuf.Get<float>();
        Muls(t, v, 0.70710678f, resAlign);
        Erf(t, t, resAlign);
        Adds(t, t, 1.0f, resAlign);
        Mul(t, t, v, resAlign);
        Muls(v, t, 0.5f, resAlign);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQ;
    TQue<QuePosition::VECOUT, 1> resQ;
    TBuf<TPosition::VECCALC> workBuf, redBuf, maxBuf, tmpBuf;
    GlobalTensor<float> yGm, oGm;
    LinearLseGeluHeadTiling cfg;
    uint32_t rowBegin = 0, rowEnd = 0, myRows = 0;
    uint32_t colsAlign = 0, resAlign = 0;
};

extern "C" __global__ __aicore__ void linear_lse_gelu_head(GM_ADDR y, GM_ADDR out, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    LinearLseGeluHeadTiling t;
    __gm__ uint32_t *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    uint32_t *dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    RowLseAct op;
    op.Init(y, out, t);
    op.Process();
}
