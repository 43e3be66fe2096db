#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = x * factor, elementwise. fp16 is scaled directly in half precision (Muls),
// fp32 in single precision.
template <typename T>
class ScaleByConstantKernel {
public:
    __aicore__ inline ScaleByConstantKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaleByConstantTilingData &t)
    {
        uint64_t start = t.perCoreNum * GetBlockIdx();
        myLen = (start >= t.totalNum) ? 0 : ((t.totalNum - start) < t.perCoreNum ? (t.totalNum - start) : t.perCoreNum);
        tileLen = t.tileNum;
        factor = static_cast<T>(t.factor);

        xGm.SetGlobalBuffer((__gm__ T *)x + start, myLen);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, myLen);
        pipe.InitBuffer(qIn, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(qOut, BUFFER_NUM, tileLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint64_t done = 0;
        while (done < myLen) {
            uint32_t cur = (myLen - done) < tileLen ? static_cast<uint32_t>(myLen - done) : tileLen;
            CopyIn(done, cur);
            Compute(cur);
            CopyOut(done, cur);
            done += cur;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> xl = qIn.AllocTensor<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], p, pad);   // the tail tile may be shorter than a block multiple
        qIn.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        LocalTensor<T> xl = qIn.DeQue<T>();
        LocalTensor<T> yl = qOut.AllocTensor<T>();
        Muls(yl, xl, factor, cnt);
        qOut.EnQue(yl);
        qIn.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> yl = qOut.DeQue<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, p);
        qOut.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qIn;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qOut;
    GlobalTensor<T> xGm, yGm;
    uint64_t myLen = 0;
    uint32_t tileLen = 0;
    T factor;
};

extern "C" __global__ __aicore__ void scale_by_constant(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    ScaleByConstantKernel<DTYPE_X> op;
    op.Init(x, y, t);
    op.Process();
}
