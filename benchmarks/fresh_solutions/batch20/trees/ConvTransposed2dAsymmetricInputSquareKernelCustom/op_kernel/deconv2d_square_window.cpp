/**
 * Deconv2dSquareWindow kernel: 2-D transposed convolution (NCHW, K x K window).
 *
 * y[n, co, oh, ow] = bias[co] + sum_{ci in group(co), kh, kw} x[n, ci, ih, iw] * w[ci, co % Cg, kh, kw]
 *   where oh = ih * s - p + kh and ow = iw * s - p + kw.
 *
 * Each AI core owns a contiguous range of output rows (n, co, oh). A row is
 * accumulated in fp32 in a "phase split" layout: ow = q * s + r is stored at
 * acc[r * phaseLen + q]. For a fixed kw every input pixel iw lands in phase
 * r = (kw - p) mod s at q = iw + floor((kw - p) / s), i.e. a contiguous shifted
 * copy of the input row, so the inner update is a single Axpy. Negative shifts
 * are handled by the GM source offset, positive shifts by DMA left padding,
 * which keeps every vector operand 32B aligned. At the end the phases are
 * interleaved back into natural order with Gather.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
}

template <typename T>
class Deconv2dSquareWindowKernel {
public:
    __aicore__ inline Deconv2dSquareWindowKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const Deconv2dSquareWindowTilingData &td)
    {
        n_ = td.batch;
        cin_ = td.inChannels;
        hin_ = td.inH;
        win_ = td.inW;
        cout_ = td.outChannels;
        hout_ = td.outH;
        wout_ = td.outW;
        k_ = td.kernel;
        s_ = td.stride;
        p_ = td.pad;
        cinG_ = td.cinPerGroup;
        coutG_ = td.coutPerGroup;
        phaseLen_ = td.phaseLen;
        inRowAlign_ = td.inRowAlign;
        outRowAlign_ = td.outRowAlign;
        hasBias_ = td.hasBias != 0;

        uint32_t core = GetBlockIdx();
        rowCount_ = td.rowsPerCore + (core < td.rowsTail ? 1 : 0);
        rowBegin_ = core * td.rowsPerCore + (core < td.rowsTail ? core : td.rowsTail);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        wGm_.SetGlobalBuffer((__gm__ T *)w);
        if (hasBias_) {
            bGm_.SetGlobalBuffer((__gm__ T *)b);
        }
        yGm_.SetGlobalBuffer((__gm__ T *)y);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, inRowAlign_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, outRowAlign_ * sizeof(T));
        pipe_.InitBuffer(castBuf_, phaseLen_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, s_ * phaseLen_ * sizeof(float));
        pipe_.InitBuffer(rowBuf_, outRowAlign_ * sizeof(float));
        pipe_.InitBuffer(offBuf_, outRowAlign_ * sizeof(uint32_t));

        BuildGatherOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < rowCount_; ++i) {
            uint32_t row = rowBegin_ + i;
            uint32_t oh = row % hout_;
            uint32_t co = (row / hout_) % cout_;
            uint32_t nb = row / (hout_ * cout_);
            ComputeRow(nb, co, oh);
            StoreRow(row);
        }
    }

private:
    // Byte offset (inside accBuf_) of natural output position ow.
    __aicore__ inline void BuildGatherOffsets()
    {
        LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
        for (uint32_t ow = 0; ow < wout_; ++ow) {
            uint32_t r = ow % s_;
            uint32_t q = ow / s_;
            off.SetValue(ow, (r * phaseLen_ + q) * static_cast<uint32_t>(sizeof(float)));
        }
        event_t evt = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);
    }

    __aicore__ inline void ComputeRow(uint32_t nb, uint32_t co, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        Duplicate(acc, 0.0f, s_ * phaseLen_);

        uint32_t grp = co / coutG_;
        uint32_t coLocal = co % coutG_;
        int32_t s = static_cast<int32_t>(s_);
        int32_t p = static_cast<int32_t>(p_);

        for (uint32_t cg = 0; cg < cinG_; ++cg) {
            uint32_t ci = grp * cinG_ + cg;
            for (uint32_t kh = 0; kh < k_; ++kh) {
                int32_t t = static_cast<int32_t>(oh) + p - static_cast<int32_t>(kh);
                if (t < 0 || (t % s) != 0) {
                    continue;
                }
                int32_t ih = t / s;
                if (ih >= static_cast<int32_t>(hin_)) {
                    continue;
                }
                uint64_t xRow = ((static_cast<uint64_t>(nb) * cin_ + ci) * hin_ + ih) * win_;
                uint64_t wBase = ((static_cast<uint64_t>(ci) * coutG_ + coLocal) * k_ + kh) * k_;

                for (uint32_t kw = 0; kw < k_; ++kw) {
                    int32_t shift = static_cast<int32_t>(kw) - p;          // ow - iw * s
                    int32_t r = ((shift % s) + s) % s;                      // phase
                    int32_t d = (shift - r) / s;                            // q = iw + d
                    int32_t qLen = (static_cast<int32_t>(wout_) - r + s - 1) / s;
                    int32_t q0 = d > 0 ? d : 0;
                    int32_t q1 = static_cast<int32_t>(win_) + d;
                    q1 = q1 < qLen ? q1 : qLen;
                    if (q1 <= q0) {
                        continue;
                    }
                    float wv = static_cast<float>(wGm_.GetValue(wBase + kw));
                    StageInput(xRow + (q0 - d), static_cast<uint32_t>(q0), static_cast<uint32_t>(q1 - q0));
                    Accumulate(acc[r * phaseLen_], wv, static_cast<uint32_t>(q1));
                }
            }
        }
    }

    // Copy len input elements to UB, preceded by lead zeros (lead < one 32B block).
    __aicore__ inline void StageInput(uint64_t gmOff, uint32_t lead, uint32_t len)
    {
        LocalTensor<T> xl = inQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{lead > 0, static_cast<uint8_t>(lead), 0, static_cast<T>(0)};
        DataCopyPad(xl, xGm_[gmOff], cp, pad);
        inQ_.EnQue(xl);
    }

    __aicore__ inline void Accumulate(const LocalTensor<float> &dst, float wv, uint32_t cnt)
    {
        LocalTensor<T> xl = inQ_.DeQue<T>();
        if constexpr (std::is_same<T, float>::value) {
            Axpy(dst, xl, wv, cnt);
        } else {
            LocalTensor<float> xf = castBuf_.Get<float>();
            Cast(xf, xl, RoundMode::CAST_NONE, cnt);
            PipeBarrier<PIPE_V>();
            Axpy(dst, xf, wv, cnt);
        }
        PipeBarrier<PIPE_V>();
        inQ_.FreeTensor(xl);
    }

    __aicore__ inline void StoreRow(uint32_t row)
    {
        uint32_t co = (row / hout_) % cout_;
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> res = rowBuf_.Get<float>();
        if (s_ == 1) {
            DataCopy(res, acc, outRowAlign_);
        } else {
            LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
            Gather(res, acc, off, 0U, wout_);
        }
        PipeBarrier<PIPE_V>();
        if (hasBias_) {
            float bv = static_cast<float>(bGm_.GetValue(co));
            Adds(res, res, bv, wout_);
            PipeBarrier<PIPE_V>();
        }

        LocalTensor<T> yl = outQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(yl, res, outRowAlign_);
        } else {
            Cast(yl, res, RoundMode::CAST_ROUND, wout_);
        }
        outQ_.EnQue(yl);

        yl = outQ_.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(wout_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[static_cast<uint64_t>(row) * wout_], yl, cp);
        outQ_.FreeTensor(yl);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<TPosition::VECCALC> castBuf_, accBuf_, rowBuf_, offBuf_;
    GlobalTensor<T> xGm_, wGm_, bGm_, yGm_;

    uint32_t n_, cin_, hin_, win_, cout_, hout_, wout_;
    uint32_t k_, s_, p_, cinG_, coutG_;
    uint32_t phaseLen_, inRowAlign_, outRowAlign_;
    uint32_t rowBegin_ = 0, rowCount_ = 0;
    bool hasBias_ = false;
};

extern "C" __global__ __aicore__ void deconv2d_square_window(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Deconv2dSquareWindowKernel<DTYPE_X> op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
