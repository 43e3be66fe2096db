/*
 * y = clip(gelu(tanh(swish(x @ W^T + bias + shift))), clip_min, clip_max)
 *
 * Stage 1: cube unit computes this core's (singleCoreM x singleCoreN) block of
 *          x @ W^T + bias straight into y.
 * Stage 2: vector unit re-reads the block row by row and applies the
 *          activation chain in place.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
constexpr float INV_SQRT2 = 0.70710678118654752f;
}

class DenseSwishTanhGeluClipKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline DenseSwishTanhGeluClipKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR shift, GM_ADDR y,
                                const DenseSwishTanhGeluClipTiling &td)
    {
        cube = td.mm;
        nTotal = td.cols;
        epiCols = td.epiCols;
        clipLo = td.clipLow;
        clipHi = td.clipHigh;

        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(cube.M) * cube.Ka);
        wGm.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(cube.N) * cube.Kb);
        biasGm.SetGlobalBuffer((__gm__ float *)bias, cube.N);
        shiftGm.SetGlobalBuffer((__gm__ float *)shift, cube.N);
        yGm.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(cube.M) * cube.N);

        // locate this core's output block
        uint32_t mBlocks = Ceil(cube.M, cube.singleCoreM);
        uint32_t idx = GetBlockIdx();
        mIdx = idx % mBlocks;
        nIdx = idx / mBlocks;
        rowBase = mIdx * cube.singleCoreM;
        colBase = nIdx * cube.singleCoreN;
        rowCnt = (cube.M - rowBase) < static_cast<uint32_t>(cube.singleCoreM) ? (cube.M - rowBase) : cube.singleCoreM;
        colCnt = (cube.N - colBase) < static_cast<uint32_t>(cube.singleCoreN) ? (cube.N - colBase) : cube.singleCoreN;

        pipe.InitBuffer(inQ, 2, epiCols * sizeof(float));
        pipe.InitBuffer(outQ, 2, epiCols * sizeof(float));
        pipe.InitBuffer(shiftBuf, epiCols * sizeof(float));
        pipe.InitBuffer(tmpA, epiCols * sizeof(float));
        pipe.InitBuffer(tmpB, epiCols * sizeof(float));
    }

    template <typename MM>
    __aicore__ inline void RunCube(MM &mm)
    {
        if (rowBase >= static_cast<uint32_t>(cube.M) || colBase >= static_cast<uint32_t>(cube.N)) {
            return;
        }
        mm.SetTensorA(xGm[static_cast<uint64_t>(rowBase) * cube.Ka]);
        mm.SetTensorB(wGm[static_cast<uint64_t>(colBase) * cube.Kb], true);
        mm.SetBias(biasGm[colBase]);
        mm.SetTail(rowCnt, colCnt);
        mm.IterateAll(yGm[static_cast<uint64_t>(rowBase) * cube.N + colBase]);
        mm.End();
    }

    __aicore__ inline void RunEpilogue()
    {
        if (rowBase >= static_cast<uint32_t>(cube.M) || colBase >= static_cast<uint32_t>(cube.N)) {
            return;
        }
        for (uint32_t c0 = 0; c0 < colCnt; c0 += epiCols) {
            uint32_t len = (colCnt - c0) < epiCols ? (colCnt - c0) : epiCols;
            DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> nopad{false, 0, 0, 0.0f};

            LocalTensor<float> sh = shiftBuf.Get<float>();
            DataCopyPad(sh, shiftGm[colBase + c0], cp, nopad);
            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
            SetFlag<HardEvent::MTE2_V>(e);
            WaitFlag<HardEvent::MTE2_V>(e);

            for (uint32_t r = 0; r < rowCnt; ++r) {
                uint64_t off = static_cast<uint64_t>(rowBase + r) * nTotal + colBase + c0;
                LocalTensor<float> v = inQ.AllocTensor<float>();
                DataCopyPad(v, yGm[off], cp, nopad);
                inQ.EnQue(v);

                v = inQ.DeQue<float>();
                LocalTensor<float> o = outQ.AllocTensor<float>();
                Activate(o, v, sh, len);
                inQ.FreeTensor(v);
                outQ.EnQue(o);

                o = outQ.DeQue<float>();
                DataCopyPad(yGm[off], o, cp);
                outQ.FreeTensor(o);
            }
        }
    }

private:
    __aicore__ inline void Activate(LocalTensor<float> &dst, LocalTensor<float> &src, LocalTensor<float> &sh, uint32_t len)
    {
        LocalTensor<float> a = tmpA.Get<float>();
        LocalTensor<float> b = tmpB.Get<float>();
        // z = v + shift
        Add(a, src, sh, len);
        // swish: z * sigmoid(z) = z / (1 + exp(-z))
        Muls(b, a, -1.0f, len);
        Exp(b, b, len);
        Adds(b, b, 1.0f, len);
        Div(a, a, b, len);
        // tanh(s) = 2 / (1 + exp(-2s)) - 1
        Muls(b, a, -2.0f, len);
        Exp(b, b, len);
        Adds(b, b, 1.0f, len);
        Duplicate(dst, 2.0f, len);
        Div(a, dst, b, len);
        Adds(a, a, -1.0f, len);
        // exact gelu: 0.5 * t * (1 + erf(t / sqrt(2)))
        Muls(b, a, INV_SQRT2, len);
        Erf(b, b, len);
        Adds(b, b, 1.0f, len);
        Mul(b, b, a, len);
        Muls(dst, b, 0.5f, len);
        // hard clip
        Maxs(dst, dst, clipLo, len);
        Mins(dst, dst, clipHi, len);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> shiftBuf, tmpA, tmpB;
    GlobalTensor<float> xGm, wGm, biasGm, shiftGm, yGm;
    TCubeTiling cube;
    uint32_t nTotal = 0, epiCols = 0;
    uint32_t mIdx = 0, nIdx = 0, rowBase = 0, colBase = 0, rowCnt = 0, colCnt = 0;
    float clipLo = -1.0f, clipHi = 1.0f;
};

extern "C" __global__ __aicore__ void dense_swish_tanh_gelu_clip(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR shift,
                                                                 GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR user = GetUserWorkspace(workspace);
    if (user == nullptr) {
        return;
    }
    DenseSwishTanhGeluClipKernel op;
    op.Init(x, weight, bias, shift, y, td);
    Matmul<DenseSwishTanhGeluClipKernel::AType, DenseSwishTanhGeluClipKernel::BType,
           DenseSwishTanhGeluClipKernel::CType, DenseSwishTanhGeluClipKernel::BiasType> mm;
    TPipe *pipe = GetTPipePtr();
    REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm, &td.mm);
    op.RunCube(mm);
    op.RunEpilogue();
}
