/*
 * TriuProductMatmul: C = triu(A @ B) for square A, B that are upper triangular.
 *
 * Output is split into tile x tile blocks.
 *  - Blocks strictly below the diagonal are zero and are just filled.
 *  - For a block (ti, tj) with ti <= tj only k in [ti*tile, (tj+1)*tile) can contribute,
 *    because A[i][k] == 0 for k < i and B[k][j] == 0 for k > j. The cube unit is fed this
 *    narrowed K range, which roughly divides the work by six compared with a dense GEMM.
 *  - Diagonal blocks are masked in UB (elements with row > col set to zero) before the
 *    copy-out, so the result is exactly triangular even for slightly non-triangular inputs.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class TriuProductKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    Matmul<AType, BType, CType> mm;

    __aicore__ inline TriuProductKernel() {}
    __aicore__ inline TPipe &pipeRef() { return pipe; }

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TriuProductMatmulTilingData &tiling)
    {
        n = tiling.dim;
        tile = tiling.tile;
        tileRows = tiling.tileRows;
        upperTiles = tiling.upperTiles;
        lowerTiles = tiling.lowerTiles;
        aGm.SetGlobalBuffer((__gm__ T *)a, static_cast<uint64_t>(n) * n);
        bGm.SetGlobalBuffer((__gm__ T *)b, static_cast<uint64_t>(n) * n);
        cGm.SetGlobalBuffer((__gm__ T *)c, static_cast<uint64_t>(n) * n);
        pipe.InitBuffer(resQue, 1, tile * tile * sizeof(T));
        pipe.InitBuffer(zeroBuf, tile * tile * sizeof(T));
        // the vector cores of a mixed launch are numbered 0 .. blockNum * ratio - 1
        workerId = GetBlockIdx();
        workerNum = GetBlockNum() * GetTaskRation();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t idx = workerId; idx < upperTiles; idx += workerNum) {
            uint32_t ti, tj;
            UpperCoord(idx, ti, tj);
            ComputeTile(ti, tj);
        }
        mm.End();

        if (lowerTiles == 0) {
            return;
        }
        LocalTensor<T> zeros = zeroBuf.Get<T>();
        Duplicate(zeros, static_cast<T>(0), tile * tile);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(ev);
        WaitFlag<HardEvent::V_MTE3>(ev);
        for (uint32_t idx = workerId; idx < lowerTiles; idx += workerNum) {
            uint32_t ti, tj;
            LowerCoord(idx, ti, tj);
            WriteTile(zeros, ti, tj);
        }
    }

private:
    // idx-th block of the upper triangle in row-major order
    __aicore__ inline void UpperCoord(uint32_t idx, uint32_t &ti, uint32_t &tj)
    {
        ti = 0;
        uint32_t rowLen = tileRows;
        while (idx >= rowLen) {
            idx -= rowLen;
            ++ti;
            --rowLen;
        }
        tj = ti + idx;
    }

    // idx-th block strictly below the diagonal: row r has r blocks
    __aicore__ inline void LowerCoord(uint32_t idx, uint32_t &ti, uint32_t &tj)
    {
        ti = 1;
        while (idx >= ti) {
            idx -= ti;
            ++ti;
        }
        tj = idx;
    }

    __aicore__ inline void ComputeTile(uint32_t ti, uint32_t tj)
    {
        const uint32_t row0 = ti * tile;
        const uint32_t col0 = tj * tile;
        const uint32_t rows = (n - row0) < tile ? (n - row0) : tile;
        const uint32_t cols = (n - col0) < tile ? (n - col0) : tile;
        const uint32_t kBegin = row0;
        const uint32_t kEnd = col0 + cols;

        mm.SetSingleShape(rows, cols, kEnd - kBegin);
        mm.SetTensorA(aGm[static_cast<uint64_t>(row0) * n + kBegin]);
        mm.SetTensorB(bGm[static_cast<uint64_t>(kBegin) * n + col0]);

        LocalTensor<T> res = resQue.AllocTensor<T>();
        // base block == tile, so a single iteration produces the whole tile
        while (mm.Iterate()) {
            mm.GetTensorC(res);
        }
        resQue.EnQue(res);
        res = resQue.DeQue<T>();

        if (ti == tj) {
            // zero everything left of the diagonal; the row stride in UB is `tile`
            for (uint32_t r = 1; r < rows; ++r) {
                const uint32_t z = r < cols ? r : cols;
                Duplicate(res[r * tile], static_cast<T>(0), z);
            }
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
            SetFlag<HardEvent::V_MTE3>(ev);
            WaitFlag<HardEvent::V_MTE3>(ev);
        }
        WriteTile(res, ti, tj);
        resQue.FreeTensor(res);
    }

    __aicore__ inline void WriteTile(const LocalTensor<T> &src, uint32_t ti, uint32_t tj)
    {
        const uint32_t row0 = ti * tile;
        const uint32_t col0 = tj * tile;
        const uint32_t rows = (n - row0) < tile ? (n - row0) : tile;
        const uint32_t cols = (n - col0) < tile ? (n - col0) : tile;
        DataCopyExtParams p;
        p.blockCount = static_cast<uint16_t>(rows);
        p.blockLen = cols * sizeof(T);
        p.srcStride = (tile - cols) * sizeof(T) / 32;
        p.dstStride = (n - cols) * sizeof(T);
        p.rsv = 0;
        DataCopyPad(cGm[static_cast<uint64_t>(row0) * n + col0], src, p);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> resQue;
    TBuf<TPosition::VECCALC> zeroBuf;
    GlobalTensor<T> aGm, bGm, cGm;
    uint32_t n = 0, tile = 0, tileRows = 0, upperTiles = 0, lowerTiles = 0;
    uint32_t workerId = 0, workerNum = 1;
};

extern "C" __global__ __aicore__ void triu_product_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TriuProductKernel<DTYPE_A> op;
    REGIST_MATMUL_OBJ(&op.pipeRef(), GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTiling);
    op.Init(a, b, c, tilingData);
    op.Process();
}
