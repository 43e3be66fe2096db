#include "kernel_operator.h"

using namespace AscendC;

// Direct convolution on the vector unit.
// For an output row segment y[n, :, oh, w0:w0+len] the kernel stages every
// input row segment it depends on, already shifted by the kernel column:
//     tap(ci, kw, kh)[j] = x[n, ci, oh + kh, w0 + kw + j]
// The unaligned shift is absorbed by DataCopyPad on the GM side, so each tap
// starts 32B aligned in UB. Each output channel is then a chain of Axpy ops
// with scalar weights, followed by the shift and Mish.
class ConvShiftMishKernel {
public:
    __aicore__ inline ConvShiftMishKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const ConvShiftMishTilingData &t)
    {
        n_ = t.batch; ci_ = t.cin; co_ = t.cout;
        h_ = t.inH; w_ = t.inW; k_ = t.ksize;
        oh_ = t.outH; ow_ = t.outW;
        segW_ = t.segW; segAlign_ = t.segAlign; segNum_ = t.segNum;
        group_ = t.chanGroup; tasks_ = t.taskNum; shift_ = t.shift;
        taps_ = ci_ * k_ * k_;

        xGm_.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(n_) * ci_ * h_ * w_);
        wGm_.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(co_) * taps_);
        bGm_.SetGlobalBuffer((__gm__ float *)b, co_);
        yGm_.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(n_) * co_ * oh_ * ow_);

        pipe_.InitBuffer(tapQ_, 1, taps_ * segAlign_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 2, group_ * segAlign_ * sizeof(float));
        pipe_.InitBuffer(wBuf_, (co_ * taps_ + 7) / 8 * 8 * sizeof(float));
        pipe_.InitBuffer(tmpA_, segAlign_ * sizeof(float));
        pipe_.InitBuffer(tmpB_, segAlign_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadWeights();
        for (uint32_t task = GetBlockIdx(); task < tasks_; task += GetBlockNum()) {
            uint32_t seg = task % segNum_;
            uint32_t row = (task / segNum_) % oh_;
            uint32_t img = task / segNum_ / oh_;
            uint32_t w0 = seg * segW_;
            uint32_t len = ow_ - w0 < segW_ ? ow_ - w0 : segW_;
            StageTaps(img, row, w0, len);
            ComputeRow(img, row, w0, len);
        }
    }

private:
    __aicore__ inline void LoadWeights()
    {
        // weights stay resident; they are read one by one as Axpy scalars
        LocalTensor<float> wl = wBuf_.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(co_ * taps_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm_, cp, pad);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void StageTaps(uint32_t img, uint32_t row, uint32_t w0, uint32_t len)
    {
        LocalTensor<float> taps = tapQ_.AllocTensor<float>();
        // pad each UB row up to segAlign so every tap is a full vector of zeros at the end
        uint8_t rpad = static_cast<uint8_t>((len + 7) / 8 * 8 - len);
        DataCopyPadExtParams<float> pad{rpad != 0, 0, rpad, 0.0f};
        // k input rows (kh = 0..k-1) per burst, source rows w_ apart
        DataCopyExtParams cp{static_cast<uint16_t>(k_), static_cast<uint32_t>(len * sizeof(float)),
                             static_cast<uint32_t>((w_ - len) * sizeof(float)),
                             static_cast<uint32_t>((segAlign_ - (len + 7) / 8 * 8) / 8), 0};
        for (uint32_t c = 0; c < ci_; ++c) {
            uint64_t plane = (static_cast<uint64_t>(img) * ci_ + c) * h_ * w_;
            for (uint32_t kw = 0; kw < k_; ++kw) {
                uint64_t src = plane + static_cast<uint64_t>(row) * w_ + w0 + kw;
                uint32_t dst = ((c * k_ + kw) * k_) * segAlign_;
                DataCopyPad(taps[dst], xGm_[src], cp, pad);
            }
        }
        tapQ_.EnQue(taps);
    }

    // y = v * n / (n + 2),  n = e^v (e^v + 2)  ==  v * tanh(softplus(v))
    __aicore__ inline void Mish(const LocalTensor<float> &v)
    {
        LocalTensor<float> t = tmpA_.Get<float>();
        LocalTensor<float> u = tmpB_.Get<float>();
        Mins(t, v, 20.0f, segAlign_);       // ratio is 1 beyond this, avoid inf/inf
        Exp(t, t, segAlign_);
        Adds(u, t, 2.0f, segAlign_);
        Mul(t, t, u, segAlign_);
        Adds(u, t, 2.0f, segAlign_);
        Div(t, t, u, segAlign_);
        Mul(v, v, t, segAlign_);
    }

    __aicore__ inline void ComputeRow(uint32_t img, uint32_t row, uint32_t w0, uint32_t len)
    {
        LocalTensor<float> taps = tapQ_.DeQue<float>();
        LocalTensor<float> wl = wBuf_.Get<float>();

        for (uint32_t c0 = 0; c0 < co_; c0 += group_) {
            uint32_t gcnt = co_ - c0 < group_ ? co_ - c0 : group_;
            LocalTensor<float> out = outQ_.AllocTensor<float>();
            for (uint32_t g = 0; g < gcnt; ++g) {
                uint32_t oc = c0 + g;
                LocalTensor<float> acc = out[g * segAlign_];
                Duplicate(acc, bGm_.GetValue(oc) - shift_, segAlign_);
                const uint32_t wBase = oc * taps_;
                for (uint32_t c = 0; c < ci_; ++c) {
                    for (uint32_t kh = 0; kh < k_; ++kh) {
                        for (uint32_t kw = 0; kw < k_; ++kw) {
                            float wv = wl.GetValue(wBase + (c * k_ + kh) * k_ + kw);
                            Axpy(acc, taps[((c * k_ + kw) * k_ + kh) * segAlign_], wv, segAlign_);
                        }
                    }
                }
                Mish(acc);
            }
            outQ_.EnQue(out);
            WriteGroup(img, row, w0, len, c0, gcnt);
        }
        tapQ_.FreeTensor(taps);
    }

    __aicore__ inline void WriteGroup(uint32_t img, uint32_t row, uint32_t w0, uint32_t len, uint32_t c0, uint32_t gcnt)
    {
        LocalTensor<float> out = outQ_.DeQue<float>();
        uint64_t dst = ((static_cast<uint64_t>(img) * co_ + c0) * oh_ + row) * ow_ + w0;
        // gcnt rows, one per channel; channel planes are oh*ow apart in GM
        uint32_t lenBlocks = (len * sizeof(float) + 31) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(gcnt), static_cast<uint32_t>(len * sizeof(float)),
                             static_cast<uint32_t>(segAlign_ / 8 - lenBlocks),
                             static_cast<uint32_t>((static_cast<uint64_t>(oh_) * ow_ - len) * sizeof(float)), 0};
        DataCopyPad(yGm_[dst], out, cp);
        outQ_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> tapQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> wBuf_, tmpA_, tmpB_;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_;
    uint32_t n_ = 0, ci_ = 0, co_ = 0, h_ = 0, w_ = 0, k_ = 0, oh_ = 0, ow_ = 0;
    uint32_t segW_ = 0, segAlign_ = 0, segNum_ = 0, group_ = 0, tasks_ = 0, taps_ = 0;
    float shift_ = 0.0f;
};

extern "C" __global__ __aicore__ void conv_shift_mish_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    ConvShiftMishKernel op;
    op.Init(x, weight, bias, y, t);
    op.Process();
}
