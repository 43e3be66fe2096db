// dense_growth_net: device kernels for a densely connected CNN classifier
// (4 growth blocks of 6/12/48/32 layers, growth 32), batch-statistics BN.
//
//   dense_growth_net         cube GEMM  C[M,N] = A[M,K] * B[K,N] (+ bias)   (convs, classifier)
//   dense_growth_net_bnrelu  per-channel batch-stat normalisation + affine + ReLU
//   dense_growth_net_im2col  NCHW plane -> (C*k*k, Ho*Wo) column matrix for one image
//   dense_growth_net_pool    max / average pooling per plane
//   dense_growth_net_gap     global average pooling -> (N, C)
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct DenseGrowthNetTiling {
    uint32_t batch;      // N
    uint32_t channels;   // channels processed
    uint32_t height;
    uint32_t width;
    uint32_t srcChannels; // channel count of the buffer read from (concat buffers are wider)
    uint32_t dstChannels; // channel count of the buffer written to
    uint32_t kernel;
    uint32_t stride;
    uint32_t pad;
    uint32_t outH;
    uint32_t outW;
    uint32_t rowsPerChunk; // output rows handled per UB chunk (im2col / pool)
    uint32_t poolMode;     // 0 max, 1 average
    uint32_t tileLen;      // elements per UB tile (bn)
    float eps;
};

__aicore__ inline void FetchTiling(DenseGrowthNetTiling &t, GM_ADDR gm)
{
    auto *d = reinterpret_cast<uint32_t *>(&t);
    auto *s = reinterpret_cast<__gm__ uint32_t *>(gm);
    for (uint32_t i = 0; i < sizeof(DenseGrowthNetTiling) / 4; ++i) {
        d[i] = s[i];
    }
}

template <HardEvent E>
__aicore__ inline void Fence()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(ev);
    WaitFlag<E>(ev);
}

__aicore__ inline uint32_t Align8(uint32_t n) { return (n + 7) / 8 * 8; }

// ----------------------------------------------------------------------------
// GEMM on the cube core
// ----------------------------------------------------------------------------
extern "C" __global__ __aicore__ void dense_growth_net(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TCubeTiling tc;
    {
        auto *d = reinterpret_cast<uint32_t *>(&tc);
        auto *s = reinterpret_cast<__gm__ uint32_t *>(tiling);
        for (uint32_t i = 0; i < sizeof(TCubeTiling) / 4; ++i) {
            d[i] = s[i];
        }
    }
    TPipe pipe;
    using MT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    matmul::Matmul<MT, MT, MT, MT> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tc);

    uint32_t idx = GetBlockIdx();
    if (idx >= (uint32_t)tc.usedCoreNum) {
        return;
    }
    uint32_t mSplits = (tc.M + tc.singleCoreM - 1) / tc.singleCoreM;
    uint32_t m0 = (idx % mSplits) * tc.singleCoreM;
    uint32_t n0 = (idx / mSplits) * tc.singleCoreN;
    if (m0 >= (uint32_t)tc.M || n0 >= (uint32_t)tc.N) {
        return;
    }
    int32_t curM = tc.M - m0 < tc.singleCoreM ? tc.M - m0 : tc.singleCoreM;
    int32_t curN = tc.N - n0 < tc.singleCoreN ? tc.N - n0 : tc.singleCoreN;

    GlobalTensor<float> ag, bg, biasg, cg;
    ag.SetGlobalBuffer((__gm__ float *)a);
    bg.SetGlobalBuffer((__gm__ float *)b);
    cg.SetGlobalBuffer((__gm__ float *)c);
    mm.SetTail(curM, curN);
    mm.SetTensorA(ag[(uint64_t)m0 * tc.Ka]);
    mm.SetTensorB(bg[n0]);
    if (tc.isBias) {
        biasg.SetGlobalBuffer((__gm__ float *)bias);
        mm.SetBias(biasg[n0]);
    }
    mm.IterateAll(cg[(uint64_t)m0 * tc.N + n0]);
    mm.End();
}

// ----------------------------------------------------------------------------
// Batch-statistics BN + ReLU. One channel per iteration; two passes over N*H*W.
// ----------------------------------------------------------------------------
class BnRelu {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const DenseGrowthNetTiling &t)
    {
        tl = t;
        plane = t.height * t.width;
        xg.SetGlobalBuffer((__gm__ float *)x);
        yg.SetGlobalBuffer((__gm__ float *)y);
        gg.SetGlobalBuffer((__gm__ float *)gamma);
        bg.SetGlobalBuffer((__gm__ float *)beta);
        pipe.InitBuffer(qIn, 2, tl.tileLen * sizeof(float));
        pipe.InitBuffer(qOut, 2, tl.tileLen * sizeof(float));
        pipe.InitBuffer(work, tl.tileLen * sizeof(float));
        pipe.InitBuffer(acc, 32 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c = GetBlockIdx(); c < tl.channels; c += GetBlockNum()) {
            float sum = 0.0f;
            float sq = 0.0f;
            Statistics(c, sum, sq);
            float cnt = static_cast<float>(tl.batch * plane);
            float mean = sum / cnt;
            float var = sq / cnt - mean * mean;
            var = var < 0.0f ? 0.0f : var;
            LocalTensor<float> r = acc.Get<float>();
            Duplicate(r, var + tl.eps, 8);
            Sqrt(r, r, 8);
            Fence<HardEvent::V_S>();
            float scale = gg.GetValue(c) / r.GetValue(0);
            float shift = bg.GetValue(c) - mean * scale;
            Normalize(c, scale, shift);
        }
    }

private:
    __aicore__ inline void Statistics(uint32_t c, float &sum, float &sq)
    {
        LocalTensor<float> r = acc.Get<float>();
        LocalTensor<float> tmp = work.Get<float>();
        for (uint32_t n = 0; n < tl.batch; ++n) {
            uint64_t base = ((uint64_t)n * tl.srcChannels + c) * plane;
            for (uint32_t off = 0; off < plane; off += tl.tileLen) {
                uint32_t len = plane - off < tl.tileLen ? plane - off : tl.tileLen;
                LocalTensor<float> v = qIn.AllocTensor<float>();
                DataCopyPad(v, xg[base + off], {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0},
                            {false, 0, 0, 0});
                qIn.EnQue(v);
                v = qIn.DeQue<float>();
                ReduceSum(r, v, tmp, len);
                Mul(tmp, v, v, len);
                ReduceSum(r[8], tmp, tmp, len);
                Fence<HardEvent::V_S>();
                sum += r.GetValue(0);
                sq += r.GetValue(8);
                Fence<HardEvent::S_V>();
                qIn.FreeTensor(v);
            }
        }
    }

    __aicore__ inline void Normalize(uint32_t c, float scale, float shift)
    {
        for (uint32_t n = 0; n < tl.batch; ++n) {
            uint64_t src = ((uint64_t)n * tl.srcChannels + c) * plane;
            uint64_t dst = ((uint64_t)n * tl.dstChannels + c) * plane;
            for (uint32_t off = 0; off < plane; off += tl.tileLen) {
                uint32_t len = plane - off < tl.tileLen ? plane - off : tl.tileLen;
                LocalTensor<float> v = qIn.AllocTensor<float>();
                DataCopyPad(v, xg[src + off], {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0},
                            {false, 0, 0, 0});
                qIn.EnQue(v);
                v = qIn.DeQue<float>();
                LocalTensor<float> o = qOut.AllocTensor<float>();
                Muls(o, v, scale, len);
                Adds(o, o, shift, len);
                Relu(o, o, len);
                qOut.EnQue(o);
                qIn.FreeTensor(v);
                o = qOut.DeQue<float>();
                DataCopyPad(yg[dst + off], o, {1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0});
                qOut.FreeTensor(o);
            }
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qIn;
    TQue<QuePosition::VECOUT, 2> qOut;
    TBuf<TPosition::VECCALC> work, acc;
    GlobalTensor<float> xg, yg, gg, bg;
    DenseGrowthNetTiling tl;
    uint32_t plane;
};

extern "C" __global__ __aicore__ void dense_growth_net_bnrelu(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                              GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    DenseGrowthNetTiling t;
    FetchTiling(t, tiling);
    BnRelu op;
    op.Init(x, gamma, beta, y, t);
    op.Process();
}

// ----------------------------------------------------------------------------
// Window gather shared by im2col and pooling. A chunk of input rows is staged in
// UB followed by one "fill" element; out-of-image taps point at the fill slot.
// ----------------------------------------------------------------------------
class WindowGather {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const DenseGrowthNetTiling &t)
    {
        tl = t;
        xg.SetGlobalBuffer((__gm__ float *)x);
        yg.SetGlobalBuffer((__gm__ float *)y);
        inRowsMax = (tl.rowsPerChunk - 1) * tl.stride + tl.kernel;
        chunkOut = tl.rowsPerChunk * tl.outW;
        pipe.InitBuffer(planeBuf, Align8(inRowsMax * tl.width + 8) * sizeof(float));
        pipe.InitBuffer(idxBuf, Align8(chunkOut) * sizeof(uint32_t));
        pipe.InitBuffer(tapBuf, Align8(chunkOut) * sizeof(float));
        pipe.InitBuffer(qOut, 2, Align8(chunkOut) * sizeof(float));
    }

    // cols for image `n`: row (c*k + kh)*k + kw, column oh*outW + ow
    __aicore__ inline void Im2col(uint32_t n)
    {
        const uint32_t k = tl.kernel;
        const uint32_t cols = tl.outH * tl.outW;
        for (uint32_t c = GetBlockIdx(); c < tl.channels; c += GetBlockNum()) {
            uint64_t planeOff = ((uint64_t)n * tl.srcChannels + c) * tl.height * tl.width;
            for (uint32_t oh0 = 0; oh0 < tl.outH; oh0 += tl.rowsPerChunk) {
                uint32_t rows = tl.outH - oh0 < tl.rowsPerChunk ? tl.outH - oh0 : tl.rowsPerChunk;
                int32_t ihFirst = StageRows(planeOff, oh0, rows, 0.0f);
                for (uint32_t kh = 0; kh < k; ++kh) {
                    for (uint32_t kw = 0; kw < k; ++kw) {
                        uint32_t cnt = rows * tl.outW;
                        LocalTensor<float> o = qOut.AllocTensor<float>();
                        GatherTap(o, oh0, rows, ihFirst, kh, kw);
                        qOut.EnQue(o);
                        o = qOut.DeQue<float>();
                        uint64_t dst = ((uint64_t)(c * k + kh) * k + kw) * cols + (uint64_t)oh0 * tl.outW;
                        DataCopyPad(yg[dst], o, {1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0});
                        qOut.FreeTensor(o);
                    }
                }
                Fence<HardEvent::MTE3_MTE2>();
            }
        }
    }

    __aicore__ inline void Pool()
    {
        const uint32_t k = tl.kernel;
        const bool isMax = tl.poolMode == 0;
        const float fill = isMax ? -3.4e38f : 0.0f;
        const uint32_t planes = tl.batch * tl.channels;
        for (uint32_t p = GetBlockIdx(); p < planes; p += GetBlockNum()) {
            uint32_t n = p / tl.channels;
            uint32_t c = p % tl.channels;
            uint64_t planeOff = ((uint64_t)n * tl.srcChannels + c) * tl.height * tl.width;
            uint64_t outOff = ((uint64_t)n * tl.dstChannels + c) * tl.outH * tl.outW;
            for (uint32_t oh0 = 0; oh0 < tl.outH; oh0 += tl.rowsPerChunk) {
                uint32_t rows = tl.outH - oh0 < tl.rowsPerChunk ? tl.outH - oh0 : tl.rowsPerChunk;
                uint32_t cnt = rows * tl.outW;
                int32_t ihFirst = StageRows(planeOff, oh0, rows, fill);
                LocalTensor<float> o = qOut.AllocTensor<float>();
                LocalTensor<float> tap = tapBuf.Get<float>();
                for (uint32_t kh = 0; kh < k; ++kh) {
                    for (uint32_t kw = 0; kw < k; ++kw) {
                        if (kh == 0 && kw == 0) {
                            GatherTap(o, oh0, rows, ihFirst, kh, kw);
                            continue;
                        }
                        GatherTap(tap, oh0, rows, ihFirst, kh, kw);
                        if (isMax) {
                            Max(o, o, tap, cnt);
                        } else {
                            Add(o, o, tap, cnt);
                        }
                        PipeBarrier<PIPE_V>();
                    }
                }
                if (!isMax) {
                    Muls(o, o, 1.0f / static_cast<float>(k * k), cnt);  // count_include_pad, no pad used here
                }
                qOut.EnQue(o);
                o = qOut.DeQue<float>();
                DataCopyPad(yg[outOff + (uint64_t)oh0 * tl.outW], o,
                            {1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0});
                qOut.FreeTensor(o);
                Fence<HardEvent::MTE3_MTE2>();
            }
        }
    }

private:
    // loads the input rows feeding output rows [oh0, oh0+rows) into planeBuf, returns the first ih
    __aicore__ inline int32_t StageRows(uint64_t planeOff, uint32_t oh0, uint32_t rows, float fill)
    {
        LocalTensor<float> buf = planeBuf.Get<float>();
        int32_t ihFirst = static_cast<int32_t>(oh0 * tl.stride) - static_cast<int32_t>(tl.pad);
        int32_t ihLast = ihFirst + static_cast<int32_t>((rows - 1) * tl.stride + tl.kernel) - 1;
        int32_t lo = ihFirst < 0 ? 0 : ihFirst;
        int32_t hi = ihLast >= static_cast<int32_t>(tl.height) ? static_cast<int32_t>(tl.height) - 1 : ihLast;
        uint32_t nRows = static_cast<uint32_t>(hi - lo + 1);
        stagedLo = lo;
        stagedRows = nRows;
        DataCopyPad(buf, xg[planeOff + (uint64_t)lo * tl.width],
                    {1, static_cast<uint32_t>(nRows * tl.width * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
        Fence<HardEvent::MTE2_S>();
        fillSlot = Align8(nRows * tl.width);
        buf.SetValue(fillSlot, fill);
        Fence<HardEvent::S_V>();
        return ihFirst;
    }

    // dst[r*outW + ow] = input(oh*stride - pad + kh, ow*stride - pad + kw)
    __aicore__ inline void GatherTap(const LocalTensor<float> &dst, uint32_t oh0, uint32_t rows, int32_t ihFirst,
                                     uint32_t kh, uint32_t kw)
    {
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<float> buf = planeBuf.Get<float>();
        Fence<HardEvent::V_S>();
        for (uint32_t r = 0; r < rows; ++r) {
            int32_t ih = static_cast<int32_t>((oh0 + r) * tl.stride + kh) - static_cast<int32_t>(tl.pad);
            bool rowOk = ih >= stagedLo && ih < stagedLo + static_cast<int32_t>(stagedRows);
            for (uint32_t ow = 0; ow < tl.outW; ++ow) {
                int32_t iw = static_cast<int32_t>(ow * tl.stride + kw) - static_cast<int32_t>(tl.pad);
                uint32_t slot = fillSlot;
                if (rowOk && iw >= 0 && iw < static_cast<int32_t>(tl.width)) {
                    slot = static_cast<uint32_t>(ih - stagedLo) * tl.width + static_cast<uint32_t>(iw);
                }
                idx.SetValue(r * tl.outW + ow, slot * sizeof(float));   // byte offsets
            }
        }
        Fence<HardEvent::S_V>();
        Gather(dst, buf, idx, 0, rows * tl.outW);
        (void)ihFirst;
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> planeBuf, idxBuf, tapBuf;
    TQue<QuePosition::VECOUT, 2> qOut;
    GlobalTensor<float> xg, yg;
    DenseGrowthNetTiling tl;
    uint32_t inRowsMax = 0;
    uint32_t chunkOut = 0;
    uint32_t fillSlot = 0;
    int32_t stagedLo = 0;
    uint32_t stagedRows = 0;
};

// one image per launch: the host passes x already offset to that image
extern "C" __global__ __aicore__ void dense_growth_net_im2col(GM_ADDR x, GM_ADDR cols, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    DenseGrowthNetTiling t;
    FetchTiling(t, tiling);
    WindowGather op;
    op.Init(x, cols, t);
    op.Im2col(0);
}

extern "C" __global__ __aicore__ void dense_growth_net_pool(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    DenseGrowthNetTiling t;
    FetchTiling(t, tiling);
    WindowGather op;
    op.Init(x, y, t);
    op.Pool();
}

// ----------------------------------------------------------------------------
// Global average pooling: (N, C, H, W) -> (N, C)
// ----------------------------------------------------------------------------
extern "C" __global__ __aicore__ void dense_growth_net_gap(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    DenseGrowthNetTiling t;
    FetchTiling(t, tiling);
    const uint32_t plane = t.height * t.width;
    const float inv = 1.0f / static_cast<float>(plane);

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qIn;
    TBuf<TPosition::VECCALC> work, rowBuf;
    pipe.InitBuffer(qIn, 2, Align8(plane) * sizeof(float));
    pipe.InitBuffer(work, Align8(plane) * sizeof(float));
    pipe.InitBuffer(rowBuf, Align8(t.channels + 8) * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    yg.SetGlobalBuffer((__gm__ float *)y);

    LocalTensor<float> tmp = work.Get<float>();
    LocalTensor<float> row = rowBuf.Get<float>();
    for (uint32_t n = GetBlockIdx(); n < t.batch; n += GetBlockNum()) {
        for (uint32_t c = 0; c < t.channels; ++c) {
            LocalTensor<float> v = qIn.AllocTensor<float>();
            DataCopyPad(v, xg[((uint64_t)n * t.channels + c) * plane],
                        {1, static_cast<uint32_t>(plane * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
            qIn.EnQue(v);
            v = qIn.DeQue<float>();
            ReduceSum(row[t.channels], v, tmp, plane);
            Fence<HardEvent::V_S>();
            row.SetValue(c, row.GetValue(t.channels) * inv);
            Fence<HardEvent::S_V>();
            qIn.FreeTensor(v);
        }
        Fence<HardEvent::S_MTE3>();
        DataCopyPad(yg[(uint64_t)n * t.channels], row, {1, static_cast<uint32_t>(t.channels * sizeof(float)), 0, 0, 0});
        Fence<HardEvent::MTE3_S>();
    }
}
