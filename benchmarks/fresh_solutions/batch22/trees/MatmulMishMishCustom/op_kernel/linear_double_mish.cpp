/*
 * LinearDoubleMish: y = mish(mish(x @ W^T + b))
 *
 * The cube unit produces the GEMM one base block (baseM x baseN) at a time straight into UB;
 * the vector unit applies the two Mish activations on that block and writes it out, so the
 * pre-activation never round-trips through global memory.
 *
 * mish(v) = v * tanh(softplus(v)) = v * n / (n + 2),  n = e^v (e^v + 2)
 * (e^v is taken on min(v, clamp) so large inputs give n/(n+2) -> 1 instead of inf/inf).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

class LinearDoubleMishKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<AType, BType, CType, BiasType> mm;
    TPipe pipe;

    __aicore__ inline LinearDoubleMishKernel() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const LinearDoubleMishTilingData &td)
    {
        t = td.gemm;
        clampV = td.expClamp;
        uint32_t blk = GetBlockIdx();
        if (blk >= static_cast<uint32_t>(t.usedCoreNum)) {
            return false;
        }
        uint32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        uint32_t mi = blk % mBlocks;
        uint32_t ni = blk / mBlocks;
        rowBase = mi * t.singleCoreM;
        colBase = ni * t.singleCoreN;
        myM = t.M - rowBase < t.singleCoreM ? t.M - rowBase : t.singleCoreM;
        myN = t.N - colBase < t.singleCoreN ? t.N - colBase : t.singleCoreN;
        if (myM <= 0 || myN <= 0) {
            return false;
        }

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        blockElems = t.baseM * t.baseN;
        pipe.InitBuffer(cQue, 2, blockElems * sizeof(float));
        pipe.InitBuffer(yQue, 2, blockElems * sizeof(float));
        pipe.InitBuffer(t0Buf, blockElems * sizeof(float));
        pipe.InitBuffer(t1Buf, blockElems * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(xGm[static_cast<uint64_t>(rowBase) * t.Ka]);
        mm.SetTensorB(wGm[static_cast<uint64_t>(colBase) * t.Kb], true);
        mm.SetBias(bGm[colBase]);
        mm.SetTail(myM, myN);

        // blocks come out M-major: block k covers rows (k % mRound), cols (k / mRound)
        uint32_t mRound = (myM + t.baseM - 1) / t.baseM;
        uint32_t k = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> c = cQue.AllocTensor<float>();
            mm.template GetTensorC<true>(c, false, true);
            cQue.EnQue(c);

            uint32_t bm = k % mRound;
            uint32_t bn = k / mRound;
            int32_t rows = myM - static_cast<int32_t>(bm * t.baseM);
            int32_t cols = myN - static_cast<int32_t>(bn * t.baseN);
            rows = rows < t.baseM ? rows : t.baseM;
            cols = cols < t.baseN ? cols : t.baseN;

            Activate();
            Store(rowBase + bm * t.baseM, colBase + bn * t.baseN, rows, cols);
            ++k;
        }
        mm.End();
    }

private:
    __aicore__ inline void Mish(const LocalTensor<float> &dst, const LocalTensor<float> &src)
    {
        LocalTensor<float> e = t0Buf.Get<float>();
        LocalTensor<float> u = t1Buf.Get<float>();
        Mins(e, src, clampV, blockElems);
        Exp(e, e, blockElems);
        Adds(u, e, 2.0f, blockElems);
        Mul(e, e, u, blockElems);        // n = e^v (e^v + 2)
        Adds(u, e, 2.0f, blockElems);
        Div(e, e, u, blockElems);        // tanh(softplus(v))
        Mul(dst, src, e, blockElems);
    }

    __aicore__ inline void Activate()
    {
        LocalTensor<float> c = cQue.DeQue<float>();
        LocalTensor<float> o = yQue.AllocTensor<float>();
        Mish(o, c);
        Mish(o, o);
        yQue.EnQue(o);
        cQue.FreeTensor(c);
    }

    __aicore__ inline void Store(uint32_t row0, uint32_t col0, int32_t rows, int32_t cols)
    {
        LocalTensor<float> o = yQue.DeQue<float>();
        // UB block rows are baseN long; gaps are expressed in 32B blocks on the UB side
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = static_cast<uint32_t>(cols * sizeof(float));
        cp.srcStride = static_cast<uint32_t>((t.baseN - cols) * sizeof(float) / 32);
        cp.dstStride = static_cast<uint32_t>((t.N - cols) * sizeof(float));
        cp.rsv = 0;
        DataCopyPad(yGm[static_cast<uint64_t>(row0) * t.N + col0], o, cp);
        yQue.FreeTensor(o);
    }

    TCubeTiling t;
    float clampV = 20.0f;
    int32_t rowBase = 0, colBase = 0, myM = 0, myN = 0;
    uint32_t blockElems = 0;
    TQue<QuePosition::VECIN, 2> cQue;
    TQue<QuePosition::VECOUT, 2> yQue;
    TBuf<TPosition::VECCALC> t0Buf, t1Buf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
};

extern "C" __global__ __aicore__ void linear_double_mish(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    LinearDoubleMishKernel op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.gemm);
    if (!op.Init(x, weight, bias, y, td)) {
        return;
    }
    op.Process();
}
