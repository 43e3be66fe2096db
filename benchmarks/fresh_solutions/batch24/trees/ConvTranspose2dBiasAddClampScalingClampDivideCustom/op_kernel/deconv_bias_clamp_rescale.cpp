// DeconvBiasClampRescale kernel (fp32)
//
// Transposed convolution computed output-row by output-row in "stride phases": output columns
// ow = r + stride*t (r = ow mod stride) only receive taps kw with (kw - pad) = r (mod stride),
// and for those taps the contributing input column is a plain shifted copy of the input row.
// Each phase is accumulated as a contiguous vector; Gather interleaves the phases into the
// final row, after which the bias + clamp/scale/clamp/unscale epilogue is applied.
#include "kernel_operator.h"

using namespace AscendC;

class DeconvBiasClampRescaleKernel {
public:
    __aicore__ inline DeconvBiasClampRescaleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR cb, GM_ADDR chb, GM_ADDR y,
                                const DeconvBiasClampRescaleTilingData &td)
    {
        n_ = td.n; cin_ = td.cin; hin_ = td.hin; win_ = td.win; cout_ = td.cout;
        k_ = td.k; s_ = td.stride; pad_ = td.pad; hout_ = td.hout; wout_ = td.wout;
        tp_ = td.phaseLen; scale_ = td.scale;
        woutA_ = (wout_ + 7) / 8 * 8;

        uint32_t bi = GetBlockIdx();
        rowStart_ = bi * td.rowsPerCore + (bi < td.rowsExtra ? bi : td.rowsExtra);
        rowNum_ = td.rowsPerCore + (bi < td.rowsExtra ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        cbGm.SetGlobalBuffer((__gm__ float *)cb);
        chbGm.SetGlobalBuffer((__gm__ float *)chb);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        wSlice_ = (cout_ * k_ * k_ + 7) / 8 * 8;
        pipe.InitBuffer(accBuf, cout_ * s_ * tp_ * sizeof(float));
        pipe.InitBuffer(tapBuf, k_ * k_ * tp_ * sizeof(float));
        pipe.InitBuffer(wBuf, wSlice_ * sizeof(float));
        pipe.InitBuffer(idxBuf, woutA_ * sizeof(uint32_t));
        pipe.InitBuffer(outQ, 2, woutA_ * sizeof(float));

        // byte offsets that turn [phase0 | phase1 | ...] into natural column order
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t ow = 0; ow < wout_; ++ow) {
            idx.SetValue(ow, ((ow % s_) * tp_ + ow / s_) * static_cast<uint32_t>(sizeof(float)));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowNum_; ++r) {
            uint32_t row = rowStart_ + r;
            ComputeRow(row / hout_, row % hout_);
        }
    }

private:
    __aicore__ inline void ComputeRow(uint32_t b, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> taps = tapBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();

        // which kernel rows reach this output row
        uint32_t khList[16];
        uint32_t ihList[16];
        uint32_t nkh = 0;
        for (uint32_t kh = 0; kh < k_; ++kh) {
            int32_t t = static_cast<int32_t>(oh + pad_) - static_cast<int32_t>(kh);
            if (t < 0 || t % static_cast<int32_t>(s_) != 0) continue;
            uint32_t ih = static_cast<uint32_t>(t) / s_;
            if (ih >= hin_) continue;
            khList[nkh] = kh;
            ihList[nkh] = ih;
            ++nkh;
        }

        Duplicate(acc, 0.0f, cout_ * s_ * tp_);

        for (uint32_t ci = 0; ci < cin_ && nkh > 0; ++ci) {
            // previous vector work must finish before taps / weights are overwritten
            event_t eVM = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE2));
            SetFlag<HardEvent::V_MTE2>(eVM);
            WaitFlag<HardEvent::V_MTE2>(eVM);

            DataCopyPad(wl, wGm[static_cast<uint64_t>(ci) * cout_ * k_ * k_],
                        DataCopyExtParams{1, static_cast<uint32_t>(cout_ * k_ * k_ * sizeof(float)), 0, 0, 0},
                        DataCopyPadExtParams<float>{false, 0, 0, 0.0f});

            Duplicate(taps, 0.0f, k_ * k_ * tp_);
            event_t eVM2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE2));
            SetFlag<HardEvent::V_MTE2>(eVM2);
            WaitFlag<HardEvent::V_MTE2>(eVM2);

            for (uint32_t i = 0; i < nkh; ++i) {
                uint64_t rowBase = ((static_cast<uint64_t>(b) * cin_ + ci) * hin_ + ihList[i]) * win_;
                for (uint32_t kw = 0; kw < k_; ++kw) {
                    int32_t rel = static_cast<int32_t>(kw) - static_cast<int32_t>(pad_);
                    int32_t r = ((rel % static_cast<int32_t>(s_)) + s_) % s_;
                    int32_t shift = (r - rel) / static_cast<int32_t>(s_);   // iw = t + shift
                    LocalTensor<float> dst = taps[(i * k_ + kw) * tp_];
                    if (shift >= 0) {
                        int32_t cnt = static_cast<int32_t>(win_) - shift;
                        cnt = cnt > static_cast<int32_t>(tp_) ? static_cast<int32_t>(tp_) : cnt;
                        if (cnt <= 0) continue;
                        DataCopyPad(dst, xGm[rowBase + shift],
                                    DataCopyExtParams{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0},
                                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                    } else {
                        uint8_t left = static_cast<uint8_t>(-shift);
                        int32_t cnt = static_cast<int32_t>(tp_) - left;
                        cnt = cnt > static_cast<int32_t>(win_) ? static_cast<int32_t>(win_) : cnt;
                        if (cnt <= 0) continue;
                        DataCopyPad(dst, xGm[rowBase],
                                    DataCopyExtParams{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0},
                                    DataCopyPadExtParams<float>{true, left, 0, 0.0f});
                    }
                }
            }
            event_t eMV = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
            SetFlag<HardEvent::MTE2_V>(eMV);
            WaitFlag<HardEvent::MTE2_V>(eMV);
            event_t eMS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(eMS);
            WaitFlag<HardEvent::MTE2_S>(eMS);

            for (uint32_t co = 0; co < cout_; ++co) {
                uint32_t wb = co * k_ * k_;
                for (uint32_t i = 0; i < nkh; ++i) {
                    for (uint32_t kw = 0; kw < k_; ++kw) {
                        int32_t rel = static_cast<int32_t>(kw) - static_cast<int32_t>(pad_);
                        uint32_t r = static_cast<uint32_t>(((rel % static_cast<int32_t>(s_)) + s_) % s_);
                        float wv = wl.GetValue(wb + khList[i] * k_ + kw);
                        Axpy(acc[(co * s_ + r) * tp_], taps[(i * k_ + kw) * tp_], wv, tp_);
                    }
                }
            }
        }

        // epilogue: interleave phases, bias, clamp(0,1), *scale, clamp(0,1), /scale
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        float inv = 1.0f / scale_;
        for (uint32_t co = 0; co < cout_; ++co) {
            float bias = cbGm.GetValue(co) + chbGm.GetValue(co);
            LocalTensor<float> o = outQ.AllocTensor<float>();
            Gather(o, acc[co * s_ * tp_], idx, 0U, wout_);
            Adds(o, o, bias, wout_);
            Maxs(o, o, 0.0f, wout_);
            Mins(o, o, 1.0f, wout_);
            Muls(o, o, scale_, wout_);
            Maxs(o, o, 0.0f, wout_);
            Mins(o, o, 1.0f, wout_);
            Muls(o, o, inv, wout_);
            outQ.EnQue(o);

            LocalTensor<float> done = outQ.DeQue<float>();
            uint64_t dst = ((static_cast<uint64_t>(b) * cout_ + co) * hout_ + oh) * wout_;
            DataCopyPad(yGm[dst], done, DataCopyExtParams{1, static_cast<uint32_t>(wout_ * sizeof(float)), 0, 0, 0});
            outQ.FreeTensor(done);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> accBuf, tapBuf, wBuf, idxBuf;
    TQue<TPosition::VECOUT, 2> outQ;
    GlobalTensor<float> xGm, wGm, cbGm, chbGm, yGm;
    uint32_t n_, cin_, hin_, win_, cout_, k_, s_, pad_, hout_, wout_, tp_, woutA_, wSlice_;
    uint32_t rowStart_, rowNum_;
    float scale_;
};

extern "C" __global__ __aicore__ void deconv_bias_clamp_rescale(GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias,
                                                                GM_ADDR channel_bias, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DeconvBiasClampRescaleKernel op;
    op.Init(x, weight, conv_bias, channel_bias, y, td);
    op.Process();
}
