// PiecewiseSigmoid kernel: y = min(max(alpha * x + beta, 0), 1)
// fp32 is computed in place; fp16 is widened to fp32 for the affine part so
// that alpha = 1/6 does not lose precision.
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
}

template <typename T>
class PiecewiseSigmoidKernel {
public:
    __aicore__ inline PiecewiseSigmoidKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const PiecewiseSigmoidTilingData &td)
    {
        alpha = td.alpha;
        beta = td.beta;
        tileNum = td.tileNum;
        uint64_t start = td.perCoreNum * AscendC::GetBlockIdx();
        uint64_t left = td.totalNum > start ? td.totalNum - start : 0;
        myNum = left < td.perCoreNum ? left : td.perCoreNum;

        xGm.SetGlobalBuffer((__gm__ T *)x + start, myNum);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, myNum);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileNum * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileNum * sizeof(T));
        if constexpr (!std::is_same<T, float>::value) {
            pipe.InitBuffer(f32Buf, tileNum * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint64_t done = 0;
        while (done < myNum) {
            uint32_t cnt = (myNum - done) < tileNum ? static_cast<uint32_t>(myNum - done) : tileNum;
            CopyIn(done, cnt);
            Compute(cnt);
            CopyOut(done, cnt);
            done += cnt;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<T> xl = inQ.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(xl, xGm[off], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        AscendC::LocalTensor<T> xl = inQ.DeQue<T>();
        AscendC::LocalTensor<T> yl = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Muls(yl, xl, alpha, cnt);
            AscendC::Adds(yl, yl, beta, cnt);
            AscendC::Maxs(yl, yl, 0.0f, cnt);
            AscendC::Mins(yl, yl, 1.0f, cnt);
        } else {
            AscendC::LocalTensor<float> f = f32Buf.Get<float>();
            AscendC::Cast(f, xl, AscendC::RoundMode::CAST_NONE, cnt);
            AscendC::Muls(f, f, alpha, cnt);
            AscendC::Adds(f, f, beta, cnt);
            AscendC::Maxs(f, f, 0.0f, cnt);
            AscendC::Mins(f, f, 1.0f, cnt);
            AscendC::Cast(yl, f, AscendC::RoundMode::CAST_ROUND, cnt);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<T> yl = outQ.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> f32Buf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint64_t myNum = 0;
    uint32_t tileNum = 0;
    float alpha = 0.0f, beta = 0.0f;
};

extern "C" __global__ __aicore__ void piecewise_sigmoid(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        PiecewiseSigmoidKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        PiecewiseSigmoidKernel<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
