#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// z = where(cond, x, y) where cond broadcasts over "rows" of innerLen elements.
// Row r of x/y/z uses cond[r % condLen]. Per tile we expand cond into a 0/1
// float mask and its complement, then z = x * m + y * (1 - m).
class KernelWhereBroadcast {
public:
    __aicore__ inline KernelWhereBroadcast() {}

    __aicore__ inline void Init(GM_ADDR cond, GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                const WhereBroadcastCustomTilingData &td)
    {
        innerLen = td.innerLen;
        condLen = td.condLen;
        condAlignLen = td.condAlignLen;
        rowsPerTile = td.rowsPerTile;

        uint32_t idx = GetBlockIdx();
        if (idx < td.formerNum) {
            rowCount = td.rowsPerCore + 1;
            rowStart = idx * rowCount;
        } else {
            rowCount = td.rowsPerCore;
            rowStart = td.formerNum * (td.rowsPerCore + 1) + (idx - td.formerNum) * td.rowsPerCore;
        }

        uint64_t base = static_cast<uint64_t>(rowStart) * innerLen;
        uint64_t len = static_cast<uint64_t>(rowCount) * innerLen;
        condGm.SetGlobalBuffer((__gm__ uint8_t *)cond, condAlignLen);
        xGm.SetGlobalBuffer((__gm__ float *)x + base, len);
        yGm.SetGlobalBuffer((__gm__ float *)y + base, len);
        zGm.SetGlobalBuffer((__gm__ float *)z + base, len);

        uint32_t tileElems = rowsPerTile * innerLen;
        pipe.InitBuffer(condQueue, 1, condAlignLen);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(maskBuf, tileElems * sizeof(float));
        pipe.InitBuffer(invMaskBuf, tileElems * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowCount == 0) {
            return;
        }
        LoadCond();
        condLocal = condQueue.DeQue<uint8_t>();

        uint32_t tiles = (rowCount + rowsPerTile - 1) / rowsPerTile;
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t rowOff = t * rowsPerTile;
            uint32_t rows = (rowOff + rowsPerTile <= rowCount) ? rowsPerTile : (rowCount - rowOff);
            CopyIn(rowOff, rows);
            Compute(rowOff, rows);
            CopyOut(rowOff, rows);
        }
        condQueue.FreeTensor(condLocal);
    }

private:
    __aicore__ inline void LoadCond()
    {
        // cond is tiny (a few hundred bytes); keep the whole thing resident in UB.
        LocalTensor<uint8_t> c = condQueue.AllocTensor<uint8_t>();
        DataCopy(c, condGm, condAlignLen);
        condQueue.EnQue(c);
    }

    __aicore__ inline void CopyIn(uint32_t rowOff, uint32_t rows)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        DataCopy(xLocal, xGm[rowOff * innerLen], rows * innerLen);
        DataCopy(yLocal, yGm[rowOff * innerLen], rows * innerLen);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t rowOff, uint32_t rows)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        LocalTensor<float> mask = maskBuf.Get<float>();
        LocalTensor<float> invMask = invMaskBuf.Get<float>();

        // Expand the per-row condition into a dense mask.
        for (uint32_t r = 0; r < rows; ++r) {
            uint32_t condIdx = (rowStart + rowOff + r) % condLen;
            bool pick = condLocal.GetValue(condIdx) != 0;
            Duplicate(mask[r * innerLen], pick ? 1.0f : 0.0f, innerLen);
            Duplicate(invMask[r * innerLen], pick ? 0.0f : 1.0f, innerLen);
        }
        uint32_t n = rows * innerLen;
        Mul(xLocal, xLocal, mask, n);
        Mul(yLocal, yLocal, invMask, n);
        Add(zLocal, xLocal, yLocal, n);

        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t rowOff, uint32_t rows)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        DataCopy(zGm[rowOff * innerLen], zLocal, rows * innerLen);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> condQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<QuePosition::VECCALC> maskBuf, invMaskBuf;
    GlobalTensor<uint8_t> condGm;
    GlobalTensor<float> xGm, yGm, zGm;
    LocalTensor<uint8_t> condLocal;
    uint32_t innerLen = 0;
    uint32_t condLen = 1;
    uint32_t condAlignLen = 32;
    uint32_t rowsPerTile = 1;
    uint32_t rowStart = 0;
    uint32_t rowCount = 0;
};

extern "C" __global__ __aicore__ void where_broadcast_custom(GM_ADDR cond, GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelWhereBroadcast op;
    op.Init(cond, x, y, z, tilingData);
    op.Process();
}
