#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

// out = (instnorm(x @ W^T + b) + y) * y ; instance norm over each row (C=H=1, W=out_features)
class BmmInstNormKernel {
public:
    typedef matmul::MatmulType<TPosition::GM, CubeFormat::ND, float> aT;
    typedef matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true> bT;
    typedef matmul::MatmulType<TPosition::GM, CubeFormat::ND, float> cT;
    typedef matmul::MatmulType<TPosition::GM, CubeFormat::ND, float> biasT;

    __aicore__ inline BmmInstNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR bias, GM_ADDR out,
                                const BmmInstanceNormSumResidualAddMultiplyCustomTilingData& t)
    {
        batch = t.batch; inF = t.inFeatures; outF = t.outFeatures; eps = t.eps;
        firstRow = GetBlockIdx() * t.blockRows;
        numRows = (firstRow + t.blockRows > batch) ? batch - firstRow : t.blockRows;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)batch * inF);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)batch * outF);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)outF * inF);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, outF);
        outGm.SetGlobalBuffer((__gm__ float*)out, (uint64_t)batch * outF);

        uint32_t rowBytes = outF * sizeof(float);
        pipe.InitBuffer(hQue, 1, rowBytes);
        pipe.InitBuffer(yQue, 1, rowBytes);
        pipe.InitBuffer(oQue, 1, rowBytes);
        pipe.InitBuffer(tmpBuf, rowBytes);
        pipe.InitBuffer(statBuf, 8 * sizeof(float));
        pipe.InitBuffer(redWork, 512 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (numRows == 0) return;
        // linear: result parked in out, normalized in place below
        mm.SetTensorA(xGm[(uint64_t)firstRow * inF]);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(numRows, outF, inF);
        mm.IterateAll(outGm[(uint64_t)firstRow * outF]);
        mm.End();
        PipeBarrier<PIPE_ALL>();

        for (uint32_t r = 0; r < numRows; r++) {
            uint64_t off = (uint64_t)(firstRow + r) * outF;
            LoadRow(off);
            NormRow();
            StoreRow(off);
        }
    }

    TPipe pipe;
    matmul::Matmul<aT, bT, cT, biasT> mm;

private:
    __aicore__ inline void LoadRow(uint64_t off)
    {
        LocalTensor<float> h = hQue.AllocTensor<float>();
        LocalTensor<float> yv = yQue.AllocTensor<float>();
        DataCopy(h, outGm[off], outF);
        DataCopy(yv, yGm[off], outF);
        hQue.EnQue(h);
        yQue.EnQue(yv);
    }

    __aicore__ inline void NormRow()
    {
        LocalTensor<float> h = hQue.DeQue<float>();
        LocalTensor<float> yv = yQue.DeQue<float>();
        LocalTensor<float> o = oQue.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> wk = redWork.Get<float>();
        float invN = 1.0f / static_cast<float>(outF);

        ReduceSum<float>(st, h, wk, outF);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float mean = st.GetValue(0) * invN;
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);

        Adds(o, h, -mean, outF);              // centered
        Mul(tmp, o, o, outF);
        ReduceSum<float>(st, tmp, wk, outF);  // st[0] = sum (x-mean)^2
        Muls(st, st, invN, 1);
        Adds(st, st, eps, 1);
        Sqrt(st, st, 1);
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float rstd = 1.0f / st.GetValue(0);
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);

        Muls(o, o, rstd, outF);
        Add(o, o, yv, outF);     // + y
        Mul(o, o, yv, outF);     // * y

        oQue.EnQue(o);
        hQue.FreeTensor(h);
        yQue.FreeTensor(yv);
    }

    __aicore__ inline void StoreRow(uint64_t off)
    {
        LocalTensor<float> o = oQue.DeQue<float>();
        DataCopy(outGm[off], o, outF);
        oQue.FreeTensor(o);
    }

    TQue<QuePosition::VECIN, 1> hQue, yQue;
    TQue<QuePosition::VECOUT, 1> oQue;
    TBuf<TPosition::VECCALC> tmpBuf, statBuf, redWork;
    GlobalTensor<float> xGm, yGm, wGm, biasGm, outGm;
    uint32_t batch, inF, outF, firstRow, numRows;
    float eps;
};

extern "C" __global__ __aicore__ void bmm_instance_norm_sum_residual_add_multiply_custom(
    GM_ADDR x, GM_ADDR y, GM_ADDR weight, GM_ADDR bias, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() >= tilingData.coreUsed) {
        return;
    }
    BmmInstNormKernel k;
    REGIST_MATMUL_OBJ(&k.pipe, GetSysWorkSpacePtr(), k.mm, &tilingData.mmTiling);
    k.Init(x, y, weight, bias, out, tilingData);
    k.Process();
}
