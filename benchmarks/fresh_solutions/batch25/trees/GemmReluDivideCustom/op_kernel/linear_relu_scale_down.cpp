/*
 * y = relu(x @ weight^T + bias) / divisor
 *
 * The cube unit produces the product block by block (baseM x baseN, fp32 accumulation,
 * bias added by the matmul); each block is pulled into UB where the vector unit applies
 * ReLU and the 1/divisor scale (and the fp16 down-cast) before it is written to y.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

template <typename T>
class LinearReluScaleDownKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline LinearReluScaleDownKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling &tiling, float invDivisor, TPipe *pipe)
    {
        cfg = tiling;
        scale = invDivisor;
        xGm.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(cfg.M) * cfg.Ka);
        wGm.SetGlobalBuffer((__gm__ T *)w, static_cast<uint64_t>(cfg.N) * cfg.Kb);
        biasGm.SetGlobalBuffer((__gm__ T *)bias, cfg.N);
        yGm.SetGlobalBuffer((__gm__ T *)y, static_cast<uint64_t>(cfg.M) * cfg.N);

        // which (M, N) tile of the output this core owns
        uint32_t mBlocks = CeilDiv(cfg.M, cfg.singleCoreM);
        uint32_t idx = GetBlockIdx();
        mIdx = idx % mBlocks;
        nIdx = idx / mBlocks;
        tileM = cfg.M - mIdx * cfg.singleCoreM;
        tileM = tileM < static_cast<uint32_t>(cfg.singleCoreM) ? tileM : cfg.singleCoreM;
        tileN = cfg.N - nIdx * cfg.singleCoreN;
        tileN = tileN < static_cast<uint32_t>(cfg.singleCoreN) ? tileN : cfg.singleCoreN;

        blockElems = cfg.baseM * cfg.baseN;
        pipe->InitBuffer(cQ, 2, blockElems * sizeof(float));
        pipe->InitBuffer(yQ, 2, blockElems * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (GetBlockIdx() >= static_cast<uint32_t>(cfg.usedCoreNum)) {
            return;
        }
        uint64_t aOff = static_cast<uint64_t>(mIdx) * cfg.singleCoreM * cfg.Ka;
        uint64_t bOff = static_cast<uint64_t>(nIdx) * cfg.singleCoreN * cfg.Kb;   // weight is (N, K)
        mm.SetTensorA(xGm[aOff]);
        mm.SetTensorB(wGm[bOff], true);
        mm.SetBias(biasGm[nIdx * cfg.singleCoreN]);
        mm.SetTail(tileM, tileN);

        uint32_t mRounds = CeilDiv(tileM, cfg.baseM);
        uint32_t blk = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> c = cQ.AllocTensor<float>();
            mm.template GetTensorC<true>(c, false, true);
            cQ.EnQue(c);
            Epilogue(blk, mRounds);
            ++blk;
        }
        mm.End();
    }

private:
    __aicore__ inline void Epilogue(uint32_t blk, uint32_t mRounds)
    {
        // blocks come out M-major inside this core's tile
        uint32_t bm = blk % mRounds;
        uint32_t bn = blk / mRounds;
        uint32_t rows = tileM - bm * cfg.baseM;
        rows = rows < static_cast<uint32_t>(cfg.baseM) ? rows : cfg.baseM;
        uint32_t cols = tileN - bn * cfg.baseN;
        cols = cols < static_cast<uint32_t>(cfg.baseN) ? cols : cfg.baseN;

        LocalTensor<float> c = cQ.DeQue<float>();
        Relu(c, c, blockElems);
        Muls(c, c, scale, blockElems);
        LocalTensor<T> out = yQ.AllocTensor<T>();
        if constexpr (std::is_same<T, half>::value) {
            Cast(out, c, RoundMode::CAST_ROUND, blockElems);
        } else {
            Adds(out, c, 0.0f, blockElems);
        }
        cQ.FreeTensor(c);
        yQ.EnQue(out);

        out = yQ.DeQue<T>();
        uint64_t row0 = static_cast<uint64_t>(mIdx) * cfg.singleCoreM + bm * cfg.baseM;
        uint64_t col0 = static_cast<uint64_t>(nIdx) * cfg.singleCoreN + bn * cfg.baseN;
        uint32_t rowBytes = cols * sizeof(T);
        uint32_t ubGapBlocks = (cfg.baseN * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(rows), rowBytes, ubGapBlocks,
                             static_cast<uint32_t>((cfg.N - cols) * sizeof(T)), 0};
        DataCopyPad(yGm[row0 * cfg.N + col0], out, cp);
        yQ.FreeTensor(out);
    }

    TQue<QuePosition::VECIN, 2> cQ;
    TQue<QuePosition::VECOUT, 2> yQ;
    GlobalTensor<T> xGm, wGm, biasGm, yGm;
    TCubeTiling cfg;
    float scale = 1.0f;
    uint32_t mIdx = 0, nIdx = 0, tileM = 0, tileN = 0, blockElems = 0;
};

template <typename T>
__aicore__ inline void RunLinearReluScaleDown(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                              const LinearReluScaleDownTilingData &td)
{
    TPipe pipe;
    LinearReluScaleDownKernel<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(x, w, b, y, td.mm, td.invDivisor, &pipe);
    op.Process();
}

extern "C" __global__ __aicore__ void linear_relu_scale_down(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        RunLinearReluScaleDown<half>(x, weight, bias, y, td);
    } else if (TILING_KEY_IS(0)) {
        RunLinearReluScaleDown<float>(x, weight, bias, y, td);
    }
}
