// y = relu(x @ weight^T + bias)
// The cube produces baseM x baseN blocks of (x @ W^T + bias) straight into UB; the
// vector core applies ReLU on each block and writes it to its place in y.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename T>
class DenseBiasRectifyKernel {
public:
    using AT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CT = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    using BiasT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    matmul::Matmul<AT, BT, CT, BiasT> mm;

    __aicore__ inline DenseBiasRectifyKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const DenseBiasRectifyTilingData &td)
    {
        cube = td.cube;
        M = td.rows;
        N = td.cols;
        K = td.depth;
        workers = td.workers;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        bGm.SetGlobalBuffer((__gm__ T *)b);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(blockQ, 2, cube.baseM * cube.baseN * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint32_t mParts = (M + cube.singleCoreM - 1) / cube.singleCoreM;
        uint32_t nParts = (N + cube.singleCoreN - 1) / cube.singleCoreN;
        for (uint32_t part = GetBlockIdx(); part < mParts * nParts; part += workers) {
            RunPart(part % mParts, part / mParts);
        }
        mm.End();
    }

private:
    __aicore__ inline void RunPart(uint32_t mi, uint32_t ni)
    {
        uint32_t m0 = mi * cube.singleCoreM;
        uint32_t n0 = ni * cube.singleCoreN;
        uint32_t partM = (M - m0) < static_cast<uint32_t>(cube.singleCoreM) ? (M - m0) : cube.singleCoreM;
        uint32_t partN = (N - n0) < static_cast<uint32_t>(cube.singleCoreN) ? (N - n0) : cube.singleCoreN;

        mm.SetTail(partM, partN);
        mm.SetTensorA(xGm[static_cast<uint64_t>(m0) * K]);
        mm.SetTensorB(wGm[static_cast<uint64_t>(n0) * K], true);
        mm.SetBias(bGm[n0]);

        // default iteration order walks M blocks first inside the part
        uint32_t blocksM = (partM + cube.baseM - 1) / cube.baseM;
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            uint32_t bm = step % blocksM;
            uint32_t bn = step / blocksM;
            ++step;
            uint32_t r0 = bm * cube.baseM;
            uint32_t c0 = bn * cube.baseN;
            uint32_t rCnt = (partM - r0) < static_cast<uint32_t>(cube.baseM) ? (partM - r0) : cube.baseM;
            uint32_t cCnt = (partN - c0) < static_cast<uint32_t>(cube.baseN) ? (partN - c0) : cube.baseN;

            LocalTensor<T> blk = blockQ.AllocTensor<T>();
            mm.template GetTensorC<true>(blk, false, true);
            Relu(blk, blk, cube.baseM * cube.baseN);
            blockQ.EnQue(blk);
            blk = blockQ.DeQue<T>();
            StoreBlock(blk, m0 + r0, n0 + c0, rCnt, cCnt);
            blockQ.FreeTensor(blk);
        }
    }

    // block rows are baseN wide in UB; only cCnt columns of rCnt rows are valid
    __aicore__ inline void StoreBlock(const LocalTensor<T> &blk, uint32_t row, uint32_t col, uint32_t rCnt,
                                      uint32_t cCnt)
    {
        uint32_t elemsPerBlk = 32 / sizeof(T);
        uint32_t ubGap = (cube.baseN - (cCnt + elemsPerBlk - 1) / elemsPerBlk * elemsPerBlk) / elemsPerBlk;
        DataCopyExtParams cp{static_cast<uint16_t>(rCnt), static_cast<uint32_t>(cCnt * sizeof(T)), ubGap,
                             static_cast<uint32_t>((N - cCnt) * sizeof(T)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(row) * N + col], blk, cp);
    }

    TPipe pipe;
    TQue<QuePosition::VECOUT, 2> blockQ;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    TCubeTiling cube;
    uint32_t M = 0, N = 0, K = 0, workers = 1;

public:
    __aicore__ inline TPipe *Pipe() { return &pipe; }
};

template <typename T>
__aicore__ inline void RunDenseBiasRectify(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                           const DenseBiasRectifyTilingData &td)
{
    DenseBiasRectifyKernel<T> op;
    REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), op.mm, &td.cube);
    op.Init(x, w, b, y, td);
    op.Process();
}

extern "C" __global__ __aicore__ void dense_bias_rectify(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RunDenseBiasRectify<float>(x, weight, bias, y, td);
    } else if (TILING_KEY_IS(1)) {
        RunDenseBiasRectify<half>(x, weight, bias, y, td);
    }
}
