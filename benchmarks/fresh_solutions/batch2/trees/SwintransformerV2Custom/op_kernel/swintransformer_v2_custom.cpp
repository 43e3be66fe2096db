#include "kernel_operator.h"

using namespace AscendC;

// Residual post-norm used twice in every Swin V2 block:
//   y = residual + (x - mean(x)) / sqrt(var(x) + eps) * gamma + beta      (per row of C)
// Rows are distributed over cores; each core streams tiles of rows through UB.

constexpr int32_t BUFFER_NUM = 2;

class KernelResPostNorm {
public:
    __aicore__ inline KernelResPostNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR res, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const SwintransformerV2CustomTilingData& td)
    {
        cols = td.cols;
        pitch = td.colsAlign;
        tileRows = td.rowsPerTile;
        eps = td.eps;
        invCols = td.invCols;

        rowStart = GetBlockIdx() * td.rowsPerCore;
        uint32_t end = rowStart + td.rowsPerCore;
        myRows = (end > td.rows) ? (td.rows > rowStart ? td.rows - rowStart : 0) : td.rowsPerCore;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        resGm.SetGlobalBuffer((__gm__ float*)res);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma);
        betaGm.SetGlobalBuffer((__gm__ float*)beta);

        pipe.InitBuffer(xQue, BUFFER_NUM, tileRows * pitch * sizeof(float));
        pipe.InitBuffer(rQue, BUFFER_NUM, tileRows * pitch * sizeof(float));
        pipe.InitBuffer(yQue, BUFFER_NUM, tileRows * pitch * sizeof(float));
        pipe.InitBuffer(paramBuf, 2 * pitch * sizeof(float));
        pipe.InitBuffer(sqBuf, pitch * sizeof(float));
        pipe.InitBuffer(workBuf, pitch * sizeof(float));
        pipe.InitBuffer(statBuf, 64 * sizeof(float));

        // gamma / beta stay resident
        LocalTensor<float> prm = paramBuf.Get<float>();
        DataCopyExtParams cp{1, cols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(prm, gammaGm, cp, pad);
        DataCopyPad(prm[pitch], betaGm, cp, pad);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < myRows; done += tileRows) {
            uint32_t n = (myRows - done) < tileRows ? (myRows - done) : tileRows;
            uint64_t off = (uint64_t)(rowStart + done) * cols;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<float> xt = xQue.AllocTensor<float>();
        LocalTensor<float> rt = rQue.AllocTensor<float>();
        // n rows of `cols` floats, each landing on a 32B aligned UB row (pitch)
        DataCopyExtParams cp{(uint16_t)n, cols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xt, xGm[off], cp, pad);
        DataCopyPad(rt, resGm[off], cp, pad);
        xQue.EnQue(xt);
        rQue.EnQue(rt);
    }

    __aicore__ inline float RowSum(const LocalTensor<float>& src)
    {
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> wk = workBuf.Get<float>();
        ReduceSum(st, src, wk, cols);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return st.GetValue(0);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> xt = xQue.DeQue<float>();
        LocalTensor<float> rt = rQue.DeQue<float>();
        LocalTensor<float> yt = yQue.AllocTensor<float>();
        LocalTensor<float> prm = paramBuf.Get<float>();
        LocalTensor<float> gam = prm;
        LocalTensor<float> bet = prm[pitch];
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> st = statBuf.Get<float>();

        for (uint32_t i = 0; i < n; ++i) {
            LocalTensor<float> xr = xt[i * pitch];
            LocalTensor<float> yr = yt[i * pitch];

            float mean = RowSum(xr) * invCols;
            Adds(xr, xr, -mean, cols);
            PipeBarrier<PIPE_V>();
            Mul(sq, xr, xr, cols);
            PipeBarrier<PIPE_V>();
            float var = RowSum(sq) * invCols;

            // 1/sqrt(var + eps) on the vector unit (one element)
            Duplicate(st, var + eps, 8);
            PipeBarrier<PIPE_V>();
            Sqrt(st, st, 8);
            PipeBarrier<PIPE_V>();
            Reciprocal(st, st, 8);
            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e);
            WaitFlag<HardEvent::V_S>(e);
            float rstd = st.GetValue(0);

            Muls(yr, xr, rstd, cols);
            PipeBarrier<PIPE_V>();
            Mul(yr, yr, gam, cols);
            PipeBarrier<PIPE_V>();
            Add(yr, yr, bet, cols);
            PipeBarrier<PIPE_V>();
            Add(yr, yr, rt[i * pitch], cols);
            PipeBarrier<PIPE_V>();
        }
        yQue.EnQue(yt);
        xQue.FreeTensor(xt);
        rQue.FreeTensor(rt);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<float> yt = yQue.DeQue<float>();
        DataCopyExtParams cp{(uint16_t)n, cols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[off], yt, cp);
        yQue.FreeTensor(yt);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, rQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<QuePosition::VECCALC> paramBuf, sqBuf, workBuf, statBuf;
    GlobalTensor<float> xGm, resGm, yGm, gammaGm, betaGm;
    uint32_t cols, pitch, tileRows, rowStart, myRows;
    float eps, invCols;
};

extern "C" __global__ __aicore__ void swintransformer_v2_custom(GM_ADDR x, GM_ADDR residual, GM_ADDR gamma,
                                                                GM_ADDR beta, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelResPostNorm op;
    op.Init(x, residual, gamma, beta, y, tilingData);
    op.Process();
}
