// ScaledExpLinear:  y = scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))
//
// exp is evaluated on min(x, 0) only, so large positive inputs can never
// overflow, and for x > 0 the negative branch is exactly zero. half inputs
// are widened to float for the math and narrowed again on the way out.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t QUEUE_DEPTH = 2;

template <typename T>
class ScaledExpLinearKernel {
public:
    __aicore__ inline ScaledExpLinearKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaledExpLinearTilingData &tiling)
    {
        uint64_t offset = tiling.perCoreNum * GetBlockIdx();
        length = (GetBlockIdx() == GetBlockNum() - 1) ? tiling.lastCoreNum : tiling.perCoreNum;
        tile = tiling.tileNum;
        alpha = tiling.alpha;
        scale = tiling.scale;

        xGm.SetGlobalBuffer((__gm__ T *)x + offset, length);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, length);

        pipe.InitBuffer(inQueue, QUEUE_DEPTH, tile * sizeof(T));
        pipe.InitBuffer(outQueue, QUEUE_DEPTH, tile * sizeof(T));
        pipe.InitBuffer(posBuf, tile * sizeof(float));
        pipe.InitBuffer(negBuf, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t loops = (length + tile - 1) / tile;
        for (uint64_t i = 0; i < loops; ++i) {
            uint64_t start = i * tile;
            uint32_t count = static_cast<uint32_t>((length - start) < tile ? (length - start) : tile);
            CopyIn(start, count);
            Compute(count);
            CopyOut(start, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t start, uint32_t count)
    {
        LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(xLocal, xGm[start], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> xLocal = inQueue.DeQue<T>();
        LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        LocalTensor<float> pos = posBuf.Get<float>();
        LocalTensor<float> neg = negBuf.Get<float>();

        if constexpr (IsSameType<T, float>::value) {
            DataCopy(pos, xLocal, (count + 7) / 8 * 8);
        } else {
            Cast(pos, xLocal, RoundMode::CAST_NONE, count);
        }
        inQueue.FreeTensor(xLocal);

        // negative branch: alpha * (exp(min(x, 0)) - 1)
        Mins(neg, pos, 0.0f, count);
        Exp(neg, neg, count);
        Adds(neg, neg, -1.0f, count);
        Muls(neg, neg, alpha, count);
        // positive branch: max(x, 0)
        Maxs(pos, pos, 0.0f, count);
        Add(pos, pos, neg, count);

        if constexpr (IsSameType<T, float>::value) {
            Muls(yLocal, pos, scale, count);
        } else {
            Muls(pos, pos, scale, count);
            Cast(yLocal, pos, RoundMode::CAST_ROUND, count);
        }
        outQueue.EnQue(yLocal);
    }

    __aicore__ inline void CopyOut(uint64_t start, uint32_t count)
    {
        LocalTensor<T> yLocal = outQueue.DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[start], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, QUEUE_DEPTH> inQueue;
    TQue<QuePosition::VECOUT, QUEUE_DEPTH> outQueue;
    TBuf<TPosition::VECCALC> posBuf, negBuf;
    GlobalTensor<T> xGm, yGm;
    uint64_t length = 0;
    uint32_t tile = 0;
    float alpha = 0.0f;
    float scale = 0.0f;
};

extern "C" __global__ __aicore__ void scaled_exp_linear(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(0)) {
        ScaledExpLinearKernel<float> op;
        op.Init(x, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ScaledExpLinearKernel<half> op;
        op.Init(x, y, tilingData);
        op.Process();
    }
}
