/*
 * dense_logistic_rowsum
 *
 *   y[m] = sum_n sigmoid( sum_k x[m,k] * W[n,k] + b[n] )        y: [M, 1]
 *
 * The cube unit computes the linear layer tile by tile (Matmul high-level API, W used
 * transposed as stored by a Linear layer). Every output tile (all M rows x baseN cols)
 * lands in UB, the vector unit applies the logistic function and accumulates it into a
 * per-core [M x baseN] running sum. At the end each core reduces its columns and
 * atomically adds its M partial row sums into y (zero-initialised by the host).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

struct DenseLogisticRowsumTiling {
    uint32_t m;          // rows of x (== baseM, whole M handled by each core)
    uint32_t n;          // hidden size
    uint32_t k;          // input size
    uint32_t nPerCore;   // columns of the linear output owned by one core
    uint32_t baseN;      // columns per cube tile
    uint32_t reserved[3];
};

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

template <typename T>
__aicore__ inline void CopyWords(T *dst, __gm__ uint8_t *src)
{
    auto s = reinterpret_cast<__gm__ uint32_t *>(src);
    auto d = reinterpret_cast<uint32_t *>(dst);
    for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

class DenseLogisticRowsum {
public:
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline DenseLogisticRowsum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const DenseLogisticRowsumTiling &t, const TCubeTiling &cube)
    {
        tl = t;
        cubeTiling = cube;
        uint32_t core = GetBlockIdx();
        n0 = core * tl.nPerCore;
        nLen = (n0 >= tl.n) ? 0 : ((tl.n - n0) < tl.nPerCore ? (tl.n - n0) : tl.nPerCore);

        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), (uint64_t)tl.m * tl.k);
        wGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(w), (uint64_t)tl.n * tl.k);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), tl.n);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), tl.m);

        tileElems = tl.m * tl.baseN;
        pipe.InitBuffer(cQueue, 1, tileElems * sizeof(float));
        pipe.InitBuffer(accBuf, tileElems * sizeof(float));
        pipe.InitBuffer(rowBuf, tl.m * sizeof(float));
    }

    __aicore__ inline void Process(TPipe *p)
    {
        if (nLen == 0) {
            return;
        }
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, tileElems);

        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm[(uint64_t)n0 * tl.k], true);
        mm.SetBias(bGm[n0]);
        mm.SetTail(tl.m, nLen, tl.k);

        // every tile covers all M rows, so tile order does not matter for the row sum
        while (mm.template Iterate<true>()) {
            LocalTensor<float> c = cQueue.AllocTensor<float>();
            mm.template GetTensorC<true>(c, false, true);
            cQueue.EnQue(c);
            c = cQueue.DeQue<float>();
            Logistic(c);
            Add(acc, acc, c, tileElems);
            cQueue.FreeTensor(c);
        }
        mm.End();

        // acc is [m, baseN] row-major: one repeat per row, baseN floats each
        LocalTensor<float> rows = rowBuf.Get<float>();
        uint8_t repStride = static_cast<uint8_t>(tl.baseN * sizeof(float) / 32);
        WholeReduceSum<float>(rows, acc, static_cast<int32_t>(tl.baseN), static_cast<int32_t>(tl.m), 1, 1,
                              repStride);

        event_t ev = static_cast<event_t>(p->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(ev);
        WaitFlag<HardEvent::V_MTE3>(ev);
        SetAtomicAdd<float>();
        DataCopy(yGm, rows, tl.m);
        SetAtomicNone();
    }

private:
    // sigmoid(v) = 1 / (1 + exp(-v)), in place
    __aicore__ inline void Logistic(LocalTensor<float> &v)
    {
        Muls(v, v, -1.0f, tileElems);
        Exp(v, v, tileElems);
        Adds(v, v, 1.0f, tileElems);
        Reciprocal(v, v, tileElems);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> cQueue;
    TBuf<TPosition::VECCALC> accBuf;
    TBuf<TPosition::VECCALC> rowBuf;
    GlobalTensor<half> xGm, wGm;
    GlobalTensor<float> bGm, yGm;
    DenseLogisticRowsumTiling tl;
    TCubeTiling cubeTiling;
    uint32_t n0 = 0;
    uint32_t nLen = 0;
    uint32_t tileElems = 0;

public:
    __aicore__ inline TPipe *Pipe() { return &pipe; }
    __aicore__ inline TCubeTiling *Cube() { return &cubeTiling; }
};

extern "C" __global__ __aicore__ void dense_logistic_rowsum(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    // tiling blob: [DenseLogisticRowsumTiling][TCubeTiling]
    DenseLogisticRowsumTiling t;
    TCubeTiling cube;
    CopyWords(&t, tiling);
    CopyWords(&cube, tiling + sizeof(DenseLogisticRowsumTiling));

    DenseLogisticRowsum op;
    op.Init(x, w, bias, y, t, cube);
    REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), op.mm, op.Cube());
    op.Process(op.Pipe());
}
