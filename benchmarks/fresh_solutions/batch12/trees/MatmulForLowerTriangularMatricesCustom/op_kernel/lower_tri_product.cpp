/*
 * LowerTriProduct kernel: C = tril(A @ B), A and B lower triangular (n x n).
 *
 * Work items:
 *   - lower output blocks (bi >= bj): one Matmul call over the reduced K range
 *     [bj*tile, min(n, (bi+1)*tile)); diagonal blocks additionally get their strict upper
 *     triangle cleared on the vector side;
 *   - upper output blocks (bi < bj): filled with zeros straight from a zeroed UB buffer.
 * Items are dealt round-robin to the AIV workers; each worker owns a Matmul object bound to
 * its AIC.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename T>
class LowerTriProductKernel {
    using MatA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using MatB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using MatC = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    using MatBias = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;

public:
    matmul::Matmul<MatA, MatB, MatC, MatBias> mm;

    __aicore__ inline LowerTriProductKernel() {}

    __aicore__ inline void Init(TPipe* p, GM_ADDR a, GM_ADDR b, GM_ADDR c, const LowerTriProductTilingData& td)
    {
        n = td.n;
        tile = td.tile;
        nt = td.tilesPerDim;
        workers = td.workers;
        baseM = td.mm.baseM;
        baseN = td.mm.baseN;
        aGm.SetGlobalBuffer((__gm__ T*)a);
        bGm.SetGlobalBuffer((__gm__ T*)b);
        cGm.SetGlobalBuffer((__gm__ T*)c);
        p->InitBuffer(outQue, 1, baseM * baseN * sizeof(T));
        p->InitBuffer(zeroBuf, baseM * baseN * sizeof(T));
        Duplicate(zeroBuf.Get<T>(), static_cast<T>(0), baseM * baseN);
        event_t e = static_cast<event_t>(p->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e);
        WaitFlag<HardEvent::V_MTE3>(e);
    }

    __aicore__ inline void Process()
    {
        const uint32_t me = GetBlockIdx();
        if (me >= workers) {
            return;
        }
        const uint32_t lowerCnt = nt * (nt + 1) / 2;
        for (uint32_t t = me; t < lowerCnt; t += workers) {
            uint32_t bi = 0, rest = t;
            while (rest >= bi + 1) {   // row bi holds bi + 1 lower blocks
                rest -= bi + 1;
                ++bi;
            }
            LowerBlock(bi, rest);
        }
        const uint32_t upperCnt = nt * (nt - 1) / 2;
        for (uint32_t u = me; u < upperCnt; u += workers) {
            uint32_t bi = 0, rest = u;
            while (rest >= nt - 1 - bi) {   // row bi holds nt - 1 - bi upper blocks
                rest -= nt - 1 - bi;
                ++bi;
            }
            ZeroBlock(bi, bi + 1 + rest);
        }
        mm.End();
    }

private:
    __aicore__ inline uint32_t Min(uint32_t x, uint32_t y) { return x < y ? x : y; }

    __aicore__ inline void LowerBlock(uint32_t bi, uint32_t bj)
    {
        const uint32_t r0 = bi * tile;
        const uint32_t c0 = bj * tile;
        const uint32_t mLen = Min(tile, n - r0);
        const uint32_t nLen = Min(tile, n - c0);
        const uint32_t k0 = c0;                    // B[k, j] == 0 for k < j
        const uint32_t k1 = r0 + mLen;             // A[i, k] == 0 for k > i
        mm.SetTensorA(aGm[static_cast<uint64_t>(r0) * n + k0]);
        mm.SetTensorB(bGm[static_cast<uint64_t>(k0) * n + c0]);
        mm.SetSingleShape(mLen, nLen, k1 - k0);

        const uint32_t mRounds = (mLen + baseM - 1) / baseM;
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            const uint32_t bm = step % mRounds;
            const uint32_t bn = step / mRounds;
            LocalTensor<T> blk = outQue.AllocTensor<T>();
            mm.template GetTensorC<true>(blk, false, true);
            if (bi == bj) {
                ClearAboveDiagonal(blk, r0 + bm * baseM, c0 + bn * baseN);
            }
            outQue.EnQue(blk);
            blk = outQue.DeQue<T>();
            const uint32_t rows = Min(baseM, mLen - bm * baseM);
            const uint32_t cols = Min(baseN, nLen - bn * baseN);
            Store(blk, r0 + bm * baseM, c0 + bn * baseN, rows, cols);
            outQue.FreeTensor(blk);
            ++step;
        }
    }

    // Zero entries with global column > global row inside a diagonal base block.
    __aicore__ inline void ClearAboveDiagonal(LocalTensor<T>& blk, uint32_t gRow0, uint32_t gCol0)
    {
        if (gCol0 + baseN <= gRow0 + 1) {
            return;   // block lies entirely on/below the diagonal
        }
        PipeBarrier<PIPE_ALL>();
        for (uint32_t r = 0; r < baseM; ++r) {
            const int32_t firstZero = static_cast<int32_t>(gRow0 + r) + 1 - static_cast<int32_t>(gCol0);
            for (int32_t col = firstZero < 0 ? 0 : firstZero; col < static_cast<int32_t>(baseN); ++col) {
                blk.SetValue(r * baseN + col, static_cast<T>(0));
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Store(LocalTensor<T>& src, uint32_t gRow, uint32_t gCol, uint32_t rows, uint32_t cols)
    {
        constexpr uint32_t perBlk = 32 / sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                             baseN / perBlk - (cols + perBlk - 1) / perBlk,
                             static_cast<uint32_t>((n - cols) * sizeof(T)), 0};
        DataCopyPad(cGm[static_cast<uint64_t>(gRow) * n + gCol], src, cp);
    }

    __aicore__ inline void ZeroBlock(uint32_t bi, uint32_t bj)
    {
        LocalTensor<T> z = zeroBuf.Get<T>();
        const uint32_t r0 = bi * tile;
        const uint32_t c0 = bj * tile;
        const uint32_t mLen = Min(tile, n - r0);
        const uint32_t nLen = Min(tile, n - c0);
        for (uint32_t rr = 0; rr < mLen; rr += baseM) {
            for (uint32_t cc = 0; cc < nLen; cc += baseN) {
                Store(z, r0 + rr, c0 + cc, Min(baseM, mLen - rr), Min(baseN, nLen - cc));
            }
        }
    }

    TQue<QuePosition::VECIN, 1> outQue;
    TBuf<TPosition::VECCALC> zeroBuf;
    GlobalTensor<T> aGm, bGm, cGm;
    uint32_t n = 0, tile = 0, nt = 0, workers = 0, baseM = 0, baseN = 0;
};

template <typename T>
__aicore__ inline void RunLowerTri(GM_ADDR a, GM_ADDR b, GM_ADDR c, const LowerTriProductTilingData& td)
{
    TPipe pipe;
    LowerTriProductKernel<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(&pipe, a, b, c, td);
    op.Process();
}

extern "C" __global__ __aicore__ void lower_tri_product(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                        GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RunLowerTri<float>(a, b, c, td);
    } else if (TILING_KEY_IS(1)) {
        RunLowerTri<half>(a, b, c, td);
    }
}
