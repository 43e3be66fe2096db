// deep_stack_classifier: kernels for a 13-conv / 3-FC image classifier run in
// NHWC layout.  In NHWC a 3x3 conv is a single GEMM
//     out[HW, Cout] = cols[HW, 9*Cin] * Wt[9*Cin, Cout] + bias
// whose output is already NHWC, and the bias is a per-column bias the Matmul
// API adds for free.  Kernels:
//   hwc_unfold     im2col for one NHWC image (pad 1), Cin multiple of 8
//   gemm_bias      cube Matmul with bias (convs and fully-connected layers)
//   relu_maybe_pool  ReLU, optionally fused with 2x2/2 max pooling (NHWC)
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct HwcUnfoldTiling { uint32_t H, W, C, rowsPerCore; };
struct GemmBiasTiling { TCubeTiling cube; };
struct ReluPoolTiling { uint32_t rows, W, C, pool, rowsPerCore; };   // rows = N*H (input rows)

template <class T>
__aicore__ inline void PullTiling(T &t, GM_ADDR g)
{
    for (uint32_t i = 0; i < sizeof(T) / 4; ++i) {
        reinterpret_cast<uint32_t *>(&t)[i] = reinterpret_cast<__gm__ uint32_t *>(g)[i];
    }
}

// cols[(oh*W + ow), (kh*3 + kw)*C + c] = x[oh+kh-1, ow+kw-1, c]
// work item = (oh, kh): one input row is read once and scattered three times.
extern "C" __global__ __aicore__ void hwc_unfold(GM_ADDR x, GM_ADDR cols, GM_ADDR tiling)
{
    HwcUnfoldTiling t;
    PullTiling(t, tiling);
    const uint32_t H = t.H, W = t.W, C = t.C, K9 = 9 * C;
    GlobalTensor<float> xg, cg;
    xg.SetGlobalBuffer((__gm__ float *)x, (uint64_t)H * W * C);
    cg.SetGlobalBuffer((__gm__ float *)cols, (uint64_t)H * W * K9);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> rowQ;
    TBuf<QuePosition::VECCALC> zeroBuf;
    pipe.InitBuffer(rowQ, 1, W * C * sizeof(float));
    pipe.InitBuffer(zeroBuf, W * C * sizeof(float));
    LocalTensor<float> zeros = zeroBuf.Get<float>();
    Duplicate(zeros, 0.0f, W * C);
    PipeBarrier<PIPE_ALL>();

    const uint32_t items = H * 3;
    uint32_t b = GetBlockIdx() * t.rowsPerCore;
    uint32_t e = b + t.rowsPerCore < items ? b + t.rowsPerCore : items;
    for (uint32_t it = b; it < e; ++it) {
        uint32_t oh = it / 3, kh = it % 3;
        int32_t ih = (int32_t)oh + (int32_t)kh - 1;
        uint64_t dstRow = (uint64_t)oh * W * K9;
        DataCopyExtParams sc;     // W pixels of C floats into a K9-strided destination
        sc.srcStride = 0;
        sc.dstStride = (K9 - C) * sizeof(float);
        sc.blockLen = C * sizeof(float);
        sc.rsv = 0;
        if (ih < 0 || ih >= (int32_t)H) {
            sc.blockCount = (uint16_t)W;
            for (uint32_t kw = 0; kw < 3; ++kw) {
                DataCopyPad(cg[dstRow + (kh * 3 + kw) * C], zeros, sc);
            }
            continue;
        }
        LocalTensor<float> row = rowQ.AllocTensor<float>();
        DataCopy(row, xg[(uint64_t)ih * W * C], W * C);
        rowQ.EnQue(row);
        row = rowQ.DeQue<float>();
        // kw = 1: aligned, all W pixels
        sc.blockCount = (uint16_t)W;
        DataCopyPad(cg[dstRow + (kh * 3 + 1) * C], row, sc);
        // kw = 0: out pixel ow takes in pixel ow-1; pixel 0 is padding
        sc.blockCount = (uint16_t)(W - 1);
        DataCopyPad(cg[dstRow + K9 + (kh * 3 + 0) * C], row, sc);
        // kw = 2: out pixel ow takes in pixel ow+1; last pixel is padding
        DataCopyPad(cg[dstRow + (kh * 3 + 2) * C], row[C], sc);
        sc.blockCount = 1;
        DataCopyPad(cg[dstRow + (kh * 3 + 0) * C], zeros, sc);
        DataCopyPad(cg[dstRow + (uint64_t)(W - 1) * K9 + (kh * 3 + 2) * C], zeros, sc);
        rowQ.FreeTensor(row);
    }
}

extern "C" __global__ __aicore__ void gemm_bias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                GM_ADDR workspace, GM_ADDR tiling)
{
    if (g_coreType == AIV) return;
    GemmBiasTiling t;
    PullTiling(t, tiling);
    TCubeTiling &ct = t.cube;
    using F32 = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    matmul::Matmul<F32, F32, F32, F32> mm;
    TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &ct);

    GlobalTensor<float> ag, bg, biasg, cg;
    ag.SetGlobalBuffer((__gm__ float *)a, (uint64_t)ct.M * ct.Ka);
    bg.SetGlobalBuffer((__gm__ float *)b, (uint64_t)ct.Kb * ct.N);
    biasg.SetGlobalBuffer((__gm__ float *)bias, ct.N);
    cg.SetGlobalBuffer((__gm__ float *)c, (uint64_t)ct.M * ct.N);

    int32_t gridM = (ct.M + ct.singleCoreM - 1) / ct.singleCoreM;
    int32_t mi = GetBlockIdx() % gridM, ni = GetBlockIdx() / gridM;
    int32_t m0 = mi * ct.singleCoreM, n0 = ni * ct.singleCoreN;
    if (m0 >= ct.M || n0 >= ct.N) return;
    mm.SetTensorA(ag[(uint64_t)m0 * ct.Ka]);
    mm.SetTensorB(bg[n0]);
    mm.SetBias(biasg[n0]);
    mm.SetTail(ct.M - m0 < ct.singleCoreM ? ct.M - m0 : ct.singleCoreM,
               ct.N - n0 < ct.singleCoreN ? ct.N - n0 : ct.singleCoreN, ct.Ka);
    mm.IterateAll(cg[(uint64_t)m0 * ct.N + n0]);
    mm.End();
}

// pool == 0: y = relu(x) row by row ([rows, W*C]).
// pool == 1: y[r, j, :] = relu(max of the 2x2 window); pairs of input rows.
extern "C" __global__ __aicore__ void relu_maybe_pool(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    ReluPoolTiling t;
    PullTiling(t, tiling);
    const uint32_t rowLen = t.W * t.C;
    const uint32_t outLen = t.pool ? rowLen / 2 : rowLen;
    const uint32_t step = t.pool ? 2 : 1;
    const uint32_t outRows = t.rows / step;
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.rows * rowLen);
    yg.SetGlobalBuffer((__gm__ float *)y, (uint64_t)outRows * outLen);
    TPipe pipe;
    // a 224x64 row pair is 112 KB, so single-buffered
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, step * rowLen * sizeof(float));
    pipe.InitBuffer(outQ, 1, outLen * sizeof(float));

    uint32_t r0 = GetBlockIdx() * t.rowsPerCore;
    uint32_t r1 = r0 + t.rowsPerCore < outRows ? r0 + t.rowsPerCore : outRows;
    for (uint32_t r = r0; r < r1; ++r) {
        LocalTensor<float> in = inQ.AllocTensor<float>();
        DataCopy(in, xg[(uint64_t)r * step * rowLen], step * rowLen);
        inQ.EnQue(in);
        in = inQ.DeQue<float>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        if (t.pool) {
            Max(in, in, in[rowLen], rowLen);                         // vertical
            for (uint32_t j = 0; j < t.W / 2; ++j) {                 // horizontal pixel pairs
                Max(out[j * t.C], in[2 * j * t.C], in[(2 * j + 1) * t.C], t.C);
            }
            Relu(out, out, outLen);
        } else {
            Relu(out, in, outLen);
        }
        inQ.FreeTensor(in);
        outQ.EnQue(out);
        out = outQ.DeQue<float>();
        DataCopy(yg[(uint64_t)r * outLen], out, outLen);
        outQ.FreeTensor(out);
    }
}
