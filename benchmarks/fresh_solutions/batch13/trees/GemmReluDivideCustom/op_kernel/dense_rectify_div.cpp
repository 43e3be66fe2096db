/*
 * DenseRectifyDiv kernel
 *     y = max(x * W^T + b, 0) / divisor
 *
 * The cube side produces baseM x baseN tiles of the biased product straight into UB
 * (GetTensorC into a VECIN-position tensor); the vector side applies the ReLU and the
 * reciprocal scaling and writes the tile to GM, handling ragged tiles at the block edges.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class DenseRectifyDivKernel {
public:
    using XType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using WType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;   // (N, K) read transposed
    using YType = MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;

    Matmul<XType, WType, YType, BType> mm;

    __aicore__ inline DenseRectifyDivKernel() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const DenseRectifyDivTilingData &td,
                                TPipe *pipe)
    {
        cfg = td.gemm;
        scale = td.invDivisor;
        if (GetBlockIdx() >= static_cast<uint32_t>(cfg.usedCoreNum)) {
            return false;
        }
        xGm.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(cfg.M) * cfg.Ka);
        wGm.SetGlobalBuffer((__gm__ T *)w, static_cast<uint64_t>(cfg.N) * cfg.Kb);
        bGm.SetGlobalBuffer((__gm__ T *)b, cfg.N);
        yGm.SetGlobalBuffer((__gm__ T *)y, static_cast<uint64_t>(cfg.M) * cfg.N);

        // which singleCoreM x singleCoreN block of y this core owns
        uint32_t mBlocks = Ceil(cfg.M, cfg.singleCoreM);
        uint32_t blk = GetBlockIdx();
        mIdx = blk % mBlocks;
        nIdx = blk / mBlocks;
        rowsHere = Min(cfg.singleCoreM, cfg.M - static_cast<int32_t>(mIdx) * cfg.singleCoreM);
        colsHere = Min(cfg.singleCoreN, cfg.N - static_cast<int32_t>(nIdx) * cfg.singleCoreN);
        if (rowsHere <= 0 || colsHere <= 0) {
            return false;
        }

        pipe->InitBuffer(tileQ, 1, td.outTileBytes);
        return true;
    }

    __aicore__ inline void Process()
    {
        const uint64_t rowBase = static_cast<uint64_t>(mIdx) * cfg.singleCoreM;
        const uint64_t colBase = static_cast<uint64_t>(nIdx) * cfg.singleCoreN;

        mm.SetTensorA(xGm[rowBase * cfg.Ka]);
        mm.SetTensorB(wGm[colBase * cfg.Kb], true);
        mm.SetBias(bGm[colBase]);
        mm.SetTail(rowsHere, colsHere);

        const uint32_t mTiles = Ceil(rowsHere, cfg.baseM);
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            // default iteration order walks M first inside one N column of tiles
            const uint32_t mt = step % mTiles;
            const uint32_t nt = step / mTiles;
            const uint32_t r = Min(cfg.baseM, rowsHere - static_cast<int32_t>(mt * cfg.baseM));
            const uint32_t c = Min(cfg.baseN, colsHere - static_cast<int32_t>(nt * cfg.baseN));

            LocalTensor<T> tile = tileQ.AllocTensor<T>();
            mm.template GetTensorC<true>(tile, false, true);
            const uint32_t n = cfg.baseM * cfg.baseN;
            Relu(tile, tile, n);
            Muls(tile, tile, static_cast<T>(scale), n);
            tileQ.EnQue(tile);

            tile = tileQ.DeQue<T>();
            const uint64_t dst = (rowBase + mt * cfg.baseM) * cfg.N + colBase + nt * cfg.baseN;
            StoreTile(tile, dst, r, c);
            tileQ.FreeTensor(tile);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void StoreTile(const LocalTensor<T> &tile, uint64_t dst, uint32_t r, uint32_t c)
    {
        constexpr uint32_t BLK = 32;
        const uint32_t rowBytes = c * sizeof(T);
        const uint32_t rowBytesPad = (rowBytes + BLK - 1) / BLK * BLK;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(r);
        cp.blockLen = rowBytes;
        cp.srcStride = (cfg.baseN * sizeof(T) - rowBytesPad) / BLK;   // UB gap in 32B blocks
        cp.dstStride = (cfg.N - c) * sizeof(T);                        // GM gap in bytes
        cp.rsv = 0;
        DataCopyPad(yGm[dst], tile, cp);
    }

    __aicore__ inline uint32_t Ceil(int32_t a, int32_t b) { return static_cast<uint32_t>((a + b - 1) / b); }
    __aicore__ inline int32_t Min(int32_t a, int32_t b) { return a < b ? a : b; }

    TCubeTiling cfg;
    float scale = 1.0f;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    TQue<QuePosition::VECOUT, 1> tileQ;
    uint32_t mIdx = 0, nIdx = 0;
    int32_t rowsHere = 0, colsHere = 0;
};

extern "C" __global__ __aicore__ void dense_rectify_div(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    DenseRectifyDivKernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.gemm);
    if (op.Init(x, weight, bias, y, td, &pipe)) {
        op.Process();
    }
}
