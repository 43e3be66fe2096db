/**
 * Deconv2dSquareKernel kernel (fp32).
 *
 * Scatter form of a transposed convolution rewritten as a gather per output line:
 *   y[n, oc, oh, ow] = sum_{ic in group, kh, kw} x[n, ic, ih, iw] * w[ic, oc_local, kh, kw]
 *   with ih = (oh + pad - kh) / stride, iw = (ow + pad - kw) / stride (exact division only).
 *
 * For a fixed kw the mapping ow -> iw does not depend on ic or ih, so one offset table per kw
 * (built once) lets the Gather instruction produce an aligned "shifted + zero-inserted" copy of
 * the input line. Invalid taps point at a zero slot placed right after the line.
 * The gathered line is then accumulated into ocBlock output lines with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
}

class Deconv2dSquareKernelOp {
public:
    __aicore__ inline Deconv2dSquareKernelOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const Deconv2dSquareKernelTilingData &td)
    {
        batch_ = td.batch; cin_ = td.cin; cout_ = td.cout;
        hin_ = td.hin; win_ = td.win; hout_ = td.hout; wout_ = td.wout;
        k_ = td.kSize; stride_ = td.stride; pad_ = td.pad;
        cinPg_ = td.cinPerGroup; coutPg_ = td.coutPerGroup;
        ocBlock_ = td.ocBlock; ocBlockNum_ = td.ocBlockNum;
        winAlign_ = td.winAlign; woutAlign_ = td.woutAlign;
        hasBias_ = td.hasBias;

        uint32_t first = GetBlockIdx() * td.rowsPerCore;
        uint32_t last = first + td.rowsPerCore;
        if (last > td.totalRows) {
            last = td.totalRows;
        }
        rowBegin_ = first;
        rowEnd_ = first < last ? last : first;

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)w);
        yGm_.SetGlobalBuffer((__gm__ float *)y);
        if (hasBias_) {
            bGm_.SetGlobalBuffer((__gm__ float *)bias);
        }

        pipe_.InitBuffer(lineQue_, BUFFER_NUM, (winAlign_ + 8) * sizeof(float));
        pipe_.InitBuffer(accQue_, 1, ocBlock_ * woutAlign_ * sizeof(float));
        pipe_.InitBuffer(tapBuf_, woutAlign_ * sizeof(float));
        pipe_.InitBuffer(offBuf_, k_ * woutAlign_ * sizeof(uint32_t));
        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin_; r < rowEnd_; ++r) {
            uint32_t oh = r % hout_;
            uint32_t tmp = r / hout_;
            uint32_t ocb = tmp % ocBlockNum_;
            uint32_t n = tmp / ocBlockNum_;
            ComputeRow(n, ocb * ocBlock_, oh);
        }
    }

private:
    // offs[kw * woutAlign + ow] = byte offset of the contributing input column, or of the zero slot
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> offs = offBuf_.Get<uint32_t>();
        uint32_t zeroSlot = winAlign_ * sizeof(float);
        for (uint32_t kw = 0; kw < k_; ++kw) {
            for (uint32_t ow = 0; ow < woutAlign_; ++ow) {
                uint32_t val = zeroSlot;
                int32_t t = static_cast<int32_t>(ow) + static_cast<int32_t>(pad_) - static_cast<int32_t>(kw);
                if (ow < wout_ && t >= 0 && (t % static_cast<int32_t>(stride_)) == 0) {
                    uint32_t iw = static_cast<uint32_t>(t) / stride_;
                    if (iw < win_) {
                        val = iw * sizeof(float);
                    }
                }
                offs.SetValue(kw * woutAlign_ + ow, val);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t ocStart, uint32_t oh)
    {
        uint32_t g = ocStart / coutPg_;
        uint32_t ocLocal0 = ocStart - g * coutPg_;
        uint32_t kk = k_ * k_;

        LocalTensor<float> acc = accQue_.AllocTensor<float>();
        for (uint32_t o = 0; o < ocBlock_; ++o) {
            float init = hasBias_ ? bGm_.GetValue(ocStart + o) : 0.0f;
            Duplicate(acc[o * woutAlign_], init, woutAlign_);
        }

        LocalTensor<uint32_t> offs = offBuf_.Get<uint32_t>();
        LocalTensor<float> tap = tapBuf_.Get<float>();

        for (uint32_t kh = 0; kh < k_; ++kh) {
            int32_t t = static_cast<int32_t>(oh) + static_cast<int32_t>(pad_) - static_cast<int32_t>(kh);
            if (t < 0 || (t % static_cast<int32_t>(stride_)) != 0) {
                continue;
            }
            uint32_t ih = static_cast<uint32_t>(t) / stride_;
            if (ih >= hin_) {
                continue;
            }
            for (uint32_t icl = 0; icl < cinPg_; ++icl) {
                uint32_t ic = g * cinPg_ + icl;
                LoadLine(n, ic, ih);
                LocalTensor<float> line = lineQue_.DeQue<float>();
                // weight base for (ic, ocLocal0, kh, 0)
                uint64_t wBase = (static_cast<uint64_t>(ic) * coutPg_ + ocLocal0) * kk + kh * k_;
                for (uint32_t kw = 0; kw < k_; ++kw) {
                    Gather(tap, line, offs[kw * woutAlign_], 0, woutAlign_);
                    PipeBarrier<PIPE_V>();
                    for (uint32_t o = 0; o < ocBlock_; ++o) {
                        float wv = wGm_.GetValue(wBase + static_cast<uint64_t>(o) * kk + kw);
                        Axpy(acc[o * woutAlign_], tap, wv, woutAlign_);
                    }
                    PipeBarrier<PIPE_V>();
                }
                lineQue_.FreeTensor(line);
            }
        }

        accQue_.EnQue(acc);
        StoreRow(n, ocStart, oh);
    }

    __aicore__ inline void LoadLine(uint32_t n, uint32_t ic, uint32_t ih)
    {
        LocalTensor<float> line = lineQue_.AllocTensor<float>();
        // the slot right after the (padded) line must read as zero
        Duplicate(line[winAlign_], 0.0f, 8);
        uint64_t src = ((static_cast<uint64_t>(n) * cin_ + ic) * hin_ + ih) * win_;
        DataCopyExtParams cp{1, static_cast<uint32_t>(win_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padCfg{true, 0, static_cast<uint8_t>(winAlign_ - win_), 0.0f};
        DataCopyPad(line, xGm_[src], cp, padCfg);
        lineQue_.EnQue(line);
    }

    __aicore__ inline void StoreRow(uint32_t n, uint32_t ocStart, uint32_t oh)
    {
        LocalTensor<float> acc = accQue_.DeQue<float>();
        uint64_t dst = ((static_cast<uint64_t>(n) * cout_ + ocStart) * hout_ + oh) * wout_;
        // one burst per output channel; consecutive channels are hout*wout apart in GM
        DataCopyExtParams cp{static_cast<uint16_t>(ocBlock_), static_cast<uint32_t>(wout_ * sizeof(float)),
                             0, static_cast<uint32_t>((hout_ * wout_ - wout_) * sizeof(float)), 0};
        DataCopyPad(yGm_[dst], acc, cp);
        accQue_.FreeTensor(acc);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> lineQue_;
    TQue<QuePosition::VECOUT, 1> accQue_;
    TBuf<TPosition::VECCALC> tapBuf_;
    TBuf<TPosition::VECCALC> offBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_;

    uint32_t batch_, cin_, cout_, hin_, win_, hout_, wout_;
    uint32_t k_, stride_, pad_, cinPg_, coutPg_;
    uint32_t ocBlock_, ocBlockNum_, winAlign_, woutAlign_, hasBias_;
    uint32_t rowBegin_, rowEnd_;
};

extern "C" __global__ __aicore__ void deconv2d_square_kernel(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Deconv2dSquareKernelOp op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
