#include "kernel_operator.h"

// Element-wise y = tanh(x).  Tiles of `tileNum` elements are distributed as
// evenly as possible (the first `bigCoreNum` cores take one extra tile); the
// last tile of the tensor may be partial and is moved with DataCopyPad.
template <typename T>
class HyperbolicTangentKernel {
public:
    __aicore__ inline HyperbolicTangentKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const HyperbolicTangentTilingData &td)
    {
        total = td.totalNum;
        tile = td.tileNum;
        uint64_t idx = AscendC::GetBlockIdx();
        myTiles = td.tilesPerCore + (idx < td.bigCoreNum ? 1 : 0);
        uint64_t firstTile = idx * td.tilesPerCore + (idx < td.bigCoreNum ? idx : td.bigCoreNum);
        start = firstTile * tile;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(qIn, 2, tile * sizeof(T));
        pipe.InitBuffer(qOut, 2, tile * sizeof(T));
        pipe.InitBuffer(scratch, td.tmpBytes);
    }

    __aicore__ inline void Process()
    {
        for (uint64_t i = 0; i < myTiles; ++i) {
            uint64_t off = start + i * tile;
            if (off >= total) {
                break;
            }
            uint32_t n = (total - off) < tile ? static_cast<uint32_t>(total - off) : tile;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        AscendC::LocalTensor<T> xl = qIn.AllocTensor<T>();
        if (n == tile) {
            AscendC::DataCopy(xl, xGm[off], n);
        } else {
            AscendC::DataCopyExtParams p{1, n * static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            AscendC::DataCopyPad(xl, xGm[off], p, pad);
        }
        qIn.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        AscendC::LocalTensor<T> xl = qIn.DeQue<T>();
        AscendC::LocalTensor<T> yl = qOut.AllocTensor<T>();
        AscendC::LocalTensor<uint8_t> tmp = scratch.Get<uint8_t>();
        AscendC::Tanh<T, false>(yl, xl, tmp, n);
        qOut.EnQue(yl);
        qIn.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        AscendC::LocalTensor<T> yl = qOut.DeQue<T>();
        if (n == tile) {
            AscendC::DataCopy(yGm[off], yl, n);
        } else {
            AscendC::DataCopyExtParams p{1, n * static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[off], yl, p);
        }
        qOut.FreeTensor(yl);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> qIn;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> qOut;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scratch;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint64_t total = 0, start = 0, myTiles = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void hyperbolic_tangent(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    HyperbolicTangentKernel<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
