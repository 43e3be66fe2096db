#include "kernel_operator.h"

// y = min(max(alpha * x + beta, 0), 1)
// fp16 inputs are widened to fp32 for the affine step so that alpha = 1/6 is not rounded.

template <typename T>
class ClippedLinearSigmoidOp {
    static constexpr int32_t NBUF = 2;

public:
    __aicore__ inline ClippedLinearSigmoidOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, ClippedLinearSigmoidTiling &td)
    {
        uint32_t blk = AscendC::GetBlockIdx();
        bool isLast = (blk == AscendC::GetBlockNum() - 1);
        count = isLast ? td.lastCoreElems : td.elemsPerCore;
        tile = td.tileElems;
        alpha = td.alpha;
        beta = td.beta;
        uint64_t base = static_cast<uint64_t>(blk) * td.elemsPerCore;
        src.SetGlobalBuffer((__gm__ T *)x + base, count);
        dst.SetGlobalBuffer((__gm__ T *)y + base, count);
        pipe.InitBuffer(qIn, NBUF, tile * sizeof(T));
        pipe.InitBuffer(qOut, NBUF, tile * sizeof(T));
        if constexpr (!std::is_same<T, float>::value) {
            pipe.InitBuffer(wide, tile * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < count; done += tile) {
            uint32_t len = (count - done) < tile ? (count - done) : tile;
            Load(done, len);
            Calc(len);
            Store(done, len);
        }
    }

private:
    __aicore__ inline void Load(uint32_t off, uint32_t len)
    {
        AscendC::LocalTensor<T> t = qIn.AllocTensor<T>();
        AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(t, src[off], p, pad);
        qIn.EnQue(t);
    }

    __aicore__ inline void Calc(uint32_t len)
    {
        AscendC::LocalTensor<T> in = qIn.DeQue<T>();
        AscendC::LocalTensor<T> out = qOut.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::Muls(out, in, alpha, len);
            AscendC::Adds(out, out, beta, len);
            AscendC::Maxs(out, out, 0.0f, len);
            AscendC::Mins(out, out, 1.0f, len);
        } else {
            AscendC::LocalTensor<float> f = wide.Get<float>();
            AscendC::Cast(f, in, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Muls(f, f, alpha, len);
            AscendC::Adds(f, f, beta, len);
            AscendC::Maxs(f, f, 0.0f, len);
            AscendC::Mins(f, f, 1.0f, len);
            AscendC::Cast(out, f, AscendC::RoundMode::CAST_ROUND, len);
        }
        qOut.EnQue(out);
        qIn.FreeTensor(in);
    }

    __aicore__ inline void Store(uint32_t off, uint32_t len)
    {
        AscendC::LocalTensor<T> t = qOut.DeQue<T>();
        AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(dst[off], t, p);
        qOut.FreeTensor(t);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, NBUF> qIn;
    AscendC::TQue<AscendC::QuePosition::VECOUT, NBUF> qOut;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wide;
    AscendC::GlobalTensor<T> src, dst;
    uint32_t count = 0, tile = 0;
    float alpha = 0.0f, beta = 0.0f;
};

extern "C" __global__ __aicore__ void clipped_linear_sigmoid(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ClippedLinearSigmoidOp<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
