// DenseClampGelu: y = gelu( clamp( alpha * (x @ W^T + b), clip_min, clip_max ) )
// gelu is the exact (erf) form: 0.5 * v * (1 + erf(v / sqrt(2))).
// The cube unit produces fp32 base blocks into UB; the vector unit runs the epilogue on each block
// and writes it straight to y, so the pre-activation never round-trips through GM.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename IN_T, typename OUT_T>
class DenseClampGeluKernel {
    using A_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, IN_T>;
    using B_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, IN_T, true>;
    using C_T = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BIAS_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    matmul::Matmul<A_T, B_T, C_T, BIAS_T> mm;

    __aicore__ inline DenseClampGeluKernel() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const DenseClampGeluTilingData &td)
    {
        cfg = &td;
        const TCubeTiling &ct = td.cube;
        const uint32_t mBlocks = (td.m + ct.singleCoreM - 1) / ct.singleCoreM;
        const uint32_t nBlocks = (td.n + ct.singleCoreN - 1) / ct.singleCoreN;
        const uint32_t blk = GetBlockIdx();
        if (blk >= mBlocks * nBlocks) {
            return false;
        }
        mStart = (blk % mBlocks) * ct.singleCoreM;
        nStart = (blk / mBlocks) * ct.singleCoreN;
        mLen = (td.m - mStart) < (uint32_t)ct.singleCoreM ? (td.m - mStart) : ct.singleCoreM;
        nLen = (td.n - nStart) < (uint32_t)ct.singleCoreN ? (td.n - nStart) : ct.singleCoreN;

        xGm.SetGlobalBuffer((__gm__ IN_T *)x + (uint64_t)mStart * td.k);
        wGm.SetGlobalBuffer((__gm__ IN_T *)w + (uint64_t)nStart * td.k);
        biasGm.SetGlobalBuffer((__gm__ float *)bias + nStart);
        yGm.SetGlobalBuffer((__gm__ OUT_T *)y);

        const uint32_t blockElems = ct.baseM * ct.baseN;
        pipe.InitBuffer(cQue, 1, blockElems * sizeof(float));
        pipe.InitBuffer(outQue, 1, blockElems * sizeof(OUT_T));
        pipe.InitBuffer(tmpBuf, blockElems * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        const TCubeTiling &ct = cfg->cube;
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(mLen, nLen, cfg->k);

        const uint32_t mIters = (mLen + ct.baseM - 1) / ct.baseM;
        const uint32_t nIters = (nLen + ct.baseN - 1) / ct.baseN;
        uint32_t idx = 0;
        while (mm.template Iterate<true>()) {
            uint32_t tm, tn;
            if (ct.iterateOrder == 0) {   // M runs fastest
                tm = idx % mIters;
                tn = idx / mIters;
            } else {
                tm = idx / nIters;
                tn = idx % nIters;
            }
            LocalTensor<float> c = cQue.AllocTensor<float>();
            mm.template GetTensorC<true>(c, false, true);
            cQue.EnQue(c);
            Epilogue(tm, tn);
            ++idx;
        }
        mm.End();
    }

    TPipe pipe;

private:
    __aicore__ inline void Epilogue(uint32_t tm, uint32_t tn)
    {
        const TCubeTiling &ct = cfg->cube;
        const uint32_t rowsHere = (mLen - tm * ct.baseM) < (uint32_t)ct.baseM ? (mLen - tm * ct.baseM) : ct.baseM;
        const uint32_t colsHere = (nLen - tn * ct.baseN) < (uint32_t)ct.baseN ? (nLen - tn * ct.baseN) : ct.baseN;
        const uint32_t count = rowsHere * ct.baseN;   // whole rows of the base block, padding included

        LocalTensor<float> v = cQue.DeQue<float>();
        LocalTensor<float> e = tmpBuf.Get<float>();
        Muls(v, v, cfg->alpha, count);
        Maxs(v, v, cfg->clipLow, count);
        Mins(v, v, cfg->clipHigh, count);
        // exact gelu
        Muls(e, v, 0.70710678118654752f, count);
        Erf(e, e, count);
        Adds(e, e, 1.0f, count);
        Mul(e, e, v, count);

        LocalTensor<OUT_T> o = outQue.AllocTensor<OUT_T>();
        if constexpr (sizeof(OUT_T) == sizeof(float)) {
            Muls(o, e, 0.5f, count);
        } else {
            Muls(e, e, 0.5f, count);
            Cast(o, e, RoundMode::CAST_ROUND, count);
        }
        cQue.FreeTensor(v);
        outQue.EnQue(o);

        o = outQue.DeQue<OUT_T>();
        constexpr uint32_t perBlock = 32 / sizeof(OUT_T);
        const uint32_t colsBlocks = (colsHere + perBlock - 1) / perBlock;
        const uint32_t rowBlocks = ct.baseN / perBlock;
        DataCopyExtParams cp{(uint16_t)rowsHere, colsHere * (uint32_t)sizeof(OUT_T), rowBlocks - colsBlocks,
                             (cfg->n - colsHere) * (uint32_t)sizeof(OUT_T), 0};
        const uint64_t dst = (uint64_t)(mStart + tm * ct.baseM) * cfg->n + nStart + tn * ct.baseN;
        DataCopyPad(yGm[dst], o, cp);
        outQue.FreeTensor(o);
    }

    const DenseClampGeluTilingData *cfg = nullptr;
    GlobalTensor<IN_T> xGm, wGm;
    GlobalTensor<float> biasGm;
    GlobalTensor<OUT_T> yGm;
    TQue<QuePosition::VECIN, 1> cQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<TPosition::VECCALC> tmpBuf;
    uint32_t mStart = 0, nStart = 0, mLen = 0, nLen = 0;
};

template <typename IN_T, typename OUT_T>
__aicore__ inline void RunDenseClampGelu(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                         const DenseClampGeluTilingData &td)
{
    DenseClampGeluKernel<IN_T, OUT_T> op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
    if (op.Init(x, w, bias, y, td)) {
        op.Process();
    }
}

extern "C" __global__ __aicore__ void dense_clamp_gelu(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        RunDenseClampGelu<float, float>(x, weight, bias, y, td);
    } else if (TILING_KEY_IS(2)) {
        RunDenseClampGelu<half, half>(x, weight, bias, y, td);
    }
}
