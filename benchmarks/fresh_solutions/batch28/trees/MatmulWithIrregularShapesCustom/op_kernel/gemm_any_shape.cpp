/**
 * GemmAnyShape kernel: C = A * B, fp32, row-major, arbitrary M/K/N.
 *
 * The output is split into a blocksAlongM x blocksAlongN grid of
 * singleCoreM x singleCoreN blocks (chosen by MultiCoreMatmulTiling); each AI
 * Core owns one block and runs the Matmul high-level API over the full K
 * extent.  Edge blocks are shrunk with SetTail, so no padding of the inputs
 * is needed for shapes that are not multiples of the cube fractal.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class GemmAnyShapeKernel {
public:
    __aicore__ inline GemmAnyShapeKernel() {}

    __aicore__ inline bool Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const GemmAnyShapeTilingData &td)
    {
        tiling_ = td.mm;
        const int32_t m = tiling_.M;
        const int32_t n = tiling_.N;
        const int32_t k = tiling_.Ka;
        const int32_t sM = tiling_.singleCoreM;
        const int32_t sN = tiling_.singleCoreN;

        uint32_t blk = GetBlockIdx();
        if (blk >= td.blocksAlongM * td.blocksAlongN) {
            return false;
        }
        // M-major walk: neighbouring cores share the same B panel.
        uint32_t mIdx = blk % td.blocksAlongM;
        uint32_t nIdx = blk / td.blocksAlongM;

        int32_t rowStart = static_cast<int32_t>(mIdx) * sM;
        int32_t colStart = static_cast<int32_t>(nIdx) * sN;
        tailM_ = (m - rowStart) < sM ? (m - rowStart) : sM;
        tailN_ = (n - colStart) < sN ? (n - colStart) : sN;
        if (tailM_ <= 0 || tailN_ <= 0) {
            return false;
        }

        uint64_t aOff = static_cast<uint64_t>(rowStart) * k;
        uint64_t bOff = static_cast<uint64_t>(colStart);
        uint64_t cOff = static_cast<uint64_t>(rowStart) * n + colStart;

        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a) + aOff,
                             static_cast<uint64_t>(m - rowStart) * k);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b) + bOff,
                             static_cast<uint64_t>(k) * n - bOff);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + cOff,
                             static_cast<uint64_t>(m - rowStart) * n - colStart);
        return true;
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm_, &tiling_);
        mm_.SetTensorA(aGm_, false);
        mm_.SetTensorB(bGm_, false);
        mm_.SetTail(tailM_, tailN_, tiling_.Ka);
        mm_.IterateAll(cGm_);
        mm_.End();
    }

private:
    Matmul<AType, BType, CType, BiasType> mm_;
    TCubeTiling tiling_;
    GlobalTensor<float> aGm_, bGm_, cGm_;
    int32_t tailM_ = 0, tailN_ = 0;
};

extern "C" __global__ __aicore__ void gemm_any_shape(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(td, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    GemmAnyShapeKernel op;
    if (op.Init(a, b, c, td)) {
        op.Process(&pipe);
    }
}
