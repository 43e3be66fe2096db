/*
 * DenseBiasAct: y = act(x @ W^T + b), act = ReLU or identity.
 *
 * The cube computes baseM x baseN blocks of the GEMM (bias folded in by the
 * Matmul API).  Each block is fetched into UB, the activation is applied on
 * the vector unit and the block is written to its place in y.  Blocks are
 * produced M-fastest inside a core's singleCoreM x singleCoreN tile.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class DenseBiasActKernel {
public:
    using XT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using WT = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using YT = MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    using BT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<XT, WT, YT, BT> mm;

    __aicore__ inline DenseBiasActKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const DenseBiasActTilingData &td,
                                TPipe *pipe)
    {
        cfg = td.gemm;
        relu = td.applyRelu != 0;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        bGm.SetGlobalBuffer((__gm__ T *)b);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        uint32_t mTiles = (cfg.M + cfg.singleCoreM - 1) / cfg.singleCoreM;
        uint32_t core = GetBlockIdx();
        mIdx = core % mTiles;
        nIdx = core / mTiles;
        uint32_t nTiles = (cfg.N + cfg.singleCoreN - 1) / cfg.singleCoreN;
        active = nIdx < nTiles;
        pipe->InitBuffer(blockQ, 2, cfg.baseM * cfg.baseN * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (!active) {
            return;
        }
        uint32_t row0 = mIdx * cfg.singleCoreM;
        uint32_t col0 = nIdx * cfg.singleCoreN;
        tileM = (cfg.M - row0) < static_cast<uint32_t>(cfg.singleCoreM) ? cfg.M - row0 : cfg.singleCoreM;
        tileN = (cfg.N - col0) < static_cast<uint32_t>(cfg.singleCoreN) ? cfg.N - col0 : cfg.singleCoreN;

        mm.SetTensorA(xGm[static_cast<uint64_t>(row0) * cfg.Ka]);
        // W is [N, K] row-major; its column block starts at row col0
        mm.SetTensorB(wGm[static_cast<uint64_t>(col0) * cfg.Kb], true);
        mm.SetBias(bGm[col0]);
        mm.SetTail(tileM, tileN);

        uint32_t blocksM = (tileM + cfg.baseM - 1) / cfg.baseM;
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<T> blk = blockQ.AllocTensor<T>();
            mm.template GetTensorC<true>(blk, false, true);
            if (relu) {
                Relu(blk, blk, cfg.baseM * cfg.baseN);
            }
            blockQ.EnQue(blk);
            Store(row0 + (step % blocksM) * cfg.baseM, col0 + (step / blocksM) * cfg.baseN, row0, col0);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void Store(uint32_t r, uint32_t c, uint32_t row0, uint32_t col0)
    {
        LocalTensor<T> blk = blockQ.DeQue<T>();
        uint32_t rows = (row0 + tileM - r) < static_cast<uint32_t>(cfg.baseM) ? row0 + tileM - r : cfg.baseM;
        uint32_t cols = (col0 + tileN - c) < static_cast<uint32_t>(cfg.baseN) ? col0 + tileN - c : cfg.baseN;
        // UB block rows are baseN long; skip the unused part of each row
        DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                            static_cast<uint32_t>((cfg.baseN - cols) * sizeof(T) / 32),
                            static_cast<uint32_t>((cfg.N - cols) * sizeof(T)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(r) * cfg.N + c], blk, p);
        blockQ.FreeTensor(blk);
    }

    TCubeTiling cfg;
    TQue<QuePosition::VECOUT, 2> blockQ;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    uint32_t mIdx = 0, nIdx = 0, tileM = 0, tileN = 0;
    bool relu = true, active = true;
};

extern "C" __global__ __aicore__ void dense_bias_act(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetUserWorkspace(workspace) == nullptr) {
        return;
    }
    TPipe pipe;
    DenseBiasActKernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.gemm);
    op.Init(x, weight, bias, y, td, &pipe);
    op.Process();
}
