#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLK_FLOATS = 8;  // floats per 32 B block
// GELU (tanh form): x * sigmoid(2 * sqrt(2/pi) * (x + 0.044715 x^3))
constexpr float GELU_K = 1.5957691216057308f;
constexpr float GELU_C = 0.044715f;
}

class KernelLnGeluScale {
public:
    __aicore__ inline KernelLnGeluScale() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const ConvTranspose3dLayerNormGeluScalingCustomTilingData &td)
    {
        normLen = td.normLen;
        tileRows = td.tileRows;
        eps = td.eps;
        scale = td.scale;
        invN = 1.0f / static_cast<float>(normLen);
        repStride = static_cast<uint8_t>(normLen / BLK_FLOATS);

        uint32_t core = GetBlockIdx();
        uint32_t startRow;
        if (core < td.rowsRemain) {
            myRows = td.rowsPerCore + 1;
            startRow = core * myRows;
        } else {
            myRows = td.rowsPerCore;
            startRow = td.rowsRemain * (td.rowsPerCore + 1) + (core - td.rowsRemain) * td.rowsPerCore;
        }
        uint64_t base = static_cast<uint64_t>(startRow) * normLen;
        xGm.SetGlobalBuffer((__gm__ float *)x + base, static_cast<uint64_t>(myRows) * normLen);
        yGm.SetGlobalBuffer((__gm__ float *)y + base, static_cast<uint64_t>(myRows) * normLen);
        wGm.SetGlobalBuffer((__gm__ float *)w, normLen);
        bGm.SetGlobalBuffer((__gm__ float *)b, normLen);

        uint32_t tileBytes = tileRows * normLen * sizeof(float);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQ, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(paramQ, 1, 2 * normLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileBytes);
        pipe.InitBuffer(statBuf, tileRows * sizeof(float));
        pipe.InitBuffer(bcastBuf, tileRows * BLK_FLOATS * sizeof(float));
        pipe.InitBuffer(oneBuf, tileRows * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        // gamma and beta stay resident for the whole kernel.
        LocalTensor<float> params = paramQ.AllocTensor<float>();
        DataCopy(params, wGm, normLen);
        DataCopy(params[normLen], bGm, normLen);
        paramQ.EnQue(params);
        params = paramQ.DeQue<float>();
        gamma = params;
        beta = params[normLen];
        Duplicate(oneBuf.Get<float>(), 1.0f, tileRows);

        for (uint32_t r0 = 0; r0 < myRows; r0 += tileRows) {
            uint32_t rows = (r0 + tileRows <= myRows) ? tileRows : (myRows - r0);
            CopyIn(r0, rows);
            Compute(rows);
            CopyOut(r0, rows);
        }
        paramQ.FreeTensor(params);
    }

private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopy(t, xGm[static_cast<uint64_t>(r0) * normLen], rows * normLen);
        inQ.EnQue(t);
    }

    // dst[r, :] op= stat[r] for every row, using Brcb to spread each row's
    // scalar across one 32 B block and a zero block-stride on the second source.
    __aicore__ inline void BroadcastRows(const LocalTensor<float> &stat, uint32_t rowsPad)
    {
        LocalTensor<float> bc = bcastBuf.Get<float>();
        Brcb(bc, stat, static_cast<uint8_t>(rowsPad / BLK_FLOATS), {1, 8});
    }

    __aicore__ inline void Compute(uint32_t rows)
    {
        LocalTensor<float> xt = inQ.DeQue<float>();
        LocalTensor<float> yt = outQ.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> bc = bcastBuf.Get<float>();
        LocalTensor<float> ones = oneBuf.Get<float>();

        uint32_t rowsPad = (rows + BLK_FLOATS - 1) / BLK_FLOATS * BLK_FLOATS;
        uint8_t rep = static_cast<uint8_t>(rowsPad);
        uint64_t mask = normLen;
        uint32_t total = rowsPad * normLen;
        BinaryRepeatParams rowBcast(1, 1, 0, repStride, repStride, 1);  // src1 = one block per row
        BinaryRepeatParams vecBcast(1, 1, 1, repStride, repStride, 0);  // src1 = gamma/beta row

        // mean
        WholeReduceSum(stat, xt, static_cast<int32_t>(mask), rowsPad, 1, 1, repStride);
        Muls(stat, stat, invN, rowsPad);
        BroadcastRows(stat, rowsPad);
        Sub(yt, xt, bc, mask, rep, rowBcast);             // y = x - mean

        // variance -> rstd
        Mul(tmp, yt, yt, total);
        WholeReduceSum(stat, tmp, static_cast<int32_t>(mask), rowsPad, 1, 1, repStride);
        Muls(stat, stat, invN, rowsPad);
        Adds(stat, stat, eps, rowsPad);
        Sqrt(stat, stat, rowsPad);
        Div(stat, ones, stat, rowsPad);
        BroadcastRows(stat, rowsPad);
        Mul(yt, yt, bc, mask, rep, rowBcast);             // y = (x - mean) * rstd

        // affine
        Mul(yt, yt, gamma, mask, rep, vecBcast);
        Add(yt, yt, beta, mask, rep, vecBcast);

        // GELU: y * 1 / (1 + exp(-k * (y + c*y^3))), then scaling
        Mul(tmp, yt, yt, total);
        Muls(tmp, tmp, GELU_C, total);
        Adds(tmp, tmp, 1.0f, total);
        Mul(tmp, tmp, yt, total);                          // y + c*y^3
        Muls(tmp, tmp, -GELU_K, total);
        Exp(tmp, tmp, total);
        Adds(tmp, tmp, 1.0f, total);
        Div(yt, yt, tmp, total);
        if (scale != 1.0f) {
            Muls(yt, yt, scale, total);
        }

        outQ.EnQue(yt);
        inQ.FreeTensor(xt);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> t = outQ.DeQue<float>();
        DataCopy(yGm[static_cast<uint64_t>(r0) * normLen], t, rows * normLen);
        outQ.FreeTensor(t);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TQue<QuePosition::VECIN, 1> paramQ;
    TBuf<QuePosition::VECCALC> tmpBuf, statBuf, bcastBuf, oneBuf;
    GlobalTensor<float> xGm, yGm, wGm, bGm;
    LocalTensor<float> gamma, beta;
    uint32_t normLen = 0;
    uint32_t tileRows = 0;
    uint32_t myRows = 0;
    uint8_t repStride = 8;
    float eps = 1e-5f;
    float scale = 1.0f;
    float invN = 1.0f;
};

extern "C" __global__ __aicore__ void conv_transpose3d_layer_norm_gelu_scaling_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLnGeluScale op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
