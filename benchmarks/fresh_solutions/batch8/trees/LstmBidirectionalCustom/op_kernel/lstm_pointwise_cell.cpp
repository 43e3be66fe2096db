#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t NUM_GATES = 4;   // PyTorch order: input, forget, cell(g), output

/*
 * Pointwise half of one LSTM step. The matmuls (x W_ih^T + h W_hh^T + b) are done outside;
 * this kernel takes the pre-activation gates of shape (B, 4H) and the previous cell state:
 *
 *   i = sigmoid(g_i), f = sigmoid(g_f), g = tanh(g_g), o = sigmoid(g_o)
 *   c' = f * c + i * g
 *   h' = o * tanh(c')
 *
 * sigmoid(x) = 1 / (1 + exp(-x)),  tanh(x) = 2 * sigmoid(2x) - 1
 */
class LstmPointwiseCell {
public:
    __aicore__ inline LstmPointwiseCell() {}

    __aicore__ inline void Init(GM_ADDR gates, GM_ADDR cPrev, GM_ADDR hNext, GM_ADDR cNext,
                                const LstmPointwiseCellTilingData &td)
    {
        rows = td.rows;
        H = td.hidden;
        HA = td.hiddenAlign;

        gatesGm.SetGlobalBuffer((__gm__ float *)gates, static_cast<uint64_t>(rows) * NUM_GATES * H);
        cGm.SetGlobalBuffer((__gm__ float *)cPrev, static_cast<uint64_t>(rows) * H);
        hOutGm.SetGlobalBuffer((__gm__ float *)hNext, static_cast<uint64_t>(rows) * H);
        cOutGm.SetGlobalBuffer((__gm__ float *)cNext, static_cast<uint64_t>(rows) * H);

        pipe.InitBuffer(gatesQ, BUFFER_NUM, NUM_GATES * HA * sizeof(float));
        pipe.InitBuffer(cQ, BUFFER_NUM, HA * sizeof(float));
        pipe.InitBuffer(hOutQ, BUFFER_NUM, HA * sizeof(float));
        pipe.InitBuffer(cOutQ, BUFFER_NUM, HA * sizeof(float));
        pipe.InitBuffer(tmpBuf, 2 * HA * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = GetBlockIdx(); r < rows; r += GetBlockNum()) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<float> g = gatesQ.AllocTensor<float>();
        LocalTensor<float> c = cQ.AllocTensor<float>();
        // Four gate blocks of H floats; each lands on its own 32B-aligned slot of HA floats.
        DataCopyExtParams gp{static_cast<uint16_t>(NUM_GATES), H * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyExtParams cp{1, H * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(g, gatesGm[static_cast<uint64_t>(r) * NUM_GATES * H], gp, np);
        DataCopyPad(c, cGm[static_cast<uint64_t>(r) * H], cp, np);
        gatesQ.EnQue(g);
        cQ.EnQue(c);
    }

    // dst = 1 / (1 + exp(-src)), `count` elements; dst may alias src.
    __aicore__ inline void Logistic(const LocalTensor<float> &dst, const LocalTensor<float> &src, int32_t count)
    {
        Muls(dst, src, -1.0f, count);
        Exp(dst, dst, count);
        Adds(dst, dst, 1.0f, count);
        Reciprocal(dst, dst, count);
    }

    // dst = tanh(src) via 2 * sigmoid(2x) - 1
    __aicore__ inline void TanhViaSigmoid(const LocalTensor<float> &dst, const LocalTensor<float> &src, int32_t count)
    {
        Muls(dst, src, 2.0f, count);
        Logistic(dst, dst, count);
        Muls(dst, dst, 2.0f, count);
        Adds(dst, dst, -1.0f, count);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> g = gatesQ.DeQue<float>();
        LocalTensor<float> c = cQ.DeQue<float>();
        LocalTensor<float> hOut = hOutQ.AllocTensor<float>();
        LocalTensor<float> cOut = cOutQ.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> tmp2 = tmp[HA];

        const int32_t n = static_cast<int32_t>(HA);
        LocalTensor<float> gi = g;
        LocalTensor<float> gf = g[HA];
        LocalTensor<float> gg = g[2 * HA];
        LocalTensor<float> go = g[3 * HA];

        // input and forget gates are adjacent: one pass over 2*HA lanes
        Logistic(gi, gi, 2 * n);
        TanhViaSigmoid(gg, gg, n);
        Logistic(go, go, n);

        Mul(cOut, gf, c, n);          // f * c
        Mul(tmp, gi, gg, n);          // i * g
        Add(cOut, cOut, tmp, n);      // c'

        TanhViaSigmoid(tmp2, cOut, n);
        Mul(hOut, go, tmp2, n);       // h'

        hOutQ.EnQue(hOut);
        cOutQ.EnQue(cOut);
        gatesQ.FreeTensor(g);
        cQ.FreeTensor(c);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<float> hOut = hOutQ.DeQue<float>();
        LocalTensor<float> cOut = cOutQ.DeQue<float>();
        DataCopyExtParams cp{1, H * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(hOutGm[static_cast<uint64_t>(r) * H], hOut, cp);
        DataCopyPad(cOutGm[static_cast<uint64_t>(r) * H], cOut, cp);
        hOutQ.FreeTensor(hOut);
        cOutQ.FreeTensor(cOut);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> gatesQ, cQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> hOutQ, cOutQ;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<float> gatesGm, cGm, hOutGm, cOutGm;
    uint32_t rows = 0, H = 0, HA = 0;
};

extern "C" __global__ __aicore__ void lstm_pointwise_cell_custom(GM_ADDR gates, GM_ADDR c_prev, GM_ADDR h_next,
                                                                 GM_ADDR c_next, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    LstmPointwiseCell op;
    op.Init(gates, c_prev, h_next, c_next, td);
    op.Process();
}
