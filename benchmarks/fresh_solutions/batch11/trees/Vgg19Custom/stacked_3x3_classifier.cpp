// stacked_3x3_classifier - device side.
// Plain 3x3 conv stacks (16 convs, 5 max-pools) and a 3-layer MLP head, NHWC layout.
//
//   stacked_3x3_classifier        GEMM + bias (+ReLU) epilogue: out[M,N] = act(A[M,K] * B[K,N] + bias[N])
//   stacked_3x3_classifier_unfold NHWC image -> patch rows (H*W, 9*C), pad 1
//   stacked_3x3_classifier_pool   2x2/2 max pool in NHWC
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

struct Stacked3x3GemmTiling {
    TCubeTiling cube;
    uint32_t applyRelu;
};

struct Stacked3x3ClassifierTiling {
    uint32_t images;   // images handled by this launch (pool) / 1 for unfold
    uint32_t height;
    uint32_t width;
    uint32_t channels;
};

template <typename T>
__aicore__ inline void PullStruct(T &dst, GM_ADDR src)
{
    auto *d = reinterpret_cast<uint32_t *>(&dst);
    auto *s = reinterpret_cast<__gm__ uint32_t *>(src);
    for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

// ---------------------------------------------------------------------------
// GEMM with fused bias / ReLU. C is produced tile by tile in UB.
// ---------------------------------------------------------------------------
class BiasReluGemm {
public:
    using AType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    using BType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    using CType = matmul::MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    matmul::Matmul<AType, BType, CType, BiasType> mm;
    AscendC::TPipe pipe;

    __aicore__ inline bool Setup(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const Stacked3x3GemmTiling &t)
    {
        cfg = t;
        const TCubeTiling &tc = cfg.cube;
        uint32_t blk = AscendC::GetBlockIdx();
        if (blk >= static_cast<uint32_t>(tc.usedCoreNum)) {
            return false;
        }
        uint32_t mSplit = (tc.M + tc.singleCoreM - 1) / tc.singleCoreM;
        m0 = (blk % mSplit) * tc.singleCoreM;
        n0 = (blk / mSplit) * tc.singleCoreN;
        if (m0 >= static_cast<uint32_t>(tc.M) || n0 >= static_cast<uint32_t>(tc.N)) {
            return false;
        }
        curM = tc.M - m0 < static_cast<uint32_t>(tc.singleCoreM) ? tc.M - m0 : tc.singleCoreM;
        curN = tc.N - n0 < static_cast<uint32_t>(tc.singleCoreN) ? tc.N - n0 : tc.singleCoreN;

        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a));
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b));
        biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias));
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c));
        pipe.InitBuffer(accQ, 1, tc.baseM * tc.baseN * sizeof(float));
        return true;
    }

    __aicore__ inline void Run()
    {
        const TCubeTiling &tc = cfg.cube;
        mm.SetTail(curM, curN);
        mm.SetTensorA(aGm[static_cast<uint64_t>(m0) * tc.Ka]);
        mm.SetTensorB(bGm[n0]);
        mm.SetBias(biasGm[n0]);

        const uint32_t tilesM = (curM + tc.baseM - 1) / tc.baseM;   // FIRSTM traversal
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            uint32_t tm = step % tilesM;
            uint32_t tn = step / tilesM;
            uint32_t rowOff = tm * tc.baseM;
            uint32_t colOff = tn * tc.baseN;
            uint32_t rows = curM - rowOff < static_cast<uint32_t>(tc.baseM) ? curM - rowOff : tc.baseM;
            uint32_t cols = curN - colOff < static_cast<uint32_t>(tc.baseN) ? curN - colOff : tc.baseN;

            AscendC::LocalTensor<float> tile = accQ.AllocTensor<float>();
            mm.template GetTensorC<true>(tile, false, true);
            accQ.EnQue(tile);
            tile = accQ.DeQue<float>();
            if (cfg.applyRelu) {
                AscendC::Relu(tile, tile, tc.baseM * tc.baseN);
            }
            AscendC::PipeBarrier<PIPE_ALL>();
            // the tile is baseM x baseN in UB, write only the valid rows x cols
            AscendC::DataCopyExtParams wp;
            wp.blockCount = static_cast<uint16_t>(rows);
            wp.blockLen = cols * sizeof(float);
            wp.srcStride = (tc.baseN - cols) * sizeof(float) / 32;
            wp.dstStride = (tc.N - cols) * sizeof(float);
            AscendC::DataCopyPad(cGm[static_cast<uint64_t>(m0 + rowOff) * tc.N + n0 + colOff], tile, wp);
            accQ.FreeTensor(tile);
            ++step;
        }
        mm.End();
    }

private:
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> accQ;
    AscendC::GlobalTensor<float> aGm, bGm, biasGm, cGm;
    Stacked3x3GemmTiling cfg;
    uint32_t m0 = 0, n0 = 0, curM = 0, curN = 0;
};

extern "C" __global__ __aicore__ void stacked_3x3_classifier(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    AscendC::SetSysWorkspace(workspace);
    if (AscendC::GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    Stacked3x3GemmTiling t;
    PullStruct(t, tiling);
    BiasReluGemm op;
    REGIST_MATMUL_OBJ(&op.pipe, AscendC::GetSysWorkSpacePtr(), op.mm, &t.cube);
    if (op.Setup(a, b, bias, c, t)) {
        op.Run();
    }
}

// ---------------------------------------------------------------------------
// Unfold: row (oh*W + ow) of the patch matrix = [x(oh-1+kh, ow-1+kw, :) for kh, kw] (zero outside).
// Each core takes whole output rows; for a given (kh, kw) every pixel of the row is one strided copy.
// ---------------------------------------------------------------------------
extern "C" __global__ __aicore__ void stacked_3x3_classifier_unfold(GM_ADDR x, GM_ADDR patches, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Stacked3x3ClassifierTiling t;
    PullStruct(t, tiling);
    const uint32_t H = t.height, W = t.width, C = t.channels;
    const uint32_t rowElems = W * C;
    const uint32_t padded = (W + 2) * C;      // one zero pixel on each side
    const uint32_t K = 9 * C;

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> rowQ;
    pipe.InitBuffer(rowQ, 2, padded * sizeof(float));
    AscendC::GlobalTensor<float> xGm, pGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x));
    pGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(patches));

    AscendC::DataCopyParams scatter;
    scatter.blockCount = static_cast<uint16_t>(W);
    scatter.blockLen = static_cast<uint16_t>(C * sizeof(float) / 32);
    scatter.srcStride = 0;
    scatter.dstStride = static_cast<uint16_t>((K - C) * sizeof(float) / 32);

    for (uint32_t oh = AscendC::GetBlockIdx(); oh < H; oh += AscendC::GetBlockNum()) {
        for (uint32_t kh = 0; kh < 3; ++kh) {
            int32_t ih = static_cast<int32_t>(oh + kh) - 1;
            AscendC::LocalTensor<float> buf = rowQ.AllocTensor<float>();
            AscendC::Duplicate(buf, 0.0f, padded);
            if (ih >= 0 && ih < static_cast<int32_t>(H)) {
                AscendC::PipeBarrier<PIPE_ALL>();
                AscendC::DataCopy(buf[C], xGm[static_cast<uint64_t>(ih) * rowElems], rowElems);
            }
            rowQ.EnQue(buf);
            buf = rowQ.DeQue<float>();
            for (uint32_t kw = 0; kw < 3; ++kw) {
                uint64_t dst = static_cast<uint64_t>(oh) * W * K + (kh * 3 + kw) * C;
                AscendC::DataCopy(pGm[dst], buf[kw * C], scatter);
            }
            rowQ.FreeTensor(buf);
        }
    }
}

// ---------------------------------------------------------------------------
// 2x2 stride-2 max pool, NHWC. One output row (n, oh) per iteration.
// ---------------------------------------------------------------------------
extern "C" __global__ __aicore__ void stacked_3x3_classifier_pool(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Stacked3x3ClassifierTiling t;
    PullStruct(t, tiling);
    const uint32_t C = t.channels;
    const uint32_t OH = t.height / 2, OW = t.width / 2;
    const uint32_t inRow = t.width * C;

    AscendC::TPipe pipe;
    // single-buffered: two 224x64 rows already take 112 KB of UB
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> topQ, botQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(topQ, 1, inRow * sizeof(float));
    pipe.InitBuffer(botQ, 1, inRow * sizeof(float));
    pipe.InitBuffer(outQ, 1, OW * C * sizeof(float));
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x));
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y));

    const uint32_t rowsTotal = t.images * OH;
    for (uint32_t r = AscendC::GetBlockIdx(); r < rowsTotal; r += AscendC::GetBlockNum()) {
        uint32_t n = r / OH;
        uint32_t oh = r % OH;
        uint64_t src = (static_cast<uint64_t>(n) * t.height + 2 * oh) * inRow;
        AscendC::LocalTensor<float> top = topQ.AllocTensor<float>();
        AscendC::LocalTensor<float> bot = botQ.AllocTensor<float>();
        AscendC::DataCopy(top, xGm[src], inRow);
        AscendC::DataCopy(bot, xGm[src + inRow], inRow);
        topQ.EnQue(top);
        botQ.EnQue(bot);
        top = topQ.DeQue<float>();
        bot = botQ.DeQue<float>();

        AscendC::Max(top, top, bot, inRow);                 // vertical pair
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::LocalTensor<float> o = outQ.AllocTensor<float>();
        for (uint32_t ow = 0; ow < OW; ++ow) {               // horizontal pair, C lanes at a time
            AscendC::Max(o[ow * C], top[2 * ow * C], top[(2 * ow + 1) * C], C);
        }
        outQ.EnQue(o);
        topQ.FreeTensor(top);
        botQ.FreeTensor(bot);
        o = outQ.DeQue<float>();
        AscendC::DataCopy(yGm[static_cast<uint64_t>(r) * OW * C], o, OW * C);
        outQ.FreeTensor(o);
    }
}
