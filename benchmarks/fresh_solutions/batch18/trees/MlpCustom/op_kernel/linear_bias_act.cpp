/**
 * LinearBiasAct kernel.
 *
 * Cube part : Matmul high-level API computes C = X * W^T + b for this core's
 *             [singleCoreM, singleCoreN] tile, written straight to y.
 * Vector part: optional ReLU epilogue applied in place on the same tile, row by row.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr int32_t EPI_BUFS = 2;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

template <typename T, typename BiasT>
class LinearBiasActKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, BiasT>;
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline LinearBiasActKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const TCubeTiling &cube,
                                uint32_t actType, uint32_t actChunk)
    {
        tiling_ = cube;
        act_ = actType;
        chunk_ = actChunk;

        uint32_t m = tiling_.M;
        uint32_t n = tiling_.N;
        uint32_t k = tiling_.Ka;

        uint32_t mTiles = CeilDivU(m, tiling_.singleCoreM);
        uint32_t nTiles = CeilDivU(n, tiling_.singleCoreN);
        uint32_t blk = GetBlockIdx();
        active_ = blk < mTiles * nTiles;
        if (!active_) {
            return;
        }
        uint32_t mIdx = blk % mTiles;
        uint32_t nIdx = blk / mTiles;

        rowBase_ = mIdx * tiling_.singleCoreM;
        colBase_ = nIdx * tiling_.singleCoreN;
        curM_ = (m - rowBase_) < (uint32_t)tiling_.singleCoreM ? (m - rowBase_) : tiling_.singleCoreM;
        curN_ = (n - colBase_) < (uint32_t)tiling_.singleCoreN ? (n - colBase_) : tiling_.singleCoreN;
        ldc_ = n;

        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + (uint64_t)rowBase_ * k, (uint64_t)curM_ * k);
        // W is [N, K]; selecting rows of W == selecting columns of W^T
        wGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(w) + (uint64_t)colBase_ * k, (uint64_t)curN_ * k);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ BiasT *>(b) + colBase_, curN_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + (uint64_t)rowBase_ * n + colBase_);

        if (act_ != 0) {
            pipe_.InitBuffer(epiIn_, EPI_BUFS, chunk_ * sizeof(T));
            pipe_.InitBuffer(epiOut_, EPI_BUFS, chunk_ * sizeof(T));
        }
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        if (!active_) {
            return;
        }
        mm.SetTensorA(xGm_, false);
        mm.SetTensorB(wGm_, true);
        mm.SetBias(bGm_);
        mm.SetTail(curM_, curN_);
        mm.IterateAll(yGm_);
        mm.End();

        if (act_ != 0) {
            // the cube results must be visible in GM before the vector epilogue reads them
            PipeBarrier<PIPE_ALL>();
            ReluEpilogue();
        }
    }

private:
    __aicore__ inline void ReluEpilogue()
    {
        for (uint32_t r = 0; r < curM_; ++r) {
            uint64_t rowOff = (uint64_t)r * ldc_;
            for (uint32_t c = 0; c < curN_; c += chunk_) {
                uint32_t len = (curN_ - c) < chunk_ ? (curN_ - c) : chunk_;
                LoadSeg(rowOff + c, len);
                RectSeg(len);
                StoreSeg(rowOff + c, len);
            }
        }
    }

    __aicore__ inline void LoadSeg(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = epiIn_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(t, yGm_[off], cp, pad);
        epiIn_.EnQue(t);
    }

    __aicore__ inline void RectSeg(uint32_t len)
    {
        LocalTensor<T> src = epiIn_.DeQue<T>();
        LocalTensor<T> dst = epiOut_.AllocTensor<T>();
        Relu(dst, src, len);
        epiOut_.EnQue(dst);
        epiIn_.FreeTensor(src);
    }

    __aicore__ inline void StoreSeg(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = epiOut_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[off], t, cp);
        epiOut_.FreeTensor(t);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, EPI_BUFS> epiIn_;
    TQue<QuePosition::VECOUT, EPI_BUFS> epiOut_;
    GlobalTensor<T> xGm_, wGm_, yGm_;
    GlobalTensor<BiasT> bGm_;
    TCubeTiling tiling_;
    uint32_t act_ = 0, chunk_ = 0;
    uint32_t rowBase_ = 0, colBase_ = 0, curM_ = 0, curN_ = 0, ldc_ = 0;
    bool active_ = false;

public:
    TPipe *GetPipe() { return &pipe_; }
};

template <typename T>
__aicore__ inline void RunLinearBiasAct(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR tilingAddr)
{
    GET_TILING_DATA(td, tilingAddr);
    LinearBiasActKernel<T, float> op;
    REGIST_MATMUL_OBJ(op.GetPipe(), GetSysWorkSpacePtr(), op.mm, &td.mmTiling);
    op.Init(x, w, b, y, td.mmTiling, td.actType, td.actChunk);
    op.Process(op.GetPipe());
}

extern "C" __global__ __aicore__ void linear_bias_act(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if (workspace == nullptr) {
        return;
    }
    SetSysWorkspace(workspace);
    if (TILING_KEY_IS(0)) {
        RunLinearBiasAct<float>(x, weight, bias, y, tiling);
    } else if (TILING_KEY_IS(1)) {
        RunLinearBiasAct<half>(x, weight, bias, y, tiling);
    }
}
