#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;

__aicore__ inline uint32_t RoundUp8(uint32_t v) { return (v + 7) / 8 * 8; }

/*
 * y[n,c,od,oh,ow] = (mean(x[n,c,2od:2od+2, 2oh:2oh+2, 2ow:2ow+2]) * s_in + bias[c]) * s_out
 *
 * One work item is one output depth plane (n, c, od). For a chunk of output rows the two
 * input depth slices are copied in as contiguous blocks and summed with one vector Add.
 * The 2x2 spatial window is then collapsed with four Gathers that share one offset table
 * (only the byte base differs: 0, 4, 4W, 4W+4), which keeps everything on the vector unit
 * even though W is odd and rows are not 32B aligned.
 */
class ScaledAvgPool3dBias {
public:
    __aicore__ inline ScaledAvgPool3dBias() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const ScaledAvgPool3dBiasTilingData &td)
    {
        C = td.channels;
        D = td.inD;
        H = td.inH;
        W = td.inW;
        OD = td.outD;
        OH = td.outH;
        OW = td.outW;
        R = td.rowsPerChunk;
        mulFactor = td.mulFactor;
        scaleOut = td.scaleOut;

        const uint32_t planes = td.planeCount;
        const uint32_t blocks = GetBlockNum();
        const uint32_t me = GetBlockIdx();
        const uint32_t q = planes / blocks;
        const uint32_t r = planes % blocks;
        planeStart = me * q + (me < r ? me : r);
        planeEnd = planeStart + q + (me < r ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        bGm.SetGlobalBuffer((__gm__ float *)bias, C);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        sliceStride = RoundUp8(2 * R * W);
        gatherLen = RoundUp8(R * OW);
        pipe.InitBuffer(inQ, 2, DEPTH * sliceStride * sizeof(float));
        pipe.InitBuffer(outQ, 2, gatherLen * sizeof(float));
        pipe.InitBuffer(g0Buf, gatherLen * sizeof(float));
        pipe.InitBuffer(g1Buf, gatherLen * sizeof(float));
        pipe.InitBuffer(idxBuf, gatherLen * sizeof(uint32_t));
        pipe.InitBuffer(biasBuf, RoundUp8(C) * sizeof(float));

        // Offset (bytes) of the top-left element of every 2x2 window inside a chunk.
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t row = 0; row < R; ++row) {
            for (uint32_t col = 0; col < OW; ++col) {
                idx.SetValue(row * OW + col, (2 * row * W + 2 * col) * 4);
            }
        }

        // Bias vector, read back as scalars per plane.
        LocalTensor<float> b = biasBuf.Get<float>();
        DataCopyExtParams cp{1, C * 4, 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(b, bGm, cp, np);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> b = biasBuf.Get<float>();
        for (uint32_t p = planeStart; p < planeEnd; ++p) {
            const uint32_t nc = p / OD;        // n * C + c
            const uint32_t od = p % OD;
            const float addend = b.GetValue(nc % C) * scaleOut;
            const uint64_t inBase = (static_cast<uint64_t>(nc) * D + 2 * od) * H * W;
            const uint64_t outBase = static_cast<uint64_t>(p) * OH * OW;
            for (uint32_t oh0 = 0; oh0 < OH; oh0 += R) {
                const uint32_t rows = (OH - oh0) < R ? (OH - oh0) : R;
                CopyIn(inBase + static_cast<uint64_t>(2 * oh0) * W, rows);
                Compute(rows, addend);
                CopyOut(outBase + static_cast<uint64_t>(oh0) * OW, rows);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t rows)
    {
        LocalTensor<float> in = inQ.AllocTensor<float>();
        const uint32_t len = 2 * rows * W;
        DataCopyExtParams cp{1, len * 4, 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        const uint64_t sliceElems = static_cast<uint64_t>(H) * W;
        for (int32_t dz = 0; dz < DEPTH; ++dz) {
            DataCopyPad(in[dz * sliceStride], xGm[offset + dz * sliceElems], cp, np);
        }
        inQ.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t rows, float addend)
    {
        LocalTensor<float> in = inQ.DeQue<float>();
        LocalTensor<float> g0 = g0Buf.Get<float>();
        LocalTensor<float> g1 = g1Buf.Get<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        const uint32_t cnt = rows * OW;

        // depth reduction
        Add(in, in, in[sliceStride], static_cast<int32_t>(RoundUp8(2 * rows * W)));

        // spatial 2x2 reduction
        const uint32_t rowBytes = W * 4;
        Gather(g0, in, idx, 0U, cnt);
        Gather(g1, in, idx, 4U, cnt);
        Add(g0, g0, g1, static_cast<int32_t>(cnt));
        Gather(g1, in, idx, rowBytes, cnt);
        Add(g0, g0, g1, static_cast<int32_t>(cnt));
        Gather(g1, in, idx, rowBytes + 4U, cnt);
        Add(g0, g0, g1, static_cast<int32_t>(cnt));

        // (sum / 8 * s_in + bias) * s_out == sum * (s_in * s_out / 8) + bias * s_out
        Muls(out, g0, mulFactor, static_cast<int32_t>(cnt));
        Adds(out, out, addend, static_cast<int32_t>(cnt));

        outQ.EnQue(out);
        inQ.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t rows)
    {
        LocalTensor<float> out = outQ.DeQue<float>();
        DataCopyExtParams cp{1, rows * OW * 4, 0, 0, 0};
        DataCopyPad(yGm[offset], out, cp);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> g0Buf, g1Buf, idxBuf, biasBuf;
    GlobalTensor<float> xGm, bGm, yGm;

    uint32_t C, D, H, W, OD, OH, OW, R;
    uint32_t sliceStride, gatherLen;
    uint32_t planeStart, planeEnd;
    float mulFactor, scaleOut;
};

extern "C" __global__ __aicore__ void scaled_avg_pool3d_bias_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ScaledAvgPool3dBias op;
    op.Init(x, bias, y, td);
    op.Process();
}
