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
 * \file attention_score_lite.cpp
 * \brief Single-head scaled dot-product attention, out = softmax(scale * Q K^T) V.
 *
 * Mixed kernel (1 cube : 2 vector). Each vector core takes tasks of rowsPerTask query rows:
 *   1. cube   : S = Q_blk x K^T          (Matmul object qkMm, fp32 scores to workspace)
 *   2. vector : P = softmax(scale * S)   (row by row in UB, fp16 probabilities to workspace)
 *   3. cube   : O_blk = P x V            (Matmul object pvMm, straight to the output)
 * Shapes: query/key/value/out are [batch, seqLen, headDim] fp16, headDim a multiple of 16.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FP32_PER_BLOCK = 8;

using QType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using KType = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;  // K is used transposed
using ScoreType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using ProbType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using VType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using OutType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
}  // namespace

class KernelAttentionScoreLite {
public:
    __aicore__ inline KernelAttentionScoreLite() {}

    __aicore__ inline void Init(GM_ADDR query, GM_ADDR key, GM_ADDR value, GM_ADDR out, GM_ADDR userWs,
                                const AttentionScoreLiteTilingData* tiling, TPipe* pipe)
    {
        tiling_ = tiling;
        pipe_ = pipe;
        seqLen_ = tiling->seqLen;
        headDim_ = tiling->headDim;
        seqAligned_ = (seqLen_ + FP32_PER_BLOCK - 1) / FP32_PER_BLOCK * FP32_PER_BLOCK;
        const uint64_t total = static_cast<uint64_t>(tiling->batch) * seqLen_ * headDim_;
        qGm_.SetGlobalBuffer((__gm__ half*)query, total);
        kGm_.SetGlobalBuffer((__gm__ half*)key, total);
        vGm_.SetGlobalBuffer((__gm__ half*)value, total);
        outGm_.SetGlobalBuffer((__gm__ half*)out, total);

        // private workspace slice of this vector core: scores (fp32) then probabilities (fp16)
        const uint64_t scoreElems = static_cast<uint64_t>(tiling->rowsPerTask) * seqLen_;
        const uint64_t perCoreBytes = scoreElems * (sizeof(float) + sizeof(half));
        __gm__ uint8_t* mine = (__gm__ uint8_t*)userWs + perCoreBytes * GetBlockIdx();
        scoreWs_.SetGlobalBuffer((__gm__ float*)mine, scoreElems);
        probWs_.SetGlobalBuffer((__gm__ half*)(mine + scoreElems * sizeof(float)), scoreElems);

        pipe_->InitBuffer(rowInQueue_, BUFFER_NUM, seqAligned_ * sizeof(float));
        pipe_->InitBuffer(rowOutQueue_, BUFFER_NUM, seqAligned_ * sizeof(half));
        pipe_->InitBuffer(workBuf_, seqAligned_ * sizeof(float));
        pipe_->InitBuffer(statBuf_, FP32_PER_BLOCK * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tasksPerBatch = (seqLen_ + tiling_->rowsPerTask - 1) / tiling_->rowsPerTask;
        const uint32_t taskNum = tiling_->batch * tasksPerBatch;
        // in a 1:2 mixed launch every cube core drives two vector cores
        const uint32_t vecCores = GetBlockNum() * GetTaskRatio();
        for (uint32_t task = GetBlockIdx(); task < taskNum; task += vecCores) {
            const uint32_t b = task / tasksPerBatch;
            const uint32_t row0 = (task % tasksPerBatch) * tiling_->rowsPerTask;
            const uint32_t rows = (seqLen_ - row0 < tiling_->rowsPerTask) ? (seqLen_ - row0) : tiling_->rowsPerTask;
            const uint64_t batchBase = static_cast<uint64_t>(b) * seqLen_ * headDim_;

            qkMm.SetTensorA(qGm_[batchBase + static_cast<uint64_t>(row0) * headDim_]);
            qkMm.SetTensorB(kGm_[batchBase], true);
            qkMm.SetTail(rows, seqLen_, headDim_);
            qkMm.IterateAll(scoreWs_);
            qkMm.End();

            SoftmaxRows(rows);

            pvMm.SetTensorA(probWs_);
            pvMm.SetTensorB(vGm_[batchBase]);
            pvMm.SetTail(rows, headDim_, seqLen_);
            pvMm.IterateAll(outGm_[batchBase + static_cast<uint64_t>(row0) * headDim_]);
            pvMm.End();
        }
    }

    Matmul<QType, KType, ScoreType> qkMm;
    Matmul<ProbType, VType, OutType> pvMm;

private:
    __aicore__ inline float ReadStat()
    {
        event_t vToS = static_cast<event_t>(pipe_->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        return statBuf_.Get<float>().GetValue(0);
    }

    __aicore__ inline void SoftmaxRows(uint32_t rows)
    {
        LocalTensor<float> work = workBuf_.Get<float>();
        LocalTensor<float> stat = statBuf_.Get<float>();
        const uint32_t rowBytes = seqLen_ * sizeof(float);
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> s = rowInQueue_.AllocTensor<float>();
            DataCopyPad(s, scoreWs_[static_cast<uint64_t>(r) * seqLen_], {1, rowBytes, 0, 0, 0}, {false, 0, 0, 0.0f});
            rowInQueue_.EnQue(s);
            s = rowInQueue_.DeQue<float>();

            Muls(s, s, tiling_->scaleValue, seqLen_);
            ReduceMax(stat, s, work, static_cast<int32_t>(seqLen_), false);
            const float rowMax = ReadStat();
            Adds(s, s, -rowMax, seqLen_);           // subtract the max so Exp cannot overflow
            Exp(s, s, seqLen_);
            ReduceSum(stat, s, work, static_cast<int32_t>(seqLen_));
            const float rowSum = ReadStat();
            Muls(s, s, 1.0f / rowSum, seqLen_);

            LocalTensor<half> p = rowOutQueue_.AllocTensor<half>();
            Cast(p, s, RoundMode::CAST_ROUND, seqLen_);
            rowOutQueue_.EnQue(p);
            rowInQueue_.FreeTensor(s);

            p = rowOutQueue_.DeQue<half>();
            DataCopyPad(probWs_[static_cast<uint64_t>(r) * seqLen_], p,
                        {1, static_cast<uint32_t>(seqLen_ * sizeof(half)), 0, 0, 0});
            rowOutQueue_.FreeTensor(p);
        }
        // the cube reads the probabilities from GM: every MTE3 write must have landed
        PipeBarrier<PIPE_ALL>();
    }

private:
    const AttentionScoreLiteTilingData* tiling_ = nullptr;
    TPipe* pipe_ = nullptr;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowInQueue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> rowOutQueue_;
    TBuf<TPosition::VECCALC> workBuf_;
    TBuf<TPosition::VECCALC> statBuf_;
    GlobalTensor<half> qGm_;
    GlobalTensor<half> kGm_;
    GlobalTensor<half> vGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<float> scoreWs_;
    GlobalTensor<half> probWs_;
    uint32_t seqLen_ = 0;
    uint32_t seqAligned_ = 0;
    uint32_t headDim_ = 0;
};

extern "C" __global__ __aicore__ void attention_score_lite(GM_ADDR query, GM_ADDR key, GM_ADDR value,
                                                           GM_ADDR attentionOut, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    TPipe pipe;
    KernelAttentionScoreLite op;
    // on the cube core this call serves matmul requests until the vector cores finish
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.qkMm, &tilingData.qkTiling, op.pvMm, &tilingData.pvTiling);
    if ASCEND_IS_AIV {
        op.Init(query, key, value, attentionOut, userWs, &tilingData, &pipe);
        op.Process();
    }
}
