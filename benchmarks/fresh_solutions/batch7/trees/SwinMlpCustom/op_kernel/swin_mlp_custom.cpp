#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Row-wise LayerNorm: y = (x - mean) / sqrt(var + eps) * gamma + beta over the last axis.
// Each core gets a contiguous band of rows and walks it in tiles of rowsPerTile rows,
// handing every tile to the LayerNorm library call as a [1, rows, hidden] tensor.
class KernelSwinLayerNorm {
public:
    __aicore__ inline KernelSwinLayerNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const SwinMlpCustomTilingData &td)
    {
        hidden = td.hidden;
        tileRows = td.rowsPerTile;
        eps = td.epsilon;
        lnTiling = td.lnTiling;

        rowStart = GetBlockIdx() * td.rowsPerCore;
        uint32_t rowStop = rowStart + td.rowsPerCore;
        if (rowStop > td.totalRows) rowStop = td.totalRows;
        myRows = rowStop > rowStart ? rowStop - rowStart : 0;

        xGm.SetGlobalBuffer((__gm__ float *)x + (uint64_t)rowStart * hidden);
        yGm.SetGlobalBuffer((__gm__ float *)y + (uint64_t)rowStart * hidden);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, hidden);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, hidden);

        uint32_t tileElems = tileRows * hidden;
        uint32_t statElems = (tileRows + 7) / 8 * 8;
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(paramQueue, 1, 2 * hidden * sizeof(float));
        pipe.InitBuffer(meanBuf, statElems * sizeof(float));
        pipe.InitBuffer(varBuf, statElems * sizeof(float));
        pipe.InitBuffer(tmpBuf, td.tmpBufSize);
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) {
            return;
        }
        // gamma/beta are shared by every tile: load once
        LocalTensor<float> params = paramQueue.AllocTensor<float>();
        DataCopy(params, gammaGm, hidden);
        DataCopy(params[hidden], betaGm, hidden);
        paramQueue.EnQue(params);
        params = paramQueue.DeQue<float>();
        LocalTensor<float> gammaLocal = params;
        LocalTensor<float> betaLocal = params[hidden];

        uint32_t tiles = (myRows + tileRows - 1) / tileRows;
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t r0 = t * tileRows;
            uint32_t rows = (r0 + tileRows <= myRows) ? tileRows : (myRows - r0);
            CopyIn(r0, rows);
            Compute(gammaLocal, betaLocal);
            CopyOut(r0, rows);
        }
        paramQueue.FreeTensor(params);
    }

private:
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> xl = inQueue.AllocTensor<float>();
        DataCopy(xl, xGm[(uint64_t)r0 * hidden], rows * hidden);
        inQueue.EnQue(xl);
    }

    __aicore__ inline void Compute(LocalTensor<float> &gammaLocal, LocalTensor<float> &betaLocal)
    {
        LocalTensor<float> xl = inQueue.DeQue<float>();
        LocalTensor<float> yl = outQueue.AllocTensor<float>();
        LocalTensor<float> meanLocal = meanBuf.Get<float>();
        LocalTensor<float> varLocal = varBuf.Get<float>();
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();

        // a short last tile still runs over the full tile shape baked into lnTiling;
        // the stale rows are simply never written back
        LayerNorm<float, false>(yl, meanLocal, varLocal, xl, gammaLocal, betaLocal, tmp, eps, lnTiling);

        outQueue.EnQue(yl);
        inQueue.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> yl = outQueue.DeQue<float>();
        DataCopy(yGm[(uint64_t)r0 * hidden], yl, rows * hidden);
        outQueue.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TQue<QuePosition::VECIN, 1> paramQueue;
    TBuf<TPosition::VECCALC> meanBuf, varBuf, tmpBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm;
    LayerNormTiling lnTiling;
    uint32_t hidden = 0, tileRows = 0, rowStart = 0, myRows = 0;
    float eps = 1e-5f;
};

extern "C" __global__ __aicore__ void swin_mlp_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSwinLayerNorm op;
    op.Init(x, gamma, beta, y, tilingData);
    op.Process();
}
