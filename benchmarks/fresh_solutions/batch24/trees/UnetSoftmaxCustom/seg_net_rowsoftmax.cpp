/*
 * seg_net_rowsoftmax: device kernels for a 4-level encoder/decoder
 * segmentation network whose conv blocks are
 *     conv3x3 -> batch-norm (batch statistics) -> softmax over the width axis
 * applied twice.  The host (main.cpp) runs the network by launching these
 * kernels in sequence:
 *
 *   patch_unfold      3x3 / pad 1 im2col of one image          [C*9, H*W]
 *   block_gemm        cube Matmul C = A * B (weights x columns) [Cout, H*W]
 *   chan_moments      per-channel mean / rstd over N, H, W
 *   norm_row_softmax  (x - mean) * rstd * gamma + beta, softmax along W
 *   pool_half         2x2 / stride 2 max pooling
 *   spread_bias       scatter a [Cout*s*s, H*W] GEMM result to [Cout, sH, sW]
 *                     and add the channel bias (s = 2: transposed conv,
 *                     s = 1: plain 1x1 conv)
 *
 * The conv bias in front of a batch-norm cancels, so the 3x3 convs are
 * computed without it.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

// ---------------------------------------------------------------- tilings
struct UnfoldTiling {
    uint32_t channels, height, width;
    uint32_t rowsPerCore;          // (channel*9 + tap, out row) pairs per core
};

struct GemmTiling {
    TCubeTiling cube;
};

struct MomentTiling {
    uint32_t batch, channels, plane;   // plane = H*W
    uint32_t chunk;                    // floats per UB chunk
    uint32_t chansPerCore;
    float eps;
};

struct RowSoftmaxTiling {
    uint32_t rows;          // N*C*H
    uint32_t width;
    uint32_t height;        // rows per channel plane
    uint32_t channels;
    uint32_t rowsPerCore;
    uint32_t rowsPerTile;
};

struct PoolTiling {
    uint32_t planes;        // N*C
    uint32_t inH, inW;
    uint32_t planesPerCore;
};

struct SpreadTiling {
    uint32_t cout, inH, inW, factor;
    uint32_t rowsPerCore;   // (co, in row, a) triples per core
};

template <typename T>
__aicore__ inline void CopyTilingFromGm(T *dst, GM_ADDR src)
{
    auto *d = reinterpret_cast<uint32_t *>(dst);
    auto *s = reinterpret_cast<__gm__ uint32_t *>(src);
    for (uint32_t i = 0; i < sizeof(T) / 4; ++i) d[i] = s[i];
}

__aicore__ inline void WaitVS()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
}

__aicore__ inline void WaitMte2S()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
    SetFlag<HardEvent::MTE2_S>(e);
    WaitFlag<HardEvent::MTE2_S>(e);
}

// ------------------------------------------------------------ patch_unfold
// col[(c*9 + kh*3 + kw), oh*W + ow] = x[c, oh+kh-1, ow+kw-1] (zero outside)
extern "C" __global__ __aicore__ void patch_unfold(GM_ADDR x, GM_ADDR col, GM_ADDR tiling)
{
    UnfoldTiling t;
    CopyTilingFromGm(&t, tiling);
    const uint32_t H = t.height, W = t.width;
    const uint32_t total = t.channels * 9 * H;
    uint32_t begin = GetBlockIdx() * t.rowsPerCore;
    uint32_t end = begin + t.rowsPerCore > total ? total : begin + t.rowsPerCore;

    GlobalTensor<float> xg, cg;
    xg.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.channels * H * W);
    cg.SetGlobalBuffer((__gm__ float *)col, (uint64_t)t.channels * 9 * H * W);
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;        // used as a bounce buffer MTE2 -> MTE3
    pipe.InitBuffer(q, 2, W * sizeof(float));

    for (uint32_t r = begin; r < end; ++r) {
        uint32_t oh = r % H;
        uint32_t tapRow = r / H;         // c*9 + tap
        uint32_t c = tapRow / 9, tap = tapRow % 9;
        int32_t ih = (int32_t)oh + (int32_t)(tap / 3) - 1;
        int32_t dw = (int32_t)(tap % 3) - 1;
        LocalTensor<float> buf = q.AllocTensor<float>();
        if (ih < 0 || ih >= (int32_t)H) {
            Duplicate(buf, 0.0f, W);
        } else {
            uint64_t rowOff = ((uint64_t)c * H + ih) * W;
            DataCopyExtParams cp{1, (uint32_t)((W - (dw != 0 ? 1 : 0)) * sizeof(float)), 0, 0, 0};
            if (dw < 0) {         // shift right: first element is padding
                DataCopyPad(buf, xg[rowOff], cp, DataCopyPadExtParams<float>{true, 1, 0, 0.0f});
            } else if (dw > 0) {  // shift left: last element is padding
                DataCopyPad(buf, xg[rowOff + 1], cp, DataCopyPadExtParams<float>{true, 0, 1, 0.0f});
            } else {
                DataCopyPad(buf, xg[rowOff], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            }
        }
        q.EnQue(buf);
        LocalTensor<float> ready = q.DeQue<float>();
        DataCopy(cg[(uint64_t)tapRow * H * W + (uint64_t)oh * W], ready, W);
        q.FreeTensor(ready);
    }
}

// -------------------------------------------------------------- block_gemm
extern "C" __global__ __aicore__ void block_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    if (g_coreType == AIV) return;
    GemmTiling t;
    CopyTilingFromGm(&t, tiling);
    const TCubeTiling &ct = t.cube;

    using AT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using CT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    matmul::Matmul<AT, AT, CT, CT> mm;
    TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.cube);

    GlobalTensor<float> ag, bg, cg;
    ag.SetGlobalBuffer((__gm__ float *)a, (uint64_t)ct.M * ct.Ka);
    bg.SetGlobalBuffer((__gm__ float *)b, (uint64_t)ct.Kb * ct.N);
    cg.SetGlobalBuffer((__gm__ float *)c, (uint64_t)ct.M * ct.N);

    uint32_t mBlocks = (ct.M + ct.singleCoreM - 1) / ct.singleCoreM;
    uint32_t mi = GetBlockIdx() % mBlocks, ni = GetBlockIdx() / mBlocks;
    int32_t m0 = mi * ct.singleCoreM, n0 = ni * ct.singleCoreN;
    if (m0 >= ct.M || n0 >= ct.N) return;
    int32_t mLen = ct.M - m0 < ct.singleCoreM ? ct.M - m0 : ct.singleCoreM;
    int32_t nLen = ct.N - n0 < ct.singleCoreN ? ct.N - n0 : ct.singleCoreN;

    mm.SetTensorA(ag[(uint64_t)m0 * ct.Ka]);
    mm.SetTensorB(bg[n0]);
    mm.SetTail(mLen, nLen, ct.Ka);
    mm.IterateAll(cg[(uint64_t)m0 * ct.N + n0]);
    mm.End();
}

// ------------------------------------------------------------ chan_moments
// x: [N, C, plane];  stats: [C, 8] with stats[c][0] = mean, stats[c][1] = rstd
extern "C" __global__ __aicore__ void chan_moments(GM_ADDR x, GM_ADDR stats, GM_ADDR tiling)
{
    MomentTiling t;
    CopyTilingFromGm(&t, tiling);
    GlobalTensor<float> xg, sg;
    xg.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.batch * t.channels * t.plane);
    sg.SetGlobalBuffer((__gm__ float *)stats, (uint64_t)t.channels * 8);

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<QuePosition::VECCALC> sqBuf, redBuf, workBuf;
    pipe.InitBuffer(inQ, 2, t.chunk * sizeof(float));
    pipe.InitBuffer(outQ, 1, 8 * sizeof(float));
    pipe.InitBuffer(sqBuf, t.chunk * sizeof(float));
    pipe.InitBuffer(redBuf, 16 * sizeof(float));
    pipe.InitBuffer(workBuf, t.chunk * sizeof(float));
    LocalTensor<float> sq = sqBuf.Get<float>();
    LocalTensor<float> red = redBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();

    uint32_t c0 = GetBlockIdx() * t.chansPerCore;
    uint32_t c1 = c0 + t.chansPerCore > t.channels ? t.channels : c0 + t.chansPerCore;
    const float count = (float)t.batch * (float)t.plane;

    for (uint32_t c = c0; c < c1; ++c) {
        float s = 0.0f, ss = 0.0f;
        for (uint32_t n = 0; n < t.batch; ++n) {
            uint64_t base = ((uint64_t)n * t.channels + c) * t.plane;
            for (uint32_t off = 0; off < t.plane; off += t.chunk) {
                uint32_t len = t.plane - off < t.chunk ? t.plane - off : t.chunk;
                LocalTensor<float> in = inQ.AllocTensor<float>();
                DataCopy(in, xg[base + off], len);
                inQ.EnQue(in);
                LocalTensor<float> v = inQ.DeQue<float>();
                ReduceSum(red, v, work, len);
                Mul(sq, v, v, len);
                ReduceSum(red[8], sq, work, len);
                inQ.FreeTensor(v);
                WaitVS();
                s += red.GetValue(0);
                ss += red.GetValue(8);
            }
        }
        float mean = s / count;
        float var = ss / count - mean * mean;
        LocalTensor<float> o = outQ.AllocTensor<float>();
        Duplicate(o, var + t.eps, 8);
        Sqrt(o, o, 8);                       // o = std
        WaitVS();
        float rstd = 1.0f / o.GetValue(0);
        o.SetValue(0, mean);
        o.SetValue(1, rstd);
        outQ.EnQue(o);
        LocalTensor<float> oo = outQ.DeQue<float>();
        DataCopy(sg[(uint64_t)c * 8], oo, 8);
        outQ.FreeTensor(oo);
    }
}

// -------------------------------------------------------- norm_row_softmax
// in place on x [N, C, H, W]; gamma/beta: [C]; stats from chan_moments
class NormRowSoftmax {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR stats, GM_ADDR gamma, GM_ADDR beta,
                                const RowSoftmaxTiling &t)
    {
        t_ = t;
        xg_.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.rows * t.width);
        sg_.SetGlobalBuffer((__gm__ float *)stats, (uint64_t)t.channels * 8);
        gg_.SetGlobalBuffer((__gm__ float *)gamma, t.channels);
        bg_.SetGlobalBuffer((__gm__ float *)beta, t.channels);
        uint32_t tileElems = t.rowsPerTile * t.width;
        pipe_.InitBuffer(inQ_, 2, tileElems * sizeof(float));
        pipe_.InitBuffer(outQ_, 2, tileElems * sizeof(float));
        pipe_.InitBuffer(redBuf_, 64 * sizeof(float));
        pipe_.InitBuffer(workBuf_, t.width * sizeof(float));
        rowBegin_ = GetBlockIdx() * t.rowsPerCore;
        rowEnd_ = rowBegin_ + t.rowsPerCore > t.rows ? t.rows : rowBegin_ + t.rowsPerCore;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin_; r < rowEnd_; r += t_.rowsPerTile) {
            uint32_t n = (rowEnd_ - r) < t_.rowsPerTile ? (rowEnd_ - r) : t_.rowsPerTile;
            LocalTensor<float> in = inQ_.AllocTensor<float>();
            DataCopy(in, xg_[(uint64_t)r * t_.width], n * t_.width);
            inQ_.EnQue(in);
            Compute(r, n);
            LocalTensor<float> out = outQ_.DeQue<float>();
            DataCopy(xg_[(uint64_t)r * t_.width], out, n * t_.width);
            outQ_.FreeTensor(out);
        }
    }

private:
    __aicore__ inline void Compute(uint32_t firstRow, uint32_t n)
    {
        LocalTensor<float> in = inQ_.DeQue<float>();
        LocalTensor<float> out = outQ_.AllocTensor<float>();
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> work = workBuf_.Get<float>();
        const uint32_t W = t_.width;
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t ch = ((firstRow + i) / t_.height) % t_.channels;
            float scale = sg_.GetValue(ch * 8 + 1) * gg_.GetValue(ch);
            float shift = bg_.GetValue(ch) - sg_.GetValue(ch * 8) * scale;
            LocalTensor<float> src = in[i * W];
            LocalTensor<float> dst = out[i * W];
            Muls(dst, src, scale, W);
            Adds(dst, dst, shift, W);
            ReduceMax(red, dst, work, W, false);
            WaitVS();
            float mx = red.GetValue(0);
            Adds(dst, dst, -mx, W);
            Exp(dst, dst, W);
            ReduceSum(red[8], dst, work, W);
            WaitVS();
            float inv = 1.0f / red.GetValue(8);
            Muls(dst, dst, inv, W);
        }
        outQ_.EnQue(out);
        inQ_.FreeTensor(in);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<QuePosition::VECCALC> redBuf_, workBuf_;
    GlobalTensor<float> xg_, sg_, gg_, bg_;
    RowSoftmaxTiling t_;
    uint32_t rowBegin_ = 0, rowEnd_ = 0;
};

extern "C" __global__ __aicore__ void norm_row_softmax(GM_ADDR x, GM_ADDR stats, GM_ADDR gamma,
                                                       GM_ADDR beta, GM_ADDR tiling)
{
    RowSoftmaxTiling t;
    CopyTilingFromGm(&t, tiling);
    NormRowSoftmax op;
    op.Init(x, stats, gamma, beta, t);
    op.Process();
}

// --------------------------------------------------------------- pool_half
extern "C" __global__ __aicore__ void pool_half(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    PoolTiling t;
    CopyTilingFromGm(&t, tiling);
    const uint32_t W = t.inW, oW = t.inW / 2, oH = t.inH / 2;
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.planes * t.inH * W);
    yg.SetGlobalBuffer((__gm__ float *)y, (uint64_t)t.planes * oH * oW);
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> evenBuf, oddBuf;
    pipe.InitBuffer(inQ, 2, 2 * W * sizeof(float));
    pipe.InitBuffer(outQ, 2, oW * sizeof(float));
    pipe.InitBuffer(evenBuf, oW * sizeof(float));
    pipe.InitBuffer(oddBuf, oW * sizeof(float));
    LocalTensor<float> ev = evenBuf.Get<float>();
    LocalTensor<float> od = oddBuf.Get<float>();

    uint32_t p0 = GetBlockIdx() * t.planesPerCore;
    uint32_t p1 = p0 + t.planesPerCore > t.planes ? t.planes : p0 + t.planesPerCore;
    GatherMaskParams gp;
    gp.src0BlockStride = 1;
    gp.repeatTimes = static_cast<uint16_t>(W / 64);
    gp.src0RepeatStride = 8;
    gp.src1RepeatStride = 0;
    uint64_t kept = 0;

    for (uint32_t p = p0; p < p1; ++p) {
        for (uint32_t oh = 0; oh < oH; ++oh) {
            LocalTensor<float> in = inQ.AllocTensor<float>();
            DataCopy(in, xg[((uint64_t)p * t.inH + 2 * oh) * W], 2 * W);   // two adjacent rows
            inQ.EnQue(in);
            LocalTensor<float> v = inQ.DeQue<float>();
            Max(v, v, v[W], W);                            // vertical pair
            GatherMask(ev, v, 1, false, 0, gp, kept);      // even columns
            GatherMask(od, v, 2, false, 0, gp, kept);      // odd columns
            LocalTensor<float> o = outQ.AllocTensor<float>();
            Max(o, ev, od, oW);
            inQ.FreeTensor(v);
            outQ.EnQue(o);
            LocalTensor<float> oo = outQ.DeQue<float>();
            DataCopy(yg[((uint64_t)p * oH + oh) * oW], oo, oW);
            outQ.FreeTensor(oo);
        }
    }
}

// ------------------------------------------------------------- spread_bias
// g: [cout*s*s, H*W] (rows ordered co, a, b);  y: [cout, s*H, s*W]
// y[co, s*i + a, s*j + b] = g[(co*s + a)*s + b, i*W + j] + bias[co]
extern "C" __global__ __aicore__ void spread_bias(GM_ADDR g, GM_ADDR bias, GM_ADDR y, GM_ADDR tiling)
{
    SpreadTiling t;
    CopyTilingFromGm(&t, tiling);
    const uint32_t s = t.factor, H = t.inH, W = t.inW, oW = s * W;
    const uint32_t total = t.cout * H * s;
    GlobalTensor<float> gg, bg, yg;
    gg.SetGlobalBuffer((__gm__ float *)g, (uint64_t)t.cout * s * s * H * W);
    bg.SetGlobalBuffer((__gm__ float *)bias, t.cout);
    yg.SetGlobalBuffer((__gm__ float *)y, (uint64_t)t.cout * s * s * H * W);

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> idxBuf;
    pipe.InitBuffer(inQ, 2, s * W * sizeof(float));
    pipe.InitBuffer(outQ, 2, oW * sizeof(float));
    pipe.InitBuffer(idxBuf, oW * sizeof(uint32_t));
    // byte offsets so that out[j*s + b] = in[b*W + j]
    LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
    for (uint32_t j = 0; j < W; ++j) {
        for (uint32_t b = 0; b < s; ++b) {
            idx.SetValue(j * s + b, (b * W + j) * sizeof(float));
        }
    }
    event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
    SetFlag<HardEvent::S_V>(sv);
    WaitFlag<HardEvent::S_V>(sv);

    uint32_t r0 = GetBlockIdx() * t.rowsPerCore;
    uint32_t r1 = r0 + t.rowsPerCore > total ? total : r0 + t.rowsPerCore;
    for (uint32_t r = r0; r < r1; ++r) {
        uint32_t a = r % s;
        uint32_t i = (r / s) % H;
        uint32_t co = r / (s * H);
        LocalTensor<float> in = inQ.AllocTensor<float>();
        for (uint32_t b = 0; b < s; ++b) {
            DataCopy(in[b * W], gg[(((uint64_t)co * s + a) * s + b) * H * W + (uint64_t)i * W], W);
        }
        inQ.EnQue(in);
        LocalTensor<float> v = inQ.DeQue<float>();
        LocalTensor<float> o = outQ.AllocTensor<float>();
        if (s == 1) {
            Adds(o, v, bg.GetValue(co), oW);
        } else {
            Gather(o, v, idx, 0, oW);
            Adds(o, o, bg.GetValue(co), oW);
        }
        inQ.FreeTensor(v);
        outQ.EnQue(o);
        LocalTensor<float> oo = outQ.DeQue<float>();
        DataCopy(yg[((uint64_t)co * s * H + (uint64_t)i * s + a) * oW], oo, oW);
        outQ.FreeTensor(oo);
    }
}
