#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr int32_t BUFFER_NUM = 2;

// Step 1: cube computes z = x @ W^T + b for this core's [singleCoreM, singleCoreN] block into y.
// Step 2: the same (vector) core re-reads its block and applies y = z + s * sigmoid(z) in place.
// Only the core that wrote a block touches it again, so no cross-core sync is needed.
class GemmSigmoidScaleResidualKernel {
public:
    using A_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using B_T = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using C_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BIAS_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<A_T, B_T, C_T, BIAS_T> matmulObj;

    __aicore__ inline GemmSigmoidScaleResidualKernel() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const GemmSigmoidScalingResidualAddCustomTilingData& td, TPipe* p)
    {
        pipe = p;
        cfg = td.mmTiling;
        scale = td.scalingFactor;
        tileLen = td.epiTileLen;

        uint32_t mBlk = (cfg.M + cfg.singleCoreM - 1) / cfg.singleCoreM;
        uint32_t nBlk = (cfg.N + cfg.singleCoreN - 1) / cfg.singleCoreN;
        uint32_t idx = GetBlockIdx();
        if (idx >= mBlk * nBlk) {
            return false;
        }
        uint32_t mPos = idx % mBlk;
        uint32_t nPos = idx / mBlk;
        blockM = cfg.M - mPos * cfg.singleCoreM;
        if (blockM > (uint32_t)cfg.singleCoreM) blockM = cfg.singleCoreM;
        blockN = cfg.N - nPos * cfg.singleCoreN;
        if (blockN > (uint32_t)cfg.singleCoreN) blockN = cfg.singleCoreN;

        aGm.SetGlobalBuffer((__gm__ float*)x + (uint64_t)mPos * cfg.singleCoreM * cfg.Ka);
        bGm.SetGlobalBuffer((__gm__ float*)w + (uint64_t)nPos * cfg.singleCoreN * cfg.Kb);
        biasGm.SetGlobalBuffer((__gm__ float*)bias + (uint64_t)nPos * cfg.singleCoreN);
        cGm.SetGlobalBuffer((__gm__ float*)y + (uint64_t)mPos * cfg.singleCoreM * cfg.N +
                            (uint64_t)nPos * cfg.singleCoreN);

        pipe->InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe->InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe->InitBuffer(sigBuf, tileLen * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        matmulObj.SetTensorA(aGm);
        matmulObj.SetTensorB(bGm, true);
        matmulObj.SetBias(biasGm);
        matmulObj.SetTail(blockM, blockN);
        matmulObj.IterateAll(cGm);
        matmulObj.End();

        // make sure the cube result in GM is visible before the vector pass reads it
        PipeBarrier<PIPE_ALL>();

        for (uint32_t r = 0; r < blockM; ++r) {
            uint64_t rowOff = (uint64_t)r * cfg.N;
            for (uint32_t c = 0; c < blockN; c += tileLen) {
                uint32_t len = blockN - c;
                if (len > tileLen) len = tileLen;
                CopyIn(rowOff + c, len);
                Compute(len);
                CopyOut(rowOff + c, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> zl = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(zl, cGm[off], cp, pp);
        inQ.EnQue(zl);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> zl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        LocalTensor<float> sg = sigBuf.Get<float>();
        uint32_t n = (len + 7) / 8 * 8;
        // sigmoid(z) = 1 / (1 + exp(-z))
        Muls(sg, zl, -1.0f, n);
        Exp(sg, sg, n);
        Adds(sg, sg, 1.0f, n);
        Reciprocal(sg, sg, n);
        // y = sigmoid(z) * s + z
        Muls(sg, sg, scale, n);
        Add(yl, sg, zl, n);
        outQ.EnQue(yl);
        inQ.FreeTensor(zl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(cGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe* pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> sigBuf;
    GlobalTensor<float> aGm, bGm, biasGm, cGm;
    TCubeTiling cfg;
    float scale;
    uint32_t tileLen;
    uint32_t blockM, blockN;
};

extern "C" __global__ __aicore__ void gemm_sigmoid_scaling_residual_add_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    GemmSigmoidScaleResidualKernel kernel;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), kernel.matmulObj, &tilingData.mmTiling);
    if (kernel.Init(x, weight, bias, y, tilingData, &pipe)) {
        kernel.Process();
    } else {
        kernel.matmulObj.End();
    }
}
