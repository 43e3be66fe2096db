#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Fused Swish -> GroupNorm -> HardSwish on the output of ConvTranspose3d.
// One (n, group) slab is contiguous in memory (chPerGroup * D*H*W floats); each core owns whole
// slabs. Pass 1 accumulates sum / sum of squares of swish(x); pass 2 recomputes swish(x), applies
// the per-channel affine normalisation and HardSwish, and writes the result.
class SwishGroupNormHardSwish {
public:
    __aicore__ inline SwishGroupNormHardSwish() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const ConvTranspose3dSwishGroupNormHardSwishCustomTilingData& t)
    {
        channels = t.channels;
        groups = t.groups;
        cpg = t.chPerGroup;
        spatial = t.spatial;
        tileLen = t.tileLen;
        eps = t.eps;
        uint32_t core = GetBlockIdx();
        groupCnt = t.groupsPerCore + (core < t.groupsRemain ? 1 : 0);
        groupBeg = core * t.groupsPerCore + (core < t.groupsRemain ? core : t.groupsRemain);

        uint64_t total = (uint64_t)t.batch * channels * spatial;
        xGm.SetGlobalBuffer((__gm__ float*)x, total);
        yGm.SetGlobalBuffer((__gm__ float*)y, total);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, channels);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, channels);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(actBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t g = 0; g < groupCnt; ++g) {
            uint32_t gid = groupBeg + g;            // = n * groups + group
            uint32_t grp = gid % groups;
            uint64_t base = (uint64_t)gid * cpg * spatial;
            uint64_t groupLen = (uint64_t)cpg * spatial;

            // ---------- pass 1: statistics ----------
            float sum = 0.0f;
            float sqSum = 0.0f;
            for (uint64_t off = 0; off < groupLen; off += tileLen) {
                uint32_t len = static_cast<uint32_t>((groupLen - off) < tileLen ? (groupLen - off) : tileLen);
                CopyIn(base + off, len);
                AccumulateStats(len, sum, sqSum);
            }
            float invN = 1.0f / static_cast<float>(groupLen);
            float mean = sum * invN;
            float var = sqSum * invN - mean * mean;
            if (var < 0.0f) var = 0.0f;
            float rstd = InvSqrt(var + eps);

            // ---------- pass 2: normalise + hardswish, channel by channel ----------
            for (uint32_t c = 0; c < cpg; ++c) {
                uint32_t ch = grp * cpg + c;
                float scale = gammaGm.GetValue(ch) * rstd;
                float shift = betaGm.GetValue(ch) - mean * scale;
                uint64_t chBase = base + (uint64_t)c * spatial;
                for (uint32_t off = 0; off < spatial; off += tileLen) {
                    uint32_t len = (spatial - off) < tileLen ? (spatial - off) : tileLen;
                    CopyIn(chBase + off, len);
                    Normalize(len, scale, shift);
                    CopyOut(chBase + off, len);
                }
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pp{true, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[off], cp, pp);
        inQ.EnQue(xl);
    }

    // 1 / sqrt(v) through the vector unit (no scalar sqrt on the AI core)
    __aicore__ inline float InvSqrt(float v)
    {
        LocalTensor<float> red = redBuf.Get<float>();
        Duplicate(red[16], v, 8);
        Sqrt(red[16], red[16], 8);
        Duplicate(red[24], 1.0f, 8);
        Div(red[16], red[24], red[16], 8);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        float r = red.GetValue(16);
        event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
        return r;
    }

    // act = x * sigmoid(x) = x / (1 + exp(-x))
    __aicore__ inline void Swish(const LocalTensor<float>& act, const LocalTensor<float>& xl, uint32_t n)
    {
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        Muls(tmp, xl, -1.0f, n);
        Exp(tmp, tmp, n);
        Adds(tmp, tmp, 1.0f, n);
        Div(act, xl, tmp, n);
    }

    __aicore__ inline void AccumulateStats(uint32_t len, float& sum, float& sqSum)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> act = actBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        uint32_t n = (len + 7) / 8 * 8;
        Swish(act, xl, n);
        inQ.FreeTensor(xl);

        ReduceSum(red, act, tmp, len);
        Mul(act, act, act, n);
        ReduceSum(red[8], act, tmp, len);

        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        sum += red.GetValue(0);
        sqSum += red.GetValue(8);
        event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
    }

    __aicore__ inline void Normalize(uint32_t len, float scale, float shift)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        LocalTensor<float> act = actBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        uint32_t n = (len + 7) / 8 * 8;

        Swish(act, xl, n);
        inQ.FreeTensor(xl);
        // group norm with affine folded into one scale/shift per channel
        Muls(act, act, scale, n);
        Adds(act, act, shift, n);
        // hardswish: v * clamp(v + 3, 0, 6) / 6
        Adds(tmp, act, 3.0f, n);
        Maxs(tmp, tmp, 0.0f, n);
        Mins(tmp, tmp, 6.0f, n);
        Mul(yl, act, tmp, n);
        Muls(yl, yl, 1.0f / 6.0f, n);
        outQ.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> actBuf, tmpBuf, redBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm;
    uint32_t channels, groups, cpg, spatial, tileLen;
    uint32_t groupBeg, groupCnt;
    float eps;
};

extern "C" __global__ __aicore__ void conv_transpose3d_swish_group_norm_hard_swish_custom(
    GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    SwishGroupNormHardSwish op;
    op.Init(x, gamma, beta, y, tilingData);
    op.Process();
}
