// DenseBiasRectify kernel: y = relu?(x @ W^T + b).
//
// Each AIV core drives one single-core tile [singleCoreM x singleCoreN] of the output through the
// Matmul high-level API (executed on its paired AIC). Results arrive base block by base block in
// UB (VECIN), get the optional ReLU on the vector unit and are written to GM with padded DMA so
// ragged M/N tails need no special casing.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename T>
class DenseBiasRectifyKernel {
    using ATy = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BTy = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T, true>;   // weight is [N, K]
    using CTy = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    using BiasTy = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;

public:
    matmul::Matmul<ATy, BTy, CTy, BiasTy> mm;

    __aicore__ inline DenseBiasRectifyKernel() {}

    __aicore__ inline bool Init(TPipe* pipeIn, GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const DenseBiasRectifyTilingData& td)
    {
        pipe = pipeIn;
        cube = td.mm;
        relu = td.applyRelu != 0;
        withBias = td.hasBias != 0;
        const int32_t idx = static_cast<int32_t>(GetBlockIdx());
        if (idx >= cube.usedCoreNum) {
            return false;
        }
        const int32_t mTiles = (cube.M + cube.singleCoreM - 1) / cube.singleCoreM;
        const int32_t mIdx = idx % mTiles;
        const int32_t nIdx = idx / mTiles;
        rowOff = mIdx * cube.singleCoreM;
        colOff = nIdx * cube.singleCoreN;
        curM = cube.M - rowOff < cube.singleCoreM ? cube.M - rowOff : cube.singleCoreM;
        curN = cube.N - colOff < cube.singleCoreN ? cube.N - colOff : cube.singleCoreN;
        if (curM <= 0 || curN <= 0) {
            return false;
        }

        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + static_cast<uint64_t>(rowOff) * cube.Ka);
        wGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(w) + static_cast<uint64_t>(colOff) * cube.Kb);
        if (withBias) {
            bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(bias) + colOff);
        }
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + static_cast<uint64_t>(rowOff) * cube.N + colOff);
        pipe->InitBuffer(blockQue, 1, cube.baseM * cube.baseN * sizeof(T));
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        if (withBias) {
            mm.SetBias(bGm);
        }
        mm.SetTail(curM, curN);

        const int32_t mRounds = (curM + cube.baseM - 1) / cube.baseM;
        int32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<T> blk = blockQue.AllocTensor<T>();
            mm.template GetTensorC<true>(blk, false, true);
            if (relu) {
                Relu(blk, blk, cube.baseM * cube.baseN);
            }
            blockQue.EnQue(blk);
            // default iteration order walks M first inside a single-core tile
            WriteBlock(step % mRounds, step / mRounds);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void WriteBlock(int32_t bm, int32_t bn)
    {
        LocalTensor<T> blk = blockQue.DeQue<T>();
        const int32_t r0 = bm * cube.baseM;
        const int32_t c0 = bn * cube.baseN;
        const int32_t rows = curM - r0 < cube.baseM ? curM - r0 : cube.baseM;
        const int32_t cols = curN - c0 < cube.baseN ? curN - c0 : cube.baseN;
        constexpr int32_t perBlk = 32 / sizeof(T);
        const int32_t usedBlocks = (cols + perBlk - 1) / perBlk;
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                             static_cast<uint32_t>(cube.baseN / perBlk - usedBlocks),
                             static_cast<uint32_t>((cube.N - cols) * sizeof(T)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(r0) * cube.N + c0], blk, cp);
        blockQue.FreeTensor(blk);
    }

    TPipe* pipe = nullptr;
    TQue<QuePosition::VECIN, 1> blockQue;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    TCubeTiling cube;
    bool relu = true;
    bool withBias = false;
    int32_t rowOff = 0, colOff = 0, curM = 0, curN = 0;
};

template <typename T>
__aicore__ inline void RunDense(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const DenseBiasRectifyTilingData& td)
{
    TPipe pipe;
    DenseBiasRectifyKernel<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    if (op.Init(&pipe, x, w, b, y, td)) {
        op.Process();
    }
}

extern "C" __global__ __aicore__ void dense_bias_rectify(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RunDense<float>(x, weight, bias, y, td);
    } else if (TILING_KEY_IS(1)) {
        RunDense<half>(x, weight, bias, y, td);
    }
}
