/*
 * VolumetricConv - dense 3-D convolution (groups = 1), NCDHW, vector-unit implementation.
 *
 * Unit of work: one output row (n, od, oh) for a block of output channels and a block
 * of output columns. For every tap (ci, kd, kh, kw) the matching input row segment is
 * DMA'd once into UB and then broadcast-accumulated into all coBlock accumulators:
 *
 *     acc[co][j] += filter[co, ci, kd, kh, kw] * x[n, ci, id, ih, j*s + kw*dil - pad]
 *
 * so each input fetch is reused coBlock times. The accumulators are computed on the
 * stride-1 grid and subsampled with Gather when stride > 1.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t ROW_Q = 2;
constexpr int32_t OUT_Q = 2;

__aicore__ inline uint32_t Up16(uint32_t v) { return (v + 15) / 16 * 16; }

template <typename T>
class VolumetricConvKernel {
public:
    __aicore__ inline VolumetricConvKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR y, const VolumetricConvTilingData &t)
    {
        t_ = t;
        k3_ = t.k * t.k * t.k;
        taps_ = t.ci * k3_;
        denseMax_ = (t.wBlock - 1) * t.stride + 1;
        denseStride_ = Up16(denseMax_ + 16);
        accStride_ = Up16(t.wBlock);

        rowBegin_ = GetBlockIdx() * t.rowsPerCore;
        rowEnd_ = rowBegin_ + t.rowsPerCore;
        if (rowEnd_ > t.totalRows) {
            rowEnd_ = t.totalRows;
        }

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        fGm_.SetGlobalBuffer((__gm__ T *)filter);
        yGm_.SetGlobalBuffer((__gm__ T *)y);

        pipe_.InitBuffer(rowQ_, ROW_Q, denseStride_ * sizeof(T));
        pipe_.InitBuffer(outQ_, OUT_Q, accStride_ * sizeof(T));
        pipe_.InitBuffer(rowF_, denseStride_ * sizeof(float));
        // one accumulator line per output channel, sized for the stride-1 grid
        pipe_.InitBuffer(acc_, t.coBlock * denseStride_ * sizeof(float));
        pipe_.InitBuffer(filt_, Up16(t.coBlock * taps_) * sizeof(T));
        pipe_.InitBuffer(pick_, accStride_ * sizeof(float));
        pipe_.InitBuffer(gIdx_, accStride_ * sizeof(uint32_t));

        if (t.stride > 1) {
            LocalTensor<uint32_t> idx = gIdx_.Get<uint32_t>();
            for (uint32_t j = 0; j < t.wBlock; ++j) {
                idx.SetValue(j, j * t.stride * static_cast<uint32_t>(sizeof(float)));
            }
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t coBase = 0; coBase < t_.co; coBase += t_.coBlock) {
            uint32_t coCnt = (t_.co - coBase) < t_.coBlock ? (t_.co - coBase) : t_.coBlock;
            LoadFilterBlock(coBase, coCnt);
            for (uint32_t row = rowBegin_; row < rowEnd_; ++row) {
                uint32_t oh = row % t_.hOut;
                uint32_t od = (row / t_.hOut) % t_.dOut;
                uint32_t n = row / (t_.hOut * t_.dOut);
                for (uint32_t w0 = 0; w0 < t_.wOut; w0 += t_.wBlock) {
                    uint32_t wCnt = (t_.wOut - w0) < t_.wBlock ? (t_.wOut - w0) : t_.wBlock;
                    AccumulateRow(n, od, oh, w0, wCnt, coCnt);
                    EmitRow(n, od, oh, w0, wCnt, coBase, coCnt);
                }
            }
        }
    }

private:
    __aicore__ inline void LoadFilterBlock(uint32_t coBase, uint32_t coCnt)
    {
        LocalTensor<T> f = filt_.Get<T>();
        DataCopyExtParams cp{1, coCnt * taps_ * (uint32_t)sizeof(T), 0, 0, 0};
        DataCopyPadExtParams<T> pd{false, 0, 0, 0};
        DataCopyPad(f, fGm_[(uint64_t)coBase * taps_], cp, pd);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void AccumulateRow(uint32_t n, uint32_t od, uint32_t oh, uint32_t w0, uint32_t wCnt,
                                         uint32_t coCnt)
    {
        LocalTensor<float> acc = acc_.Get<float>();
        LocalTensor<T> f = filt_.Get<T>();
        uint32_t dense = (wCnt - 1) * t_.stride + 1;
        Duplicate(acc, 0.0f, coCnt * denseStride_);

        int32_t pad = static_cast<int32_t>(t_.pad);
        for (uint32_t c = 0; c < t_.ci; ++c) {
            for (uint32_t kd = 0; kd < t_.k; ++kd) {
                int32_t id = static_cast<int32_t>(od * t_.stride + kd * t_.dilation) - pad;
                if (id < 0 || id >= static_cast<int32_t>(t_.d)) {
                    continue;
                }
                for (uint32_t kh = 0; kh < t_.k; ++kh) {
                    int32_t ih = static_cast<int32_t>(oh * t_.stride + kh * t_.dilation) - pad;
                    if (ih < 0 || ih >= static_cast<int32_t>(t_.h)) {
                        continue;
                    }
                    uint64_t rowOff = ((((uint64_t)n * t_.ci + c) * t_.d + id) * t_.h + ih) * t_.w;
                    for (uint32_t kw = 0; kw < t_.k; ++kw) {
                        int32_t first = static_cast<int32_t>(w0 * t_.stride + kw * t_.dilation) - pad;
                        if (!FetchShiftedRow(rowOff, first, dense)) {
                            continue;
                        }
                        LocalTensor<float> src = ShiftedRowAsFloat(dense);
                        uint32_t tap = (c * t_.k + kd) * t_.k * t_.k + kh * t_.k + kw;
                        for (uint32_t o = 0; o < coCnt; ++o) {
                            float wv = static_cast<float>(f.GetValue(o * taps_ + tap));
                            Axpy(acc[o * denseStride_], src, wv, dense);
                        }
                        ReleaseShiftedRow();
                    }
                }
            }
        }
    }

    __aicore__ inline bool FetchShiftedRow(uint64_t rowOff, int32_t first, uint32_t dense)
    {
        int32_t last = first + static_cast<int32_t>(dense);
        int32_t lo = first < 0 ? 0 : first;
        int32_t hi = last > static_cast<int32_t>(t_.w) ? static_cast<int32_t>(t_.w) : last;
        if (hi <= lo) {
            return false;
        }
        LocalTensor<T> r = rowQ_.AllocTensor<T>();
        uint8_t lp = static_cast<uint8_t>(lo - first);
        uint8_t rp = static_cast<uint8_t>(last - hi);
        DataCopyExtParams cp{1, static_cast<uint32_t>(hi - lo) * (uint32_t)sizeof(T), 0, 0, 0};
        DataCopyPadExtParams<T> pd{(lp | rp) != 0, lp, rp, static_cast<T>(0)};
        DataCopyPad(r, xGm_[rowOff + lo], cp, pd);
        rowQ_.EnQue(r);
        cur_ = rowQ_.DeQue<T>();
        return true;
    }

    __aicore__ inline LocalTensor<float> ShiftedRowAsFloat(uint32_t dense)
    {
        if constexpr (sizeof(T) == sizeof(float)) {
            return cur_.template ReinterpretCast<float>();
        } else {
            LocalTensor<float> fr = rowF_.Get<float>();
            Cast(fr, cur_, RoundMode::CAST_NONE, dense);
            return fr;
        }
    }

    __aicore__ inline void ReleaseShiftedRow() { rowQ_.FreeTensor(cur_); }

    __aicore__ inline void EmitRow(uint32_t n, uint32_t od, uint32_t oh, uint32_t w0, uint32_t wCnt,
                                   uint32_t coBase, uint32_t coCnt)
    {
        LocalTensor<float> acc = acc_.Get<float>();
        for (uint32_t o = 0; o < coCnt; ++o) {
            LocalTensor<float> line = acc[o * denseStride_];
            if (t_.stride > 1) {
                LocalTensor<float> p = pick_.Get<float>();
                Gather(p, line, gIdx_.Get<uint32_t>(), 0u, wCnt);
                line = p;
            }
            LocalTensor<T> out = outQ_.AllocTensor<T>();
            if constexpr (sizeof(T) == sizeof(float)) {
                DataCopy(out, line, accStride_);
            } else {
                Cast(out, line, RoundMode::CAST_ROUND, wCnt);
            }
            outQ_.EnQue(out);

            LocalTensor<T> res = outQ_.DeQue<T>();
            uint64_t yOff = ((((uint64_t)n * t_.co + coBase + o) * t_.dOut + od) * t_.hOut + oh) * t_.wOut + w0;
            DataCopyExtParams cp{1, wCnt * (uint32_t)sizeof(T), 0, 0, 0};
            DataCopyPad(yGm_[yOff], res, cp);
            outQ_.FreeTensor(res);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, ROW_Q> rowQ_;
    TQue<QuePosition::VECOUT, OUT_Q> outQ_;
    TBuf<TPosition::VECCALC> rowF_, acc_, filt_, pick_, gIdx_;
    GlobalTensor<T> xGm_, fGm_, yGm_;
    LocalTensor<T> cur_;
    VolumetricConvTilingData t_;
    uint32_t k3_ = 0, taps_ = 0;
    uint32_t denseMax_ = 0, denseStride_ = 0, accStride_ = 0;
    uint32_t rowBegin_ = 0, rowEnd_ = 0;
};

extern "C" __global__ __aicore__ void volumetric_conv(GM_ADDR x, GM_ADDR filter, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        VolumetricConvKernel<float> op;
        op.Init(x, filter, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        VolumetricConvKernel<half> op;
        op.Init(x, filter, y, td);
        op.Process();
    }
}
