// ChannelwiseConv2d: depthwise 2-D convolution (one filter per channel), rectangular kernel,
// independent stride / padding / dilation per axis.
//
// Unit of work = one output row of one (sample, channel) plane. The needed input rows are staged
// in UB behind an aligned block of zeros (left padding) and followed by zeros (right padding);
// per kernel column a Gather with a precomputed index table yields the strided/dilated/shifted
// input vector, which is accumulated with Axpy.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class ChannelwiseConv2dKernel {
public:
    __aicore__ inline ChannelwiseConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                const ChannelwiseConv2dTilingData &td)
    {
        td_ = td;
        uint32_t id = GetBlockIdx();
        begin_ = id * td.rowsPerCore + (id < td.rowsTail ? id : td.rowsTail);
        end_ = begin_ + td.rowsPerCore + (id < td.rowsTail ? 1 : 0);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        fGm_.SetGlobalBuffer((__gm__ T *)filter);
        if (td.hasBias) {
            bGm_.SetGlobalBuffer((__gm__ T *)bias);
        }
        yGm_.SetGlobalBuffer((__gm__ T *)y);

        pipe_.InitBuffer(rowsBuf_, td.kh * td.rowBufLen * sizeof(T));
        pipe_.InitBuffer(idxBuf_, td.kw * td.woutAlign * sizeof(uint32_t));
        pipe_.InitBuffer(gatherBuf_, td.woutAlign * sizeof(T));
        pipe_.InitBuffer(yQue_, 2, td.woutAlign * sizeof(T));

        LocalTensor<uint32_t> idx = idxBuf_.Get<uint32_t>();
        for (uint32_t j = 0; j < td.kw; ++j) {
            for (uint32_t ow = 0; ow < td.wout; ++ow) {
                uint32_t pos = td.leftPad + ow * td.strideW + j * td.dilW - td.padW;
                idx.SetValue(j * td.woutAlign + ow, pos * static_cast<uint32_t>(sizeof(T)));
            }
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = begin_; r < end_; ++r) {
            uint32_t plane = r / td_.hout;
            uint32_t oh = r % td_.hout;
            RowCompute(plane, oh);
        }
    }

private:
    __aicore__ inline void RowCompute(uint32_t plane, uint32_t oh)
    {
        uint32_t ch = plane % td_.channels;
        LocalTensor<T> rows = rowsBuf_.Get<T>();
        LocalTensor<uint32_t> idx = idxBuf_.Get<uint32_t>();
        LocalTensor<T> g = gatherBuf_.Get<T>();

        // stage the contributing input rows; missing (padded) rows are marked invalid
        bool valid[32];
        Duplicate(rows, static_cast<T>(0), td_.kh * td_.rowBufLen);
        event_t vToMte2 = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(vToMte2);
        WaitFlag<HardEvent::V_MTE2>(vToMte2);
        for (uint32_t i = 0; i < td_.kh; ++i) {
            int32_t ih = static_cast<int32_t>(oh * td_.strideH + i * td_.dilH) - static_cast<int32_t>(td_.padH);
            valid[i] = ih >= 0 && ih < static_cast<int32_t>(td_.hin);
            if (!valid[i]) {
                continue;
            }
            uint64_t src = (static_cast<uint64_t>(plane) * td_.hin + ih) * td_.win;
            DataCopyPad(rows[i * td_.rowBufLen + td_.leftPad], xGm_[src],
                        DataCopyExtParams{1, static_cast<uint32_t>(td_.win * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
        }
        event_t mte2ToV = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mte2ToV);
        WaitFlag<HardEvent::MTE2_V>(mte2ToV);

        LocalTensor<T> acc = yQue_.AllocTensor<T>();
        T init = td_.hasBias ? bGm_.GetValue(ch) : static_cast<T>(0);
        Duplicate(acc, init, td_.wout);

        uint64_t fBase = static_cast<uint64_t>(ch) * td_.kh * td_.kw;
        for (uint32_t i = 0; i < td_.kh; ++i) {
            if (!valid[i]) {
                continue;
            }
            for (uint32_t j = 0; j < td_.kw; ++j) {
                T wv = fGm_.GetValue(fBase + i * td_.kw + j);
                Gather(g, rows[i * td_.rowBufLen], idx[j * td_.woutAlign], 0U, td_.wout);
                PipeBarrier<PIPE_V>();
                Axpy(acc, g, wv, td_.wout);
                PipeBarrier<PIPE_V>();
            }
        }
        yQue_.EnQue(acc);

        LocalTensor<T> out = yQue_.DeQue<T>();
        uint64_t dst = (static_cast<uint64_t>(plane) * td_.hout + oh) * td_.wout;
        DataCopyPad(yGm_[dst], out, DataCopyExtParams{1, static_cast<uint32_t>(td_.wout * sizeof(T)), 0, 0, 0});
        yQue_.FreeTensor(out);
    }

    TPipe pipe_;
    TBuf<TPosition::VECCALC> rowsBuf_, idxBuf_, gatherBuf_;
    TQue<TPosition::VECOUT, 2> yQue_;
    GlobalTensor<T> xGm_, fGm_, bGm_, yGm_;
    ChannelwiseConv2dTilingData td_;
    uint32_t begin_ = 0;
    uint32_t end_ = 0;
};

extern "C" __global__ __aicore__ void channelwise_conv2d(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ChannelwiseConv2dKernel<float> op;
        op.Init(x, filter, bias, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ChannelwiseConv2dKernel<half> op;
        op.Init(x, filter, bias, y, td);
        op.Process();
    }
}
