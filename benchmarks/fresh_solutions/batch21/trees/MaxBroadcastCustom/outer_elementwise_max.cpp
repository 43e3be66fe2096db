/*
 * outer_elementwise_max.cpp
 *
 *   a : [P, 1, L]      b : [1, Q, 1]      out : [P, Q, L]
 *   out[p, q, l] = max(a[p, l], b[q])
 *
 * Every output row (p, q) is a vector/scalar max of row p of `a` against the
 * scalar b[q], so the kernel only needs Maxs.  Output rows are spread evenly
 * over the cores; a core keeps the current row of `a` in UB and re-loads it only
 * when p changes.  Several output rows are packed into one UB tile before being
 * written out, to make the GM stores large.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct OuterElementwiseMaxTiling {
    uint32_t outer;        // P
    uint32_t mid;          // Q
    uint32_t inner;        // L
    uint32_t innerAlign;   // L rounded up to 8 floats (UB pitch)
    uint32_t rowsPerCore;
    uint32_t rowsPerTile;
};

class OuterElementwiseMax {
public:
    __aicore__ inline OuterElementwiseMax() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out, const OuterElementwiseMaxTiling &t)
    {
        cfg = t;
        const uint32_t totalRows = cfg.outer * cfg.mid;
        firstRow = cfg.rowsPerCore * GetBlockIdx();
        lastRow = firstRow + cfg.rowsPerCore;
        if (lastRow > totalRows) lastRow = totalRows;

        aGm.SetGlobalBuffer((__gm__ float *)a, (uint64_t)cfg.outer * cfg.inner);
        bGm.SetGlobalBuffer((__gm__ float *)b, cfg.mid);
        outGm.SetGlobalBuffer((__gm__ float *)out, (uint64_t)totalRows * cfg.inner);

        pipe.InitBuffer(aQue, 1, cfg.innerAlign * sizeof(float));
        pipe.InitBuffer(outQue, 2, cfg.rowsPerTile * cfg.innerAlign * sizeof(float));
        pipe.InitBuffer(bBuf, ((cfg.mid + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (firstRow >= lastRow) return;

        // all of b is small: bring it in once for scalar access
        LocalTensor<float> bLocal = bBuf.Get<float>();
        DataCopyPad(bLocal, bGm, {1, cfg.mid * (uint32_t)sizeof(float), 0, 0, 0}, {false, 0, 0, 0});
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);

        uint32_t curP = 0xffffffffu;
        LocalTensor<float> aRow;
        for (uint32_t r0 = firstRow; r0 < lastRow; r0 += cfg.rowsPerTile) {
            uint32_t n = lastRow - r0 < cfg.rowsPerTile ? lastRow - r0 : cfg.rowsPerTile;
            LocalTensor<float> tile = outQue.AllocTensor<float>();
            for (uint32_t i = 0; i < n; ++i) {
                uint32_t row = r0 + i;
                uint32_t p = row / cfg.mid;
                uint32_t q = row % cfg.mid;
                if (p != curP) {
                    if (curP != 0xffffffffu) aQue.FreeTensor(aRow);
                    LoadA(p);
                    aRow = aQue.DeQue<float>();
                    curP = p;
                }
                float bq = bLocal.GetValue(q);
                Maxs(tile[i * cfg.innerAlign], aRow, bq, cfg.inner);
            }
            outQue.EnQue(tile);
            Store(r0, n);
        }
        if (curP != 0xffffffffu) aQue.FreeTensor(aRow);
    }

private:
    __aicore__ inline void LoadA(uint32_t p)
    {
        LocalTensor<float> t = aQue.AllocTensor<float>();
        DataCopyPad(t, aGm[(uint64_t)p * cfg.inner], {1, cfg.inner * (uint32_t)sizeof(float), 0, 0, 0},
                    {false, 0, 0, 0});
        aQue.EnQue(t);
    }

    __aicore__ inline void Store(uint32_t r0, uint32_t n)
    {
        LocalTensor<float> tile = outQue.DeQue<float>();
        // n rows of L floats; UB pitch innerAlign, GM rows are contiguous
        DataCopyExtParams cp{(uint16_t)n, cfg.inner * (uint32_t)sizeof(float),
                             (cfg.innerAlign - cfg.inner) * (uint32_t)sizeof(float) / 32, 0, 0};
        DataCopyPad(outGm[(uint64_t)r0 * cfg.inner], tile, cp);
        outQue.FreeTensor(tile);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> aQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> bBuf;
    GlobalTensor<float> aGm, bGm, outGm;
    OuterElementwiseMaxTiling cfg;
    uint32_t firstRow = 0, lastRow = 0;
};

extern "C" __global__ __aicore__ void outer_elementwise_max(GM_ADDR a, GM_ADDR b, GM_ADDR out, GM_ADDR tiling)
{
    OuterElementwiseMaxTiling t;
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto *dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); i++) {
        dst[i] = src[i];
    }
    OuterElementwiseMax kernel;
    kernel.Init(a, b, out, t);
    kernel.Process();
}
