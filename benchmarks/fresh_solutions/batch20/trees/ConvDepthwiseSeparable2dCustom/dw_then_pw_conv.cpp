/*
 * dw_then_pw_conv.cpp
 *
 * Separable 2-D convolution, no bias:
 *   mid[n, c]  = depthwise KxK filter of x[n, c]          (stride 1, zero padding `pad`)
 *   out[n, o]  = sum_c  pw[o, c] * mid[n, c]                (1x1 channel mixing)
 *
 * Two kernels in this file, launched in sequence:
 *   dw_then_pw_conv_spatial (vector): one (n, c) plane at a time, bands of output rows;
 *       each input row of a band is held in UB as K horizontally shifted copies
 *       (the zero border comes from DataCopyPad padding), so every tap is one Axpy.
 *   dw_then_pw_conv (cube): for every n, out[n] (Cout x HW) = pw (Cout x Cin) @ mid[n] (Cin x HW).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

struct DwThenPwConvTiling {
    uint32_t batch;
    uint32_t inCh;
    uint32_t outCh;
    uint32_t height;
    uint32_t width;
    uint32_t ksize;
    uint32_t pad;
    uint32_t outH;
    uint32_t outW;
    uint32_t rowAlign;       // width rounded up to 8 floats (+ room for padding)
    uint32_t bandRows;       // output rows per band
    uint32_t planesPerCore;
    uint32_t planeTail;
    uint32_t pwCores;
    TCubeTiling pw;          // M = outCh, N = outH*outW, K = inCh
};

__aicore__ inline void ReadTiling(DwThenPwConvTiling *t, GM_ADDR g)
{
    auto s = reinterpret_cast<__gm__ uint32_t *>(g);
    auto d = reinterpret_cast<uint32_t *>(t);
    for (uint32_t i = 0; i < sizeof(DwThenPwConvTiling) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

class SpatialFilter {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR dw, GM_ADDR mid, const DwThenPwConvTiling &t)
    {
        tl = t;
        uint32_t id = GetBlockIdx();
        planeBegin = id * tl.planesPerCore + (id < tl.planeTail ? id : tl.planeTail);
        planeCnt = tl.planesPerCore + (id < tl.planeTail ? 1 : 0);
        xGm.SetGlobalBuffer((__gm__ float *)x);
        midGm.SetGlobalBuffer((__gm__ float *)mid);
        wGm.SetGlobalBuffer((__gm__ float *)dw);

        uint32_t inRows = tl.bandRows + tl.ksize - 1;
        pipe.InitBuffer(bandQ, 1, inRows * tl.ksize * tl.rowAlign * sizeof(float));
        pipe.InitBuffer(outQ, 2, tl.bandRows * tl.rowAlign * sizeof(float));
        uint32_t wNum = tl.inCh * tl.ksize * tl.ksize;
        pipe.InitBuffer(wBuf, (wNum + 7) / 8 * 8 * sizeof(float));
        wLoc = wBuf.Get<float>();
        DataCopyPad(wLoc, wGm, DataCopyExtParams{1, wNum * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.f});
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void Run()
    {
        for (uint32_t p = 0; p < planeCnt; ++p) {
            uint32_t plane = planeBegin + p;
            uint32_t ch = plane % tl.inCh;
            for (uint32_t oh = 0; oh < tl.outH; oh += tl.bandRows) {
                uint32_t rows = tl.outH - oh < tl.bandRows ? tl.outH - oh : tl.bandRows;
                LoadBand(plane, oh, rows);
                FilterBand(ch, rows);
                StoreBand(plane, oh, rows);
            }
        }
    }

private:
    // UB layout: slot (r, kw) holds input row (oh - pad + r) shifted so that
    // element ow of the slot equals x[row][ow + kw - pad] (zero outside).
    __aicore__ inline void LoadBand(uint32_t plane, uint32_t oh, uint32_t rows)
    {
        LocalTensor<float> band = bandQ.AllocTensor<float>();
        uint32_t inRows = rows + tl.ksize - 1;
        Duplicate(band, 0.0f, inRows * tl.ksize * tl.rowAlign);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(ev);
        WaitFlag<HardEvent::V_MTE2>(ev);

        uint64_t planeOff = (uint64_t)plane * tl.height * tl.width;
        for (uint32_t r = 0; r < inRows; ++r) {
            int32_t ih = (int32_t)oh - (int32_t)tl.pad + (int32_t)r;
            if (ih < 0 || ih >= (int32_t)tl.height) {
                continue;   // stays zero
            }
            uint64_t rowOff = planeOff + (uint64_t)ih * tl.width;
            for (uint32_t kw = 0; kw < tl.ksize; ++kw) {
                int32_t shift = (int32_t)kw - (int32_t)tl.pad;
                LocalTensor<float> slot = band[(r * tl.ksize + kw) * tl.rowAlign];
                if (shift < 0) {
                    uint32_t n = tl.width + shift;
                    DataCopyPad(slot, xGm[rowOff], DataCopyExtParams{1, n * (uint32_t)sizeof(float), 0, 0, 0},
                                DataCopyPadExtParams<float>{true, (uint8_t)(-shift), 0, 0.f});
                } else {
                    uint32_t n = tl.width - shift;
                    DataCopyPad(slot, xGm[rowOff + shift], DataCopyExtParams{1, n * (uint32_t)sizeof(float), 0, 0, 0},
                                DataCopyPadExtParams<float>{shift > 0, 0, (uint8_t)shift, 0.f});
                }
            }
        }
        bandQ.EnQue(band);
    }

    __aicore__ inline void FilterBand(uint32_t ch, uint32_t rows)
    {
        LocalTensor<float> band = bandQ.DeQue<float>();
        LocalTensor<float> acc = outQ.AllocTensor<float>();
        uint32_t k = tl.ksize;
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> dst = acc[r * tl.rowAlign];
            Duplicate(dst, 0.0f, tl.outW);
            for (uint32_t kh = 0; kh < k; ++kh) {
                for (uint32_t kw = 0; kw < k; ++kw) {
                    float wv = wLoc.GetValue((ch * k + kh) * k + kw);
                    Axpy(dst, band[((r + kh) * k + kw) * tl.rowAlign], wv, tl.outW);
                }
            }
        }
        outQ.EnQue(acc);
        bandQ.FreeTensor(band);
    }

    __aicore__ inline void StoreBand(uint32_t plane, uint32_t oh, uint32_t rows)
    {
        LocalTensor<float> acc = outQ.DeQue<float>();
        uint64_t dst = ((uint64_t)plane * tl.outH + oh) * tl.outW;
        // rows are rowAlign apart in UB, outW apart in GM
        uint32_t gap = (tl.rowAlign - tl.outW) * sizeof(float) / 32;
        DataCopyPad(midGm[dst], acc, DataCopyExtParams{(uint16_t)rows, tl.outW * (uint32_t)sizeof(float), gap, 0, 0});
        outQ.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> bandQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> wBuf;
    GlobalTensor<float> xGm, midGm, wGm;
    LocalTensor<float> wLoc;
    DwThenPwConvTiling tl;
    uint32_t planeBegin = 0, planeCnt = 0;
};

class ChannelMix {
public:
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    TCubeTiling cube;

    __aicore__ inline void Init(GM_ADDR pw, GM_ADDR mid, GM_ADDR out, const DwThenPwConvTiling &t)
    {
        cube = t.pw;
        batch = t.batch;
        cores = t.pwCores;
        pwGm.SetGlobalBuffer((__gm__ float *)pw);
        midGm.SetGlobalBuffer((__gm__ float *)mid);
        outGm.SetGlobalBuffer((__gm__ float *)out);
    }

    __aicore__ inline void Run()
    {
        uint32_t id = GetBlockIdx();
        if (id >= cores) {
            return;
        }
        uint32_t mTiles = (cube.M + cube.singleCoreM - 1) / cube.singleCoreM;
        uint32_t row0 = (id % mTiles) * cube.singleCoreM;
        uint32_t col0 = (id / mTiles) * cube.singleCoreN;
        if (row0 >= (uint32_t)cube.M || col0 >= (uint32_t)cube.N) {
            return;
        }
        int32_t mCur = cube.M - (int32_t)row0 < cube.singleCoreM ? cube.M - (int32_t)row0 : cube.singleCoreM;
        int32_t nCur = cube.N - (int32_t)col0 < cube.singleCoreN ? cube.N - (int32_t)col0 : cube.singleCoreN;
        uint64_t midStride = (uint64_t)cube.Kb * cube.N;
        uint64_t outStride = (uint64_t)cube.M * cube.N;
        for (uint32_t n = 0; n < batch; ++n) {
            mm.SetTensorA(pwGm[(uint64_t)row0 * cube.Ka]);
            mm.SetTensorB(midGm[n * midStride + col0]);
            if (mCur != cube.singleCoreM || nCur != cube.singleCoreN) {
                mm.SetTail(mCur, nCur);
            }
            mm.IterateAll(outGm[n * outStride + (uint64_t)row0 * cube.N + col0]);
        }
        mm.End();
    }

private:
    GlobalTensor<float> pwGm, midGm, outGm;
    uint32_t batch = 0, cores = 0;
};

extern "C" __global__ __aicore__ void dw_then_pw_conv_spatial(GM_ADDR x, GM_ADDR dw, GM_ADDR mid, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    DwThenPwConvTiling t;
    ReadTiling(&t, tiling);
    SpatialFilter f;
    f.Init(x, dw, mid, t);
    f.Run();
}

extern "C" __global__ __aicore__ void dw_then_pw_conv(GM_ADDR mid, GM_ADDR pw, GM_ADDR out, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SetSysWorkspace(workspace);
    TPipe pipe;
    DwThenPwConvTiling t;
    ReadTiling(&t, tiling);
    ChannelMix mix;
    mix.Init(pw, mid, out, t);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mix.mm, &mix.cube);
    mix.Run();
}
