#include "kernel_operator.h"

using namespace AscendC;

// ConvTranspose3d(k=3, s=2, p=1, op=1) -> LeakyReLU -> *mult[oc] -> LeakyReLU -> MaxPool3d(2)
//
// Output index o = 2*i - 1 + k per dim. Even o=2a uses (k=1, i=a); odd o=2a+1 uses (k=0, i=a+1), (k=2, i=a).
// A 2x2x2 pool window holds exactly one output of each parity class, so pooled[c,a,b] is the max
// over the 8 classes, each a sum of input taps at (c|c+1, a|a+1, b|b+1) -> everything lives on the
// input grid. The +1 shift along W is done by DataCopyPad (skip first elem, zero pad the row end).
class KernelConvT3dLeakyMax {
public:
    __aicore__ inline KernelConvT3dLeakyMax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR m, GM_ADDR y,
                                const ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustomTilingData& t)
    {
        N = t.batch; Cin = t.cin; Cout = t.cout; D = t.inD; H = t.inH; W = t.inW;
        taskNum = t.taskNum; slope = t.slope;
        hw = H * W;
        slot = hw + W;   // plane + one zero row for the +1 shift along H

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        bGm.SetGlobalBuffer((__gm__ float*)b);
        mGm.SetGlobalBuffer((__gm__ float*)m);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(planeBuf, 4 * slot * sizeof(float));  // [dd][sw] planes
        pipe.InitBuffer(accBuf, 8 * hw * sizeof(float));      // one accumulator per parity class
        pipe.InitBuffer(outQ, 2, hw * sizeof(float));

        LocalTensor<float> pl = planeBuf.Get<float>();
        Duplicate(pl, 0.0f, 4 * slot);
        evVM = static_cast<event_t>(pipe.AllocEventID<HardEvent::V_MTE2>());
        evMV = static_cast<event_t>(pipe.AllocEventID<HardEvent::MTE2_V>());
        SetFlag<HardEvent::V_MTE2>(evVM);
    }

    __aicore__ inline void Process()
    {
        uint32_t nCore = GetBlockNum();
        for (uint32_t task = GetBlockIdx(); task < taskNum; task += nCore) {
            uint32_t c = task % D;
            uint32_t oc = (task / D) % Cout;
            uint32_t n = task / (D * Cout);
            Accumulate(n, oc, c);
            Epilogue(n, oc, c);
        }
        WaitFlag<HardEvent::V_MTE2>(evVM);
    }

private:
    __aicore__ inline void LoadPlanes(uint32_t n, uint32_t ic, uint32_t c, bool hasNext)
    {
        LocalTensor<float> pl = planeBuf.Get<float>();
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPadExtParams<float> tailZero{true, 0, 1, 0.0f};
        // unshifted: straight plane copy; shifted: rows of W-1 elems starting at col 1, 1 zero appended
        DataCopyExtParams full{1, static_cast<uint32_t>(hw * sizeof(float)), 0, 0, 0};
        DataCopyExtParams shift{static_cast<uint16_t>(H), static_cast<uint32_t>((W - 1) * sizeof(float)),
                                static_cast<uint32_t>(sizeof(float)), 0, 0};
        uint32_t ddMax = hasNext ? 2 : 1;
        for (uint32_t dd = 0; dd < ddMax; ++dd) {
            uint64_t src = (((uint64_t)n * Cin + ic) * D + c + dd) * hw;
            DataCopyPad(pl[(dd * 2) * slot], xGm[src], full, noPad);
            DataCopyPad(pl[(dd * 2 + 1) * slot], xGm[src + 1], shift, tailZero);
        }
    }

    __aicore__ inline void Accumulate(uint32_t n, uint32_t oc, uint32_t c)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> pl = planeBuf.Get<float>();
        Duplicate(acc, 0.0f, 8 * hw);
        bool hasNext = (c + 1) < D;

        // per parity: number of taps, kernel index and input shift of each tap
        const uint32_t tapCnt[2] = {1, 2};
        const uint32_t tapK[2][2] = {{1, 0}, {0, 2}};
        const uint32_t tapS[2][2] = {{0, 0}, {1, 0}};

        for (uint32_t ic = 0; ic < Cin; ++ic) {
            WaitFlag<HardEvent::V_MTE2>(evVM);
            LoadPlanes(n, ic, c, hasNext);
            SetFlag<HardEvent::MTE2_V>(evMV);
            WaitFlag<HardEvent::MTE2_V>(evMV);

            uint64_t wBase = ((uint64_t)ic * Cout + oc) * 27;
            for (uint32_t cls = 0; cls < 8; ++cls) {
                uint32_t pd = (cls >> 2) & 1, ph = (cls >> 1) & 1, pw = cls & 1;
                LocalTensor<float> dst = acc[cls * hw];
                for (uint32_t i = 0; i < tapCnt[pd]; ++i) {
                    uint32_t sd = tapS[pd][i];
                    if (sd == 1 && !hasNext) {
                        continue;   // depth c+1 is past the input: contributes zero
                    }
                    for (uint32_t j = 0; j < tapCnt[ph]; ++j) {
                        uint32_t sh = tapS[ph][j];
                        for (uint32_t l = 0; l < tapCnt[pw]; ++l) {
                            uint32_t sw = tapS[pw][l];
                            uint32_t kIdx = (tapK[pd][i] * 3 + tapK[ph][j]) * 3 + tapK[pw][l];
                            float wv = wGm.GetValue(wBase + kIdx);
                            Axpy(dst, pl[(sd * 2 + sw) * slot + sh * W], wv, hw);
                        }
                    }
                }
            }
            PipeBarrier<PIPE_V>();
            SetFlag<HardEvent::V_MTE2>(evVM);
        }
    }

    __aicore__ inline void Epilogue(uint32_t n, uint32_t oc, uint32_t c)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        float bias = bGm.GetValue(oc);
        float mul = mGm.GetValue(oc);
        uint32_t total = 8 * hw;

        Adds(acc, acc, bias, total);
        PipeBarrier<PIPE_V>();
        LeakyRelu(acc, acc, slope, total);
        PipeBarrier<PIPE_V>();
        Muls(acc, acc, mul, total);
        PipeBarrier<PIPE_V>();
        LeakyRelu(acc, acc, slope, total);
        PipeBarrier<PIPE_V>();

        LocalTensor<float> res = outQ.AllocTensor<float>();
        Max(res, acc, acc[hw], hw);
        for (uint32_t cls = 2; cls < 8; ++cls) {
            PipeBarrier<PIPE_V>();
            Max(res, res, acc[cls * hw], hw);
        }
        outQ.EnQue(res);
        res = outQ.DeQue<float>();
        DataCopy(yGm[(((uint64_t)n * Cout + oc) * D + c) * hw], res, hw);
        outQ.FreeTensor(res);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> planeBuf, accBuf;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<float> xGm, wGm, bGm, mGm, yGm;
    event_t evVM, evMV;
    uint32_t N, Cin, Cout, D, H, W, hw, slot, taskNum;
    float slope;
};

extern "C" __global__ __aicore__ void conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR multiplier, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvT3dLeakyMax op;
    op.Init(x, weight, bias, multiplier, y, tilingData);
    op.Process();
}
