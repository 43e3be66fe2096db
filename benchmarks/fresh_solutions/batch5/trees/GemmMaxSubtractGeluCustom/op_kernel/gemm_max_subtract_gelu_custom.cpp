#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_INF = -3.402823466e+38f;
// gelu(x) ≈ 0.5x(1 + tanh(√(2/π)(x + 0.044715x³))) = x * sigmoid(2√(2/π)(x + 0.044715x³))
constexpr float GELU_COEF = 0.044715f;
constexpr float GELU_2SQRT_2_PI = 1.5957691216057308f;

/*
 * GEMM 之后的尾部融合：max(dim, keepdim) -> 减去 dim=1 上的均值 -> GELU
 *   maxDim = 1：每行取最大值得到 (M,1)，dim=1 上只剩 1 个元素，均值即自身；
 *   maxDim = 0：每列取最大值得到 (1,N)，再减去这 N 个数的均值。需要跨核求和，借助 workspace + SyncAll。
 */
class KernelMaxSubGelu {
public:
    __aicore__ inline KernelMaxSubGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR usrWs, const GemmMaxSubtractGeluCustomTilingData& td)
    {
        m = td.m;
        n = td.n;
        maxDim = td.maxDim;
        tileLen = td.tileLen;
        rowChunk = td.rowChunk;
        colTile = td.colTile;
        rowsPerLoad = td.rowsPerLoad;
        uint32_t idx = GetBlockIdx();

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        if (maxDim == 1) {
            rowCount = td.rowsPerCore + (idx < td.rowsTail ? 1 : 0);
            rowStart = idx * td.rowsPerCore + (idx < td.rowsTail ? idx : td.rowsTail);
            pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
            pipe.InitBuffer(accBuf, tileLen * sizeof(float));
            pipe.InitBuffer(workBuf, tileLen * sizeof(float));
            pipe.InitBuffer(rowMaxBuf, rowChunk * sizeof(float));
            pipe.InitBuffer(tmpBuf, rowChunk * sizeof(float));
            pipe.InitBuffer(outQueue, 1, rowChunk * sizeof(float));
        } else {
            colStart = idx * td.colsPerCore;
            colCount = (colStart + td.colsPerCore <= n) ? td.colsPerCore : (n - colStart);
            colMaxGm.SetGlobalBuffer((__gm__ float*)usrWs, n);
            pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerLoad * colTile * sizeof(float));
            pipe.InitBuffer(accBuf, colTile * sizeof(float));
            pipe.InitBuffer(workBuf, colTile * sizeof(float));
            pipe.InitBuffer(tmpBuf, colTile * sizeof(float));
            pipe.InitBuffer(outQueue, 1, colTile * sizeof(float));
        }
        pipe.InitBuffer(scalarBuf, 64);
    }

    __aicore__ inline void Process()
    {
        if (maxDim == 1) {
            ProcessRowMax();
        } else {
            ProcessColMax();
        }
    }

private:
    __aicore__ inline void WaitV2S()
    {
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
    }

    __aicore__ inline void WaitS2V()
    {
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);
    }

    // dst = gelu(src)，tmp 为同长度临时空间；dst 与 src 不可相同
    __aicore__ inline void Gelu(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                                const LocalTensor<float>& tmp, uint32_t len)
    {
        Mul(tmp, src, src, len);                     // x^2
        Muls(tmp, tmp, GELU_COEF, len);              // 0.044715 x^2
        Adds(tmp, tmp, 1.0f, len);                   // 1 + 0.044715 x^2
        Mul(tmp, tmp, src, len);                     // x + 0.044715 x^3
        Muls(tmp, tmp, -GELU_2SQRT_2_PI, len);       // -2√(2/π)(...)
        Exp(tmp, tmp, len);
        Adds(tmp, tmp, 1.0f, len);
        Div(dst, src, tmp, len);                     // x / (1 + e^{-2u})
    }

    // ---------------------------- maxDim = 1 ----------------------------
    __aicore__ inline float RowMax(uint32_t row)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = scalarBuf.Get<float>();
        Duplicate(acc, NEG_INF, tileLen);

        uint32_t tiles = (n + tileLen - 1) / tileLen;
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t off = t * tileLen;
            uint32_t len = (n - off) < tileLen ? (n - off) : tileLen;
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(xLocal, xGm[static_cast<uint64_t>(row) * n + off], params, pad);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            Max(acc, acc, xLocal, len);
            inQueue.FreeTensor(xLocal);
        }
        ReduceMax(red, acc, work, tileLen, false);
        WaitV2S();
        return red.GetValue(0);
    }

    __aicore__ inline void ProcessRowMax()
    {
        LocalTensor<float> rowMax = rowMaxBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        for (uint32_t base = 0; base < rowCount; base += rowChunk) {
            uint32_t cnt = (rowCount - base) < rowChunk ? (rowCount - base) : rowChunk;
            for (uint32_t i = 0; i < cnt; ++i) {
                rowMax.SetValue(i, RowMax(rowStart + base + i));
            }
            WaitS2V();
            // keepdim 后形状 (M,1)，dim=1 上的均值就是它本身，相减得到中心化结果
            LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
            Sub(tmp, rowMax, rowMax, cnt);
            Gelu(outLocal, tmp, rowMax, cnt);
            outQueue.EnQue(outLocal);
            outLocal = outQueue.DeQue<float>();
            DataCopyExtParams outParams{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[rowStart + base], outLocal, outParams);
            outQueue.FreeTensor(outLocal);
        }
    }

    // ---------------------------- maxDim = 0 ----------------------------
    __aicore__ inline void ProcessColMax()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        // 第一阶段：本核负责的列做列最大值，写入 workspace
        for (uint32_t c = 0; c < colCount; c += colTile) {
            uint32_t cw = (colCount - c) < colTile ? (colCount - c) : colTile;
            uint32_t cwAlign = (cw + 7) / 8 * 8;
            uint32_t col0 = colStart + c;
            Duplicate(acc, NEG_INF, colTile);
            for (uint32_t r = 0; r < m; r += rowsPerLoad) {
                uint32_t rn = (m - r) < rowsPerLoad ? (m - r) : rowsPerLoad;
                LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
                // rn 行、每行 cw 个元素，源端行间跳过 (n - cw) 个元素
                DataCopyExtParams params{static_cast<uint16_t>(rn), static_cast<uint32_t>(cw * sizeof(float)),
                                         static_cast<uint32_t>((n - cw) * sizeof(float)), 0, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                DataCopyPad(xLocal, xGm[static_cast<uint64_t>(r) * n + col0], params, pad);
                inQueue.EnQue(xLocal);
                xLocal = inQueue.DeQue<float>();
                for (uint32_t k = 0; k < rn; ++k) {
                    Max(acc, acc, xLocal[k * cwAlign], cw);
                }
                inQueue.FreeTensor(xLocal);
            }
            LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
            Adds(outLocal, acc, 0.0f, cw);
            outQueue.EnQue(outLocal);
            outLocal = outQueue.DeQue<float>();
            DataCopyExtParams outParams{1, static_cast<uint32_t>(cw * sizeof(float)), 0, 0, 0};
            DataCopyPad(colMaxGm[col0], outLocal, outParams);
            outQueue.FreeTensor(outLocal);
        }

        // 全核同步，保证所有列最大值都已落盘
        SyncAll();

        // 第二阶段：每个核都读全部 N 个列最大值求均值（N 不大，冗余计算比再同步一次划算）
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = scalarBuf.Get<float>();
        float total = 0.0f;
        for (uint32_t c = 0; c < n; c += colTile) {
            uint32_t cw = (n - c) < colTile ? (n - c) : colTile;
            LocalTensor<float> vLocal = inQueue.AllocTensor<float>();
            DataCopyExtParams params{1, static_cast<uint32_t>(cw * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(vLocal, colMaxGm[c], params, pad);
            inQueue.EnQue(vLocal);
            vLocal = inQueue.DeQue<float>();
            ReduceSum(red, vLocal, work, cw);
            WaitV2S();
            total += red.GetValue(0);
            inQueue.FreeTensor(vLocal);
        }
        float negMean = -total / static_cast<float>(n);

        // 第三阶段：本核的列做 (v - mean) 后 GELU
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        for (uint32_t c = 0; c < colCount; c += colTile) {
            uint32_t cw = (colCount - c) < colTile ? (colCount - c) : colTile;
            uint32_t col0 = colStart + c;
            LocalTensor<float> vLocal = inQueue.AllocTensor<float>();
            DataCopyExtParams params{1, static_cast<uint32_t>(cw * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(vLocal, colMaxGm[col0], params, pad);
            inQueue.EnQue(vLocal);
            vLocal = inQueue.DeQue<float>();

            LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
            Adds(acc, vLocal, negMean, cw);
            Gelu(outLocal, acc, tmp, cw);
            inQueue.FreeTensor(vLocal);
            outQueue.EnQue(outLocal);
            outLocal = outQueue.DeQue<float>();
            DataCopyPad(yGm[col0], outLocal, params);
            outQueue.FreeTensor(outLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<QuePosition::VECCALC> accBuf, workBuf, rowMaxBuf, tmpBuf, scalarBuf;
    GlobalTensor<float> xGm, yGm, colMaxGm;

    uint32_t m = 0, n = 0, maxDim = 1;
    uint32_t tileLen = 0, rowChunk = 0, colTile = 0, rowsPerLoad = 1;
    uint32_t rowStart = 0, rowCount = 0;
    uint32_t colStart = 0, colCount = 0;
};

extern "C" __global__ __aicore__ void gemm_max_subtract_gelu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR usrWorkspace = GetUserWorkspace(workspace);
    KernelMaxSubGelu op;
    op.Init(x, y, usrWorkspace, tilingData);
    op.Process();
}
