// stencil_hswish_downpool_mish.cpp
//
//   c = conv2d(x, w, b)            valid 3x3 (any K) convolution, stride 1
//   h = hardswish(c - offset)
//   p = maxpool2x2(h)
//   y = mish(p)
//
// One task = (output-channel group, image n, pooled row ph). The two conv rows that feed the
// pooled row are accumulated for the whole channel group with Axpy; the shifted input rows
// (one per kernel column) are fetched straight from GM with DataCopyPad, so no realignment is
// needed in UB. Horizontal 2:1 pooling uses GatherMask to split even/odd columns.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DB = 2;

struct StencilHswishDownpoolMishTiling {
    uint32_t batch;
    uint32_t inC;
    uint32_t outC;
    uint32_t inH;
    uint32_t inW;
    uint32_t convH;
    uint32_t convW;
    uint32_t convWPad;   // convW rounded up to 64 (one GatherMask repeat)
    uint32_t poolH;
    uint32_t poolW;
    uint32_t kSize;
    uint32_t groupC;     // output channels per task
    uint32_t groupNum;
    uint32_t taskPerCore;
    uint32_t taskTotal;
    float offset;
};

class StencilHswishDownpoolMish {
public:
    __aicore__ inline StencilHswishDownpoolMish() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const StencilHswishDownpoolMishTiling &tl)
    {
        td = tl;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        taskBeg = GetBlockIdx() * td.taskPerCore;
        taskEnd = taskBeg + td.taskPerCore < td.taskTotal ? taskBeg + td.taskPerCore : td.taskTotal;

        rowsIn = td.kSize + 1;  // two conv rows need K+1 input rows
        wGroupLen = td.groupC * td.inC * td.kSize * td.kSize;
        pipe.InitBuffer(xQue, DB, rowsIn * td.kSize * td.convWPad * sizeof(float));
        pipe.InitBuffer(yQue, DB, td.convWPad / 2 * sizeof(float));
        pipe.InitBuffer(wBuf, (wGroupLen + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(bBuf, (td.outC + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(accBuf, 2 * td.groupC * td.convWPad * sizeof(float));
        pipe.InitBuffer(tmpBuf, 2 * td.convWPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (taskBeg >= taskEnd) {
            return;
        }
        LocalTensor<float> bl = bBuf.Get<float>();
        DataCopyPad(bl, bGm, DataCopyExtParams{1, td.outC * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});

        int32_t loadedGroup = -1;
        for (uint32_t task = taskBeg; task < taskEnd; ++task) {
            // task order: group-major so a core mostly keeps the same weights
            uint32_t g = task / (td.batch * td.poolH);
            uint32_t rem = task % (td.batch * td.poolH);
            uint32_t n = rem / td.poolH;
            uint32_t ph = rem % td.poolH;
            if ((int32_t)g != loadedGroup) {
                LoadWeights(g);
                loadedGroup = (int32_t)g;
            }
            ConvTwoRows(n, ph, g);
            PoolAndStore(n, ph, g);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t g)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        // (outC, inC, K, K): the group's slice is contiguous
        DataCopyPad(wl, wGm[(uint64_t)g * wGroupLen],
                    DataCopyExtParams{1, wGroupLen * (uint32_t)sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    // loads rows (2*ph + i), i in [0, K], each shifted by kw in [0, K) -> rowsIn*K rows of convWPad
    __aicore__ inline void LoadInput(uint32_t n, uint32_t ic, uint32_t ph)
    {
        LocalTensor<float> xl = xQue.AllocTensor<float>();
        uint32_t padR = td.convWPad - td.convW;
        for (uint32_t i = 0; i < rowsIn; ++i) {
            uint32_t ih = 2 * ph + i;
            uint64_t rowBase = (((uint64_t)n * td.inC + ic) * td.inH + ih) * td.inW;
            for (uint32_t kw = 0; kw < td.kSize; ++kw) {
                LocalTensor<float> dst = xl[(i * td.kSize + kw) * td.convWPad];
                // rightPadding is limited to one 32B block, the remaining pad is never read back
                DataCopyPad(dst, xGm[rowBase + kw],
                            DataCopyExtParams{1, td.convW * (uint32_t)sizeof(float), 0, 0, 0},
                            DataCopyPadExtParams<float>{true, 0, (uint8_t)(padR % 8), 0.0f});
            }
        }
        xQue.EnQue(xl);
    }

    __aicore__ inline void ConvTwoRows(uint32_t n, uint32_t ph, uint32_t g)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> bl = bBuf.Get<float>();
        const uint32_t L = td.convWPad;
        const uint32_t K = td.kSize;
        const uint32_t KK = K * K;

        // acc[r][c] = bias - offset (the subtraction folds into the init value)
        for (uint32_t c = 0; c < td.groupC; ++c) {
            float init = bl.GetValue(g * td.groupC + c) - td.offset;
            Duplicate(acc[c * L], init, L);
            Duplicate(acc[(td.groupC + c) * L], init, L);
        }

        LoadInput(n, 0, ph);
        for (uint32_t ic = 0; ic < td.inC; ++ic) {
            LocalTensor<float> xl = xQue.DeQue<float>();
            if (ic + 1 < td.inC) {
                LoadInput(n, ic + 1, ph);   // prefetch next channel
            }
            for (uint32_t r = 0; r < 2; ++r) {
                LocalTensor<float> accRow = acc[r * td.groupC * L];
                for (uint32_t kh = 0; kh < K; ++kh) {
                    for (uint32_t kw = 0; kw < K; ++kw) {
                        LocalTensor<float> src = xl[((r + kh) * K + kw) * L];
                        uint32_t wOff = ic * KK + kh * K + kw;
                        for (uint32_t c = 0; c < td.groupC; ++c) {
                            float wv = wl.GetValue(c * td.inC * KK + wOff);
                            Axpy(accRow[c * L], src, wv, td.convW);
                        }
                    }
                }
            }
            xQue.FreeTensor(xl);
        }
    }

    __aicore__ inline void HardSwish(LocalTensor<float> &v, LocalTensor<float> &t, uint32_t len)
    {
        // v * clamp(v + 3, 0, 6) / 6
        Adds(t, v, 3.0f, len);
        Maxs(t, t, 0.0f, len);
        Mins(t, t, 6.0f, len);
        Mul(v, v, t, len);
        Muls(v, v, 1.0f / 6.0f, len);
    }

    __aicore__ inline void PoolAndStore(uint32_t n, uint32_t ph, uint32_t g)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        const uint32_t L = td.convWPad;
        const uint32_t half = L / 2;
        LocalTensor<float> evenCols = tmp;
        LocalTensor<float> oddCols = tmp[half];
        LocalTensor<float> scratch = tmp[L];

        for (uint32_t c = 0; c < td.groupC; ++c) {
            LocalTensor<float> r0 = acc[c * L];
            LocalTensor<float> r1 = acc[(td.groupC + c) * L];
            HardSwish(r0, scratch, L);
            HardSwish(r1, scratch, L);
            Max(r0, r0, r1, L);   // vertical 2:1

            // horizontal 2:1: pattern 1 keeps even lanes, pattern 2 keeps odd lanes
            uint64_t kept = 0;
            GatherMaskParams gp{1, (uint16_t)(L / 64), 8, 0};
            GatherMask(evenCols, r0, (uint8_t)1, false, 0, gp, kept);
            GatherMask(oddCols, r0, (uint8_t)2, false, 0, gp, kept);

            LocalTensor<float> out = yQue.AllocTensor<float>();
            Max(out, evenCols, oddCols, half);
            // mish(p) = p * ((1+e^p)^2 - 1) / ((1+e^p)^2 + 1)
            Mins(scratch, out, 20.0f, half);
            Exp(scratch, scratch, half);
            Adds(scratch, scratch, 1.0f, half);
            Mul(scratch, scratch, scratch, half);
            Adds(r1, scratch, 1.0f, half);
            Adds(scratch, scratch, -1.0f, half);
            Div(scratch, scratch, r1, half);
            Mul(out, out, scratch, half);
            yQue.EnQue(out);

            out = yQue.DeQue<float>();
            uint32_t oc = g * td.groupC + c;
            uint64_t dst = (((uint64_t)n * td.outC + oc) * td.poolH + ph) * td.poolW;
            DataCopyPad(yGm[dst], out, DataCopyExtParams{1, td.poolW * (uint32_t)sizeof(float), 0, 0, 0});
            yQue.FreeTensor(out);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, DB> xQue;
    TQue<QuePosition::VECOUT, DB> yQue;
    TBuf<TPosition::VECCALC> wBuf, bBuf, accBuf, tmpBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    StencilHswishDownpoolMishTiling td;
    uint32_t taskBeg = 0, taskEnd = 0;
    uint32_t rowsIn = 0, wGroupLen = 0;
};

extern "C" __global__ __aicore__ void stencil_hswish_downpool_mish(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                                                   GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    StencilHswishDownpoolMishTiling tl;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(tl) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    StencilHswishDownpoolMish op;
    op.Init(x, w, b, y, tl);
    op.Process();
}
