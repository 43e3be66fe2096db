#include "kernel_operator.h"

using namespace AscendC;

constexpr float CUBIC_A = -0.75f;

__aicore__ inline float CubicNear(float t)   // |t| <= 1
{
    return ((CUBIC_A + 2.0f) * t - (CUBIC_A + 3.0f)) * t * t + 1.0f;
}
__aicore__ inline float CubicFar(float t)    // 1 < |t| < 2
{
    return ((CUBIC_A * t - 5.0f * CUBIC_A) * t + 8.0f * CUBIC_A) * t - 4.0f * CUBIC_A;
}
__aicore__ inline int32_t ClampI(int32_t v, int32_t hi)
{
    return v < 0 ? 0 : (v > hi ? hi : v);
}

// separable bicubic: W pass with 4 gathers per input row, H pass with 4 scalar-weighted rows
class BicubicUpsampler {
public:
    __aicore__ inline BicubicUpsampler() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, BicubicUpsampleCustomTilingData* td)
    {
        inH = td->inH; inW = td->inW; outH = td->outH; outW = td->outW;
        tileRows = td->tileRows;
        scaleH = td->scaleH;
        scaleW = td->scaleW;

        uint32_t blk = GetBlockIdx();
        uint32_t nblk = GetBlockNum();
        uint32_t per = td->planes / nblk;
        uint32_t rem = td->planes % nblk;
        myPlanes = per + (blk < rem ? 1 : 0);
        firstPlane = blk * per + (blk < rem ? blk : rem);

        srcGm.SetGlobalBuffer((__gm__ float*)x + (uint64_t)firstPlane * inH * inW, (uint64_t)myPlanes * inH * inW);
        dstGm.SetGlobalBuffer((__gm__ float*)y + (uint64_t)firstPlane * outH * outW,
                              (uint64_t)myPlanes * outH * outW);

        pipe.InitBuffer(planeQ, 1, inH * inW * sizeof(float));
        pipe.InitBuffer(tileQ, 2, tileRows * outW * sizeof(float));
        pipe.InitBuffer(rowPass, inH * outW * sizeof(float));
        pipe.InitBuffer(colIdx, 4 * outW * sizeof(uint32_t));
        pipe.InitBuffer(colWgt, 4 * outW * sizeof(float));
        pipe.InitBuffer(scratch, 2 * outW * sizeof(float));

        // column taps/weights, shared by every row and plane
        LocalTensor<uint32_t> idx = colIdx.Get<uint32_t>();
        LocalTensor<float> wgt = colWgt.Get<float>();
        for (uint32_t ox = 0; ox < outW; ++ox) {
            float src = scaleW * static_cast<float>(ox);
            int32_t i0 = static_cast<int32_t>(src);
            float t = src - static_cast<float>(i0);
            for (int32_t k = 0; k < 4; ++k) {
                int32_t xi = ClampI(i0 - 1 + k, static_cast<int32_t>(inW) - 1);
                idx.SetValue(k * outW + ox, static_cast<uint32_t>(xi) * sizeof(float));
            }
            wgt.SetValue(ox, CubicFar(t + 1.0f));
            wgt.SetValue(outW + ox, CubicNear(t));
            wgt.SetValue(2 * outW + ox, CubicNear(1.0f - t));
            wgt.SetValue(3 * outW + ox, CubicFar(2.0f - t));
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < myPlanes; ++p) {
            LocalTensor<float> pl = planeQ.AllocTensor<float>();
            DataCopy(pl, srcGm[(uint64_t)p * inH * inW], inH * inW);
            planeQ.EnQue(pl);
            HorizontalPass();
            VerticalPass(p);
        }
    }

private:
    __aicore__ inline void HorizontalPass()
    {
        LocalTensor<float> pl = planeQ.DeQue<float>();
        LocalTensor<float> hp = rowPass.Get<float>();
        LocalTensor<uint32_t> idx = colIdx.Get<uint32_t>();
        LocalTensor<float> wgt = colWgt.Get<float>();
        LocalTensor<float> g = scratch.Get<float>();
        LocalTensor<float> prod = g[outW];

        for (uint32_t r = 0; r < inH; ++r) {
            LocalTensor<float> dstRow = hp[r * outW];
            for (uint32_t k = 0; k < 4; ++k) {
                Gather(g, pl[r * inW], idx[k * outW], 0, outW);
                PipeBarrier<PIPE_V>();
                if (k == 0) {
                    Mul(dstRow, g, wgt, outW);
                } else {
                    Mul(prod, g, wgt[k * outW], outW);
                    PipeBarrier<PIPE_V>();
                    Add(dstRow, dstRow, prod, outW);
                }
                PipeBarrier<PIPE_V>();
            }
        }
        planeQ.FreeTensor(pl);
    }

    __aicore__ inline void VerticalPass(uint32_t p)
    {
        LocalTensor<float> hp = rowPass.Get<float>();
        int32_t hiRow = static_cast<int32_t>(inH) - 1;
        for (uint32_t r0 = 0; r0 < outH; r0 += tileRows) {
            uint32_t nRows = (r0 + tileRows <= outH) ? tileRows : (outH - r0);
            LocalTensor<float> tile = tileQ.AllocTensor<float>();
            for (uint32_t r = 0; r < nRows; ++r) {
                float src = scaleH * static_cast<float>(r0 + r);
                int32_t i0 = static_cast<int32_t>(src);
                float t = src - static_cast<float>(i0);
                float w[4] = {CubicFar(t + 1.0f), CubicNear(t), CubicNear(1.0f - t), CubicFar(2.0f - t)};
                LocalTensor<float> o = tile[r * outW];
                Muls(o, hp[ClampI(i0 - 1, hiRow) * outW], w[0], outW);
                for (int32_t k = 1; k < 4; ++k) {
                    PipeBarrier<PIPE_V>();
                    Axpy(o, hp[ClampI(i0 - 1 + k, hiRow) * outW], w[k], outW);
                }
            }
            tileQ.EnQue(tile);
            tile = tileQ.DeQue<float>();
            DataCopy(dstGm[(uint64_t)p * outH * outW + (uint64_t)r0 * outW], tile, nRows * outW);
            tileQ.FreeTensor(tile);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> planeQ;
    TQue<QuePosition::VECOUT, 2> tileQ;
    TBuf<TPosition::VECCALC> rowPass, colIdx, colWgt, scratch;
    GlobalTensor<float> srcGm, dstGm;
    uint32_t inH, inW, outH, outW, tileRows;
    uint32_t myPlanes, firstPlane;
    float scaleH, scaleW;
};

extern "C" __global__ __aicore__ void bicubic_upsample_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    BicubicUpsampler op;
    op.Init(x, y, &tilingData);
    op.Process();
}
