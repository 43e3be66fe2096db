/*
 * VolumeConv3d - direct 3-D convolution on the vector unit.
 *
 * Layout: x (N, Cin, A0, A1, A2), filter (Cout, Cin/g, K0, K1, K2), y (N, Cout, O0, O1, O2).
 *
 * For one output slab y[n, co0:co0+coN, o0, r0:r0+rows, :] the accumulators live in UB as
 * [coN][rowTile][pitch] fp32. For each filter tap (ci, k0, k1, k2) a single strided DMA
 * gathers the matching input window - one burst per output line o1, each burst being the
 * contiguous run along A2 (the innermost axis has unit stride) - into a [rows][pitch] tile.
 * Zero borders along A2 are produced by the DMA left / right padding, so the whole tile can
 * be folded into every channel accumulator with one Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t PING_PONG = 2;

template <typename T>
class VolumeConv3dKernel {
public:
    __aicore__ inline VolumeConv3dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y, const VolumeConv3dTilingData &td)
    {
        p = td;
        groups = p.cout / p.coutPerGroup;
        lineBlk = p.pitch * sizeof(T) / 32;
        o2Blk = (p.outDim[2] * sizeof(T) + 31) / 32;
        plane = p.rowTile * p.pitch;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)filter);
        if (p.hasBias) {
            bGm.SetGlobalBuffer((__gm__ T *)bias);
        }
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(tapQue, PING_PONG, plane * sizeof(T));
        pipe.InitBuffer(outQue, PING_PONG, plane * sizeof(T));
        pipe.InitBuffer(tapF32, plane * sizeof(float));
        pipe.InitBuffer(epiF32, plane * sizeof(float));
        pipe.InitBuffer(accF32, p.coTile * plane * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = GetBlockIdx(); u < p.units; u += GetBlockNum()) {
            uint32_t rem = u;
            const uint32_t rt = rem % p.rowTiles;
            rem /= p.rowTiles;
            const uint32_t o0 = rem % p.outDim[0];
            rem /= p.outDim[0];
            const uint32_t ct = rem % p.coTilesPerGroup;
            rem /= p.coTilesPerGroup;
            const uint32_t g = rem % groups;
            const uint32_t nb = rem / groups;

            const uint32_t r0 = rt * p.rowTile;
            const uint32_t rows = (p.outDim[1] - r0) < p.rowTile ? (p.outDim[1] - r0) : p.rowTile;
            const uint32_t coLocal0 = ct * p.coTile;
            const uint32_t coN = (p.coutPerGroup - coLocal0) < p.coTile ? (p.coutPerGroup - coLocal0) : p.coTile;
            const uint32_t co0 = g * p.coutPerGroup + coLocal0;

            LocalTensor<float> acc = accF32.Get<float>();
            Duplicate(acc, 0.0f, coN * plane);
            PipeBarrier<PIPE_V>();

            for (uint32_t k0 = 0; k0 < p.ksz[0]; ++k0) {
                const int32_t i0 = (int32_t)(o0 * p.stride[0] + k0 * p.dil[0]) - (int32_t)p.pad[0];
                if (i0 < 0 || i0 >= (int32_t)p.inDim[0]) {
                    continue;
                }
                for (uint32_t cg = 0; cg < p.cinPerGroup; ++cg) {
                    const uint32_t ci = g * p.cinPerGroup + cg;
                    const uint64_t xBase = (((uint64_t)nb * p.cin + ci) * p.inDim[0] + (uint32_t)i0) *
                                           p.inDim[1] * p.inDim[2];
                    for (uint32_t k1 = 0; k1 < p.ksz[1]; ++k1) {
                        for (uint32_t k2 = 0; k2 < p.ksz[2]; ++k2) {
                            Window win;
                            if (!MakeWindow(r0, rows, k1, k2, win)) {
                                continue;
                            }
                            FetchTap(xBase, win, r0);
                            FoldTap(acc, win, co0, coN, cg, k0, k1, k2, r0);
                        }
                    }
                }
            }

            for (uint32_t c = 0; c < coN; ++c) {
                StoreSlab(acc[c * plane], nb, co0 + c, o0, r0, rows);
            }
        }
    }

private:
    struct Window {
        uint32_t lo1, hi1;   // output lines [lo1, hi1) that see real input for this tap
        uint32_t lo2, hi2;   // output columns [lo2, hi2) along A2 that see real input
        uint64_t src;        // offset of the first input element inside the (n, ci, i0) plane
    };

    __aicore__ inline bool MakeWindow(uint32_t r0, uint32_t rows, uint32_t k1, uint32_t k2, Window &w)
    {
        // A1: i1 = o1 * s1 - p1 + k1 * d1 must be in [0, A1)
        const int32_t off1 = (int32_t)p.pad[1] - (int32_t)(k1 * p.dil[1]);
        const int32_t s1 = (int32_t)p.stride[1];
        int32_t lo1 = off1 <= 0 ? 0 : (off1 + s1 - 1) / s1;
        const int32_t last = (int32_t)p.inDim[1] - 1 + off1;
        if (last < 0) {
            return false;
        }
        int32_t hi1 = last / s1 + 1;
        lo1 = lo1 > (int32_t)r0 ? lo1 : (int32_t)r0;
        hi1 = hi1 < (int32_t)(r0 + rows) ? hi1 : (int32_t)(r0 + rows);
        if (hi1 <= lo1) {
            return false;
        }
        // A2 (unit stride): i2 = o2 - p2 + k2 * d2 must be in [0, A2)
        const int32_t off2 = (int32_t)p.pad[2] - (int32_t)(k2 * p.dil[2]);
        int32_t lo2 = off2 > 0 ? off2 : 0;
        int32_t hi2 = (int32_t)p.inDim[2] + off2;
        hi2 = hi2 < (int32_t)p.outDim[2] ? hi2 : (int32_t)p.outDim[2];
        if (hi2 <= lo2) {
            return false;
        }
        w.lo1 = (uint32_t)lo1;
        w.hi1 = (uint32_t)hi1;
        w.lo2 = (uint32_t)lo2;
        w.hi2 = (uint32_t)hi2;
        const uint32_t i1 = (uint32_t)(lo1 * s1 - off1);
        const uint32_t i2 = (uint32_t)(lo2 - off2);
        w.src = (uint64_t)i1 * p.inDim[2] + i2;
        return true;
    }

    __aicore__ inline void FetchTap(uint64_t xBase, const Window &w, uint32_t r0)
    {
        LocalTensor<T> tap = tapQue.AllocTensor<T>();
        const uint32_t len = w.hi2 - w.lo2;
        DataCopyExtParams cp;
        cp.blockCount = (uint16_t)(w.hi1 - w.lo1);
        cp.blockLen = len * sizeof(T);
        cp.srcStride = (p.stride[1] * p.inDim[2] - len) * sizeof(T);   // bytes between GM bursts
        cp.dstStride = lineBlk - o2Blk;                                  // 32B blocks between UB lines
        cp.rsv = 0;
        DataCopyPadExtParams<T> pad{true, (uint8_t)w.lo2, (uint8_t)(p.outDim[2] - w.hi2), (T)0};
        DataCopyPad(tap[(w.lo1 - r0) * p.pitch], xGm[xBase + w.src], cp, pad);
        tapQue.EnQue(tap);
    }

    __aicore__ inline void FoldTap(LocalTensor<float> &acc, const Window &w, uint32_t co0, uint32_t coN,
                                   uint32_t cg, uint32_t k0, uint32_t k1, uint32_t k2, uint32_t r0)
    {
        LocalTensor<T> tap = tapQue.DeQue<T>();
        const uint32_t first = (w.lo1 - r0) * p.pitch;
        const uint32_t cnt = (w.hi1 - w.lo1) * p.pitch;
        LocalTensor<float> src;
        if constexpr (std::is_same<T, float>::value) {
            src = tap;
        } else {
            src = tapF32.Get<float>();
            Cast(src[first], tap[first], RoundMode::CAST_NONE, cnt);
            PipeBarrier<PIPE_V>();
        }
        const uint32_t kVol = p.ksz[0] * p.ksz[1] * p.ksz[2];
        const uint32_t tapIdx = (k0 * p.ksz[1] + k1) * p.ksz[2] + k2;
        for (uint32_t c = 0; c < coN; ++c) {
            const uint64_t wIdx = ((uint64_t)(co0 + c) * p.cinPerGroup + cg) * kVol + tapIdx;
            const float wv = (float)wGm.GetValue(wIdx);
            Axpy(acc[c * plane + first], src[first], wv, cnt);
        }
        PipeBarrier<PIPE_V>();
        tapQue.FreeTensor(tap);
    }

    __aicore__ inline void StoreSlab(const LocalTensor<float> &accC, uint32_t nb, uint32_t co, uint32_t o0,
                                     uint32_t r0, uint32_t rows)
    {
        const uint32_t cnt = rows * p.pitch;
        LocalTensor<float> v = epiF32.Get<float>();
        const float b = p.hasBias ? (float)bGm.GetValue(co) : 0.0f;
        Adds(v, accC, b, cnt);
        PipeBarrier<PIPE_V>();

        LocalTensor<T> out = outQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(out, v, cnt);
        } else {
            Cast(out, v, RoundMode::CAST_ROUND, cnt);
        }
        outQue.EnQue(out);
        out = outQue.DeQue<T>();

        DataCopyExtParams cp;
        cp.blockCount = (uint16_t)rows;
        cp.blockLen = p.outDim[2] * sizeof(T);
        cp.srcStride = lineBlk - o2Blk;     // skip the pitch padding in UB
        cp.dstStride = 0;                   // output lines are contiguous in GM
        cp.rsv = 0;
        const uint64_t dst = ((((uint64_t)nb * p.cout + co) * p.outDim[0] + o0) * p.outDim[1] + r0) * p.outDim[2];
        DataCopyPad(yGm[dst], out, cp);
        outQue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, PING_PONG> tapQue;
    TQue<QuePosition::VECOUT, PING_PONG> outQue;
    TBuf<TPosition::VECCALC> tapF32, epiF32, accF32;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    VolumeConv3dTilingData p;
    uint32_t groups = 1;
    uint32_t lineBlk = 0;
    uint32_t o2Blk = 0;
    uint32_t plane = 0;
};

extern "C" __global__ __aicore__ void volume_conv3d(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    VolumeConv3dKernel<DTYPE_X> op;
    op.Init(x, filter, bias, y, td);
    op.Process();
}
