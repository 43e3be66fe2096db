/**
 * Dense-block unit:  y = concat_C( x, conv_kxk_same( relu( bn_infer(x) ) ) )
 *
 * Work split: each vector core takes a band of output rows (n, oh). For one row:
 *   - the C passthrough channels of row oh are copied x -> y with a strided transfer;
 *   - for every input channel ci the K tap rows are normalised (scale/shift), rectified,
 *     column-shifted with Gather (border columns read a zero slot) and accumulated into all
 *     G output accumulators at once, so each input row is read K times per output row only.
 */
#include "kernel_operator.h"

using namespace AscendC;

class DenseUnitKernel {
public:
    __aicore__ inline DenseUnitKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR mean, GM_ADDR var,
                                GM_ADDR weight, GM_ADDR y, const DenseUnitTilingData &td)
    {
        t_ = td;
        pad_ = t_.k / 2;
        plane_ = static_cast<uint64_t>(t_.h) * t_.w;
        kk_ = t_.k * t_.k;
        kkStride_ = (kk_ + 7) / 8 * 8;
        cAlign_ = (t_.c + 7) / 8 * 8;

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)weight);
        yGm_.SetGlobalBuffer((__gm__ float *)y);
        gammaGm_.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta);
        meanGm_.SetGlobalBuffer((__gm__ float *)mean);
        varGm_.SetGlobalBuffer((__gm__ float *)var);

        pipe_.InitBuffer(inQ_, 2, t_.wAlign * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, t_.g * t_.wAlign * sizeof(float));
        pipe_.InitBuffer(passQ_, 2, t_.wAlign * sizeof(float) * 2);
        pipe_.InitBuffer(normBuf_, t_.wAlign * sizeof(float));
        pipe_.InitBuffer(gatherBuf_, t_.wAlign * sizeof(float));
        pipe_.InitBuffer(accBuf_, t_.g * t_.wAlign * sizeof(float));
        pipe_.InitBuffer(wtBuf_, t_.g * kkStride_ * sizeof(float));
        pipe_.InitBuffer(offBuf_, t_.k * t_.wAlign * sizeof(uint32_t));
        pipe_.InitBuffer(scaleBuf_, cAlign_ * sizeof(float));
        pipe_.InitBuffer(shiftBuf_, cAlign_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, cAlign_ * sizeof(float));

        FoldBatchNorm();
        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        uint32_t r0 = GetBlockIdx() * t_.rowsPerCore;
        uint32_t r1 = r0 + t_.rowsPerCore;
        if (r1 > t_.totalRows) {
            r1 = t_.totalRows;
        }
        for (uint32_t r = r0; r < r1; ++r) {
            uint32_t n = r / t_.h;
            uint32_t oh = r % t_.h;
            CopyPassthrough(n, oh);
            ConvRow(n, oh);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Wait()
    {
        event_t e = static_cast<event_t>(pipe_.FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    __aicore__ inline void LoadVec(const LocalTensor<float> &dst, const GlobalTensor<float> &src, uint32_t n)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(dst, src, cp, pad);
    }

    // scale = gamma / sqrt(var + eps), shift = beta - mean * scale
    __aicore__ inline void FoldBatchNorm()
    {
        LocalTensor<float> sc = scaleBuf_.Get<float>();
        LocalTensor<float> sh = shiftBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        LoadVec(tmp, varGm_, t_.c);
        LoadVec(sc, gammaGm_, t_.c);
        Wait<HardEvent::MTE2_V>();
        Adds(tmp, tmp, t_.eps, t_.c);
        Sqrt(tmp, tmp, t_.c);
        Div(sc, sc, tmp, t_.c);
        PipeBarrier<PIPE_V>();
        Wait<HardEvent::V_MTE2>();
        LoadVec(tmp, meanGm_, t_.c);
        LoadVec(sh, betaGm_, t_.c);
        Wait<HardEvent::MTE2_V>();
        Mul(tmp, tmp, sc, t_.c);
        Sub(sh, sh, tmp, t_.c);
        Wait<HardEvent::V_S>();
    }

    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
        for (uint32_t kw = 0; kw < t_.k; ++kw) {
            for (uint32_t ow = 0; ow < t_.wAlign; ++ow) {
                int32_t col = static_cast<int32_t>(ow + kw) - static_cast<int32_t>(pad_);
                uint32_t src = (ow < t_.w && col >= 0 && col < static_cast<int32_t>(t_.w)) ?
                                   static_cast<uint32_t>(col) : t_.w;
                off.SetValue(kw * t_.wAlign + ow, src * 4u);
            }
        }
        Wait<HardEvent::S_V>();
        Duplicate(normBuf_.Get<float>(), 0.0f, t_.wAlign);   // slot w stays 0 forever
        PipeBarrier<PIPE_V>();
    }

    // y[n, 0:C, oh, :] = x[n, 0:C, oh, :], two channels' rows per transfer
    __aicore__ inline void CopyPassthrough(uint32_t n, uint32_t oh)
    {
        const uint32_t chunk = 2;
        uint32_t rowBytes = t_.w * sizeof(float);
        uint32_t gap = static_cast<uint32_t>((plane_ - t_.w) * sizeof(float));
        for (uint32_t c0 = 0; c0 < t_.c; c0 += chunk) {
            uint32_t cnt = (t_.c - c0) < chunk ? (t_.c - c0) : chunk;
            uint64_t off = (static_cast<uint64_t>(n) * t_.c + c0) * plane_ + static_cast<uint64_t>(oh) * t_.w;
            uint64_t offY = (static_cast<uint64_t>(n) * (t_.c + t_.g) + c0) * plane_ + static_cast<uint64_t>(oh) * t_.w;
            uint32_t ubGap = (t_.wAlign * sizeof(float) - (rowBytes + 31) / 32 * 32) / 32;
            LocalTensor<float> buf = passQ_.AllocTensor<float>();
            DataCopyExtParams in{static_cast<uint16_t>(cnt), rowBytes, gap, ubGap, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(buf, xGm_[off], in, pad);
            passQ_.EnQue(buf);
            buf = passQ_.DeQue<float>();
            DataCopyExtParams outp{static_cast<uint16_t>(cnt), rowBytes, ubGap, gap, 0};
            DataCopyPad(yGm_[offY], buf, outp);
            passQ_.FreeTensor(buf);
        }
    }

    __aicore__ inline void ConvRow(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> norm = normBuf_.Get<float>();
        LocalTensor<float> gat = gatherBuf_.Get<float>();
        LocalTensor<float> wt = wtBuf_.Get<float>();
        LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
        LocalTensor<float> sc = scaleBuf_.Get<float>();
        LocalTensor<float> sh = shiftBuf_.Get<float>();
        Duplicate(acc, 0.0f, t_.g * t_.wAlign);

        for (uint32_t ci = 0; ci < t_.c; ++ci) {
            // weights of every output channel for input channel ci: G blocks of K*K
            PipeBarrier<PIPE_ALL>();
            DataCopyExtParams wcp{static_cast<uint16_t>(t_.g), static_cast<uint32_t>(kk_ * sizeof(float)),
                                  static_cast<uint32_t>((t_.c - 1) * kk_ * sizeof(float)),
                                  static_cast<uint32_t>((kkStride_ - (kk_ + 7) / 8 * 8) / 8), 0};
            DataCopyPadExtParams<float> wpad{false, 0, 0, 0.0f};
            DataCopyPad(wt, wGm_[static_cast<uint64_t>(ci) * kk_], wcp, wpad);
            Wait<HardEvent::MTE2_S>();
            float a = sc.GetValue(ci);
            float b = sh.GetValue(ci);

            for (uint32_t kh = 0; kh < t_.k; ++kh) {
                int32_t ih = static_cast<int32_t>(oh + kh) - static_cast<int32_t>(pad_);
                if (ih < 0 || ih >= static_cast<int32_t>(t_.h)) {
                    continue;
                }
                LocalTensor<float> row = inQ_.AllocTensor<float>();
                LoadVec(row, xGm_[(static_cast<uint64_t>(n) * t_.c + ci) * plane_ +
                                  static_cast<uint64_t>(ih) * t_.w], t_.w);
                inQ_.EnQue(row);
                row = inQ_.DeQue<float>();
                Muls(norm, row, a, t_.w);
                Adds(norm, norm, b, t_.w);
                Relu(norm, norm, t_.w);
                inQ_.FreeTensor(row);

                for (uint32_t kw = 0; kw < t_.k; ++kw) {
                    Gather(gat, norm, off[kw * t_.wAlign], 0u, t_.wAlign);
                    for (uint32_t co = 0; co < t_.g; ++co) {
                        float wv = wt.GetValue(co * kkStride_ + kh * t_.k + kw);
                        Axpy(acc[co * t_.wAlign], gat, wv, t_.w);
                    }
                }
            }
        }

        // new channels go after the C passthrough channels
        LocalTensor<float> o = outQ_.AllocTensor<float>();
        Adds(o, acc, 0.0f, t_.g * t_.wAlign);
        outQ_.EnQue(o);
        o = outQ_.DeQue<float>();
        uint32_t rowBytes = t_.w * sizeof(float);
        uint32_t ubGap = (t_.wAlign * sizeof(float) - (rowBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(t_.g), rowBytes, ubGap,
                             static_cast<uint32_t>((plane_ - t_.w) * sizeof(float)), 0};
        uint64_t dst = (static_cast<uint64_t>(n) * (t_.c + t_.g) + t_.c) * plane_ + static_cast<uint64_t>(oh) * t_.w;
        DataCopyPad(yGm_[dst], o, cp);
        outQ_.FreeTensor(o);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 2> passQ_;
    TBuf<TPosition::VECCALC> normBuf_, gatherBuf_, accBuf_, wtBuf_, offBuf_, scaleBuf_, shiftBuf_, tmpBuf_;
    GlobalTensor<float> xGm_, wGm_, yGm_, gammaGm_, betaGm_, meanGm_, varGm_;
    DenseUnitTilingData t_;
    uint64_t plane_ = 0;
    uint32_t pad_ = 0, kk_ = 0, kkStride_ = 0, cAlign_ = 0;
};

extern "C" __global__ __aicore__ void dense_unit_bn_relu_conv(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                              GM_ADDR running_mean, GM_ADDR running_var,
                                                              GM_ADDR weight, GM_ADDR y, GM_ADDR workspace,
                                                              GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DenseUnitKernel op;
    op.Init(x, gamma, beta, running_mean, running_var, weight, y, td);
    op.Process();
}
