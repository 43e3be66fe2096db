/**
 * DenseConv3d kernel – direct NCDHW fp32 3-D convolution (groups = 1)
 *
 *   y[n, oc, z, r, c] = bias[oc] + Σ_ic Σ_{a,b,e} x[n, ic, z*sd-pd+a*dd, r*sh-ph+b*dh, c*sw-pw+e*dw]
 *                                               * w[oc, ic, a, b, e]
 *
 * Work unit: one output row (n, z, r) for all output channels; rows are
 * split across vector cores.  The W axis is processed in column tiles.  For a
 * column tile the horizontal sampling pattern (stride, padding, dilation) is
 * identical for every row, so it is encoded once as Gather byte-offsets plus
 * a validity mask per horizontal tap.  For each (ic, a, b) with an in-range
 * input row the needed input span is loaded, each horizontal tap is gathered
 * and masked, and the result is accumulated into every output channel with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

class DenseConv3dKernel {
public:
    __aicore__ inline DenseConv3dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const DenseConv3dTilingData &t)
    {
        t_ = t;
        taps_ = t.kd * t.kh * t.kw;
        T_ = t.colTile;
        uint32_t blk = GetBlockIdx();
        rowCnt_ = t.rowsPerCore + (blk < t.rowsTail ? 1U : 0U);
        rowBeg_ = blk * t.rowsPerCore + (blk < t.rowsTail ? blk : t.rowsTail);

        uint64_t xNum = static_cast<uint64_t>(t.n) * t.ci * t.d * t.h * t.w;
        uint64_t yNum = static_cast<uint64_t>(t.n) * t.co * t.od * t.oh * t.ow;
        xGm_.SetGlobalBuffer((__gm__ float *)x, xNum);
        wGm_.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(t.co) * t.ci * taps_);
        if (t.hasBias != 0) {
            bGm_.SetGlobalBuffer((__gm__ float *)b, t.co);
        }
        yGm_.SetGlobalBuffer((__gm__ float *)y, yNum);

        pipe_.InitBuffer(spanQ_, 2, t.spanCap * sizeof(float));
        pipe_.InitBuffer(resQ_, 2, T_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, t.co * T_ * sizeof(float));
        pipe_.InitBuffer(gBuf_, T_ * sizeof(float));
        pipe_.InitBuffer(offBuf_, t.kw * T_ * sizeof(uint32_t));
        pipe_.InitBuffer(maskBuf_, t.kw * T_ * sizeof(float));
        pipe_.InitBuffer(wBuf_, t.co * t.tapsAlign * sizeof(float));
        pipe_.InitBuffer(biasBuf_, ((t.co + 7U) / 8U * 8U) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowCnt_ == 0) {
            return;
        }
        LoadBias();
        for (uint32_t c0 = 0; c0 < t_.ow; c0 += T_) {
            uint32_t len = (t_.ow - c0) < T_ ? (t_.ow - c0) : T_;
            int32_t spanLo = 0;
            int32_t spanLen = 0;
            BuildColumnTables(c0, len, spanLo, spanLen);
            for (uint32_t i = 0; i < rowCnt_; ++i) {
                ComputeRow(rowBeg_ + i, c0, len, spanLo, spanLen);
            }
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Wait()
    {
        event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    __aicore__ inline void LoadBias()
    {
        LocalTensor<float> bl = biasBuf_.Get<float>();
        if (t_.hasBias != 0) {
            DataCopyExtParams p{1, static_cast<uint32_t>(t_.co * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(bl, bGm_, p, pad);
            Wait<HardEvent::MTE2_S>();
        } else {
            Duplicate(bl, 0.0f, (t_.co + 7U) / 8U * 8U);
            Wait<HardEvent::V_S>();
        }
    }

    __aicore__ inline void BuildColumnTables(uint32_t c0, uint32_t len, int32_t &lo, int32_t &cnt)
    {
        int32_t first = static_cast<int32_t>(c0) * t_.sw - t_.pw;
        int32_t last = static_cast<int32_t>(c0 + len - 1) * t_.sw - t_.pw +
                       static_cast<int32_t>(t_.kw - 1) * t_.dw;
        lo = first < 0 ? 0 : first;
        int32_t hi = last > static_cast<int32_t>(t_.w) - 1 ? static_cast<int32_t>(t_.w) - 1 : last;
        cnt = hi - lo + 1;

        Wait<HardEvent::V_S>();   // previous tile's Gather/Mul must be finished with the tables
        LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
        LocalTensor<float> msk = maskBuf_.Get<float>();
        for (uint32_t e = 0; e < t_.kw; ++e) {
            for (uint32_t j = 0; j < T_; ++j) {
                int32_t iw = static_cast<int32_t>(c0 + j) * t_.sw - t_.pw + static_cast<int32_t>(e) * t_.dw;
                bool ok = (j < len) && (iw >= 0) && (iw < static_cast<int32_t>(t_.w)) && cnt > 0;
                off.SetValue(e * T_ + j, ok ? static_cast<uint32_t>(iw - lo) * 4U : 0U);
                msk.SetValue(e * T_ + j, ok ? 1.0f : 0.0f);
            }
        }
        Wait<HardEvent::S_V>();
    }

    // filter[:, ic] -> UB, one row of tapsAlign floats per output channel
    __aicore__ inline void LoadFilterSlice(uint32_t ic)
    {
        Wait<HardEvent::V_MTE2>();
        LocalTensor<float> wl = wBuf_.Get<float>();
        DataCopyExtParams p{static_cast<uint16_t>(t_.co), static_cast<uint32_t>(taps_ * sizeof(float)),
                            static_cast<uint32_t>((t_.ci - 1) * taps_ * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm_[static_cast<uint64_t>(ic) * taps_], p, pad);
        Wait<HardEvent::MTE2_S>();
    }

    __aicore__ inline void ComputeRow(uint32_t row, uint32_t c0, uint32_t len, int32_t spanLo, int32_t spanLen)
    {
        uint32_t r = row % t_.oh;
        uint32_t z = (row / t_.oh) % t_.od;
        uint32_t nb = row / (t_.oh * t_.od);

        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> bl = biasBuf_.Get<float>();
        for (uint32_t oc = 0; oc < t_.co; ++oc) {
            Duplicate(acc[oc * T_], bl.GetValue(oc), T_);
        }

        if (spanLen > 0) {
            LocalTensor<uint32_t> off = offBuf_.Get<uint32_t>();
            LocalTensor<float> msk = maskBuf_.Get<float>();
            LocalTensor<float> g = gBuf_.Get<float>();
            LocalTensor<float> wl = wBuf_.Get<float>();
            for (uint32_t ic = 0; ic < t_.ci; ++ic) {
                LoadFilterSlice(ic);
                for (uint32_t a = 0; a < t_.kd; ++a) {
                    int32_t iz = static_cast<int32_t>(z) * t_.sd - t_.pd + static_cast<int32_t>(a) * t_.dd;
                    if (iz < 0 || iz >= static_cast<int32_t>(t_.d)) {
                        continue;
                    }
                    for (uint32_t bb = 0; bb < t_.kh; ++bb) {
                        int32_t iy = static_cast<int32_t>(r) * t_.sh - t_.ph + static_cast<int32_t>(bb) * t_.dh;
                        if (iy < 0 || iy >= static_cast<int32_t>(t_.h)) {
                            continue;
                        }
                        uint64_t src = (((static_cast<uint64_t>(nb) * t_.ci + ic) * t_.d + iz) * t_.h + iy) * t_.w +
                                       static_cast<uint32_t>(spanLo);
                        LocalTensor<float> sp = spanQ_.AllocTensor<float>();
                        DataCopyExtParams p{1, static_cast<uint32_t>(spanLen * sizeof(float)), 0, 0, 0};
                        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                        DataCopyPad(sp, xGm_[src], p, pad);
                        spanQ_.EnQue(sp);
                        LocalTensor<float> in = spanQ_.DeQue<float>();
                        uint32_t tapBase = (a * t_.kh + bb) * t_.kw;
                        for (uint32_t e = 0; e < t_.kw; ++e) {
                            Gather(g, in, off[e * T_], 0U, T_);
                            Mul(g, g, msk[e * T_], T_);
                            for (uint32_t oc = 0; oc < t_.co; ++oc) {
                                Axpy(acc[oc * T_], g, wl.GetValue(oc * t_.tapsAlign + tapBase + e), T_);
                            }
                        }
                        spanQ_.FreeTensor(in);
                    }
                }
            }
        }

        uint64_t plane = static_cast<uint64_t>(t_.od) * t_.oh * t_.ow;
        for (uint32_t oc = 0; oc < t_.co; ++oc) {
            LocalTensor<float> res = resQ_.AllocTensor<float>();
            Adds(res, acc[oc * T_], 0.0f, T_);
            resQ_.EnQue(res);
            LocalTensor<float> outv = resQ_.DeQue<float>();
            uint64_t dst = (static_cast<uint64_t>(nb) * t_.co + oc) * plane +
                           (static_cast<uint64_t>(z) * t_.oh + r) * t_.ow + c0;
            DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm_[dst], outv, p);
            resQ_.FreeTensor(outv);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> spanQ_;
    TQue<QuePosition::VECOUT, 2> resQ_;
    TBuf<TPosition::VECCALC> accBuf_, gBuf_, offBuf_, maskBuf_, wBuf_, biasBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_;
    DenseConv3dTilingData t_;
    uint32_t taps_ = 0, T_ = 0, rowBeg_ = 0, rowCnt_ = 0;
};

extern "C" __global__ __aicore__ void dense_conv3d(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(td, tiling);
    DenseConv3dKernel op;
    op.Init(x, filter, bias, y, td);
    op.Process();
}
