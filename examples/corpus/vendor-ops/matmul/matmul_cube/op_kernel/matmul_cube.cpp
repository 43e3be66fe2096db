/**
 * Copyright (c) 2026 Ascend-CoT curate authors.
 *
 * This example file belongs to the curate example corpus and is offered under the
 * CANN Open Software License Agreement Version 2.0 (the "License"). Use, copy or modify
 * it only as the License allows. The LICENSE file at the root of this example repository
 * says where the official text of the License is published.
 * The file is provided as is, without warranty of any kind, express or implied, including
 * fitness for a particular purpose.
 */

/*!
 * \file matmul_cube.cpp
 * \brief C[M, N] (fp32) = A[M, K] (fp16) x B[K, N] (fp16) on the cube unit only.
 *
 * Each AI core owns one baseM x baseN block of C and walks K in baseK steps:
 * GM -(ND->NZ)-> L1 -(LoadData)-> L0A / L0B -> Mmad into L0C -> Fixpipe (NZ->ND) -> GM.
 * The host keeps M, N, K multiples of the base sizes and all base sizes multiples of 16.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t FRACTAL = 16;  // one fractal is 16 x 16 fp16 = 512 bytes
}  // namespace

class KernelMatmulCube {
public:
    __aicore__ inline KernelMatmulCube() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const MatmulCubeTilingData& tiling)
    {
        m_ = tiling.m;
        n_ = tiling.n;
        k_ = tiling.k;
        baseM_ = tiling.baseM;
        baseN_ = tiling.baseN;
        baseK_ = tiling.baseK;
        const uint32_t blocksN = n_ / baseN_;
        mOffset_ = (GetBlockIdx() / blocksN) * baseM_;
        nOffset_ = (GetBlockIdx() % blocksN) * baseN_;

        aGm_.SetGlobalBuffer((__gm__ half*)a, static_cast<uint64_t>(m_) * k_);
        bGm_.SetGlobalBuffer((__gm__ half*)b, static_cast<uint64_t>(k_) * n_);
        cGm_.SetGlobalBuffer((__gm__ float*)c, static_cast<uint64_t>(m_) * n_);

        pipe_.InitBuffer(inQueueA1_, 1, baseM_ * baseK_ * sizeof(half));
        pipe_.InitBuffer(inQueueB1_, 1, baseK_ * baseN_ * sizeof(half));
        pipe_.InitBuffer(inQueueA2_, 1, baseM_ * baseK_ * sizeof(half));
        pipe_.InitBuffer(inQueueB2_, 1, baseK_ * baseN_ * sizeof(half));
        pipe_.InitBuffer(outQueueCO1_, 1, baseM_ * baseN_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> c1 = outQueueCO1_.AllocTensor<float>();
        const uint32_t kIters = k_ / baseK_;
        for (uint32_t kIter = 0; kIter < kIters; ++kIter) {
            CopyToL1(kIter * baseK_);
            SplitA();
            SplitB();
            Compute(c1, kIter == 0);
        }
        outQueueCO1_.EnQue<float>(c1);
        CopyOut();
    }

private:
    __aicore__ inline void CopyToL1(uint32_t kOffset)
    {
        LocalTensor<half> a1 = inQueueA1_.AllocTensor<half>();
        LocalTensor<half> b1 = inQueueB1_.AllocTensor<half>();

        Nd2NzParams aParams;
        aParams.ndNum = 1;
        aParams.nValue = baseM_;
        aParams.dValue = baseK_;
        aParams.srcNdMatrixStride = 0;
        aParams.srcDValue = k_;
        aParams.dstNzC0Stride = baseM_;
        aParams.dstNzNStride = 1;
        aParams.dstNzMatrixStride = 0;
        DataCopy(a1, aGm_[static_cast<uint64_t>(mOffset_) * k_ + kOffset], aParams);

        Nd2NzParams bParams;
        bParams.ndNum = 1;
        bParams.nValue = baseK_;
        bParams.dValue = baseN_;
        bParams.srcNdMatrixStride = 0;
        bParams.srcDValue = n_;
        bParams.dstNzC0Stride = baseK_;
        bParams.dstNzNStride = 1;
        bParams.dstNzMatrixStride = 0;
        DataCopy(b1, bGm_[static_cast<uint64_t>(kOffset) * n_ + nOffset_], bParams);

        inQueueA1_.EnQue(a1);
        inQueueB1_.EnQue(b1);
    }

    __aicore__ inline void SplitA()
    {
        LocalTensor<half> a1 = inQueueA1_.DeQue<half>();
        LocalTensor<half> a2 = inQueueA2_.AllocTensor<half>();
        // L0A wants the fractals of each 16-row stripe to be contiguous (zZ order)
        LoadData2DParams params;
        params.repeatTimes = baseK_ / FRACTAL;
        params.srcStride = baseM_ / FRACTAL;
        params.ifTranspose = false;
        for (uint32_t i = 0; i < baseM_ / FRACTAL; ++i) {
            params.startIndex = 0;
            LoadData(a2[i * FRACTAL * baseK_], a1[i * FRACTAL * FRACTAL], params);
        }
        inQueueA2_.EnQue(a2);
        inQueueA1_.FreeTensor(a1);
    }

    __aicore__ inline void SplitB()
    {
        LocalTensor<half> b1 = inQueueB1_.DeQue<half>();
        LocalTensor<half> b2 = inQueueB2_.AllocTensor<half>();
        // B arrives as K x N; the transposing load gives L0B its nZ fractal layout
        LoadData2DParams params;
        params.repeatTimes = baseN_ / FRACTAL;
        params.srcStride = baseK_ / FRACTAL;
        params.ifTranspose = true;
        for (uint32_t i = 0; i < baseK_ / FRACTAL; ++i) {
            params.startIndex = 0;
            LoadData(b2[i * FRACTAL * baseN_], b1[i * FRACTAL * FRACTAL], params);
        }
        inQueueB2_.EnQue(b2);
        inQueueB1_.FreeTensor(b1);
    }

    __aicore__ inline void Compute(const LocalTensor<float>& c1, bool firstK)
    {
        LocalTensor<half> a2 = inQueueA2_.DeQue<half>();
        LocalTensor<half> b2 = inQueueB2_.DeQue<half>();
        MmadParams params;
        params.m = baseM_;
        params.n = baseN_;
        params.k = baseK_;
        params.cmatrixInitVal = firstK;  // first K step overwrites L0C, later steps accumulate
        params.cmatrixSource = false;
        Mmad(c1, a2, b2, params);
        inQueueA2_.FreeTensor(a2);
        inQueueB2_.FreeTensor(b2);
    }

    __aicore__ inline void CopyOut()
    {
        LocalTensor<float> c1 = outQueueCO1_.DeQue<float>();
        FixpipeParamsV220 params;
        params.nSize = baseN_;
        params.mSize = baseM_;
        params.srcStride = baseM_;
        params.dstStride = n_;
        params.ndNum = 1;
        params.srcNdStride = 0;
        params.dstNdStride = 0;
        Fixpipe<float, float, CFG_ROW_MAJOR>(cGm_[static_cast<uint64_t>(mOffset_) * n_ + nOffset_], c1, params);
        outQueueCO1_.FreeTensor(c1);
    }

private:
    TPipe pipe_;
    TQue<TPosition::A1, 1> inQueueA1_;
    TQue<TPosition::B1, 1> inQueueB1_;
    TQue<TPosition::A2, 1> inQueueA2_;
    TQue<TPosition::B2, 1> inQueueB2_;
    TQue<TPosition::CO1, 1> outQueueCO1_;
    GlobalTensor<half> aGm_;
    GlobalTensor<half> bGm_;
    GlobalTensor<float> cGm_;
    uint32_t m_ = 0;
    uint32_t n_ = 0;
    uint32_t k_ = 0;
    uint32_t baseM_ = 0;
    uint32_t baseN_ = 0;
    uint32_t baseK_ = 0;
    uint32_t mOffset_ = 0;
    uint32_t nOffset_ = 0;
};

extern "C" __global__ __aicore__ void matmul_cube(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMatmulCube op;
    op.Init(a, b, c, tilingData);
    op.Process();
}
