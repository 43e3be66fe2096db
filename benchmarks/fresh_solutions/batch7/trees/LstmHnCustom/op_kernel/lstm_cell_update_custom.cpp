#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Element-wise LSTM cell: consumes the pre-activation gates of one time step
// (already containing x*W_ih^T + h*W_hh^T + b_ih + b_hh) and produces the new
// hidden and cell state. PyTorch gate order is i, f, g, o.
class LstmCellUpdateKernel {
public:
    __aicore__ inline LstmCellUpdateKernel() {}

    __aicore__ inline void Init(GM_ADDR gates, GM_ADDR cPrev, GM_ADDR hNext, GM_ADDR cNext,
                                const LstmCellUpdateTilingData &t)
    {
        hidden_ = t.hidden;
        hiddenAlign_ = t.hiddenAlign;

        uint32_t core = GetBlockIdx();
        if (core < t.bigCoreNum) {
            rowCount_ = t.rowsPerCore + 1;
            rowStart_ = core * rowCount_;
        } else {
            rowCount_ = t.rowsPerCore;
            rowStart_ = t.bigCoreNum * (t.rowsPerCore + 1) + (core - t.bigCoreNum) * t.rowsPerCore;
        }

        gatesGm_.SetGlobalBuffer((__gm__ float *)gates, static_cast<uint64_t>(t.batch) * 4 * hidden_);
        cPrevGm_.SetGlobalBuffer((__gm__ float *)cPrev, static_cast<uint64_t>(t.batch) * hidden_);
        hNextGm_.SetGlobalBuffer((__gm__ float *)hNext, static_cast<uint64_t>(t.batch) * hidden_);
        cNextGm_.SetGlobalBuffer((__gm__ float *)cNext, static_cast<uint64_t>(t.batch) * hidden_);

        // gate buffer keeps the four gates at 32B-aligned offsets
        pipe_.InitBuffer(gateQ_, BUFFER_NUM, 4 * hiddenAlign_ * sizeof(float));
        pipe_.InitBuffer(cellQ_, BUFFER_NUM, hiddenAlign_ * sizeof(float));
        pipe_.InitBuffer(hOutQ_, BUFFER_NUM, hiddenAlign_ * sizeof(float));
        pipe_.InitBuffer(cOutQ_, BUFFER_NUM, hiddenAlign_ * sizeof(float));
        pipe_.InitBuffer(onesBuf_, hiddenAlign_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, hiddenAlign_ * sizeof(float));

        LocalTensor<float> ones = onesBuf_.Get<float>();
        Duplicate(ones, 1.0f, hiddenAlign_);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount_; ++r) {
            uint64_t row = rowStart_ + r;
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t row)
    {
        LocalTensor<float> g = gateQ_.AllocTensor<float>();
        LocalTensor<float> c = cellQ_.AllocTensor<float>();
        DataCopyExtParams seg{1, static_cast<uint32_t>(hidden_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        // each gate lands at its own aligned slot, so H need not be a multiple of 8
        for (uint32_t k = 0; k < 4; ++k) {
            DataCopyPad(g[k * hiddenAlign_], gatesGm_[row * 4 * hidden_ + k * hidden_], seg, noPad);
        }
        DataCopyPad(c, cPrevGm_[row * hidden_], seg, noPad);
        gateQ_.EnQue(g);
        cellQ_.EnQue(c);
    }

    // dst = 1 / (1 + exp(-src)), in place allowed
    __aicore__ inline void Sigmoid(const LocalTensor<float> &dst, const LocalTensor<float> &src)
    {
        LocalTensor<float> ones = onesBuf_.Get<float>();
        Muls(dst, src, -1.0f, hiddenAlign_);
        Exp(dst, dst, hiddenAlign_);
        Adds(dst, dst, 1.0f, hiddenAlign_);
        Div(dst, ones, dst, hiddenAlign_);
    }

    // tanh(x) = 2 * sigmoid(2x) - 1
    __aicore__ inline void TanhVia(const LocalTensor<float> &dst, const LocalTensor<float> &src)
    {
        Muls(dst, src, 2.0f, hiddenAlign_);
        Sigmoid(dst, dst);
        Muls(dst, dst, 2.0f, hiddenAlign_);
        Adds(dst, dst, -1.0f, hiddenAlign_);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> g = gateQ_.DeQue<float>();
        LocalTensor<float> c = cellQ_.DeQue<float>();
        LocalTensor<float> hOut = hOutQ_.AllocTensor<float>();
        LocalTensor<float> cOut = cOutQ_.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();

        LocalTensor<float> gi = g[0];
        LocalTensor<float> gf = g[hiddenAlign_];
        LocalTensor<float> gg = g[2 * hiddenAlign_];
        LocalTensor<float> go = g[3 * hiddenAlign_];

        Sigmoid(gi, gi);
        Sigmoid(gf, gf);
        TanhVia(gg, gg);
        Sigmoid(go, go);

        // c' = f * c + i * g
        Mul(cOut, gf, c, hiddenAlign_);
        Mul(tmp, gi, gg, hiddenAlign_);
        Add(cOut, cOut, tmp, hiddenAlign_);

        // h' = o * tanh(c')
        TanhVia(tmp, cOut);
        Mul(hOut, go, tmp, hiddenAlign_);

        hOutQ_.EnQue(hOut);
        cOutQ_.EnQue(cOut);
        gateQ_.FreeTensor(g);
        cellQ_.FreeTensor(c);
    }

    __aicore__ inline void CopyOut(uint64_t row)
    {
        LocalTensor<float> hOut = hOutQ_.DeQue<float>();
        LocalTensor<float> cOut = cOutQ_.DeQue<float>();
        DataCopyExtParams seg{1, static_cast<uint32_t>(hidden_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(hNextGm_[row * hidden_], hOut, seg);
        DataCopyPad(cNextGm_[row * hidden_], cOut, seg);
        hOutQ_.FreeTensor(hOut);
        cOutQ_.FreeTensor(cOut);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> gateQ_, cellQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> hOutQ_, cOutQ_;
    TBuf<QuePosition::VECCALC> onesBuf_, tmpBuf_;
    GlobalTensor<float> gatesGm_, cPrevGm_, hNextGm_, cNextGm_;
    uint32_t hidden_ = 0;
    uint32_t hiddenAlign_ = 0;
    uint32_t rowStart_ = 0;
    uint32_t rowCount_ = 0;
};

extern "C" __global__ __aicore__ void lstm_cell_update_custom(GM_ADDR gates, GM_ADDR c_prev, GM_ADDR h_next,
                                                              GM_ADDR c_next, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    LstmCellUpdateKernel op;
    op.Init(gates, c_prev, h_next, c_next, tilingData);
    op.Process();
}
