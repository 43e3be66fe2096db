/*
 * DenseBnReluConv kernel.
 *
 * One task = (image n, group of output channels, output row oh).  For each task we keep
 * ocGroup accumulator rows in UB.  For every input channel / kernel row we bring in one
 * input row, normalise it (scale/shift + ReLU) once, and then for each kernel column we
 * Axpy the (shifted) row into all accumulators of the group with the matching weight.
 * Zero padding is applied AFTER the activation, as in the reference network.
 * Stride is 1 (all convolutions inside dense blocks / transitions use stride 1).
 */
#include "kernel_operator.h"

using namespace AscendC;

class DenseBnReluConvKernel {
public:
    __aicore__ inline DenseBnReluConvKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR weight, GM_ADDR y,
                                const DenseBnReluConvTilingData& td)
    {
        n_ = td.batch; c_ = td.inC; h_ = td.inH; w_ = td.inW;
        oc_ = td.outC; oh_ = td.outH; ow_ = td.outW;
        kh_ = td.kH; kw_ = td.kW; pad_ = td.pad;
        inWA_ = td.inWAlign; outWA_ = td.outWAlign;
        group_ = td.ocGroup; groupNum_ = td.ocGroupNum; tasks_ = td.totalTasks;

        xGm_.SetGlobalBuffer((__gm__ float*)x);
        scaleGm_.SetGlobalBuffer((__gm__ float*)scale, c_);
        shiftGm_.SetGlobalBuffer((__gm__ float*)shift, c_);
        wGm_.SetGlobalBuffer((__gm__ float*)weight);
        yGm_.SetGlobalBuffer((__gm__ float*)y);

        pipe_.InitBuffer(rowQue_, 2, inWA_ * sizeof(float));
        pipe_.InitBuffer(outQue_, 2, outWA_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, group_ * outWA_ * sizeof(float));
        pipe_.InitBuffer(shiftBuf_, outWA_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = GetBlockIdx(); t < tasks_; t += GetBlockNum()) {
            uint32_t row = t % oh_;
            uint32_t g = (t / oh_) % groupNum_;
            uint32_t img = t / (oh_ * groupNum_);
            RunTask(img, g, row);
        }
    }

private:
    __aicore__ inline void RunTask(uint32_t img, uint32_t g, uint32_t orow)
    {
        uint32_t ocBeg = g * group_;
        uint32_t ocCnt = (ocBeg + group_ <= oc_) ? group_ : (oc_ - ocBeg);
        LocalTensor<float> acc = accBuf_.Get<float>();
        Duplicate(acc, 0.0f, ocCnt * outWA_);

        for (uint32_t ic = 0; ic < c_; ++ic) {
            float sc = scaleGm_.GetValue(ic);
            float sh = shiftGm_.GetValue(ic);
            for (uint32_t r = 0; r < kh_; ++r) {
                int32_t ih = static_cast<int32_t>(orow + r) - static_cast<int32_t>(pad_);
                if (ih < 0 || ih >= static_cast<int32_t>(h_)) {
                    continue;   // the whole row lies in the zero padding
                }
                LocalTensor<float> act = LoadActivatedRow(img, ic, static_cast<uint32_t>(ih), sc, sh);
                for (uint32_t q = 0; q < kw_; ++q) {
                    LocalTensor<float> src = ShiftRow(act, static_cast<int32_t>(q) - static_cast<int32_t>(pad_));
                    for (uint32_t o = 0; o < ocCnt; ++o) {
                        uint64_t wIdx = (((uint64_t)(ocBeg + o) * c_ + ic) * kh_ + r) * kw_ + q;
                        float wv = wGm_.GetValue(wIdx);
                        Axpy(acc[o * outWA_], src, wv, ow_);
                    }
                    PipeBarrier<PIPE_V>();
                }
                rowQue_.FreeTensor(act);
            }
        }

        for (uint32_t o = 0; o < ocCnt; ++o) {
            LocalTensor<float> out = outQue_.AllocTensor<float>();
            DataCopy(out, acc[o * outWA_], outWA_);
            outQue_.EnQue(out);
            out = outQue_.DeQue<float>();
            uint64_t dst = (((uint64_t)img * oc_ + ocBeg + o) * oh_ + orow) * ow_;
            DataCopyExtParams cp{1, static_cast<uint32_t>(ow_ * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm_[dst], out, cp);
            outQue_.FreeTensor(out);
        }
    }

    // copy x[img, ic, ih, :] into UB and apply relu(x * sc + sh)
    __aicore__ inline LocalTensor<float> LoadActivatedRow(uint32_t img, uint32_t ic, uint32_t ih, float sc, float sh)
    {
        LocalTensor<float> row = rowQue_.AllocTensor<float>();
        uint64_t off = (((uint64_t)img * c_ + ic) * h_ + ih) * w_;
        DataCopyExtParams cp{1, static_cast<uint32_t>(w_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(row, xGm_[off], cp, padParams);
        rowQue_.EnQue(row);
        row = rowQue_.DeQue<float>();
        Muls(row, row, sc, w_);
        PipeBarrier<PIPE_V>();
        Adds(row, row, sh, w_);
        PipeBarrier<PIPE_V>();
        Relu(row, row, w_);
        PipeBarrier<PIPE_V>();
        return row;
    }

    // returns a view where element ow == act[ow + s] (zero when outside the input row)
    __aicore__ inline LocalTensor<float> ShiftRow(const LocalTensor<float>& act, int32_t s)
    {
        if (s == 0 && ow_ <= w_) {
            return act;
        }
        LocalTensor<float> dst = shiftBuf_.Get<float>();
        // vector results must be visible to the scalar unit before the gather
        event_t v2s = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(v2s);
        WaitFlag<HardEvent::V_S>(v2s);
        for (uint32_t o = 0; o < ow_; ++o) {
            int32_t iw = static_cast<int32_t>(o) + s;
            float v = (iw >= 0 && iw < static_cast<int32_t>(w_)) ? act.GetValue(iw) : 0.0f;
            dst.SetValue(o, v);
        }
        event_t s2v = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(s2v);
        WaitFlag<HardEvent::S_V>(s2v);
        return dst;
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> rowQue_;
    TQue<QuePosition::VECOUT, 2> outQue_;
    TBuf<TPosition::VECCALC> accBuf_;
    TBuf<TPosition::VECCALC> shiftBuf_;
    GlobalTensor<float> xGm_, scaleGm_, shiftGm_, wGm_, yGm_;
    uint32_t n_, c_, h_, w_, oc_, oh_, ow_, kh_, kw_, pad_;
    uint32_t inWA_, outWA_, group_, groupNum_, tasks_;
};

extern "C" __global__ __aicore__ void dense_bn_relu_conv(GM_ADDR x, GM_ADDR bn_scale, GM_ADDR bn_shift,
                                                         GM_ADDR weight, GM_ADDR y, GM_ADDR workspace,
                                                         GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DenseBnReluConvKernel op;
    op.Init(x, bn_scale, bn_shift, weight, y, td);
    op.Process();
}
