/*
 * SplitKMatmul kernel.
 *
 * phase 1 (cube):   partial[i] = a[:, i*kPer : i*kPer + kLen] @ b[i*kPer : ..., :]   (fp32)
 * phase 2 (vector): c[e] = sum_i partial[i][e], cast to the output dtype
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename T>
class SplitKMatmulKernel {
public:
    using AT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline SplitKMatmulKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR usrWs,
                                const SplitKMatmulTilingData &td, TPipe *pipe)
    {
        m = td.m;
        n = td.n;
        k = td.k;
        kSplit = td.kSplit;
        kPer = td.kPerSlice;
        perCore = td.reducePerCore;
        tile = td.reduceTile;

        slice = GetBlockIdx();
        if ASCEND_IS_AIV {
            slice = slice / GetTaskRation();
        }

        aGm.SetGlobalBuffer((__gm__ T *)a, (uint64_t)m * k);
        bGm.SetGlobalBuffer((__gm__ T *)b, (uint64_t)k * n);
        cGm.SetGlobalBuffer((__gm__ T *)c, (uint64_t)m * n);
        partGm.SetGlobalBuffer((__gm__ float *)usrWs, (uint64_t)kSplit * m * n);

        pipe->InitBuffer(inQ, 2, tile * sizeof(float));
        pipe->InitBuffer(outQ, 1, tile * sizeof(T));
        pipe->InitBuffer(accBuf, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        PartialProduct();
        SyncAll();
        Reduce();
    }

    matmul::Matmul<AT, BT, CT, BiasT> mm;

private:
    __aicore__ inline void PartialProduct()
    {
        if (slice >= kSplit) {
            return;
        }
        const uint32_t k0 = slice * kPer;
        const uint32_t kLen = (k - k0) < kPer ? (k - k0) : kPer;
        mm.SetSingleShape(m, n, kLen);
        mm.SetTensorA(aGm[k0]);                   // column offset inside row-major a
        mm.SetTensorB(bGm[(uint64_t)k0 * n]);     // row offset inside b
        mm.IterateAll(partGm[(uint64_t)slice * m * n]);
        mm.End();
    }

    __aicore__ inline void Reduce()
    {
        const uint32_t total = m * n;
        const uint32_t begin = slice * perCore;
        if (begin >= total) {
            return;
        }
        const uint32_t end = (begin + perCore) < total ? (begin + perCore) : total;

        for (uint32_t e0 = begin; e0 < end; e0 += tile) {
            const uint32_t len = (end - e0) < tile ? (end - e0) : tile;
            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, len);
            for (uint32_t s = 0; s < kSplit; ++s) {
                LocalTensor<float> part = inQ.AllocTensor<float>();
                DataCopyPad(part, partGm[(uint64_t)s * total + e0],
                            DataCopyExtParams{1, (uint32_t)(len * sizeof(float)), 0, 0, 0},
                            DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                inQ.EnQue(part);
                part = inQ.DeQue<float>();
                Add(acc, acc, part, len);
                inQ.FreeTensor(part);
            }
            LocalTensor<T> out = outQ.AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                DataCopy(out, acc, len);   // UB -> UB move keeps queue semantics uniform
            } else {
                Cast(out, acc, RoundMode::CAST_ROUND, len);
            }
            outQ.EnQue(out);
            out = outQ.DeQue<T>();
            DataCopyPad(cGm[e0], out, DataCopyExtParams{1, (uint32_t)(len * sizeof(T)), 0, 0, 0});
            outQ.FreeTensor(out);
        }
    }

    GlobalTensor<T> aGm, bGm, cGm;
    GlobalTensor<float> partGm;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> accBuf;
    uint32_t m, n, k, kSplit, kPer, perCore, tile, slice;
};

template <typename T>
__aicore__ inline void RunSplitK(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR ws, const SplitKMatmulTilingData &td)
{
    TPipe pipe;
    SplitKMatmulKernel<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mmTiling);
    op.Init(a, b, c, GetUserWorkspace(ws), td, &pipe);
    op.Process();
}

extern "C" __global__ __aicore__ void split_k_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RunSplitK<float>(a, b, c, workspace, td);
    } else if (TILING_KEY_IS(1)) {
        RunSplitK<half>(a, b, c, workspace, td);
    }
}
