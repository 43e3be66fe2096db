// Deconv2dShiftTanh: y = tanh(conv_transpose2d(x, w) + bias[c] - offset[c])
//
// Work item = (image, tile of output channels, output row).
// For output row ho the valid (kh, hi) pairs satisfy hi * s - p + kh == ho. For each such input
// row and every output channel of the tile we accumulate K "phase" rows
//     part[c][kw][wi] += x[ci, hi, wi] * w[ci, c, kh, kw]
// which are contiguous, aligned Axpy operations. The final row is then
//     out[wo] = sum_kw part[c][kw][(wo + p - kw) / s]   (exact division, in range)
// assembled with a precomputed Gather table (misses read a zero slot).
#include "kernel_operator.h"

using namespace AscendC;

class Deconv2dShiftTanhKernel {
public:
    __aicore__ inline Deconv2dShiftTanhKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR offset, GM_ADDR y,
                                const Deconv2dShiftTanhTilingData &tiling)
    {
        tl = tiling;
        kk = tl.kernel * tl.kernel;
        kkPad = (kk + 7) / 8 * 8;
        partStride = tl.kernel * tl.wInPad;              // floats per channel in part buffer
        uint32_t first = GetBlockIdx() * tl.itemsPerCore;
        itemBeg = first < tl.workItems ? first : tl.workItems;
        itemEnd = itemBeg + tl.itemsPerCore < tl.workItems ? itemBeg + tl.itemsPerCore : tl.workItems;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        oGm.SetGlobalBuffer((__gm__ float *)offset);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(xQueue, 2, tl.wInPad * sizeof(float));
        pipe.InitBuffer(wQueue, 2, tl.chanTile * kkPad * sizeof(float));
        pipe.InitBuffer(yQueue, 2, tl.wOutPad * sizeof(float));
        pipe.InitBuffer(partBuf, (tl.chanTile * partStride + 8) * sizeof(float));
        pipe.InitBuffer(idxBuf, tl.kernel * tl.wOutPad * sizeof(uint32_t));
        pipe.InitBuffer(pickBuf, tl.wOutPad * sizeof(float));
        pipe.InitBuffer(tanhTmp, tl.wOutPad * sizeof(float) * 4);
        BuildIndex();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t it = itemBeg; it < itemEnd; ++it) {
            uint32_t ho = it % tl.hOut;
            uint32_t q = it / tl.hOut;
            uint32_t tileId = q % tl.chanTiles;
            uint32_t img = q / tl.chanTiles;
            uint32_t c0 = tileId * tl.chanTile;
            uint32_t cn = (tl.cOut - c0) < tl.chanTile ? (tl.cOut - c0) : tl.chanTile;
            Accumulate(img, c0, cn, ho);
            Finish(img, c0, cn, ho);
        }
    }

private:
    // relative byte offsets inside one channel's part area; miss -> zero slot after all channels
    __aicore__ inline void BuildIndex()
    {
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        zeroSlotBytes = tl.chanTile * partStride * sizeof(float);
        for (uint32_t kw = 0; kw < tl.kernel; ++kw) {
            for (uint32_t wo = 0; wo < tl.wOutPad; ++wo) {
                int32_t v = static_cast<int32_t>(wo + tl.padding) - static_cast<int32_t>(kw);
                uint32_t e = 0x7FFFFFFFu;   // miss marker, clamped to the zero slot later
                if (wo < tl.wOut && v >= 0 && (v % static_cast<int32_t>(tl.stride)) == 0 &&
                    static_cast<uint32_t>(v) / tl.stride < tl.wIn) {
                    e = (kw * tl.wInPad + static_cast<uint32_t>(v) / tl.stride) * sizeof(float);
                }
                idx.SetValue(kw * tl.wOutPad + wo, e);
            }
        }
    }

    __aicore__ inline void Accumulate(uint32_t img, uint32_t c0, uint32_t cn, uint32_t ho)
    {
        LocalTensor<float> part = partBuf.Get<float>();
        Duplicate(part, 0.0f, tl.chanTile * partStride + 8);
        int32_t s = static_cast<int32_t>(tl.stride);

        for (uint32_t ci = 0; ci < tl.cIn; ++ci) {
            bool weightsLoaded = false;
            LocalTensor<float> wt;
            for (uint32_t kh = 0; kh < tl.kernel; ++kh) {
                int32_t v = static_cast<int32_t>(ho + tl.padding) - static_cast<int32_t>(kh);
                if (v < 0 || v % s != 0 || v / s >= static_cast<int32_t>(tl.hIn)) {
                    continue;
                }
                uint32_t hi = static_cast<uint32_t>(v / s);
                if (!weightsLoaded) {
                    // w[ci, c0 .. c0+cn, :, :] is contiguous in the [Cin, Cout, K, K] layout
                    wt = wQueue.AllocTensor<float>();
                    DataCopyPad(wt, wGm[(static_cast<uint64_t>(ci) * tl.cOut + c0) * kk],
                                DataCopyExtParams{static_cast<uint16_t>(cn), static_cast<uint32_t>(kk * sizeof(float)), 0, 0, 0},
                                DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                    wQueue.EnQue(wt);
                    wt = wQueue.DeQue<float>();
                    weightsLoaded = true;
                }
                LocalTensor<float> xr = xQueue.AllocTensor<float>();
                DataCopyPad(xr, xGm[((static_cast<uint64_t>(img) * tl.cIn + ci) * tl.hIn + hi) * tl.wIn],
                            DataCopyExtParams{1, static_cast<uint32_t>(tl.wIn * sizeof(float)), 0, 0, 0},
                            DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                xQueue.EnQue(xr);
                xr = xQueue.DeQue<float>();
                for (uint32_t c = 0; c < cn; ++c) {
                    for (uint32_t kw = 0; kw < tl.kernel; ++kw) {
                        float coeff = wt.GetValue(c * kkPad + kh * tl.kernel + kw);
                        Axpy(part[c * partStride + kw * tl.wInPad], xr, coeff, tl.wIn);
                    }
                }
                xQueue.FreeTensor(xr);
            }
            if (weightsLoaded) {
                wQueue.FreeTensor(wt);
            }
        }
    }

    __aicore__ inline void Finish(uint32_t img, uint32_t c0, uint32_t cn, uint32_t ho)
    {
        LocalTensor<float> part = partBuf.Get<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<float> pick = pickBuf.Get<float>();
        LocalTensor<uint8_t> scratch = tanhTmp.Get<uint8_t>();
        uint64_t plane = static_cast<uint64_t>(tl.hOut) * tl.wOut;

        for (uint32_t c = 0; c < cn; ++c) {
            uint32_t base = c * partStride * sizeof(float);
            LocalTensor<float> row = yQueue.AllocTensor<float>();
            for (uint32_t kw = 0; kw < tl.kernel; ++kw) {
                // misses carry 0x7FFFFFFF and are redirected to the zero slot via the base address
                LocalTensor<float> dst = (kw == 0) ? row : pick;
                GatherWithMiss(dst, part, idx[kw * tl.wOutPad], base);
                if (kw != 0) {
                    Add(row, row, pick, tl.wOut);
                }
            }
            float delta = bGm.GetValue(c0 + c) - oGm.GetValue(c0 + c);
            Adds(row, row, delta, tl.wOut);
            Tanh(row, row, scratch, tl.wOut);
            yQueue.EnQue(row);

            row = yQueue.DeQue<float>();
            uint64_t dstOff = (static_cast<uint64_t>(img) * tl.cOut + c0 + c) * plane + static_cast<uint64_t>(ho) * tl.wOut;
            DataCopyPad(yGm[dstOff], row, DataCopyExtParams{1, static_cast<uint32_t>(tl.wOut * sizeof(float)), 0, 0, 0});
            yQueue.FreeTensor(row);
        }
    }

    // Gather with a per-channel base; entries marked as miss are first rewritten to point at the
    // shared zero slot (relative to the same base).
    __aicore__ inline void GatherWithMiss(LocalTensor<float> &dst, LocalTensor<float> &part,
                                          const LocalTensor<uint32_t> &idxRow, uint32_t base)
    {
        LocalTensor<uint32_t> fixed = tanhTmp.Get<uint32_t>()[tl.wOutPad * 2];
        uint32_t zeroRel = zeroSlotBytes - base;
        // fixed = min(idx, zeroRel): valid entries are always below zeroRel, misses clamp to it
        Mins(fixed.ReinterpretCast<int32_t>(), idxRow.ReinterpretCast<int32_t>(), static_cast<int32_t>(zeroRel), tl.wOutPad);
        PipeBarrier<PIPE_V>();
        Gather(dst, part, fixed, base, tl.wOut);
        PipeBarrier<PIPE_V>();
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> xQueue, wQueue;
    TQue<QuePosition::VECOUT, 2> yQueue;
    TBuf<TPosition::VECCALC> partBuf, idxBuf, pickBuf, tanhTmp;
    GlobalTensor<float> xGm, wGm, bGm, oGm, yGm;
    Deconv2dShiftTanhTilingData tl;
    uint32_t kk, kkPad, partStride, itemBeg, itemEnd, zeroSlotBytes;
};

extern "C" __global__ __aicore__ void deconv2d_shift_tanh(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR offset,
                                                          GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Deconv2dShiftTanhKernel kernel;
    kernel.Init(x, weight, bias, offset, y, tilingData);
    kernel.Process();
}
