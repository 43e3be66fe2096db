#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelLstmCell {
public:
    __aicore__ inline KernelLstmCell() {}

    __aicore__ inline void Init(GM_ADDR xg, GM_ADDR hg, GM_ADDR cPrev, GM_ADDR hNext, GM_ADDR cNext,
                                const LstmCustomTilingData &td)
    {
        H = td.hidden;
        G = 4 * H;
        uint32_t blk = GetBlockIdx();
        if (blk < td.rowsTail) {
            rows = td.rowsPerCore + 1;
            firstRow = blk * rows;
        } else {
            rows = td.rowsPerCore;
            firstRow = td.rowsTail * (td.rowsPerCore + 1) + (blk - td.rowsTail) * td.rowsPerCore;
        }

        xgGm.SetGlobalBuffer((__gm__ float *)xg + static_cast<uint64_t>(firstRow) * G, rows * G);
        hgGm.SetGlobalBuffer((__gm__ float *)hg + static_cast<uint64_t>(firstRow) * G, rows * G);
        cGm.SetGlobalBuffer((__gm__ float *)cPrev + static_cast<uint64_t>(firstRow) * H, rows * H);
        hOutGm.SetGlobalBuffer((__gm__ float *)hNext + static_cast<uint64_t>(firstRow) * H, rows * H);
        cOutGm.SetGlobalBuffer((__gm__ float *)cNext + static_cast<uint64_t>(firstRow) * H, rows * H);

        pipe.InitBuffer(qXg, BUFFER_NUM, G * sizeof(float));
        pipe.InitBuffer(qHg, BUFFER_NUM, G * sizeof(float));
        pipe.InitBuffer(qC, BUFFER_NUM, H * sizeof(float));
        pipe.InitBuffer(qHOut, BUFFER_NUM, H * sizeof(float));
        pipe.InitBuffer(qCOut, BUFFER_NUM, H * sizeof(float));
        pipe.InitBuffer(candBuf, H * sizeof(float));
        pipe.InitBuffer(scratchBuf, G * sizeof(float));
        pipe.InitBuffer(onesBuf, G * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> ones = onesBuf.Get<float>();
        Duplicate(ones, 1.0f, G);
        for (uint32_t r = 0; r < rows; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    // dst = 1 / (1 + exp(-src)); dst may alias src.
    __aicore__ inline void Sigmoid(const LocalTensor<float> &dst, const LocalTensor<float> &src, uint32_t n)
    {
        LocalTensor<float> ones = onesBuf.Get<float>();
        LocalTensor<float> t = scratchBuf.Get<float>();
        Muls(t, src, -1.0f, n);
        Exp(t, t, n);
        Adds(t, t, 1.0f, n);
        Div(dst, ones, t, n);
    }

    // tanh(x) = 2 * sigmoid(2x) - 1
    __aicore__ inline void TanhVec(const LocalTensor<float> &dst, const LocalTensor<float> &src, uint32_t n)
    {
        Muls(dst, src, 2.0f, n);
        Sigmoid(dst, dst, n);
        Muls(dst, dst, 2.0f, n);
        Adds(dst, dst, -1.0f, n);
    }

    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<float> a = qXg.AllocTensor<float>();
        LocalTensor<float> b = qHg.AllocTensor<float>();
        LocalTensor<float> c = qC.AllocTensor<float>();
        DataCopy(a, xgGm[r * G], G);
        DataCopy(b, hgGm[r * G], G);
        DataCopy(c, cGm[r * H], H);
        qXg.EnQue(a);
        qHg.EnQue(b);
        qC.EnQue(c);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> gates = qXg.DeQue<float>();
        LocalTensor<float> rec = qHg.DeQue<float>();
        LocalTensor<float> cPrev = qC.DeQue<float>();
        LocalTensor<float> hOut = qHOut.AllocTensor<float>();
        LocalTensor<float> cOut = qCOut.AllocTensor<float>();
        LocalTensor<float> cand = candBuf.Get<float>();

        Add(gates, gates, rec, G);

        LocalTensor<float> gI = gates;
        LocalTensor<float> gF = gates[H];
        LocalTensor<float> gG = gates[2 * H];
        LocalTensor<float> gO = gates[3 * H];

        TanhVec(cand, gG, H);  // candidate cell input, before gG is squashed below
        Sigmoid(gates, gates, G);  // i, f, o (the g slot is unused afterwards)

        // c' = f * c + i * g~
        Mul(cOut, gF, cPrev, H);
        Mul(cand, gI, cand, H);
        Add(cOut, cOut, cand, H);

        // h' = o * tanh(c')
        TanhVec(hOut, cOut, H);
        Mul(hOut, hOut, gO, H);

        qHOut.EnQue(hOut);
        qCOut.EnQue(cOut);
        qXg.FreeTensor(gates);
        qHg.FreeTensor(rec);
        qC.FreeTensor(cPrev);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<float> h = qHOut.DeQue<float>();
        LocalTensor<float> c = qCOut.DeQue<float>();
        DataCopy(hOutGm[r * H], h, H);
        DataCopy(cOutGm[r * H], c, H);
        qHOut.FreeTensor(h);
        qCOut.FreeTensor(c);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qXg, qHg, qC;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qHOut, qCOut;
    TBuf<QuePosition::VECCALC> candBuf, scratchBuf, onesBuf;
    GlobalTensor<float> xgGm, hgGm, cGm, hOutGm, cOutGm;
    uint32_t H = 0;
    uint32_t G = 0;
    uint32_t rows = 0;
    uint32_t firstRow = 0;
};

extern "C" __global__ __aicore__ void lstm_custom(GM_ADDR x_gates, GM_ADDR h_gates, GM_ADDR c_prev,
                                                  GM_ADDR h_next, GM_ADDR c_next, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLstmCell op;
    op.Init(x_gates, h_gates, c_prev, h_next, c_next, tilingData);
    op.Process();
}
