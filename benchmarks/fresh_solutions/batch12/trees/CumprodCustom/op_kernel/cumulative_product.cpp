/*
 * CumulativeProduct kernel:  y[o, t, q] = prod_{s <= t} x[o, s, q]
 *
 * Both modes advance a vector of independent lanes one axis step at a time with Mul,
 * keeping the running product ("carry") of the last step between blocks.
 *   mode 0: lanes = inner elements; a block of stepRows axis steps is fetched with a strided DMA.
 *   mode 1: lanes = 64 outer rows; a 64 x 64 window (rows x axis) is transposed with Gather,
 *           scanned, and transposed back with a second Gather before the store.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class CumulativeProductKernel {
    static constexpr uint32_t LANES = 64;   // mode 1 row group
    static constexpr uint32_t WIN = 64;     // mode 1 column window

public:
    __aicore__ inline CumulativeProductKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CumulativeProductTilingData &td)
    {
        cfg = td;
        unitLo = GetBlockIdx() * td.unitsPerCore;
        unitHi = unitLo + td.unitsPerCore;
        if (unitHi > td.units) {
            unitHi = td.units;
        }
        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        if (td.mode == 0) {
            uint32_t blk = td.stepRows * td.laneTile;
            pipe.InitBuffer(inQ, 2, blk * sizeof(T));
            pipe.InitBuffer(outQ, 2, blk * sizeof(T));
            pipe.InitBuffer(carryBuf, td.laneTile * sizeof(T));
        } else {
            pipe.InitBuffer(inQ, 2, LANES * WIN * sizeof(T));
            pipe.InitBuffer(outQ, 2, LANES * WIN * sizeof(T));
            pipe.InitBuffer(carryBuf, LANES * sizeof(T));
            pipe.InitBuffer(tBuf, LANES * WIN * sizeof(T));
            pipe.InitBuffer(offBuf, 2 * LANES * WIN * sizeof(uint32_t));
            BuildTransposeTables();
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = unitLo; u < unitHi; ++u) {
            if (cfg.mode == 0) {
                ScanInnerLanes(u);
            } else {
                ScanRowLanes(u);
            }
        }
    }

private:
    // fwd: window [row][col] -> transposed [col][row];  bwd: the inverse permutation
    __aicore__ inline void BuildTransposeTables()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t c = 0; c < WIN; ++c) {
            for (uint32_t r = 0; r < LANES; ++r) {
                off.SetValue(c * LANES + r, (r * WIN + c) * sizeof(T));
                off.SetValue(LANES * WIN + r * WIN + c, (c * LANES + r) * sizeof(T));
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void ScanInnerLanes(uint32_t u)
    {
        uint32_t o = u / cfg.laneTiles;
        uint32_t q0 = (u % cfg.laneTiles) * cfg.laneTile;
        uint32_t n = cfg.inner - q0 < cfg.laneTile ? cfg.inner - q0 : cfg.laneTile;
        uint32_t nA = cfg.laneTile;   // row pitch in UB (padded burst length never exceeds it)
        constexpr uint32_t perBlock = 32 / sizeof(T);
        uint32_t nPad = (n + perBlock - 1) / perBlock * perBlock;

        LocalTensor<T> carry = carryBuf.Get<T>();
        Duplicate(carry, static_cast<T>(1.0f), nA);

        for (uint32_t t0 = 0; t0 < cfg.len; t0 += cfg.stepRows) {
            uint32_t rows = cfg.len - t0 < cfg.stepRows ? cfg.len - t0 : cfg.stepRows;
            uint64_t gmOff = (static_cast<uint64_t>(o) * cfg.len + t0) * cfg.inner + q0;

            LocalTensor<T> in = inQ.AllocTensor<T>();
            DataCopyExtParams ld{static_cast<uint16_t>(rows), static_cast<uint32_t>(n * sizeof(T)),
                                 static_cast<uint32_t>((cfg.inner - n) * sizeof(T)),
                                 static_cast<uint32_t>((nA - nPad) * sizeof(T) / 32), 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            DataCopyPad(in, xGm[gmOff], ld, pad);
            inQ.EnQue(in);
            in = inQ.DeQue<T>();

            LocalTensor<T> out = outQ.AllocTensor<T>();
            Mul(out, in, carry, n);
            for (uint32_t r = 1; r < rows; ++r) {
                PipeBarrier<PIPE_V>();
                Mul(out[r * nA], in[r * nA], out[(r - 1) * nA], n);
            }
            PipeBarrier<PIPE_V>();
            DataCopy(carry, out[(rows - 1) * nA], nPad);
            inQ.FreeTensor(in);
            outQ.EnQue(out);

            out = outQ.DeQue<T>();
            DataCopyExtParams st{static_cast<uint16_t>(rows), static_cast<uint32_t>(n * sizeof(T)),
                                 static_cast<uint32_t>((nA - nPad) * sizeof(T) / 32),
                                 static_cast<uint32_t>((cfg.inner - n) * sizeof(T)), 0};
            DataCopyPad(yGm[gmOff], out, st);
            outQ.FreeTensor(out);
        }
    }

    __aicore__ inline void ScanRowLanes(uint32_t u)
    {
        uint32_t r0 = u * LANES;
        uint32_t rr = cfg.outer - r0 < LANES ? cfg.outer - r0 : LANES;
        constexpr uint32_t perBlock = 32 / sizeof(T);

        LocalTensor<T> carry = carryBuf.Get<T>();
        LocalTensor<T> tr = tBuf.Get<T>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        Duplicate(carry, static_cast<T>(1.0f), LANES);

        for (uint32_t c0 = 0; c0 < cfg.len; c0 += WIN) {
            uint32_t cl = cfg.len - c0 < WIN ? cfg.len - c0 : WIN;
            uint32_t clPad = (cl + perBlock - 1) / perBlock * perBlock;
            uint32_t gapBlocks = (WIN - clPad) * sizeof(T) / 32;
            uint64_t gmOff = static_cast<uint64_t>(r0) * cfg.len + c0;

            LocalTensor<T> win = inQ.AllocTensor<T>();
            DataCopyExtParams ld{static_cast<uint16_t>(rr), static_cast<uint32_t>(cl * sizeof(T)),
                                 static_cast<uint32_t>((cfg.len - cl) * sizeof(T)), gapBlocks, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            DataCopyPad(win, xGm[gmOff], ld, pad);
            inQ.EnQue(win);
            win = inQ.DeQue<T>();

            // [row][col] -> [col][row]
            Gather(tr, win, off, 0, LANES * WIN);
            PipeBarrier<PIPE_V>();
            inQ.FreeTensor(win);

            Mul(tr, tr, carry, LANES);
            for (uint32_t c = 1; c < cl; ++c) {
                PipeBarrier<PIPE_V>();
                Mul(tr[c * LANES], tr[c * LANES], tr[(c - 1) * LANES], LANES);
            }
            PipeBarrier<PIPE_V>();
            DataCopy(carry, tr[(cl - 1) * LANES], LANES);

            LocalTensor<T> res = outQ.AllocTensor<T>();
            Gather(res, tr, off[LANES * WIN], 0, LANES * WIN);
            outQ.EnQue(res);
            res = outQ.DeQue<T>();
            DataCopyExtParams st{static_cast<uint16_t>(rr), static_cast<uint32_t>(cl * sizeof(T)), gapBlocks,
                                 static_cast<uint32_t>((cfg.len - cl) * sizeof(T)), 0};
            DataCopyPad(yGm[gmOff], res, st);
            outQ.FreeTensor(res);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> carryBuf, tBuf, offBuf;
    GlobalTensor<T> xGm, yGm;
    CumulativeProductTilingData cfg;
    uint32_t unitLo, unitHi;
};

extern "C" __global__ __aicore__ void cumulative_product(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    CumulativeProductKernel<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
