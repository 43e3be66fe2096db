// SmoothRelu: y = log(1 + exp(x)), evaluated in the overflow-safe form
//   y = max(x, 0) + log(1 + exp(-|x|))
// which equals the plain formula for every x and never exponentiates a positive number.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class SmoothReluKernel {
public:
    __aicore__ inline SmoothReluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SmoothReluTilingData &t)
    {
        uint64_t idx = AscendC::GetBlockIdx();
        uint64_t align = t.alignNum;
        // cores [0, bigCoreNum) take blocksPerCore + 1 blocks
        uint64_t myBlocks = t.blocksPerCore + (idx < t.bigCoreNum ? 1 : 0);
        uint64_t startBlock = idx * t.blocksPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        uint64_t start = startBlock * align;
        uint64_t end = start + myBlocks * align;
        if (end > t.totalNum) {
            end = t.totalNum;
        }
        count_ = end > start ? end - start : 0;
        tile_ = t.tileNum;

        xGm.SetGlobalBuffer((__gm__ T *)x + start, count_);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, count_);
        pipe.InitBuffer(qIn, BUFFER_NUM, tile_ * sizeof(T));
        pipe.InitBuffer(qOut, BUFFER_NUM, tile_ * sizeof(T));
        pipe.InitBuffer(bufA, tile_ * sizeof(float));
        pipe.InitBuffer(bufB, tile_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t done = 0;
        while (done < count_) {
            uint32_t len = (count_ - done) > tile_ ? tile_ : static_cast<uint32_t>(count_ - done);
            CopyIn(done, len);
            Compute(len);
            CopyOut(done, len);
            done += len;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<T> xl = qIn.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(xl, xGm[off], cp, pad);
        qIn.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> xl = qIn.DeQue<T>();
        AscendC::LocalTensor<T> yl = qOut.AllocTensor<T>();
        AscendC::LocalTensor<float> a = bufA.Get<float>();
        AscendC::LocalTensor<float> b = bufB.Get<float>();

        // a <- x in fp32
        if constexpr (sizeof(T) == 2) {
            AscendC::Cast(a, xl, AscendC::RoundMode::CAST_NONE, len);
        } else {
            AscendC::Adds(a, xl, 0.0f, len);
        }
        qIn.FreeTensor(xl);

        AscendC::Abs(b, a, len);            // |x|
        AscendC::Muls(b, b, -1.0f, len);    // -|x|
        AscendC::Exp(b, b, len);            // exp(-|x|) in (0, 1]
        AscendC::Adds(b, b, 1.0f, len);
        AscendC::Ln(b, b, len);             // log1p(exp(-|x|))
        AscendC::Maxs(a, a, 0.0f, len);     // relu(x)
        AscendC::Add(a, a, b, len);

        if constexpr (sizeof(T) == 2) {
            AscendC::Cast(yl, a, AscendC::RoundMode::CAST_ROUND, len);
        } else {
            AscendC::Adds(yl, a, 0.0f, len);
        }
        qOut.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<T> yl = qOut.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yl, cp);
        qOut.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> qIn;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> qOut;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> bufA, bufB;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint64_t count_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void smooth_relu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        SmoothReluKernel<half> op;
        op.Init(x, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        SmoothReluKernel<float> op;
        op.Init(x, y, tilingData);
        op.Process();
    }
}
