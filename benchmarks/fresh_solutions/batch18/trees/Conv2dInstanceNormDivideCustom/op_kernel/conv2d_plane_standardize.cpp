// Valid 2-D convolution (stride 1, no padding) followed by per-(n, c) plane
// standardisation and a division by a constant.
//
// One core processes whole output planes (n, co):
//   pass 1: direct convolution row by row; each row is written to y and its
//           sum / sum-of-squares folded into the plane statistics;
//   pass 2: y = (y - mean) * rsqrt(var + eps) / divisor, streamed in chunks.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUF_NUM = 2;

class Conv2dPlaneStandardizeKernel {
public:
    __aicore__ inline Conv2dPlaneStandardizeKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                const Conv2dPlaneStandardizeTilingData &tiling)
    {
        td = tiling;
        taps = td.kh * td.kw;
        wCount = td.cin * taps;
        planeElems = static_cast<uint64_t>(td.oh) * td.ow;
        planeStart = GetBlockIdx() * td.planesPerCore;
        planeStop = planeStart + td.planesPerCore;
        if (planeStop > td.planes) {
            planeStop = td.planes;
        }

        xGm.SetGlobalBuffer((__gm__ float *)x);
        fGm.SetGlobalBuffer((__gm__ float *)filter);
        bGm.SetGlobalBuffer((__gm__ float *)bias, td.cout);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(patchQ, BUF_NUM, taps * td.owAlign * sizeof(float));
        pipe.InitBuffer(rowQ, BUF_NUM, td.owAlign * sizeof(float));
        pipe.InitBuffer(normInQ, BUF_NUM, td.normChunk * sizeof(float));
        pipe.InitBuffer(normOutQ, BUF_NUM, td.normChunk * sizeof(float));
        pipe.InitBuffer(filterBuf, ((wCount + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(sqBuf, td.owAlign * sizeof(float));
        pipe.InitBuffer(redBuf, td.owAlign * sizeof(float));
        pipe.InitBuffer(outSBuf, 16 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = planeStart; p < planeStop; ++p) {
            uint32_t n = p / td.cout;
            uint32_t co = p % td.cout;
            float s1 = 0.0f;
            float s2 = 0.0f;
            ConvPlane(n, co, s1, s2);
            PipeBarrier<PIPE_ALL>();   // plane fully in GM before we read it back
            float mean = s1 / static_cast<float>(planeElems);
            float var = s2 / static_cast<float>(planeElems) - mean * mean;
            var = var > 0.0f ? var : 0.0f;
            NormalisePlane(static_cast<uint64_t>(p) * planeElems, mean, var);
        }
    }

private:
    __aicore__ inline void WaitVS()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }

    __aicore__ inline void ConvPlane(uint32_t n, uint32_t co, float &s1, float &s2)
    {
        LocalTensor<float> wt = filterBuf.Get<float>();
        DataCopyPad(wt, fGm[static_cast<uint64_t>(co) * wCount], {1, wCount * 4U, 0, 0, 0}, {false, 0, 0, 0.0f});
        event_t ms = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ms);
        WaitFlag<HardEvent::MTE2_S>(ms);
        float b = bGm.GetValue(co);

        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> work = redBuf.Get<float>();
        LocalTensor<float> scal = outSBuf.Get<float>();
        uint64_t yBase = (static_cast<uint64_t>(n) * td.cout + co) * planeElems;

        for (uint32_t r = 0; r < td.oh; ++r) {
            LocalTensor<float> acc = rowQ.AllocTensor<float>();
            Duplicate(acc, b, td.owAlign);
            for (uint32_t ci = 0; ci < td.cin; ++ci) {
                // patch layout: [kw][kh][owAlign]; kH rows at column shift kw in one DMA
                LocalTensor<float> patch = patchQ.AllocTensor<float>();
                uint64_t src = ((static_cast<uint64_t>(n) * td.cin + ci) * td.h + r) * td.w;
                for (uint32_t j = 0; j < td.kw; ++j) {
                    DataCopyExtParams cp{static_cast<uint16_t>(td.kh), td.ow * 4U, (td.w - td.ow) * 4U, 0, 0};
                    DataCopyPad(patch[j * td.kh * td.owAlign], xGm[src + j], cp, {false, 0, 0, 0.0f});
                }
                patchQ.EnQue(patch);
                patch = patchQ.DeQue<float>();
                uint32_t wBase = ci * taps;
                for (uint32_t j = 0; j < td.kw; ++j) {
                    for (uint32_t i = 0; i < td.kh; ++i) {
                        float coef = wt.GetValue(wBase + i * td.kw + j);
                        Axpy(acc, patch[(j * td.kh + i) * td.owAlign], coef, td.ow);
                    }
                }
                patchQ.FreeTensor(patch);
            }
            // running statistics of this output row
            Mul(sq, acc, acc, td.ow);
            ReduceSum<float>(scal, acc, work, td.ow);
            ReduceSum<float>(scal[8], sq, work, td.ow);
            rowQ.EnQue(acc);
            WaitVS();
            s1 += scal.GetValue(0);
            s2 += scal.GetValue(8);

            acc = rowQ.DeQue<float>();
            DataCopyPad(yGm[yBase + static_cast<uint64_t>(r) * td.ow], acc, {1, td.ow * 4U, 0, 0, 0});
            rowQ.FreeTensor(acc);
        }
    }

    __aicore__ inline void NormalisePlane(uint64_t base, float mean, float var)
    {
        // rstd computed on the vector unit
        LocalTensor<float> scal = outSBuf.Get<float>();
        Duplicate(scal, var + td.eps, 8);
        Sqrt(scal, scal, 8);
        WaitVS();
        float scale = td.invDivisor / scal.GetValue(0);
        float shift = -mean * scale;
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);

        for (uint64_t off = 0; off < planeElems; off += td.normChunk) {
            uint32_t len = static_cast<uint32_t>((planeElems - off) < td.normChunk ? (planeElems - off) : td.normChunk);
            LocalTensor<float> v = normInQ.AllocTensor<float>();
            DataCopyPad(v, yGm[base + off], {1, len * 4U, 0, 0, 0}, {false, 0, 0, 0.0f});
            normInQ.EnQue(v);
            v = normInQ.DeQue<float>();
            LocalTensor<float> o = normOutQ.AllocTensor<float>();
            Muls(o, v, scale, len);
            Adds(o, o, shift, len);
            normInQ.FreeTensor(v);
            normOutQ.EnQue(o);
            o = normOutQ.DeQue<float>();
            DataCopyPad(yGm[base + off], o, {1, len * 4U, 0, 0, 0});
            normOutQ.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUF_NUM> patchQ, normInQ;
    TQue<QuePosition::VECOUT, BUF_NUM> rowQ, normOutQ;
    TBuf<TPosition::VECCALC> filterBuf, sqBuf, redBuf, outSBuf;
    GlobalTensor<float> xGm, fGm, bGm, yGm;
    Conv2dPlaneStandardizeTilingData td;
    uint32_t taps = 0, wCount = 0, planeStart = 0, planeStop = 0;
    uint64_t planeElems = 0;
};

extern "C" __global__ __aicore__ void conv2d_plane_standardize(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Conv2dPlaneStandardizeKernel op;
    op.Init(x, filter, bias, y, tilingData);
    op.Process();
}
