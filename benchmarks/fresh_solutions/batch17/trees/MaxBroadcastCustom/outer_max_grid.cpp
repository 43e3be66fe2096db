/*
 * outer_max_grid
 *
 * a: [P, 1, L]   b: [1, Q, 1]   ->   out: [P, Q, L],  out[p, q, l] = max(a[p, l], b[q])
 *
 * The output is viewed as P*Q rows of length L. Row (p, q) is the a-row p clipped from
 * below by the scalar b[q], i.e. a single Maxs. A core walks a contiguous range of rows and
 * only reloads the a-row when p changes.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct OuterMaxGridTiling {
    uint32_t p;          // outer extent of a
    uint32_t q;          // extent of b
    uint32_t rowLen;     // L
    uint32_t rowsPerCore;
    uint32_t rowsRemainder;
};

class OuterMaxGrid {
    static constexpr int32_t NBUF = 2;

public:
    __aicore__ inline OuterMaxGrid() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out, const OuterMaxGridTiling &tiling)
    {
        tl_ = tiling;
        uint32_t blk = GetBlockIdx();
        first_ = blk * tl_.rowsPerCore + (blk < tl_.rowsRemainder ? blk : tl_.rowsRemainder);
        count_ = tl_.rowsPerCore + (blk < tl_.rowsRemainder ? 1u : 0u);

        aGm_.SetGlobalBuffer((__gm__ float *)a, (uint64_t)tl_.p * tl_.rowLen);
        bGm_.SetGlobalBuffer((__gm__ float *)b, tl_.q);
        oGm_.SetGlobalBuffer((__gm__ float *)out, (uint64_t)tl_.p * tl_.q * tl_.rowLen);

        pipe_.InitBuffer(aQue_, 1, tl_.rowLen * sizeof(float));
        pipe_.InitBuffer(oQue_, NBUF, tl_.rowLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (count_ == 0) {
            return;
        }
        uint32_t curP = 0xFFFFFFFFu;
        LocalTensor<float> aRow;
        for (uint32_t r = first_; r < first_ + count_; ++r) {
            uint32_t pi = r / tl_.q;
            uint32_t qi = r % tl_.q;
            if (pi != curP) {
                if (curP != 0xFFFFFFFFu) {
                    aQue_.FreeTensor(aRow);
                }
                LoadRow(pi);
                aRow = aQue_.DeQue<float>();
                curP = pi;
            }
            float floorVal = bGm_.GetValue(qi);
            LocalTensor<float> o = oQue_.AllocTensor<float>();
            Maxs(o, aRow, floorVal, tl_.rowLen);
            oQue_.EnQue(o);
            StoreRow(r);
        }
        aQue_.FreeTensor(aRow);
    }

private:
    __aicore__ inline void LoadRow(uint32_t pi)
    {
        LocalTensor<float> t = aQue_.AllocTensor<float>();
        DataCopy(t, aGm_[(uint64_t)pi * tl_.rowLen], tl_.rowLen);
        aQue_.EnQue(t);
    }

    __aicore__ inline void StoreRow(uint32_t r)
    {
        LocalTensor<float> o = oQue_.DeQue<float>();
        DataCopy(oGm_[(uint64_t)r * tl_.rowLen], o, tl_.rowLen);
        oQue_.FreeTensor(o);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> aQue_;
    TQue<QuePosition::VECOUT, NBUF> oQue_;
    GlobalTensor<float> aGm_, bGm_, oGm_;
    OuterMaxGridTiling tl_;
    uint32_t first_ = 0;
    uint32_t count_ = 0;
};

extern "C" __global__ __aicore__ void outer_max_grid(GM_ADDR a, GM_ADDR b, GM_ADDR out, GM_ADDR tiling)
{
    OuterMaxGridTiling t;
    __gm__ uint32_t *src = (__gm__ uint32_t *)tiling;
    uint32_t *dst = (uint32_t *)&t;
    for (int i = 0; i < (int)(sizeof(t) / sizeof(uint32_t)); ++i) {
        dst[i] = src[i];
    }
    OuterMaxGrid k;
    k.Init(a, b, out, t);
    k.Process();
}
