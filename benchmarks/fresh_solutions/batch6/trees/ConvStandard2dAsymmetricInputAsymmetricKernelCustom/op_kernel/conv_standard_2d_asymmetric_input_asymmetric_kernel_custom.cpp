#include "kernel_operator.h"

using namespace AscendC;

// Valid (no padding, stride 1) 2D convolution on the vector unit.
// task = (n, oh, oc tile). acc[oc][ow] += w[ic, i, j, oc] * x[n, ic, oh + i, ow + j]
// The x row slice starting at column j is fetched directly from GM (so the shift costs nothing on
// the vector side); the ocTile weights of one input channel are staged in UB and read as scalars.
class ConvValid2dKernel {
public:
    __aicore__ inline ConvValid2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR y,
                                const ConvStandard2dAsymmetricInputAsymmetricKernelCustomTilingData& t)
    {
        nb = t.batch; ci = t.inC; ih = t.inH; iw = t.inW;
        co = t.outC; kh = t.kH; kw = t.kW;
        oh = t.outH; ow = t.outW; owA = t.outWAlign;
        ocTile = t.ocTile; ocTiles = t.ocTiles;
        taps = kh * kw;

        uint32_t bid = GetBlockIdx();
        taskBeg = bid * t.taskPerCore + (bid < t.taskTail ? bid : t.taskTail);
        taskCnt = t.taskPerCore + (bid < t.taskTail ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)nb * ci * ih * iw);
        wGm.SetGlobalBuffer((__gm__ float*)wt, (uint64_t)ci * taps * co);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)nb * co * oh * ow);

        pipe.InitBuffer(accBuf, ocTile * owA * sizeof(float));
        pipe.InitBuffer(wQue, 1, taps * ocTile * sizeof(float));
        pipe.InitBuffer(xQue, 2, owA * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < taskCnt; ++t) {
            uint32_t task = taskBeg + t;
            uint32_t tile = task % ocTiles;
            uint32_t rowIdx = task / ocTiles;
            RunTask(rowIdx / oh, rowIdx % oh, tile * ocTile);
        }
    }

private:
    __aicore__ inline void RunTask(uint32_t n, uint32_t row, uint32_t oc0)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        PipeBarrier<PIPE_ALL>();
        Duplicate(acc, 0.0f, ocTile * owA);

        for (uint32_t c = 0; c < ci; ++c) {
            // weights [taps][ocTile] for this input channel, gathered from [ci][taps][co]
            LocalTensor<float> wl = wQue.AllocTensor<float>();
            DataCopyParams wcp;
            wcp.blockCount = static_cast<uint16_t>(taps);
            wcp.blockLen = static_cast<uint16_t>(ocTile * sizeof(float) / 32);
            wcp.srcStride = static_cast<uint16_t>((co - ocTile) * sizeof(float) / 32);
            wcp.dstStride = 0;
            DataCopy(wl, wGm[(uint64_t)c * taps * co + oc0], wcp);
            wQue.EnQue(wl);
            wl = wQue.DeQue<float>();
            event_t evS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(evS);
            WaitFlag<HardEvent::MTE2_S>(evS);

            for (uint32_t i = 0; i < kh; ++i) {
                uint64_t rowOff = (((uint64_t)n * ci + c) * ih + row + i) * iw;
                for (uint32_t j = 0; j < kw; ++j) {
                    FetchSlice(rowOff + j);
                    LocalTensor<float> xs = xQue.DeQue<float>();
                    uint32_t tapBase = (i * kw + j) * ocTile;
                    for (uint32_t o = 0; o < ocTile; ++o) {
                        Axpy(acc[o * owA], xs, wl.GetValue(tapBase + o), owA);
                    }
                    xQue.FreeTensor(xs);
                }
            }
            wQue.FreeTensor(wl);
        }

        event_t evOut = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(evOut);
        WaitFlag<HardEvent::V_MTE3>(evOut);
        DataCopyExtParams ocp{1, ow * (uint32_t)sizeof(float), 0, 0, 0};
        for (uint32_t o = 0; o < ocTile; ++o) {
            uint64_t dst = (((uint64_t)n * co + oc0 + o) * oh + row) * ow;
            DataCopyPad(yGm[dst], acc[o * owA], ocp);
        }
    }

    // ow contiguous inputs starting at GM offset off; the [ow, owA) tail is zero filled
    __aicore__ inline void FetchSlice(uint64_t off)
    {
        LocalTensor<float> xs = xQue.AllocTensor<float>();
        DataCopyExtParams cp{1, ow * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pp{true, 0, static_cast<uint8_t>(owA - ow), 0.0f};
        DataCopyPad(xs, xGm[off], cp, pp);
        xQue.EnQue(xs);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> accBuf;
    TQue<QuePosition::VECIN, 1> wQue;
    TQue<QuePosition::VECIN, 2> xQue;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t nb, ci, ih, iw, co, kh, kw, oh, ow, owA;
    uint32_t ocTile, ocTiles, taps;
    uint32_t taskBeg, taskCnt;
};

extern "C" __global__ __aicore__ void conv_standard_2d_asymmetric_input_asymmetric_kernel_custom(
    GM_ADDR x, GM_ADDR weight_t, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ConvValid2dKernel op;
    op.Init(x, weight_t, y, tilingData);
    op.Process();
}
