/**
 * Conv3dSoftmaxCascadePool
 *
 *   c = conv3d(x, filter) + bias                 (valid, stride 1)
 *   s = softmax(c, axis = channel)
 *   y = maxpool_{p2}(maxpool_{p1}(s))            (kernel == stride, floor mode)
 *
 * Two back-to-back non-overlapping max pools are the same as a single
 * non-overlapping pool with window p1*p2 (output extent floor(floor(L/p1)/p2)
 * = floor(L/(p1*p2))), so the kernel uses one window `win` per axis.
 *
 * Work item: (n, od, oh, column tile). The item visits the win x win conv rows
 * that feed its pooled row, computes each conv row for all output channels in
 * UB, applies the channel softmax, and keeps a running element-wise max across
 * the win*win rows. The final width-direction max is taken while packing the
 * output. Conv values are never written to GM.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DB = 2;
__aicore__ inline uint32_t Up8(uint32_t v) { return (v + 7) / 8 * 8; }
}  // namespace

class Conv3dSoftmaxCascadePoolKernel {
public:
    __aicore__ inline Conv3dSoftmaxCascadePoolKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                const Conv3dSoftmaxCascadePoolTiling &tl)
    {
        N = tl.batch; C = tl.cin; D = tl.inD; H = tl.inH; W = tl.inW;
        O = tl.cout; KD = tl.kd; KH = tl.kh; KW = tl.kw;
        win = tl.win;
        oD = tl.outD; oH = tl.outH; oW = tl.outW;
        tileOw = tl.tileOw;
        owTiles = tl.owTiles;
        total = tl.totalItems;

        taps = KD * KH * KW;
        tapsPad = Up8(taps);
        convPitch = Up8(tileOw * win);
        outPitch = Up8(tileOw);

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)N * C * D * H * W);
        fGm.SetGlobalBuffer((__gm__ float *)filter, (uint64_t)O * C * taps);
        bGm.SetGlobalBuffer((__gm__ float *)bias, O);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)N * O * oD * oH * oW);

        pipe.InitBuffer(tapQue, DB, taps * convPitch * sizeof(float));
        pipe.InitBuffer(filtQue, DB, O * tapsPad * sizeof(float));
        pipe.InitBuffer(outQue, DB, O * outPitch * sizeof(float));
        pipe.InitBuffer(accTB, O * convPitch * sizeof(float));
        pipe.InitBuffer(poolTB, O * convPitch * sizeof(float));
        pipe.InitBuffer(redTB, 2 * convPitch * sizeof(float));
        pipe.InitBuffer(biasTB, Up8(O) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> bias = biasTB.Get<float>();
        DataCopyPad(bias, bGm, {1, O * (uint32_t)sizeof(float), 0, 0, 0}, {false, 0, 0, 0});
        SyncPipe<HardEvent::MTE2_S>();

        for (uint32_t item = GetBlockIdx(); item < total; item += GetBlockNum()) {
            uint32_t tile = item % owTiles;
            uint32_t rest = item / owTiles;
            uint32_t ohIdx = rest % oH;
            rest /= oH;
            uint32_t odIdx = rest % oD;
            uint32_t n = rest / oD;
            uint32_t ow0 = tile * tileOw;
            uint32_t cols = (oW - ow0) < tileOw ? (oW - ow0) : tileOw;
            PooledRow(n, odIdx, ohIdx, ow0, cols, bias);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void SyncPipe()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    // shifted input rows of one input channel + the matching filter slice
    __aicore__ inline void Stage(uint32_t n, uint32_t ic, uint32_t d, uint32_t h, uint32_t c0, uint32_t convCols)
    {
        LocalTensor<float> tp = tapQue.AllocTensor<float>();
        DataCopyExtParams seg{1, convCols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> none{false, 0, 0, 0};
        uint64_t vol = ((uint64_t)n * C + ic) * D * H * W;
        uint32_t k = 0;
        for (uint32_t a = 0; a < KD; ++a) {
            for (uint32_t b = 0; b < KH; ++b) {
                uint64_t rowBase = vol + ((uint64_t)(d + a) * H + (h + b)) * W + c0;
                for (uint32_t c = 0; c < KW; ++c, ++k) {
                    DataCopyPad(tp[k * convPitch], xGm[rowBase + c], seg, none);
                }
            }
        }
        tapQue.EnQue(tp);

        LocalTensor<float> fl = filtQue.AllocTensor<float>();
        DataCopyExtParams fp{static_cast<uint16_t>(O), taps * (uint32_t)sizeof(float),
                             (C - 1) * taps * (uint32_t)sizeof(float), 0, 0};
        DataCopyPad(fl, fGm[(uint64_t)ic * taps], fp, none);
        filtQue.EnQue(fl);
    }

    // conv row (all output channels) at depth d, height h into acc, then channel softmax in place
    __aicore__ inline void ConvSoftmaxRow(uint32_t n, uint32_t d, uint32_t h, uint32_t c0, uint32_t convCols,
                                          LocalTensor<float> &bias)
    {
        LocalTensor<float> acc = accTB.Get<float>();
        for (uint32_t o = 0; o < O; ++o) {
            Duplicate(acc[o * convPitch], bias.GetValue(o), convPitch);
        }
        Stage(n, 0, d, h, c0, convCols);
        for (uint32_t ic = 0; ic < C; ++ic) {
            if (ic + 1 < C) {
                Stage(n, ic + 1, d, h, c0, convCols);
            }
            LocalTensor<float> tp = tapQue.DeQue<float>();
            LocalTensor<float> fl = filtQue.DeQue<float>();
            SyncPipe<HardEvent::MTE2_S>();
            for (uint32_t o = 0; o < O; ++o) {
                for (uint32_t k = 0; k < taps; ++k) {
                    Axpy(acc[o * convPitch], tp[k * convPitch], fl.GetValue(o * tapsPad + k), convCols);
                }
            }
            tapQue.FreeTensor(tp);
            filtQue.FreeTensor(fl);
        }

        // softmax across the O channel rows, column-wise
        LocalTensor<float> red = redTB.Get<float>();
        LocalTensor<float> cmax = red;
        LocalTensor<float> csum = red[convPitch];
        DataCopy(cmax, acc, convPitch);
        for (uint32_t o = 1; o < O; ++o) {
            Max(cmax, cmax, acc[o * convPitch], convCols);
        }
        for (uint32_t o = 0; o < O; ++o) {
            Sub(acc[o * convPitch], acc[o * convPitch], cmax, convCols);
            Exp(acc[o * convPitch], acc[o * convPitch], convCols);
        }
        DataCopy(csum, acc, convPitch);
        for (uint32_t o = 1; o < O; ++o) {
            Add(csum, csum, acc[o * convPitch], convCols);
        }
        Reciprocal(csum, csum, convCols);
        for (uint32_t o = 0; o < O; ++o) {
            Mul(acc[o * convPitch], acc[o * convPitch], csum, convCols);
        }
    }

    __aicore__ inline void PooledRow(uint32_t n, uint32_t od, uint32_t oh, uint32_t ow0, uint32_t cols,
                                     LocalTensor<float> &bias)
    {
        uint32_t convCols = cols * win;
        uint32_t c0 = ow0 * win;
        LocalTensor<float> acc = accTB.Get<float>();
        LocalTensor<float> pool = poolTB.Get<float>();

        // depth / height part of the pooling window: running max over win*win conv rows
        for (uint32_t dz = 0; dz < win; ++dz) {
            for (uint32_t hy = 0; hy < win; ++hy) {
                ConvSoftmaxRow(n, od * win + dz, oh * win + hy, c0, convCols, bias);
                if (dz == 0 && hy == 0) {
                    DataCopy(pool, acc, O * convPitch);
                } else {
                    Max(pool, pool, acc, O * convPitch);
                }
            }
        }
        SyncPipe<HardEvent::V_S>();

        // width part: max over groups of `win` adjacent columns
        LocalTensor<float> out = outQue.AllocTensor<float>();
        for (uint32_t o = 0; o < O; ++o) {
            for (uint32_t j = 0; j < cols; ++j) {
                uint32_t base = o * convPitch + j * win;
                float m = pool.GetValue(base);
                for (uint32_t k = 1; k < win; ++k) {
                    float v = pool.GetValue(base + k);
                    m = v > m ? v : m;
                }
                out.SetValue(o * outPitch + j, m);
            }
        }
        SyncPipe<HardEvent::S_MTE3>();
        outQue.EnQue(out);
        out = outQue.DeQue<float>();

        // one strided store: O channel rows, each `cols` long, channel stride oD*oH*oW in GM
        uint64_t dst = (((uint64_t)n * O * oD + od) * oH + oh) * oW + ow0;
        uint32_t chanStride = oD * oH * oW;
        DataCopyExtParams sp{static_cast<uint16_t>(O), cols * (uint32_t)sizeof(float),
                             (outPitch - Up8(cols)) / 8, (chanStride - cols) * (uint32_t)sizeof(float), 0};
        DataCopyPad(yGm[dst], out, sp);
        outQue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, DB> tapQue, filtQue;
    TQue<QuePosition::VECOUT, DB> outQue;
    TBuf<TPosition::VECCALC> accTB, poolTB, redTB, biasTB;
    GlobalTensor<float> xGm, fGm, bGm, yGm;

    uint32_t N, C, D, H, W, O, KD, KH, KW;
    uint32_t win, oD, oH, oW, tileOw, owTiles, total;
    uint32_t taps, tapsPad, convPitch, outPitch;
};

extern "C" __global__ __aicore__ void conv3d_softmax_cascade_pool(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tl, tiling);
    Conv3dSoftmaxCascadePoolKernel op;
    op.Init(x, filter, bias, y, tl);
    op.Process();
}
