/*
 * UpscaleAffineWarp
 *   u = bilinear upscale of x by an integer factor (half-pixel centres, edge clamp)
 *   y = bilinear sample of u at the affine grid theta * [xn, yn, 1]
 *       (normalised coords at pixel centres, zeros outside u)
 *
 * One (n, c) plane at a time per vector core. The upscaled plane is built in
 * UB with a zero border, so out-of-range taps land on zeros and no validity
 * masks are needed: sample coordinates are clamped to [-1, size] first.
 */
#include "kernel_operator.h"

using namespace AscendC;

class UpscaleAffineWarpKernel {
public:
    __aicore__ inline UpscaleAffineWarpKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR theta, GM_ADDR y, const UpscaleAffineWarpTilingData &t)
    {
        C = t.channels;
        H = t.inH;
        W = t.inW;
        OH = t.outH;
        OW = t.outW;
        WA = t.inWAligned;
        OWA = t.outWAligned;
        PS = t.padStride;
        invScale = t.invScale;
        uint32_t planes = t.batch * t.channels;
        pBegin = GetBlockIdx() * t.planesPerCore;
        pEnd = pBegin + t.planesPerCore;
        if (pEnd > planes) pEnd = planes;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        thGm.SetGlobalBuffer((__gm__ float *)theta);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(srcPlaneBuf, H * WA * sizeof(float));
        pipe.InitBuffer(upPlaneBuf, (OH + 3) * PS * sizeof(float));
        pipe.InitBuffer(outQue, 2, OWA * sizeof(float));
        pipe.InitBuffer(blendBuf, WA * sizeof(float));
        // horizontal upscale table (constant for the whole launch)
        pipe.InitBuffer(hOff0Buf, OWA * sizeof(uint32_t));
        pipe.InitBuffer(hOff1Buf, OWA * sizeof(uint32_t));
        pipe.InitBuffer(hWBuf, OWA * sizeof(float));
        // sampling row scratch
        pipe.InitBuffer(xnBuf, OWA * sizeof(float));
        pipe.InitBuffer(ixBuf, OWA * sizeof(float));
        pipe.InitBuffer(iyBuf, OWA * sizeof(float));
        pipe.InitBuffer(flBuf, OWA * sizeof(float));
        pipe.InitBuffer(intBuf, OWA * sizeof(int32_t));
        pipe.InitBuffer(offBuf, 4 * OWA * sizeof(int32_t));
        pipe.InitBuffer(tapBuf, 4 * OWA * sizeof(float));

        BuildTables();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = pBegin; p < pEnd; ++p) {
            uint32_t b = p / C;
            LoadPlane(p);
            BuildUpscaled();
            WarpPlane(b, p);
        }
    }

private:
    __aicore__ inline float SrcCoord(uint32_t o) const
    {
        float s = (static_cast<float>(o) + 0.5f) * invScale - 0.5f;
        return s < 0.0f ? 0.0f : s;
    }

    __aicore__ inline void BuildTables()
    {
        LocalTensor<uint32_t> o0 = hOff0Buf.Get<uint32_t>();
        LocalTensor<uint32_t> o1 = hOff1Buf.Get<uint32_t>();
        LocalTensor<float> hw = hWBuf.Get<float>();
        LocalTensor<float> xn = xnBuf.Get<float>();
        for (uint32_t j = 0; j < OWA; ++j) {
            uint32_t jj = j < OW ? j : OW - 1;
            float s = SrcCoord(jj);
            uint32_t c0 = static_cast<uint32_t>(s);
            uint32_t c1 = c0 + 1 < W ? c0 + 1 : W - 1;
            o0.SetValue(j, c0 * sizeof(float));
            o1.SetValue(j, c1 * sizeof(float));
            hw.SetValue(j, s - static_cast<float>(c0));
            // normalised x of the output pixel centre
            xn.SetValue(j, (2.0f * static_cast<float>(jj) + 1.0f) / static_cast<float>(OW) - 1.0f);
        }
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
    }

    __aicore__ inline void LoadPlane(uint32_t p)
    {
        LocalTensor<float> src = srcPlaneBuf.Get<float>();
        // previous plane's vector reads must finish before overwriting
        SetFlag<HardEvent::V_MTE2>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE2>(EVENT_ID1);
        DataCopyExtParams cp{static_cast<uint16_t>(H), static_cast<uint32_t>(W * sizeof(float)), 0, 0, 0};
        DataCopyPad(src, xGm[static_cast<uint64_t>(p) * H * W], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    }

    __aicore__ inline void BuildUpscaled()
    {
        LocalTensor<float> src = srcPlaneBuf.Get<float>();
        LocalTensor<float> up = upPlaneBuf.Get<float>();
        LocalTensor<float> blend = blendBuf.Get<float>();
        LocalTensor<uint32_t> o0 = hOff0Buf.Get<uint32_t>();
        LocalTensor<uint32_t> o1 = hOff1Buf.Get<uint32_t>();
        LocalTensor<float> hw = hWBuf.Get<float>();
        LocalTensor<float> g0 = tapBuf.Get<float>();
        LocalTensor<float> g1 = g0[OWA];

        Duplicate(up, 0.0f, (OH + 3) * PS);
        for (uint32_t r = 0; r < OH; ++r) {
            float s = SrcCoord(r);
            uint32_t r0 = static_cast<uint32_t>(s);
            uint32_t r1 = r0 + 1 < H ? r0 + 1 : H - 1;
            float ly = s - static_cast<float>(r0);
            // vertical blend of two source rows
            Muls(blend, src[r0 * WA], 1.0f - ly, W);
            Axpy(blend, src[r1 * WA], ly, W);
            PipeBarrier<PIPE_V>();
            // horizontal blend through the gather table
            Gather(g0, blend, o0, 0u, OW);
            Gather(g1, blend, o1, 0u, OW);
            Sub(g1, g1, g0, OW);
            Mul(g1, g1, hw, OW);
            Add(up[(r + 1) * PS + 8], g0, g1, OW);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void WarpPlane(uint32_t b, uint32_t p)
    {
        float t[6];
        for (int i = 0; i < 6; ++i) {
            t[i] = thGm.GetValue(static_cast<uint64_t>(b) * 6 + i);
        }
        LocalTensor<float> up = upPlaneBuf.Get<float>();
        LocalTensor<float> xn = xnBuf.Get<float>();
        LocalTensor<float> ix = ixBuf.Get<float>();
        LocalTensor<float> iy = iyBuf.Get<float>();
        LocalTensor<float> fl = flBuf.Get<float>();
        LocalTensor<int32_t> iv = intBuf.Get<int32_t>();
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        LocalTensor<float> tap = tapBuf.Get<float>();

        const float halfW = 0.5f * static_cast<float>(OW);
        const float halfH = 0.5f * static_cast<float>(OH);
        const int32_t rowBytes = static_cast<int32_t>(PS * sizeof(float));

        for (uint32_t r = 0; r < OH; ++r) {
            float yn = (2.0f * static_cast<float>(r) + 1.0f) / static_cast<float>(OH) - 1.0f;
            // grid -> pixel coordinates of the upscaled image
            //   ix = ((t0*xn + t1*yn + t2) + 1) * OW/2 - 0.5
            Muls(ix, xn, t[0] * halfW, OW);
            Adds(ix, ix, (t[1] * yn + t[2] + 1.0f) * halfW - 0.5f, OW);
            Muls(iy, xn, t[3] * halfH, OW);
            Adds(iy, iy, (t[4] * yn + t[5] + 1.0f) * halfH - 0.5f, OW);
            // clamp into the bordered range: outside taps hit zeros
            Maxs(ix, ix, -1.0f, OW);
            Mins(ix, ix, static_cast<float>(OW), OW);
            Maxs(iy, iy, -1.0f, OW);
            Mins(iy, iy, static_cast<float>(OH), OW);

            // byte offset of the top-left tap: ((y0+1)*PS + x0 + 8) * 4
            Cast(iv, iy, RoundMode::CAST_FLOOR, OW);
            Cast(fl, iv, RoundMode::CAST_NONE, OW);
            Sub(iy, iy, fl, OW);                      // iy := vertical weight
            Adds(fl, fl, 1.0f, OW);
            Muls(fl, fl, static_cast<float>(PS), OW);
            Adds(fl, fl, 8.0f, OW);                   // row base (+ left pad) in elements
            Cast(iv, ix, RoundMode::CAST_FLOOR, OW);
            LocalTensor<float> x0f = tap;             // borrow tap slot 0 temporarily
            Cast(x0f, iv, RoundMode::CAST_NONE, OW);
            Sub(ix, ix, x0f, OW);                     // ix := horizontal weight
            Add(fl, fl, x0f, OW);
            Muls(fl, fl, static_cast<float>(sizeof(float)), OW);
            Cast(off, fl, RoundMode::CAST_RINT, OW);
            PipeBarrier<PIPE_V>();
            Adds(off[OWA], off, static_cast<int32_t>(sizeof(float)), OW);
            Adds(off[2 * OWA], off, rowBytes, OW);
            Adds(off[3 * OWA], off, rowBytes + static_cast<int32_t>(sizeof(float)), OW);
            PipeBarrier<PIPE_V>();

            for (uint32_t k = 0; k < 4; ++k) {
                Gather(tap[k * OWA], up, off[k * OWA].ReinterpretCast<uint32_t>(), 0u, OW);
            }
            PipeBarrier<PIPE_V>();
            LocalTensor<float> v00 = tap, v01 = tap[OWA], v10 = tap[2 * OWA], v11 = tap[3 * OWA];
            // top = v00 + wx*(v01-v00), bottom likewise, out = top + wy*(bottom-top)
            Sub(v01, v01, v00, OW);
            Mul(v01, v01, ix, OW);
            Add(v00, v00, v01, OW);
            Sub(v11, v11, v10, OW);
            Mul(v11, v11, ix, OW);
            Add(v10, v10, v11, OW);
            Sub(v10, v10, v00, OW);
            Mul(v10, v10, iy, OW);
            LocalTensor<float> o = outQue.AllocTensor<float>();
            Add(o, v00, v10, OW);
            outQue.EnQue(o);

            o = outQue.DeQue<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(OW * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[(static_cast<uint64_t>(p) * OH + r) * OW], o, cp);
            outQue.FreeTensor(o);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> srcPlaneBuf, upPlaneBuf, blendBuf;
    TBuf<TPosition::VECCALC> hOff0Buf, hOff1Buf, hWBuf;
    TBuf<TPosition::VECCALC> xnBuf, ixBuf, iyBuf, flBuf, intBuf, offBuf, tapBuf;
    GlobalTensor<float> xGm, thGm, yGm;
    uint32_t C, H, W, OH, OW, WA, OWA, PS, pBegin, pEnd;
    float invScale;
};

extern "C" __global__ __aicore__ void upscale_affine_warp(GM_ADDR x, GM_ADDR theta, GM_ADDR y, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    UpscaleAffineWarpKernel op;
    op.Init(x, theta, y, td);
    op.Process();
}
