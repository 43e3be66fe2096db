// SlopedRectifier kernel: y = max(x, 0) + slope * min(x, 0), streamed through UB
// in double-buffered tiles. Each core owns one contiguous, 32B-aligned slice.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;

template <typename T>
class SlopedRectifierOp {
public:
    __aicore__ inline SlopedRectifierOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SlopedRectifierTilingData& td)
    {
        const uint32_t alignElems = 32 / sizeof(T);
        const uint32_t blk = GetBlockIdx();
        // Cores below bigCoreCnt carry one extra alignment unit.
        uint64_t start = blk * td.perCoreNum + (blk < td.bigCoreCnt ? blk : td.bigCoreCnt) * alignElems;
        uint64_t len = td.perCoreNum + (blk < td.bigCoreCnt ? alignElems : 0);
        if (start >= td.totalNum) {
            len = 0;
        } else if (start + len > td.totalNum) {
            len = td.totalNum - start;   // last core: ragged tail
        }
        sliceLen = len;
        tile = td.tileNum;
        slope = td.slope;

        src.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + start, len);
        dst.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + start, len);
        pipe.InitBuffer(qIn, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(qOut, DEPTH, tile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint64_t done = 0;
        while (done < sliceLen) {
            uint32_t cnt = static_cast<uint32_t>((sliceLen - done) < tile ? (sliceLen - done) : tile);
            Load(done, cnt);
            Calc(cnt);
            Store(done, cnt);
            done += cnt;
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> in = qIn.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(in, src[off], cp, pad);
        qIn.EnQue(in);
    }

    __aicore__ inline void Calc(uint32_t cnt)
    {
        LocalTensor<T> in = qIn.DeQue<T>();
        LocalTensor<T> out = qOut.AllocTensor<T>();
        // Round the vector length up to a full 32B block; padding lanes are never stored.
        const uint32_t vecCnt = (cnt + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
        LeakyRelu(out, in, static_cast<T>(slope), vecCnt);
        qOut.EnQue(out);
        qIn.FreeTensor(in);
    }

    __aicore__ inline void Store(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> out = qOut.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(dst[off], out, cp);
        qOut.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> qIn;
    TQue<QuePosition::VECOUT, DEPTH> qOut;
    GlobalTensor<T> src, dst;
    uint64_t sliceLen = 0;
    uint32_t tile = 0;
    float slope = 0.01f;
};

extern "C" __global__ __aicore__ void sloped_rectifier(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        SlopedRectifierOp<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        SlopedRectifierOp<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
