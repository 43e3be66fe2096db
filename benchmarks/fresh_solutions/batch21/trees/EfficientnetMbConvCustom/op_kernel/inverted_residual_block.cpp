/*
 * InvertedResidualBlock kernel (vector-core implementation).
 *
 *  stage 1  E[n,h,p] = relu6(s1[h] * sum_c We[h,c] * x[n,c,p] + b1[h])         per (n, pixel tile)
 *  stage 2  D[n,h,q] = relu6(s2[h] * dwconv_kxk_stride(E[n,h])[q] + b2[h])     per (n, h) plane
 *  stage 3  y[n,o,q] = s3[o] * sum_h Wp[o,h] * D[n,h,q] + b3[o] (+ x[n,o,q])   per (n, pixel tile)
 *
 * The stages are separated by SyncAll(); E and D are kept in the workspace.
 */
#include "kernel_operator.h"

using namespace AscendC;

class InvertedResidualBlockKernel {
public:
    __aicore__ inline InvertedResidualBlockKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR we, GM_ADDR s1, GM_ADDR b1, GM_ADDR wd, GM_ADDR s2, GM_ADDR b2,
                                GM_ADDR wp, GM_ADDR s3, GM_ADDR b3, GM_ADDR y, GM_ADDR ws,
                                const InvertedResidualBlockTilingData &td)
    {
        td_ = td;
        hw_ = td.inH * td.inW;
        ohw_ = td.outH * td.outW;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        weGm.SetGlobalBuffer((__gm__ float *)we);
        s1Gm.SetGlobalBuffer((__gm__ float *)s1);
        b1Gm.SetGlobalBuffer((__gm__ float *)b1);
        wdGm.SetGlobalBuffer((__gm__ float *)wd);
        s2Gm.SetGlobalBuffer((__gm__ float *)s2);
        b2Gm.SetGlobalBuffer((__gm__ float *)b2);
        wpGm.SetGlobalBuffer((__gm__ float *)wp);
        s3Gm.SetGlobalBuffer((__gm__ float *)s3);
        b3Gm.SetGlobalBuffer((__gm__ float *)b3);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        eGm.SetGlobalBuffer((__gm__ float *)ws);
        dGm.SetGlobalBuffer((__gm__ float *)ws + static_cast<uint64_t>(td.batch) * td.chid * hw_);
    }

    __aicore__ inline void Process()
    {
        ExpandStage();
        SyncAll();
        DepthwiseStage();
        SyncAll();
        ProjectStage();
    }

private:
    // ---------------- helpers
    template <HardEvent EVT>
    __aicore__ inline void Wait()
    {
        event_t id = static_cast<event_t>(pipe.FetchEventID(EVT));
        SetFlag<EVT>(id);
        WaitFlag<EVT>(id);
    }

    __aicore__ inline void Relu6Affine(const LocalTensor<float> &t, float sc, float sh, uint32_t len)
    {
        Muls(t, t, sc, len);
        Adds(t, t, sh, len);
        Maxs(t, t, 0.0f, len);
        Mins(t, t, 6.0f, len);
    }

    __aicore__ inline void Range(uint32_t total, uint32_t &first, uint32_t &count)
    {
        uint32_t core = GetBlockIdx();
        uint32_t per = total / td_.coreNum;
        uint32_t rem = total % td_.coreNum;
        count = per + (core < rem ? 1 : 0);
        first = core * per + (core < rem ? core : rem);
    }

    // ---------------- stage 1: pointwise expansion
    __aicore__ inline void ExpandStage()
    {
        const uint32_t T = td_.expandTile;
        const uint32_t cin = td_.cin;
        pipe.Reset();
        pipe.InitBuffer(xTileBuf, cin * T * sizeof(float));
        pipe.InitBuffer(wRowBuf, ((cin + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(outQ, 2, T * sizeof(float));

        uint32_t tilesPerImg = (hw_ + T - 1) / T;
        uint32_t first, count;
        Range(td_.batch * tilesPerImg, first, count);
        LocalTensor<float> xt = xTileBuf.Get<float>();
        LocalTensor<float> wr = wRowBuf.Get<float>();

        for (uint32_t it = first; it < first + count; ++it) {
            uint32_t n = it / tilesPerImg;
            uint32_t p0 = (it % tilesPerImg) * T;
            uint32_t len = (p0 + T <= hw_) ? T : hw_ - p0;
            uint32_t lenAl = (len + 7) / 8 * 8;

            // all input channels of this pixel tile, one strided DMA
            Wait<HardEvent::V_MTE2>();
            DataCopyExtParams cp{static_cast<uint16_t>(cin), len * 4u, (hw_ - len) * 4u, (T - lenAl) / 8u, 0};
            DataCopyPad(xt, xGm[static_cast<uint64_t>(n) * cin * hw_ + p0], cp, DataCopyPadExtParams<float>{false, 0, 0, 0});
            Wait<HardEvent::MTE2_V>();

            for (uint32_t h = 0; h < td_.chid; ++h) {
                Wait<HardEvent::S_MTE2>();
                DataCopyPad(wr, weGm[static_cast<uint64_t>(h) * cin], DataCopyExtParams{1, cin * 4u, 0, 0, 0},
                            DataCopyPadExtParams<float>{false, 0, 0, 0});
                Wait<HardEvent::MTE2_S>();
                LocalTensor<float> acc = outQ.AllocTensor<float>();
                Muls(acc, xt, wr.GetValue(0), len);
                for (uint32_t c = 1; c < cin; ++c) {
                    Axpy(acc, xt[c * T], wr.GetValue(c), len);
                }
                Relu6Affine(acc, s1Gm.GetValue(h), b1Gm.GetValue(h), len);
                outQ.EnQue(acc);
                acc = outQ.DeQue<float>();
                DataCopyPad(eGm[(static_cast<uint64_t>(n) * td_.chid + h) * hw_ + p0], acc,
                            DataCopyExtParams{1, len * 4u, 0, 0, 0});
                outQ.FreeTensor(acc);
            }
        }
    }

    // ---------------- stage 2: depthwise kxk
    // Loads input row `iy` of plane `base` shifted by `dx` columns (zero outside [0, W)) into dst.
    __aicore__ inline void LoadShiftedRow(const LocalTensor<float> &dst, uint64_t rowBase, int32_t dx)
    {
        const int32_t W = static_cast<int32_t>(td_.inW);
        uint32_t left = dx < 0 ? static_cast<uint32_t>(-dx) : 0;
        uint32_t start = dx < 0 ? 0 : static_cast<uint32_t>(dx);
        uint32_t cnt = static_cast<uint32_t>(W - (dx < 0 ? -dx : dx));
        uint32_t used = left + cnt;
        uint8_t right = static_cast<uint8_t>((used + 7) / 8 * 8 - used);
        Duplicate(dst, 0.0f, td_.rowAlign);
        Wait<HardEvent::V_MTE2>();
        DataCopyPad(dst, eGm[rowBase + start], DataCopyExtParams{1, cnt * 4u, 0, 0, 0},
                    DataCopyPadExtParams<float>{true, static_cast<uint8_t>(left), right, 0.0f});
        Wait<HardEvent::MTE2_V>();
    }

    __aicore__ inline void DepthwiseStage()
    {
        const uint32_t R = td_.rowAlign;
        const uint32_t k = td_.ksize;
        pipe.Reset();
        pipe.InitBuffer(rowBuf, R * sizeof(float));
        pipe.InitBuffer(accBuf, R * sizeof(float));
        pipe.InitBuffer(outQ, 2, R * sizeof(float));

        uint32_t first, count;
        Range(td_.batch * td_.chid, first, count);
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();

        for (uint32_t pl = first; pl < first + count; ++pl) {
            uint32_t h = pl % td_.chid;
            uint64_t inPlane = static_cast<uint64_t>(pl) * hw_;
            uint64_t outPlane = static_cast<uint64_t>(pl) * ohw_;
            uint64_t wBase = static_cast<uint64_t>(h) * k * k;
            float sc = s2Gm.GetValue(h);
            float sh = b2Gm.GetValue(h);

            for (uint32_t oy = 0; oy < td_.outH; ++oy) {
                Duplicate(acc, 0.0f, R);
                for (uint32_t kh = 0; kh < k; ++kh) {
                    int32_t iy = static_cast<int32_t>(oy * td_.stride + kh) - static_cast<int32_t>(td_.pad);
                    if (iy < 0 || iy >= static_cast<int32_t>(td_.inH)) {
                        continue;
                    }
                    for (uint32_t kw = 0; kw < k; ++kw) {
                        float wv = wdGm.GetValue(wBase + kh * k + kw);
                        LoadShiftedRow(row, inPlane + static_cast<uint64_t>(iy) * td_.inW,
                                       static_cast<int32_t>(kw) - static_cast<int32_t>(td_.pad));
                        Axpy(acc, row, wv, td_.inW);
                    }
                }
                LocalTensor<float> o = outQ.AllocTensor<float>();
                if (td_.stride == 1) {
                    Adds(o, acc, 0.0f, td_.outW);
                } else {
                    // keep every stride-th column of the full-resolution row
                    Wait<HardEvent::V_S>();
                    for (uint32_t ox = 0; ox < td_.outW; ++ox) {
                        o.SetValue(ox, acc.GetValue(ox * td_.stride));
                    }
                    Wait<HardEvent::S_V>();
                }
                Relu6Affine(o, sc, sh, td_.outW);
                outQ.EnQue(o);
                o = outQ.DeQue<float>();
                DataCopyPad(dGm[outPlane + static_cast<uint64_t>(oy) * td_.outW], o,
                            DataCopyExtParams{1, td_.outW * 4u, 0, 0, 0});
                outQ.FreeTensor(o);
            }
        }
    }

    // ---------------- stage 3: pointwise projection (+ residual)
    __aicore__ inline void ProjectStage()
    {
        const uint32_t T = td_.projectTile;
        const uint32_t cout = td_.cout;
        const uint32_t chid = td_.chid;
        pipe.Reset();
        pipe.InitBuffer(inQ, 2, T * sizeof(float));
        pipe.InitBuffer(accBuf, cout * T * sizeof(float));
        pipe.InitBuffer(rowBuf, T * sizeof(float));

        uint32_t tilesPerImg = (ohw_ + T - 1) / T;
        uint32_t first, count;
        Range(td_.batch * tilesPerImg, first, count);
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> res = rowBuf.Get<float>();

        for (uint32_t it = first; it < first + count; ++it) {
            uint32_t n = it / tilesPerImg;
            uint32_t p0 = (it % tilesPerImg) * T;
            uint32_t len = (p0 + T <= ohw_) ? T : ohw_ - p0;
            uint32_t lenAl = (len + 7) / 8 * 8;

            Duplicate(acc, 0.0f, cout * T);
            for (uint32_t h = 0; h < chid; ++h) {
                LocalTensor<float> d = inQ.AllocTensor<float>();
                DataCopyPad(d, dGm[(static_cast<uint64_t>(n) * chid + h) * ohw_ + p0],
                            DataCopyExtParams{1, len * 4u, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
                inQ.EnQue(d);
                d = inQ.DeQue<float>();
                for (uint32_t o = 0; o < cout; ++o) {
                    Axpy(acc[o * T], d, wpGm.GetValue(static_cast<uint64_t>(o) * chid + h), len);
                }
                inQ.FreeTensor(d);
            }
            for (uint32_t o = 0; o < cout; ++o) {
                Muls(acc[o * T], acc[o * T], s3Gm.GetValue(o), len);
                Adds(acc[o * T], acc[o * T], b3Gm.GetValue(o), len);
                if (td_.useResidual) {
                    Wait<HardEvent::V_MTE2>();
                    DataCopyPad(res, xGm[(static_cast<uint64_t>(n) * cout + o) * ohw_ + p0],
                                DataCopyExtParams{1, len * 4u, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
                    Wait<HardEvent::MTE2_V>();
                    Add(acc[o * T], acc[o * T], res, len);
                }
            }
            Wait<HardEvent::V_MTE3>();
            DataCopyExtParams outCp{static_cast<uint16_t>(cout), len * 4u, (T - lenAl) / 8u, (ohw_ - len) * 4u, 0};
            DataCopyPad(yGm[static_cast<uint64_t>(n) * cout * ohw_ + p0], acc, outCp);
            Wait<HardEvent::MTE3_V>();
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> xTileBuf, wRowBuf, rowBuf, accBuf;
    GlobalTensor<float> xGm, weGm, s1Gm, b1Gm, wdGm, s2Gm, b2Gm, wpGm, s3Gm, b3Gm, yGm, eGm, dGm;
    InvertedResidualBlockTilingData td_;
    uint32_t hw_ = 0, ohw_ = 0;
};

extern "C" __global__ __aicore__ void inverted_residual_block(GM_ADDR x, GM_ADDR expand_weight, GM_ADDR expand_scale,
                                                               GM_ADDR expand_shift, GM_ADDR dw_weight, GM_ADDR dw_scale,
                                                               GM_ADDR dw_shift, GM_ADDR project_weight,
                                                               GM_ADDR project_scale, GM_ADDR project_shift, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    InvertedResidualBlockKernel op;
    op.Init(x, expand_weight, expand_scale, expand_shift, dw_weight, dw_scale, dw_shift, project_weight,
            project_scale, project_shift, y, GetUserWorkspace(workspace), td);
    op.Process();
}
