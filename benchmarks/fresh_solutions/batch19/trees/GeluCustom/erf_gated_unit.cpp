// erf_gated_unit.cpp
// y = 0.5 * x * (1 + erf(x / sqrt(2)))   -- the exact (erf based) Gaussian error linear unit.
//
// Rows of the input are distributed over cores; each core walks its rows in column tiles.
#include "kernel_operator.h"

namespace {
constexpr int32_t QUEUE_DEPTH = 2;
constexpr float INV_SQRT2 = 0.70710678118654752f;
}

struct ErfGatedUnitTiling {
    uint32_t rows;          // outer dimension
    uint32_t cols;          // inner dimension (contiguous)
    uint32_t rowsPerCore;
    uint32_t tileCols;      // columns per UB tile, multiple of 8
};

class ErfGatedUnit {
public:
    __aicore__ inline ErfGatedUnit() {}

    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, const ErfGatedUnitTiling &tiling)
    {
        cfg = tiling;
        uint32_t bid = AscendC::GetBlockIdx();
        rowLo = bid * cfg.rowsPerCore;
        rowHi = rowLo + cfg.rowsPerCore;
        if (rowHi > cfg.rows) rowHi = cfg.rows;

        inGm.SetGlobalBuffer((__gm__ float *)in, (uint64_t)cfg.rows * cfg.cols);
        outGm.SetGlobalBuffer((__gm__ float *)out, (uint64_t)cfg.rows * cfg.cols);
        pipe.InitBuffer(qIn, QUEUE_DEPTH, cfg.tileCols * sizeof(float));
        pipe.InitBuffer(qOut, QUEUE_DEPTH, cfg.tileCols * sizeof(float));
        pipe.InitBuffer(scratch, cfg.tileCols * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowLo; r < rowHi; ++r) {
            uint64_t base = (uint64_t)r * cfg.cols;
            for (uint32_t c = 0; c < cfg.cols; c += cfg.tileCols) {
                uint32_t cnt = cfg.cols - c;
                if (cnt > cfg.tileCols) cnt = cfg.tileCols;
                Load(base + c, cnt);
                Calc((cnt + 7) / 8 * 8);
                Save(base + c, cnt);
            }
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> t = qIn.AllocTensor<float>();
        AscendC::DataCopyExtParams p{1, cnt * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(t, inGm[off], p, pad);
        qIn.EnQue(t);
    }

    __aicore__ inline void Calc(uint32_t len)
    {
        AscendC::LocalTensor<float> xv = qIn.DeQue<float>();
        AscendC::LocalTensor<float> yv = qOut.AllocTensor<float>();
        AscendC::LocalTensor<float> e = scratch.Get<float>();

        AscendC::Muls(e, xv, INV_SQRT2, len);     // x / sqrt(2)
        AscendC::Erf(yv, e, len);                 // erf(x / sqrt(2))
        AscendC::Adds(yv, yv, 1.0f, len);         // 1 + erf(.)
        AscendC::Mul(yv, yv, xv, len);            // x * (1 + erf(.))
        AscendC::Muls(yv, yv, 0.5f, len);

        qOut.EnQue(yv);
        qIn.FreeTensor(xv);
    }

    __aicore__ inline void Save(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> t = qOut.DeQue<float>();
        AscendC::DataCopyExtParams p{1, cnt * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(outGm[off], t, p);
        qOut.FreeTensor(t);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, QUEUE_DEPTH> qIn;
    AscendC::TQue<AscendC::QuePosition::VECOUT, QUEUE_DEPTH> qOut;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scratch;
    AscendC::GlobalTensor<float> inGm, outGm;
    ErfGatedUnitTiling cfg;
    uint32_t rowLo = 0, rowHi = 0;
};

extern "C" __global__ __aicore__ void erf_gated_unit(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    ErfGatedUnitTiling t;
    __gm__ ErfGatedUnitTiling *src = reinterpret_cast<__gm__ ErfGatedUnitTiling *>(tiling);
    t.rows = src->rows;
    t.cols = src->cols;
    t.rowsPerCore = src->rowsPerCore;
    t.tileCols = src->tileCols;

    ErfGatedUnit op;
    op.Init(x, y, t);
    op.Process();
}
