// softmax(gelu(x @ W^T + b), dim=-1)
// Cores are split along M only, so each core finishes complete rows of the
// matmul before running the row-wise GELU + softmax on them.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

typedef matmul::MatmulType<TPosition::GM, CubeFormat::ND, float> MatA;
typedef matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true> MatB;
typedef matmul::MatmulType<TPosition::GM, CubeFormat::ND, float> MatC;
typedef matmul::MatmulType<TPosition::GM, CubeFormat::ND, float> MatBias;

class LinearGeluRowSoftmaxOp {
public:
    __aicore__ inline LinearGeluRowSoftmaxOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const LinearGeluRowSoftmaxTilingData &t, TPipe *p)
    {
        pipe = p;
        M = t.m;
        N = t.n;
        K = t.k;
        chunk = t.chunk;
        wholeRow = t.rowFits != 0;
        firstRow = GetBlockIdx() * t.rowsPerCore;
        numRows = 0;
        if (firstRow < M) {
            numRows = (M - firstRow) < t.rowsPerCore ? (M - firstRow) : t.rowsPerCore;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)M * K);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)N * K);
        bGm.SetGlobalBuffer((__gm__ float *)b, N);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)M * N);

        pipe->InitBuffer(qIn, 1, chunk * sizeof(float));
        pipe->InitBuffer(qOut, 1, chunk * sizeof(float));
        pipe->InitBuffer(scratch, chunk * sizeof(float));
        pipe->InitBuffer(reduceWork, chunk * sizeof(float));
        pipe->InitBuffer(scalarBuf, 32 * sizeof(float));
    }

    __aicore__ inline void Matmul(matmul::Matmul<MatA, MatB, MatC, MatBias> &mm)
    {
        if (numRows == 0) {
            return;
        }
        mm.SetTensorA(xGm[(uint64_t)firstRow * K]);
        mm.SetTensorB(wGm, true);
        mm.SetBias(bGm);
        mm.SetTail(numRows, N);
        mm.IterateAll(yGm[(uint64_t)firstRow * N]);
        mm.End();
    }

    __aicore__ inline void Softmax()
    {
        for (uint32_t r = 0; r < numRows; ++r) {
            uint64_t rowOff = (uint64_t)(firstRow + r) * N;
            if (wholeRow) {
                RowInUb(rowOff);
            } else {
                RowChunked(rowOff);
            }
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = qIn.AllocTensor<float>();
        DataCopyPad(t, yGm[off], {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0.0f});
        qIn.EnQue(t);
    }
    __aicore__ inline void Store(uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = qOut.DeQue<float>();
        DataCopyPad(yGm[off], t, {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0});
        qOut.FreeTensor(t);
    }

    // exact gelu in place: v * 0.5 * (1 + erf(v / sqrt(2)))
    __aicore__ inline void GeluInPlace(LocalTensor<float> &v, uint32_t len)
    {
        LocalTensor<float> tmp = scratch.Get<float>();
        Muls(tmp, v, 0.7071067811865476f, len);
        Erf(tmp, tmp, len);
        Adds(tmp, tmp, 1.0f, len);
        Mul(v, v, tmp, len);
        Muls(v, v, 0.5f, len);
    }

    __aicore__ inline float ReduceScalar(LocalTensor<float> &src, uint32_t len, bool isMax)
    {
        LocalTensor<float> s = scalarBuf.Get<float>();
        LocalTensor<float> wk = reduceWork.Get<float>();
        if (isMax) {
            ReduceMax<float>(s, src, wk, len, false);
        } else {
            ReduceSum<float>(s, src, wk, len);
        }
        event_t ev = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return s.GetValue(0);
    }

    // whole row fits: load once, compute, store once
    __aicore__ inline void RowInUb(uint64_t rowOff)
    {
        Load(rowOff, N);
        LocalTensor<float> v = qIn.DeQue<float>();
        LocalTensor<float> o = qOut.AllocTensor<float>();
        GeluInPlace(v, N);
        float mx = ReduceScalar(v, N, true);
        Adds(o, v, -mx, N);
        Exp(o, o, N);
        float total = ReduceScalar(o, N, false);
        Muls(o, o, 1.0f / total, N);
        qIn.FreeTensor(v);
        qOut.EnQue(o);
        Store(rowOff, N);
    }

    // long rows: three streaming passes over GM
    __aicore__ inline void RowChunked(uint64_t rowOff)
    {
        float mx = -3.4e38f;
        for (uint32_t c = 0; c < N; c += chunk) {
            uint32_t len = (N - c) < chunk ? (N - c) : chunk;
            Load(rowOff + c, len);
            LocalTensor<float> v = qIn.DeQue<float>();
            LocalTensor<float> o = qOut.AllocTensor<float>();
            GeluInPlace(v, len);
            float part = ReduceScalar(v, len, true);
            mx = part > mx ? part : mx;
            DataCopy(o, v, (len + 7) / 8 * 8);
            qIn.FreeTensor(v);
            qOut.EnQue(o);
            Store(rowOff + c, len);
        }
        float total = 0.0f;
        for (uint32_t c = 0; c < N; c += chunk) {
            uint32_t len = (N - c) < chunk ? (N - c) : chunk;
            Load(rowOff + c, len);
            LocalTensor<float> v = qIn.DeQue<float>();
            LocalTensor<float> o = qOut.AllocTensor<float>();
            Adds(o, v, -mx, len);
            Exp(o, o, len);
            total += ReduceScalar(o, len, false);
            qIn.FreeTensor(v);
            qOut.EnQue(o);
            Store(rowOff + c, len);
        }
        float inv = 1.0f / total;
        for (uint32_t c = 0; c < N; c += chunk) {
            uint32_t len = (N - c) < chunk ? (N - c) : chunk;
            Load(rowOff + c, len);
            LocalTensor<float> v = qIn.DeQue<float>();
            LocalTensor<float> o = qOut.AllocTensor<float>();
            Muls(o, v, inv, len);
            qIn.FreeTensor(v);
            qOut.EnQue(o);
            Store(rowOff + c, len);
        }
    }

    TPipe *pipe = nullptr;
    TQue<QuePosition::VECIN, 1> qIn;
    TQue<QuePosition::VECOUT, 1> qOut;
    TBuf<TPosition::VECCALC> scratch, reduceWork, scalarBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    uint32_t M = 0, N = 0, K = 0, chunk = 0, firstRow = 0, numRows = 0;
    bool wholeRow = true;
};

extern "C" __global__ __aicore__ void linear_gelu_row_softmax(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    matmul::Matmul<MatA, MatB, MatC, MatBias> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.cubeTiling);

    LinearGeluRowSoftmaxOp op;
    op.Init(x, weight, bias, y, t, &pipe);
    op.Matmul(mm);
    op.Softmax();
}
