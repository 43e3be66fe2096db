/*
 * 3-D transposed convolution -> softmax over channels -> sigmoid.
 *
 * Phase 0: weights (Cin, Cout, kD, kH, kW) are regrouped in the user workspace to
 *          [kd][kh][kw][ci][coutPad] so that for a fixed tap and input channel
 *          all output-channel weights are one contiguous vector.
 * Phase 1: every core owns a set of output rows (n, od, oh). For a row segment
 *          it accumulates acc[ow][co] with Axpy over the channel vector, then
 *          transposes to [co][ow] and evaluates the channel softmax and the
 *          sigmoid element-wise across the row.
 */
#include "kernel_operator.h"

using namespace AscendC;

class Deconv3dSoftmaxSigmoidKernel {
public:
    __aicore__ inline Deconv3dSoftmaxSigmoidKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR usr,
                                const Deconv3dSoftmaxSigmoidTiling &tiling)
    {
        t = tiling;
        taps = t.kD * t.kH * t.kW;
        inPlane = t.inD * t.inH * t.inW;
        outPlane = t.outD * t.outH * t.outW;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b, t.cout);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        wPackGm.SetGlobalBuffer((__gm__ float *)usr);

        uint32_t tapVec = t.kW * t.coutPad;
        uint32_t repackLen = t.cout * taps;
        pipe.InitBuffer(xRowQ, 2, t.inWPad * sizeof(float));
        pipe.InitBuffer(wTapQ, 2, (tapVec > repackLen ? tapVec : ((repackLen + 7) / 8 * 8)) * sizeof(float));
        // outQ doubles as the staging tile of the weight repack ([tap][coutPad])
        uint32_t tileElems = t.cout * t.owTile;
        uint32_t packElems = taps * t.coutPad;
        pipe.InitBuffer(outQ, 1, (tileElems > packElems ? tileElems : packElems) * sizeof(float));
        pipe.InitBuffer(accBuf, t.owTile * t.coutPad * sizeof(float));
        pipe.InitBuffer(biasBuf, t.coutPad * sizeof(float));
        pipe.InitBuffer(statBuf, 2 * t.owTile * sizeof(float));
    }

    __aicore__ inline void RepackWeights()
    {
        // each core handles input channels ci = blockIdx, blockIdx + blockNum, ...
        uint32_t nBlk = GetBlockNum();
        for (uint32_t ci = GetBlockIdx(); ci < t.cin; ci += nBlk) {
            uint32_t len = t.cout * taps;
            LocalTensor<float> src = wTapQ.AllocTensor<float>();
            DataCopyPad(src, wGm[(uint64_t)ci * len], {1, len * 4U, 0, 0, 0}, {false, 0, 0, 0.0f});
            wTapQ.EnQue(src);
            src = wTapQ.DeQue<float>();
            LocalTensor<float> dst = outQ.AllocTensor<float>();
            for (uint32_t tap = 0; tap < taps; ++tap) {
                for (uint32_t co = 0; co < t.coutPad; ++co) {
                    float v = co < t.cout ? src.GetValue(co * taps + tap) : 0.0f;
                    dst.SetValue(tap * t.coutPad + co, v);
                }
            }
            wTapQ.FreeTensor(src);
            outQ.EnQue(dst);
            dst = outQ.DeQue<float>();
            // scatter each tap's vector to [tap][ci][:]
            DataCopyExtParams cp{static_cast<uint16_t>(taps), t.coutPad * 4U, 0,
                                 (t.cin - 1) * t.coutPad * 4U, 0};
            DataCopyPad(wPackGm[(uint64_t)ci * t.coutPad], dst, cp);
            outQ.FreeTensor(dst);
        }
        SyncAll();
    }

    __aicore__ inline void Run()
    {
        LocalTensor<float> bias = biasBuf.Get<float>();
        Duplicate(bias, 0.0f, t.coutPad);
        event_t vm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(vm);
        WaitFlag<HardEvent::V_MTE2>(vm);
        DataCopyPad(bias, bGm, {1, t.cout * 4U, 0, 0, 0}, {false, 0, 0, 0.0f});
        event_t mv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mv);
        WaitFlag<HardEvent::MTE2_V>(mv);

        uint32_t r0 = GetBlockIdx() * t.rowsPerCore;
        uint32_t r1 = r0 + t.rowsPerCore;
        if (r1 > t.totalRows) {
            r1 = t.totalRows;
        }
        for (uint32_t row = r0; row < r1; ++row) {
            uint32_t oh = row % t.outH;
            uint32_t od = (row / t.outH) % t.outD;
            uint32_t n = row / (t.outH * t.outD);
            for (uint32_t ow0 = 0; ow0 < t.outW; ow0 += t.owTile) {
                uint32_t cnt = (t.outW - ow0) < t.owTile ? (t.outW - ow0) : t.owTile;
                Accumulate(n, od, oh, ow0, cnt);
                Epilogue(n, od, oh, ow0, cnt);
            }
        }
    }

private:
    // returns true and the input index when output position o receives tap k
    __aicore__ inline bool SrcIndex(uint32_t o, uint32_t k, uint32_t pad, uint32_t stride, uint32_t limit,
                                    uint32_t &idx)
    {
        int32_t num = static_cast<int32_t>(o) + static_cast<int32_t>(pad) - static_cast<int32_t>(k);
        if (num < 0 || (num % static_cast<int32_t>(stride)) != 0) {
            return false;
        }
        idx = static_cast<uint32_t>(num) / stride;
        return idx < limit;
    }

    __aicore__ inline void Accumulate(uint32_t n, uint32_t od, uint32_t oh, uint32_t ow0, uint32_t cnt)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> bias = biasBuf.Get<float>();
        for (uint32_t j = 0; j < cnt; ++j) {
            DataCopy(acc[j * t.coutPad], bias, t.coutPad);
        }
        for (uint32_t kd = 0; kd < t.kD; ++kd) {
            uint32_t id;
            if (!SrcIndex(od, kd, t.padD, t.strideD, t.inD, id)) {
                continue;
            }
            for (uint32_t kh = 0; kh < t.kH; ++kh) {
                uint32_t ih;
                if (!SrcIndex(oh, kh, t.padH, t.strideH, t.inH, ih)) {
                    continue;
                }
                for (uint32_t ci = 0; ci < t.cin; ++ci) {
                    uint64_t xOff = ((uint64_t)n * t.cin + ci) * inPlane + ((uint64_t)id * t.inH + ih) * t.inW;
                    LocalTensor<float> xr = xRowQ.AllocTensor<float>();
                    DataCopyPad(xr, xGm[xOff], {1, t.inW * 4U, 0, 0, 0}, {false, 0, 0, 0.0f});
                    xRowQ.EnQue(xr);
                    // kW weight vectors for (kd, kh, *, ci)
                    uint64_t tap0 = ((uint64_t)kd * t.kH + kh) * t.kW;
                    LocalTensor<float> wt = wTapQ.AllocTensor<float>();
                    DataCopyExtParams wcp{static_cast<uint16_t>(t.kW), t.coutPad * 4U,
                                          (t.cin - 1) * t.coutPad * 4U, 0, 0};
                    DataCopyPad(wt, wPackGm[(tap0 * t.cin + ci) * t.coutPad], wcp, {false, 0, 0, 0.0f});
                    wTapQ.EnQue(wt);

                    xr = xRowQ.DeQue<float>();
                    wt = wTapQ.DeQue<float>();
                    for (uint32_t j = 0; j < cnt; ++j) {
                        for (uint32_t kw = 0; kw < t.kW; ++kw) {
                            uint32_t iw;
                            if (!SrcIndex(ow0 + j, kw, t.padW, t.strideW, t.inW, iw)) {
                                continue;
                            }
                            float xv = xr.GetValue(iw);
                            Axpy(acc[j * t.coutPad], wt[kw * t.coutPad], xv, t.coutPad);
                        }
                    }
                    xRowQ.FreeTensor(xr);
                    wTapQ.FreeTensor(wt);
                }
            }
        }
    }

    __aicore__ inline void Epilogue(uint32_t n, uint32_t od, uint32_t oh, uint32_t ow0, uint32_t cnt)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tile = outQ.AllocTensor<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> mx = stat;
        LocalTensor<float> sum = stat[t.owTile];
        uint32_t W = t.owTile;

        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        // [ow][co] -> [co][ow]
        for (uint32_t co = 0; co < t.cout; ++co) {
            for (uint32_t j = 0; j < cnt; ++j) {
                tile.SetValue(co * W + j, acc.GetValue(j * t.coutPad + co));
            }
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);

        // softmax across channels, vectorised over the row positions
        DataCopy(mx, tile, W);
        for (uint32_t co = 1; co < t.cout; ++co) {
            Max(mx, mx, tile[co * W], cnt);
        }
        Duplicate(sum, 0.0f, W);
        for (uint32_t co = 0; co < t.cout; ++co) {
            LocalTensor<float> v = tile[co * W];
            Sub(v, v, mx, cnt);
            Exp(v, v, cnt);
            Add(sum, sum, v, cnt);
        }
        for (uint32_t co = 0; co < t.cout; ++co) {
            LocalTensor<float> v = tile[co * W];
            Div(v, v, sum, cnt);
            // sigmoid(p) = 1 / (1 + exp(-p))
            Muls(v, v, -1.0f, cnt);
            Exp(v, v, cnt);
            Adds(v, v, 1.0f, cnt);
            Reciprocal(v, v, cnt);
        }
        outQ.EnQue(tile);

        tile = outQ.DeQue<float>();
        uint64_t yOff = (uint64_t)n * t.cout * outPlane + ((uint64_t)od * t.outH + oh) * t.outW + ow0;
        uint32_t gap = (outPlane - cnt) * 4U;
        uint32_t ubGap = (W - (cnt + 7) / 8 * 8) / 8;
        DataCopyExtParams cp{static_cast<uint16_t>(t.cout), cnt * 4U, ubGap, gap, 0};
        DataCopyPad(yGm[yOff], tile, cp);
        outQ.FreeTensor(tile);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> xRowQ, wTapQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> accBuf, biasBuf, statBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm, wPackGm;
    Deconv3dSoftmaxSigmoidTiling t;
    uint32_t taps = 0;
    uint64_t inPlane = 0, outPlane = 0;
};

extern "C" __global__ __aicore__ void deconv3d_channel_softmax_sigmoid(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                       GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    Deconv3dSoftmaxSigmoidKernel op;
    op.Init(x, weight, bias, y, usr, td);
    op.RepackWeights();
    op.Run();
}
