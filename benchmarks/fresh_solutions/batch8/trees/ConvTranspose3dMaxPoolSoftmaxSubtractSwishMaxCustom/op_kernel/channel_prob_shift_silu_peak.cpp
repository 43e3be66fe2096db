#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUF_DEPTH = 2;
constexpr uint32_t MAX_CH = 64;
constexpr float LOWEST = -3.402823466e+38f;

// Post-pool epilogue, vectorised over spatial positions:
//   p_c   = softmax over channels of x_c
//   z_c   = p_c - shift_c
//   y     = max_c  z_c * sigmoid(z_c)
// A work item is (batch n, spatial tile t); its C channel rows are loaded as one
// strided DataCopyPad (row stride in GM = spatial, row stride in UB = tile).
class ChannelProbShiftSiluPeak {
public:
    __aicore__ inline ChannelProbShiftSiluPeak() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR shift, GM_ADDR y,
                                const ChannelProbShiftSiluPeakTilingData &td)
    {
        C = td.channels;
        S = td.spatial;
        tile = td.tile;
        tilesPerBatch = td.tilesPerBatch;

        uint32_t bid = GetBlockIdx();
        if (bid < td.extraItems) {
            itemCount = td.itemsPerCore + 1;
            itemBegin = bid * itemCount;
        } else {
            itemCount = td.itemsPerCore;
            itemBegin = td.extraItems * (td.itemsPerCore + 1) + (bid - td.extraItems) * td.itemsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(td.batch) * C * S);
        yGm.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(td.batch) * S);
        shiftGm.SetGlobalBuffer((__gm__ float *)shift, C);
        for (uint32_t c = 0; c < C; ++c) {
            shiftVal[c] = shiftGm.GetValue(c);
        }

        pipe.InitBuffer(xQue, BUF_DEPTH, C * tile * sizeof(float));
        pipe.InitBuffer(yQue, BUF_DEPTH, tile * sizeof(float));
        pipe.InitBuffer(maxBuf, tile * sizeof(float));
        pipe.InitBuffer(sumBuf, tile * sizeof(float));
        pipe.InitBuffer(probBuf, tile * sizeof(float));
        pipe.InitBuffer(siluBuf, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t k = 0; k < itemCount; ++k) {
            uint32_t item = itemBegin + k;
            uint32_t n = item / tilesPerBatch;
            uint32_t t = item - n * tilesPerBatch;
            uint32_t sOff = t * tile;
            uint32_t len = (S - sOff) < tile ? (S - sOff) : tile;
            CopyIn(n, sOff, len);
            Compute(len);
            CopyOut(n, sOff, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t n, uint32_t sOff, uint32_t len)
    {
        LocalTensor<float> blk = xQue.AllocTensor<float>();
        uint32_t lenAligned = (len + 7) / 8 * 8;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(C);
        cp.blockLen = len * sizeof(float);
        cp.srcStride = (S - len) * sizeof(float);       // bytes between channel rows in GM
        cp.dstStride = (tile - lenAligned) / 8;         // 32B blocks between rows in UB
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint64_t gmOff = static_cast<uint64_t>(n) * C * S + sOff;
        DataCopyPad(blk, xGm[gmOff], cp, pad);
        xQue.EnQue(blk);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> blk = xQue.DeQue<float>();
        LocalTensor<float> out = yQue.AllocTensor<float>();
        LocalTensor<float> mx = maxBuf.Get<float>();
        LocalTensor<float> sum = sumBuf.Get<float>();
        LocalTensor<float> prob = probBuf.Get<float>();
        LocalTensor<float> act = siluBuf.Get<float>();

        // channel max for a numerically safe softmax
        DataCopy(mx, blk, tile);
        for (uint32_t c = 1; c < C; ++c) {
            Max(mx, mx, blk[c * tile], len);
        }
        // exp(x - max) in place, accumulate the denominator
        Duplicate(sum, 0.0f, len);
        for (uint32_t c = 0; c < C; ++c) {
            LocalTensor<float> row = blk[c * tile];
            Sub(row, row, mx, len);
            Exp(row, row, len);
            Add(sum, sum, row, len);
        }
        // mx now holds 1 / sum
        Duplicate(mx, 1.0f, len);
        Div(mx, mx, sum, len);

        Duplicate(out, LOWEST, len);
        for (uint32_t c = 0; c < C; ++c) {
            Mul(prob, blk[c * tile], mx, len);
            Adds(prob, prob, -shiftVal[c], len);
            Swish(act, prob, len, 1.0f);   // z * sigmoid(z)
            Max(out, out, act, len);
        }

        yQue.EnQue(out);
        xQue.FreeTensor(blk);
    }

    __aicore__ inline void CopyOut(uint32_t n, uint32_t sOff, uint32_t len)
    {
        LocalTensor<float> out = yQue.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(n) * S + sOff], out, cp);
        yQue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUF_DEPTH> xQue;
    TQue<QuePosition::VECOUT, BUF_DEPTH> yQue;
    TBuf<QuePosition::VECCALC> maxBuf, sumBuf, probBuf, siluBuf;
    GlobalTensor<float> xGm, yGm, shiftGm;
    float shiftVal[MAX_CH];
    uint32_t C = 0, S = 0, tile = 0, tilesPerBatch = 0;
    uint32_t itemBegin = 0, itemCount = 0;
};

extern "C" __global__ __aicore__ void channel_prob_shift_silu_peak_custom(GM_ADDR x, GM_ADDR shift, GM_ADDR y,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ChannelProbShiftSiluPeak op;
    op.Init(x, shift, y, td);
    op.Process();
}
