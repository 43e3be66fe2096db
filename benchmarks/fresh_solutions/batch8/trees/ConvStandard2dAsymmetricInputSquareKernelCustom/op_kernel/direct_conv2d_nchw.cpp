#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUF = 2;

/*
 * Direct NCHW convolution, stride 1, no padding, square KxK kernel, fp32.
 *
 * Work item = (n, oh, column tile of tileW outputs). For that item every output channel is
 * accumulated in UB (Cout x tileW). The reduction runs over input channels; per input
 * channel we stage
 *   - the K*K shifted input rows x[n, ci, oh+kh, ow0+kw : ow0+kw+tileW], each 32B aligned,
 *     loaded as K strided copies (one per kw, K rows each), and
 *   - the weight slice w[:, ci, :, :] (Cout blocks of K*K floats, each padded to tapStride),
 * and then do Cout*K*K Axpy updates of tileW lanes.
 */
class DirectConv2dNchw {
public:
    __aicore__ inline DirectConv2dNchw() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const DirectConv2dNchwTilingData &td)
    {
        N = td.batch; CI = td.cin; CO = td.cout;
        IH = td.inH; IW = td.inW; K = td.ksize;
        OH = td.outH; OW = td.outW;
        TW = td.tileW; wTiles = td.wTiles; tapStride = td.tapStride;
        taps = K * K;

        const uint32_t cores = GetBlockNum();
        const uint32_t id = GetBlockIdx();
        const uint32_t per = td.totalItems / cores;
        const uint32_t extra = td.totalItems % cores;
        itemBegin = id * per + (id < extra ? id : extra);
        itemEnd = itemBegin + per + (id < extra ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(N) * CI * IH * IW);
        wGm.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(CO) * CI * taps);
        yGm.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(N) * CO * OH * OW);

        pipe.InitBuffer(xQ, BUF, taps * TW * sizeof(float));
        pipe.InitBuffer(wQ, BUF, CO * tapStride * sizeof(float));
        pipe.InitBuffer(accQ, 1, CO * TW * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t item = itemBegin; item < itemEnd; ++item) {
            const uint32_t wt = item % wTiles;
            const uint32_t row = item / wTiles;       // n * OH + oh
            const uint32_t n = row / OH;
            const uint32_t oh = row % OH;
            const uint32_t ow0 = wt * TW;
            const uint32_t cols = (OW - ow0) < TW ? (OW - ow0) : TW;

            LocalTensor<float> acc = accQ.AllocTensor<float>();
            Duplicate(acc, 0.0f, static_cast<int32_t>(CO * TW));
            for (uint32_t ci = 0; ci < CI; ++ci) {
                StageChannel(n, ci, oh, ow0, cols);
                Accumulate(acc, cols);
            }
            accQ.EnQue(acc);
            Store(n, oh, ow0, cols);
        }
    }

private:
    __aicore__ inline void StageChannel(uint32_t n, uint32_t ci, uint32_t oh, uint32_t ow0, uint32_t cols)
    {
        LocalTensor<float> xs = xQ.AllocTensor<float>();
        LocalTensor<float> ws = wQ.AllocTensor<float>();
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};

        // K input rows (kh = 0..K-1) for every horizontal shift kw. Row kh of shift kw lands at
        // xs[(kw * K + kh) * TW].
        const uint32_t colsAligned = (cols + 7) / 8 * 8;
        const uint64_t rowBase = ((static_cast<uint64_t>(n) * CI + ci) * IH + oh) * IW + ow0;
        DataCopyExtParams xp{static_cast<uint16_t>(K), cols * 4, (IW - cols) * 4, (TW - colsAligned) / 8, 0};
        for (uint32_t kw = 0; kw < K; ++kw) {
            DataCopyPad(xs[kw * K * TW], xGm[rowBase + kw], xp, noPad);
        }

        // Weight slice for this input channel: CO blocks of K*K contiguous floats, strided by CI*K*K.
        DataCopyExtParams wp{static_cast<uint16_t>(CO), taps * 4, (CI - 1) * taps * 4, 0, 0};
        DataCopyPad(ws, wGm[static_cast<uint64_t>(ci) * taps], wp, noPad);

        xQ.EnQue(xs);
        wQ.EnQue(ws);
    }

    __aicore__ inline void Accumulate(LocalTensor<float> &acc, uint32_t cols)
    {
        LocalTensor<float> xs = xQ.DeQue<float>();
        LocalTensor<float> ws = wQ.DeQue<float>();
        const int32_t cnt = static_cast<int32_t>(cols);
        for (uint32_t co = 0; co < CO; ++co) {
            LocalTensor<float> dst = acc[co * TW];
            const uint32_t wBase = co * tapStride;
            for (uint32_t kh = 0; kh < K; ++kh) {
                for (uint32_t kw = 0; kw < K; ++kw) {
                    const float wv = ws.GetValue(wBase + kh * K + kw);
                    Axpy(dst, xs[(kw * K + kh) * TW], wv, cnt);
                }
            }
        }
        xQ.FreeTensor(xs);
        wQ.FreeTensor(ws);
    }

    __aicore__ inline void Store(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t cols)
    {
        LocalTensor<float> acc = accQ.DeQue<float>();
        const uint32_t colsAligned = (cols + 7) / 8 * 8;
        // CO rows of `cols` floats; in GM consecutive channels are OH*OW apart.
        DataCopyExtParams op{static_cast<uint16_t>(CO), cols * 4, (TW - colsAligned) / 8,
                             (OH * OW - cols) * 4, 0};
        const uint64_t dst = (static_cast<uint64_t>(n) * CO * OH + oh) * OW + ow0;
        DataCopyPad(yGm[dst], acc, op);
        accQ.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUF> xQ, wQ;
    TQue<QuePosition::VECOUT, 1> accQ;
    GlobalTensor<float> xGm, wGm, yGm;

    uint32_t N, CI, CO, IH, IW, K, OH, OW;
    uint32_t TW, wTiles, tapStride, taps;
    uint32_t itemBegin, itemEnd;
};

extern "C" __global__ __aicore__ void direct_conv2d_nchw_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DirectConv2dNchw op;
    op.Init(x, weight, y, td);
    op.Process();
}
