/*
 * unfold_conv2d.cpp
 *
 * Plain 2-D convolution (stride 1, no padding, no bias) with a rectangular kernel,
 * done as im2col + GEMM, one image at a time:
 *
 *   1) unfold_conv2d_cols : x[n] (C, H, W) -> cols (C*KH*KW, OH*OW)     (vector / MTE copy)
 *   2) unfold_conv2d      : y[n] (OC, OH*OW) = w (OC, C*KH*KW) @ cols   (cube, Matmul API)
 *
 * The GEMM output for one image is already the NCHW slice y[n], so no reordering is needed.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

struct UnfoldConv2dTiling {
    uint32_t inC, inH, inW;
    uint32_t outC, kH, kW;
    uint32_t outH, outW;
    uint32_t rowsPerChunk;    // output rows copied per unfold step
    uint32_t chunksPerTap;    // ceil(outH / rowsPerChunk)
    uint32_t unitsPerCore;    // unfold units (tap, chunk) per core
    uint32_t reserved;
    TCubeTiling gemm;         // tiling for the (OC x OH*OW x C*KH*KW) matmul
};

__aicore__ inline void CopyTilingFromGm(UnfoldConv2dTiling &t, GM_ADDR src)
{
    auto *s = reinterpret_cast<__gm__ int32_t *>(src);
    auto *d = reinterpret_cast<int32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(UnfoldConv2dTiling) / sizeof(int32_t); ++i) {
        d[i] = s[i];
    }
}

// ---------------------------------------------------------------------------------------------
// Stage 1: im2col. One unit = one kernel tap (ic, kh, kw) x one chunk of output rows.
// For a tap, output row oh needs x[ic, oh + kh, kw : kw + OW]; consecutive oh are W apart in GM
// and land OW apart in the column matrix, so a chunk is a single strided copy in and out.
// ---------------------------------------------------------------------------------------------
class ColsBuilder {
public:
    __aicore__ inline ColsBuilder() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR cols, const UnfoldConv2dTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        colGm.SetGlobalBuffer((__gm__ float *)cols);
        owAlign = (tl.outW + 7) / 8 * 8;
        pipe.InitBuffer(que, 2, tl.rowsPerChunk * owAlign * sizeof(float));
        taps = tl.inC * tl.kH * tl.kW;
    }

    __aicore__ inline void Process()
    {
        uint32_t total = taps * tl.chunksPerTap;
        uint32_t beg = GetBlockIdx() * tl.unitsPerCore;
        uint32_t end = beg + tl.unitsPerCore;
        if (end > total) end = total;
        for (uint32_t u = beg; u < end; ++u) {
            uint32_t tap = u / tl.chunksPerTap;
            uint32_t oh0 = (u % tl.chunksPerTap) * tl.rowsPerChunk;
            uint32_t rows = tl.outH - oh0;
            if (rows > tl.rowsPerChunk) rows = tl.rowsPerChunk;
            MoveChunk(tap, oh0, rows);
        }
    }

private:
    __aicore__ inline void MoveChunk(uint32_t tap, uint32_t oh0, uint32_t rows)
    {
        uint32_t kw = tap % tl.kW;
        uint32_t kh = (tap / tl.kW) % tl.kH;
        uint32_t ic = tap / (tl.kW * tl.kH);

        uint64_t src = ((uint64_t)ic * tl.inH + oh0 + kh) * tl.inW + kw;
        uint64_t dst = (uint64_t)tap * tl.outH * tl.outW + (uint64_t)oh0 * tl.outW;

        LocalTensor<float> buf = que.AllocTensor<float>();
        DataCopyExtParams in{(uint16_t)rows, tl.outW * (uint32_t)sizeof(float),
                             (tl.inW - tl.outW) * (uint32_t)sizeof(float), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(buf, xGm[src], in, pad);
        que.EnQue(buf);

        buf = que.DeQue<float>();
        DataCopyExtParams out{(uint16_t)rows, tl.outW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(colGm[dst], buf, out);
        que.FreeTensor(buf);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> que;
    GlobalTensor<float> xGm, colGm;
    UnfoldConv2dTiling tl;
    uint32_t owAlign = 0, taps = 0;
};

extern "C" __global__ __aicore__ void unfold_conv2d_cols(GM_ADDR x, GM_ADDR cols, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    UnfoldConv2dTiling t;
    CopyTilingFromGm(t, tiling);
    ColsBuilder op;
    op.Init(x, cols, t);
    op.Process();
}

// ---------------------------------------------------------------------------------------------
// Stage 2: y[n] = w @ cols on the cube cores.
// ---------------------------------------------------------------------------------------------
class ConvGemm {
    using AT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    __aicore__ inline ConvGemm() {}

    __aicore__ inline void Run(GM_ADDR w, GM_ADDR cols, GM_ADDR y, const TCubeTiling &tiling, TPipe *pipe)
    {
        cube = tiling;
        wGm.SetGlobalBuffer((__gm__ float *)w);
        colGm.SetGlobalBuffer((__gm__ float *)cols);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        int32_t mBlk = (cube.M + cube.singleCoreM - 1) / cube.singleCoreM;
        int32_t nBlk = (cube.N + cube.singleCoreN - 1) / cube.singleCoreN;
        int32_t bid = (int32_t)GetBlockIdx();
        if (bid >= mBlk * nBlk) {
            return;
        }
        int32_t mIdx = bid % mBlk;
        int32_t nIdx = bid / mBlk;
        int32_t m0 = mIdx * cube.singleCoreM;
        int32_t n0 = nIdx * cube.singleCoreN;
        int32_t curM = (cube.M - m0 < cube.singleCoreM) ? cube.M - m0 : cube.singleCoreM;
        int32_t curN = (cube.N - n0 < cube.singleCoreN) ? cube.N - n0 : cube.singleCoreN;

        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm, &cube);
        mm.SetTail(curM, curN);
        mm.SetTensorA(wGm[(uint64_t)m0 * cube.Ka]);
        mm.SetTensorB(colGm[(uint64_t)n0]);
        mm.IterateAll(yGm[(uint64_t)m0 * cube.N + n0]);
        mm.End();
    }

private:
    Matmul<AT, BT, CT, BiasT> mm;
    TCubeTiling cube;
    GlobalTensor<float> wGm, colGm, yGm;
};

extern "C" __global__ __aicore__ void unfold_conv2d(GM_ADDR w, GM_ADDR cols, GM_ADDR y,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    UnfoldConv2dTiling t;
    CopyTilingFromGm(t, tiling);
    TPipe pipe;
    ConvGemm gemm;
    gemm.Run(w, cols, y, t.gemm, &pipe);
}
