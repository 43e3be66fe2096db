// DenseScaledLeaky kernel.
// Cube part: C = x * W^T + bias through the high level Matmul API, one
// (singleCoreM x singleCoreN) block per core.  Each baseM x baseN piece of C is
// pulled into UB with GetTensorC, scaled and passed through leaky ReLU on the
// vector unit, then written to y -- so y is only written once.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class DenseScaledLeakyKernel {
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;

public:
    __aicore__ inline DenseScaledLeakyKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const TCubeTiling &t,
                                float scale, float slope)
    {
        tiling_ = t;
        scale_ = scale;
        slope_ = slope;
        xGm.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(t.M) * t.Ka);
        wGm.SetGlobalBuffer((__gm__ T *)w, static_cast<uint64_t>(t.N) * t.Kb);
        bGm.SetGlobalBuffer((__gm__ T *)b, t.N);
        yGm.SetGlobalBuffer((__gm__ T *)y, static_cast<uint64_t>(t.M) * t.N);

        uint32_t tileBytes = t.baseM * t.baseN * sizeof(T);
        pipe.InitBuffer(cQue, 1, tileBytes);
        pipe.InitBuffer(yQue, 1, tileBytes);
    }

    __aicore__ inline void Process(uint32_t blockIdx)
    {
        uint32_t mBlocks = (tiling_.M + tiling_.singleCoreM - 1) / tiling_.singleCoreM;
        uint32_t mIdx = blockIdx % mBlocks;
        uint32_t nIdx = blockIdx / mBlocks;
        uint32_t rowBase = mIdx * tiling_.singleCoreM;
        uint32_t colBase = nIdx * tiling_.singleCoreN;
        if (rowBase >= static_cast<uint32_t>(tiling_.M) || colBase >= static_cast<uint32_t>(tiling_.N)) {
            return;
        }
        int32_t curM = tiling_.M - rowBase < tiling_.singleCoreM ? tiling_.M - rowBase : tiling_.singleCoreM;
        int32_t curN = tiling_.N - colBase < tiling_.singleCoreN ? tiling_.N - colBase : tiling_.singleCoreN;

        mm.SetTensorA(xGm[static_cast<uint64_t>(rowBase) * tiling_.Ka]);
        mm.SetTensorB(wGm[static_cast<uint64_t>(colBase) * tiling_.Kb], true);
        mm.SetBias(bGm[colBase]);
        mm.SetTail(curM, curN);

        // iteration order of the Matmul API is M-first by default
        uint32_t mIter = (curM + tiling_.baseM - 1) / tiling_.baseM;
        uint32_t nIter = (curN + tiling_.baseN - 1) / tiling_.baseN;
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            uint32_t mi = step % mIter;
            uint32_t ni = step / mIter;
            uint32_t r0 = mi * tiling_.baseM;
            uint32_t c0 = ni * tiling_.baseN;
            uint32_t rows = curM - r0 < tiling_.baseM ? curM - r0 : tiling_.baseM;
            uint32_t cols = curN - c0 < tiling_.baseN ? curN - c0 : tiling_.baseN;

            LocalTensor<T> cLocal = cQue.AllocTensor<T>();
            mm.template GetTensorC<true>(cLocal);
            cQue.EnQue(cLocal);
            Epilogue(rows, cols, rowBase + r0, colBase + c0);
            ++step;
        }
        (void)nIter;
        mm.End();
    }

    TCubeTiling tiling_;
    Matmul<AType, BType, CType, BiasType> mm;
    TPipe pipe;

private:
    // y = leaky_relu(c * scale): one fused pass over the base tile
    __aicore__ inline void Epilogue(uint32_t rows, uint32_t cols, uint32_t gRow, uint32_t gCol)
    {
        LocalTensor<T> c = cQue.DeQue<T>();
        LocalTensor<T> out = yQue.AllocTensor<T>();
        uint32_t cnt = tiling_.baseM * tiling_.baseN;
        Muls(c, c, static_cast<T>(scale_), cnt);
        LeakyRelu(out, c, static_cast<T>(slope_), cnt);
        yQue.EnQue(out);
        cQue.FreeTensor(c);

        LocalTensor<T> res = yQue.DeQue<T>();
        // the C tile in UB has row pitch baseN; copy only the valid rows x cols region
        uint32_t srcGapBlocks = (tiling_.baseN - cols) * sizeof(T) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                             srcGapBlocks, static_cast<uint32_t>((tiling_.N - cols) * sizeof(T)), 0};
        DataCopyPad(yGm[static_cast<uint64_t>(gRow) * tiling_.N + gCol], res, cp);
        yQue.FreeTensor(res);
    }

    TQue<QuePosition::VECIN, 1> cQue;
    TQue<QuePosition::VECOUT, 1> yQue;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    float scale_ = 1.0f;
    float slope_ = 0.01f;
};

extern "C" __global__ __aicore__ void dense_scaled_leaky(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    if (GetBlockIdx() >= td.usedCoreNum) {
        return;
    }
    DenseScaledLeakyKernel<DTYPE_X> op;
    op.Init(x, weight, bias, y, td.mmTiling, td.scale, td.negativeSlope);
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &op.tiling_);
    op.Process(GetBlockIdx());
}
