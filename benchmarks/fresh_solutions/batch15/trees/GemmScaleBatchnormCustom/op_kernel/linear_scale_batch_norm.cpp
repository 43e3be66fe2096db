/*
 * LinearScaleBatchNorm
 *   h = (x @ W^T + bias) * scale                (per feature scale)
 *   y = (h - mean_b(h)) / sqrt(var_b(h) + eps) * gamma + beta
 * mean_b / var_b are taken over the batch (rows) for every feature.
 *
 * One core owns a block of features for all rows:
 *   1. the cube unit computes G = x @ W^T + bias for the block into workspace;
 *   2. the vector unit sweeps G once for column sums / sums of squares;
 *   3. the per-feature affine A*g + B (A = scale*gamma*rstd, B = beta - A*mean_g)
 *      is applied in a second sweep.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);

namespace {
using GemmA = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using GemmB = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, true>;
using GemmC = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using GemmBias = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
}

class LinearScaleBatchNormKernel {
public:
    __aicore__ inline LinearScaleBatchNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR scale, GM_ADDR gamma,
                                GM_ADDR beta, GM_ADDR y, GM_ADDR userWs,
                                const LinearScaleBatchNormTilingData &tiling)
    {
        rows = tiling.rows;
        cols = tiling.cols;
        depth = tiling.depth;
        colBlock = tiling.colBlock;
        rowChunk = tiling.rowChunk;
        eps = tiling.epsilon;

        col0 = AscendC::GetBlockIdx() * colBlock;
        width = (col0 < cols) ? ((cols - col0 < colBlock) ? cols - col0 : colBlock) : 0;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        biasGm.SetGlobalBuffer((__gm__ float *)bias);
        scaleGm.SetGlobalBuffer((__gm__ float *)scale);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm.SetGlobalBuffer((__gm__ float *)beta);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        gGm.SetGlobalBuffer((__gm__ float *)userWs);

        pipe.InitBuffer(qIn, 2, rowChunk * colBlock * sizeof(float));
        pipe.InitBuffer(qOut, 2, rowChunk * colBlock * sizeof(float));
        pipe.InitBuffer(vecSum, colBlock * sizeof(float));
        pipe.InitBuffer(vecSq, colBlock * sizeof(float));
        pipe.InitBuffer(vecA, colBlock * sizeof(float));
        pipe.InitBuffer(vecB, colBlock * sizeof(float));
        pipe.InitBuffer(vecT, colBlock * sizeof(float));
        pipe.InitBuffer(vecU, colBlock * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (width == 0) {
            return;
        }
        gemm.SetTensorA(xGm);
        gemm.SetTensorB(wGm[static_cast<uint64_t>(col0) * depth], true);
        gemm.SetBias(biasGm[col0]);
        gemm.SetTail(rows, width, depth);
        gemm.IterateAll(gGm[col0]);
        gemm.End();
        AscendC::PipeBarrier<PIPE_ALL>();

        ColumnMoments();
        BuildAffine();
        ApplyAffine();
    }

    matmul::Matmul<GemmA, GemmB, GemmC, GemmBias> gemm;

private:
    __aicore__ inline void LoadChunk(uint32_t r0, uint32_t nr)
    {
        AscendC::LocalTensor<float> blk = qIn.AllocTensor<float>();
        AscendC::DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(nr);
        cp.blockLen = width * sizeof(float);
        cp.srcStride = (cols - width) * sizeof(float);
        cp.dstStride = (colBlock - AlignUp(width)) * sizeof(float) / 32;
        cp.rsv = 0;
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(blk, gGm[static_cast<uint64_t>(r0) * cols + col0], cp, pad);
        qIn.EnQue(blk);
    }

    __aicore__ inline uint32_t AlignUp(uint32_t v) { return (v + 7U) / 8U * 8U; }

    __aicore__ inline void ColumnMoments()
    {
        AscendC::LocalTensor<float> s1 = vecSum.Get<float>();
        AscendC::LocalTensor<float> s2 = vecSq.Get<float>();
        AscendC::LocalTensor<float> sq = vecT.Get<float>();
        AscendC::Duplicate(s1, 0.0f, colBlock);
        AscendC::Duplicate(s2, 0.0f, colBlock);

        for (uint32_t r0 = 0; r0 < rows; r0 += rowChunk) {
            uint32_t nr = (rows - r0 < rowChunk) ? rows - r0 : rowChunk;
            LoadChunk(r0, nr);
            AscendC::LocalTensor<float> blk = qIn.DeQue<float>();
            for (uint32_t r = 0; r < nr; ++r) {
                AscendC::LocalTensor<float> line = blk[r * colBlock];
                AscendC::Add(s1, s1, line, width);
                AscendC::Mul(sq, line, line, width);
                AscendC::PipeBarrier<PIPE_V>();
                AscendC::Add(s2, s2, sq, width);
                AscendC::PipeBarrier<PIPE_V>();
            }
            qIn.FreeTensor(blk);
        }
    }

    __aicore__ inline void BuildAffine()
    {
        AscendC::LocalTensor<float> s1 = vecSum.Get<float>();
        AscendC::LocalTensor<float> s2 = vecSq.Get<float>();
        AscendC::LocalTensor<float> a = vecA.Get<float>();
        AscendC::LocalTensor<float> b = vecB.Get<float>();
        AscendC::LocalTensor<float> sc = vecT.Get<float>();
        AscendC::LocalTensor<float> tmp = vecU.Get<float>();

        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(width * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(sc, scaleGm[col0], cp, pad);
        AscendC::DataCopyPad(a, gammaGm[col0], cp, pad);
        AscendC::DataCopyPad(b, betaGm[col0], cp, pad);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(ev);

        const float invRows = 1.0f / static_cast<float>(rows);
        // mean_g and var_g of the unscaled GEMM output
        AscendC::Muls(s1, s1, invRows, width);
        AscendC::Muls(s2, s2, invRows, width);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(tmp, s1, s1, width);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Sub(s2, s2, tmp, width);
        AscendC::Maxs(s2, s2, 0.0f, width);
        // var_h = scale^2 * var_g
        AscendC::Mul(tmp, sc, sc, width);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(s2, s2, tmp, width);
        AscendC::Adds(s2, s2, eps, width);
        AscendC::Sqrt(s2, s2, width);
        AscendC::PipeBarrier<PIPE_V>();
        // A = scale * gamma / sqrt(var_h + eps)
        AscendC::Mul(a, a, sc, width);
        AscendC::Div(a, a, s2, width);
        AscendC::PipeBarrier<PIPE_V>();
        // B = beta - A * mean_g
        AscendC::Mul(tmp, a, s1, width);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Sub(b, b, tmp, width);
        AscendC::PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void ApplyAffine()
    {
        AscendC::LocalTensor<float> a = vecA.Get<float>();
        AscendC::LocalTensor<float> b = vecB.Get<float>();
        for (uint32_t r0 = 0; r0 < rows; r0 += rowChunk) {
            uint32_t nr = (rows - r0 < rowChunk) ? rows - r0 : rowChunk;
            LoadChunk(r0, nr);
            AscendC::LocalTensor<float> blk = qIn.DeQue<float>();
            AscendC::LocalTensor<float> res = qOut.AllocTensor<float>();
            for (uint32_t r = 0; r < nr; ++r) {
                AscendC::Mul(res[r * colBlock], blk[r * colBlock], a, width);
                AscendC::PipeBarrier<PIPE_V>();
                AscendC::Add(res[r * colBlock], res[r * colBlock], b, width);
            }
            qIn.FreeTensor(blk);
            qOut.EnQue(res);

            res = qOut.DeQue<float>();
            AscendC::DataCopyExtParams cp;
            cp.blockCount = static_cast<uint16_t>(nr);
            cp.blockLen = width * sizeof(float);
            cp.srcStride = (colBlock - AlignUp(width)) * sizeof(float) / 32;
            cp.dstStride = (cols - width) * sizeof(float);
            cp.rsv = 0;
            AscendC::DataCopyPad(yGm[static_cast<uint64_t>(r0) * cols + col0], res, cp);
            qOut.FreeTensor(res);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> qIn;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> qOut;
    AscendC::TBuf<AscendC::TPosition::VECCALC> vecSum, vecSq, vecA, vecB, vecT, vecU;
    AscendC::GlobalTensor<float> xGm, wGm, biasGm, scaleGm, gammaGm, betaGm, yGm, gGm;

    uint32_t rows, cols, depth, colBlock, rowChunk, col0, width;
    float eps;
};

extern "C" __global__ __aicore__ void linear_scale_batch_norm(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                               GM_ADDR scale, GM_ADDR gamma, GM_ADDR beta,
                                                               GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (workspace == nullptr) {
        return;
    }
    AscendC::SetSysWorkspace(workspace);
    GM_ADDR userWs = AscendC::GetUserWorkspace(workspace);

    LinearScaleBatchNormKernel op;
    REGIST_MATMUL_OBJ(GetTPipePtr(), GetSysWorkSpacePtr(), op.gemm, &tilingData.gemm);
    op.Init(x, weight, bias, scale, gamma, beta, y, userWs, tilingData);
    op.Process();
}
