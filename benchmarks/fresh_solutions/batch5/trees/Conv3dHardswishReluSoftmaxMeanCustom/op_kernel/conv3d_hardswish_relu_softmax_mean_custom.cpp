#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CH_PER_GROUP = 64;   // 每组最多支持的通道数（用于标量缓存）

// 融合：HardSwish -> GroupNorm -> 空间维度均值
// 利用 mean_s(GN(h)) = gamma * (mean_s(h) - mu_g) * rstd_g + beta，
// 只需统计每个通道的 sum(h)，以及每组的 sum(h) / sum(h^2)，不必把 GN 结果写回 GM。
class KernelHardswishGroupNormMean {
public:
    __aicore__ inline KernelHardswishGroupNormMean() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const Conv3dHardswishReluSoftmaxMeanCustomTilingData& td)
    {
        channels = td.channels;
        numGroups = td.numGroups;
        chPerGroup = td.chPerGroup;
        spatial = td.spatial;
        tileLen = td.tileLen;
        eps = td.eps;

        // 任务划分：前 tailTasks 个核各多做一个 (b, g)
        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < td.tailTasks) {
            taskCount = td.tasksPerCore + 1;
            taskStart = blockIdx * taskCount;
        } else {
            taskCount = td.tasksPerCore;
            taskStart = td.tailTasks * (td.tasksPerCore + 1) + (blockIdx - td.tailTasks) * td.tasksPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, channels);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, channels);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, 1, MAX_CH_PER_GROUP * sizeof(float));
        pipe.InitBuffer(accSumBuf, tileLen * sizeof(float));
        pipe.InitBuffer(accSqBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
        pipe.InitBuffer(workBuf, tileLen * sizeof(float));
        pipe.InitBuffer(scalarBuf, 64);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < taskCount; ++t) {
            uint32_t task = taskStart + t;
            uint32_t b = task / numGroups;
            uint32_t g = task % numGroups;
            ProcessGroup(b, g);
        }
    }

private:
    __aicore__ inline void WaitVectorToScalar()
    {
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
    }

    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueue.EnQue(xLocal);
    }

    // 对一个 tile 做 hardswish，并累加到 sum / sumsq 累加器
    __aicore__ inline void ComputeTile(uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> accSum = accSumBuf.Get<float>();
        LocalTensor<float> accSq = accSqBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();

        // hardswish(x) = x * clamp(x + 3, 0, 6) / 6
        Adds(tmp, xLocal, 3.0f, len);
        Maxs(tmp, tmp, 0.0f, len);
        Mins(tmp, tmp, 6.0f, len);
        Mul(tmp, tmp, xLocal, len);
        Muls(tmp, tmp, 1.0f / 6.0f, len);

        Add(accSum, accSum, tmp, len);
        Mul(xLocal, tmp, tmp, len);           // 复用输入 buffer 存平方
        Add(accSq, accSq, xLocal, len);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void ProcessGroup(uint32_t b, uint32_t g)
    {
        LocalTensor<float> accSum = accSumBuf.Get<float>();
        LocalTensor<float> accSq = accSqBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = scalarBuf.Get<float>();

        float chanSum[MAX_CH_PER_GROUP];
        float groupSum = 0.0f;
        float groupSq = 0.0f;
        uint32_t cBase = g * chPerGroup;
        uint32_t tileNum = (spatial + tileLen - 1) / tileLen;

        for (uint32_t ch = 0; ch < chPerGroup; ++ch) {
            uint64_t base = (static_cast<uint64_t>(b) * channels + cBase + ch) * spatial;
            Duplicate(accSum, 0.0f, tileLen);
            Duplicate(accSq, 0.0f, tileLen);
            for (uint32_t i = 0; i < tileNum; ++i) {
                uint32_t len = (i == tileNum - 1) ? (spatial - i * tileLen) : tileLen;
                CopyIn(base + static_cast<uint64_t>(i) * tileLen, len);
                ComputeTile(len);
            }
            // 累加器整体规约（未写入的尾部一直是 0，不影响结果）
            ReduceSum(red, accSum, work, tileLen);
            ReduceSum(red[8], accSq, work, tileLen);
            WaitVectorToScalar();
            float s = red.GetValue(0);
            float sq = red.GetValue(8);
            chanSum[ch] = s;
            groupSum += s;
            groupSq += sq;
        }

        float cnt = static_cast<float>(chPerGroup) * static_cast<float>(spatial);
        float mean = groupSum / cnt;
        float var = groupSq / cnt - mean * mean;
        if (var < 0.0f) {
            var = 0.0f;
        }
        // rstd = 1 / sqrt(var + eps)，借助向量单元完成开方
        Duplicate(red, var + eps, 8);
        Sqrt(red, red, 8);
        WaitVectorToScalar();
        float rstd = 1.0f / red.GetValue(0);

        LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        float invS = 1.0f / static_cast<float>(spatial);
        for (uint32_t ch = 0; ch < chPerGroup; ++ch) {
            uint32_t c = cBase + ch;
            float v = (chanSum[ch] * invS - mean) * rstd;
            outLocal.SetValue(ch, gammaGm.GetValue(c) * v + betaGm.GetValue(c));
        }
        outQueue.EnQue(outLocal);
        outLocal = outQueue.DeQue<float>();
        PipeBarrier<PIPE_ALL>();
        DataCopyExtParams outParams{1, static_cast<uint32_t>(chPerGroup * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(b) * channels + cBase], outLocal, outParams);
        outQueue.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<QuePosition::VECCALC> accSumBuf, accSqBuf, tmpBuf, workBuf, scalarBuf;
    GlobalTensor<float> xGm, gammaGm, betaGm, yGm;

    uint32_t channels = 0;
    uint32_t numGroups = 0;
    uint32_t chPerGroup = 0;
    uint32_t spatial = 0;
    uint32_t tileLen = 0;
    uint32_t taskStart = 0;
    uint32_t taskCount = 0;
    float eps = 1e-5f;
};

extern "C" __global__ __aicore__ void conv3d_hardswish_relu_softmax_mean_custom(
    GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelHardswishGroupNormMean op;
    op.Init(x, gamma, beta, y, tilingData);
    op.Process();
}
