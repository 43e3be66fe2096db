#include "kernel_operator.h"

using namespace AscendC;

// Transposed 3D convolution (stride 1, padding 0, dilation 1) in scatter form:
//   y[n, oc, id+kd, ih+kh, iw+kw] += x[n, ic, id, ih, iw] * w[ic, oc, kd, kh, kw]
//
// A core owns a group of output channels and a range of input rows (n, id, ih).
// For each input row all Cin line segments are loaded once; for each kernel tap
// (kd, kh, kw) the contribution
//   part[oc, :] = sum_ic w[kd, kh, kw, oc, ic] * x[ic, :]           (length W)
// is accumulated with Axpy and added into y[n, oc, id+kd, ih+kh, kw : kw+W] with an
// atomic-add DMA. The kw shift is applied on the GM side, so UB operands stay
// 32B aligned. y must be zero-filled beforehand (done in the binding).
constexpr int32_t X_BUFS = 2;
constexpr int32_t ACC_BUFS = 2;

class KernelConvT3dScatter {
public:
    __aicore__ inline KernelConvT3dScatter() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed3dAsymmetricInputSquareKernelCustomTilingData& td)
    {
        cin_ = td.cin;
        cout_ = td.cout;
        inD_ = td.inD;
        inH_ = td.inH;
        inW_ = td.inW;
        inWA_ = td.inWAlign;
        k_ = td.ksize;
        outD_ = td.outD;
        outH_ = td.outH;
        outW_ = td.outW;
        ocg_ = td.ocPerGroup;
        taps_ = k_ * k_ * k_;

        const uint32_t bid = GetBlockIdx();
        const uint32_t grp = bid % td.groupNum;
        const uint32_t slot = bid / td.groupNum;
        oc0_ = grp * ocg_;
        rowBeg_ = slot * td.rowsPerCore;
        rowEnd_ = rowBeg_ + td.rowsPerCore;
        if (rowEnd_ > td.inRows) rowEnd_ = td.inRows;

        xGm_.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.batch * cin_ * inD_ * inH_ * inW_);
        wGm_.SetGlobalBuffer((__gm__ float*)w, (uint64_t)taps_ * cout_ * cin_);
        yGm_.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.batch * cout_ * outD_ * outH_ * outW_);

        pipe_.InitBuffer(xQue_, X_BUFS, cin_ * inWA_ * sizeof(float));
        pipe_.InitBuffer(accQue_, ACC_BUFS, ocg_ * inWA_ * sizeof(float));
        pipe_.InitBuffer(wBuf_, ((taps_ * ocg_ * cin_ + 7) / 8 * 8) * sizeof(float));

        LoadWeights();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBeg_; r < rowEnd_; ++r) {
            const uint32_t ih = r % inH_;
            const uint32_t id = (r / inH_) % inD_;
            const uint32_t n = r / (inH_ * inD_);
            LoadInputRow(n, id, ih);
            LocalTensor<float> xs = xQue_.DeQue<float>();
            for (uint32_t kd = 0; kd < k_; ++kd) {
                for (uint32_t kh = 0; kh < k_; ++kh) {
                    for (uint32_t kw = 0; kw < k_; ++kw) {
                        const uint32_t tap = (kd * k_ + kh) * k_ + kw;
                        ComputeTap(xs, tap);
                        ScatterAdd(n, id + kd, ih + kh, kw);
                    }
                }
            }
            xQue_.FreeTensor(xs);
        }
    }

private:
    // UB weight layout: [tap][ocg][cin], taken from the [K,K,K,Cout,Cin] GM tensor
    __aicore__ inline void LoadWeights()
    {
        LocalTensor<float> wl = wBuf_.Get<float>();
        DataCopyExtParams cp;
        cp.blockCount = (uint16_t)taps_;
        cp.blockLen = ocg_ * cin_ * sizeof(float);
        cp.srcStride = (cout_ - ocg_) * cin_ * sizeof(float);
        cp.dstStride = 0;
        cp.rsv = 0;
        DataCopyPad(wl, wGm_[(uint64_t)oc0_ * cin_], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        event_t e = static_cast<event_t>(pipe_.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void LoadInputRow(uint32_t n, uint32_t id, uint32_t ih)
    {
        LocalTensor<float> xs = xQue_.AllocTensor<float>();
        const uint64_t vol = (uint64_t)inD_ * inH_ * inW_;
        DataCopyExtParams cp;
        cp.blockCount = (uint16_t)cin_;
        cp.blockLen = inW_ * sizeof(float);
        cp.srcStride = (uint32_t)((vol - inW_) * sizeof(float));
        cp.dstStride = 0;
        cp.rsv = 0;
        const uint64_t src = (uint64_t)n * cin_ * vol + ((uint64_t)id * inH_ + ih) * inW_;
        DataCopyPad(xs, xGm_[src], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        xQue_.EnQue(xs);
    }

    __aicore__ inline void ComputeTap(const LocalTensor<float>& xs, uint32_t tap)
    {
        LocalTensor<float> wl = wBuf_.Get<float>();
        LocalTensor<float> acc = accQue_.AllocTensor<float>();
        Duplicate(acc, 0.0f, ocg_ * inWA_);
        const uint32_t wTap = tap * ocg_ * cin_;
        for (uint32_t j = 0; j < ocg_; ++j) {
            LocalTensor<float> dst = acc[j * inWA_];
            for (uint32_t c = 0; c < cin_; ++c) {
                Axpy(dst, xs[c * inWA_], wl.GetValue(wTap + j * cin_ + c), inWA_);
            }
        }
        accQue_.EnQue(acc);
    }

    __aicore__ inline void ScatterAdd(uint32_t n, uint32_t od, uint32_t oh, uint32_t kw)
    {
        LocalTensor<float> acc = accQue_.DeQue<float>();
        const uint64_t outVol = (uint64_t)outD_ * outH_ * outW_;
        const uint64_t dst = ((uint64_t)n * cout_ + oc0_) * outVol + ((uint64_t)od * outH_ + oh) * outW_ + kw;
        DataCopyExtParams cp;
        cp.blockCount = (uint16_t)ocg_;
        cp.blockLen = inW_ * sizeof(float);
        cp.srcStride = 0;
        cp.dstStride = (uint32_t)((outVol - inW_) * sizeof(float));
        cp.rsv = 0;
        SetAtomicAdd<float>();
        DataCopyPad(yGm_[dst], acc, cp);
        SetAtomicNone();
        accQue_.FreeTensor(acc);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, X_BUFS> xQue_;
    TQue<QuePosition::VECOUT, ACC_BUFS> accQue_;
    TBuf<TPosition::VECCALC> wBuf_;
    GlobalTensor<float> xGm_, wGm_, yGm_;
    uint32_t cin_, cout_, inD_, inH_, inW_, inWA_, k_, taps_;
    uint32_t outD_, outH_, outW_, ocg_, oc0_, rowBeg_, rowEnd_;
};

extern "C" __global__ __aicore__ void conv_transposed_3d_asymmetric_input_square_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConvT3dScatter op;
    op.Init(x, weight, y, td);
    op.Process();
}
