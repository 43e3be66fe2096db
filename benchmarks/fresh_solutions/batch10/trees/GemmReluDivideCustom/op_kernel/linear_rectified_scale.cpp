/*
 * LinearRectifiedScale:  y = relu(x @ weight^T + bias) * (1 / divisor)
 *
 * The product runs on the cube unit through the high-level Matmul API
 * (bias added in L0C). Each finished baseM x baseN block is pulled into
 * UB, rectified and scaled on the vector unit, and written straight to
 * its place in y, so the un-activated product never round-trips via GM.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
__aicore__ inline uint32_t DivUp(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t MinU(uint32_t a, uint32_t b) { return a < b ? a : b; }
}  // namespace

class LinearRectifiedScaleKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline LinearRectifiedScaleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const TCubeTiling &tiling,
                                float invDivisor, uint32_t usedBlocks, TPipe *pipe)
    {
        cube = tiling;
        scale = invDivisor;
        M = cube.M;
        N = cube.N;
        K = cube.Ka;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)M * K);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)N * K);
        biasGm.SetGlobalBuffer((__gm__ float *)bias, N);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)M * N);

        uint32_t blk = GetBlockIdx();
        active = blk < usedBlocks;
        uint32_t mBlocks = DivUp(M, cube.singleCoreM);
        mIdx = blk % mBlocks;
        nIdx = blk / mBlocks;
        rowBase = mIdx * cube.singleCoreM;
        colBase = nIdx * cube.singleCoreN;
        if (active) {
            curM = MinU(cube.singleCoreM, M - rowBase);
            curN = MinU(cube.singleCoreN, N - colBase);
        }
        pipe->InitBuffer(epiQueue, 1, cube.baseM * cube.baseN * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (!active) {
            mm.End();
            return;
        }
        // A rows [rowBase, +curM); B^T columns [colBase, +curN) == weight rows colBase..
        mm.SetTensorA(xGm[(uint64_t)rowBase * K]);
        mm.SetTensorB(wGm[(uint64_t)colBase * K], true);
        mm.SetBias(biasGm[colBase]);
        mm.SetTail(curM, curN);

        uint32_t mSteps = DivUp(curM, cube.baseM);
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> blockC = epiQueue.AllocTensor<float>();
            mm.template GetTensorC<true>(blockC, false, true);

            // epilogue on the whole base block (pad lanes are simply never stored)
            uint32_t len = cube.baseM * cube.baseN;
            Relu(blockC, blockC, len);
            Muls(blockC, blockC, scale, len);
            epiQueue.EnQue(blockC);

            StoreBlock(step, mSteps);
            ++step;
        }
        mm.End();
    }

private:
    // default iteration walks M first, then N
    __aicore__ inline void StoreBlock(uint32_t step, uint32_t mSteps)
    {
        LocalTensor<float> blockC = epiQueue.DeQue<float>();
        uint32_t bm = step % mSteps;
        uint32_t bn = step / mSteps;
        uint32_t r0 = bm * cube.baseM;
        uint32_t c0 = bn * cube.baseN;
        uint32_t rows = MinU(cube.baseM, curM - r0);
        uint32_t cols = MinU(cube.baseN, curN - c0);

        DataCopyExtParams out{static_cast<uint16_t>(rows), cols * (uint32_t)sizeof(float),
                              (cube.baseN - (cols + 7) / 8 * 8) / 8,  // UB gap in 32B blocks
                              (N - cols) * (uint32_t)sizeof(float), 0};
        uint64_t dst = (uint64_t)(rowBase + r0) * N + colBase + c0;
        DataCopyPad(yGm[dst], blockC, out);
        epiQueue.FreeTensor(blockC);
    }

    TCubeTiling cube;
    TQue<QuePosition::VECIN, 1> epiQueue;
    GlobalTensor<float> xGm, wGm, biasGm, yGm;
    uint32_t M = 0, N = 0, K = 0;
    uint32_t mIdx = 0, nIdx = 0, rowBase = 0, colBase = 0, curM = 0, curN = 0;
    float scale = 1.0f;
    bool active = false;
};

extern "C" __global__ __aicore__ void linear_rectified_scale(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    LinearRectifiedScaleKernel op;
    op.Init(x, weight, bias, y, td.mmTiling, td.invDivisor, td.usedBlocks, &pipe);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mmTiling);
    op.Process();
}
