// Transposed 3-D convolution -> MaxPool(a) -> MaxPool(b) -> sum over channels.
//
// Both pools use stride == kernel, so one pooled voxel is simply the max over a
// (a*b)^3 cube of deconvolution outputs. Bias is per-channel and constant inside
// that cube, so it is added after the max. The whole chain is computed per pooled
// output row (n, d, h) without ever writing the deconvolution result to GM.
//
// Stage 1: every core repacks part of the weight [Cin][Cout][K][K][K] into
//          workspace as [Kd][Kh][Cin][Kw][Cout] so the Cout vector is contiguous.
// Stage 2: every core scatters input rows through the repacked weights into a
//          row accumulator [Wconv][Cout] with Axpy, folds it into running maxima,
//          then reduces over Cout.
#include "kernel_operator.h"

using namespace AscendC;

class Deconv3dPoolChannelSumKernel {
public:
    __aicore__ inline Deconv3dPoolChannelSumKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR usrWs,
                                const Deconv3dPoolChannelSumTiling &t)
    {
        N = t.batch; Ci = t.cin; Co = t.cout;
        D = t.inD; H = t.inH; W = t.inW;
        K = t.ksize; S = t.stride; P = t.pad; win = t.window;
        OD = t.outD; OH = t.outH; OW = t.outW;
        ciTile = t.ciTile;
        convW = OW * win;  // only deconv columns that feed a pooled voxel are kept
        cinPerCore = t.cinPerCore;

        uint32_t idx = GetBlockIdx();
        if (idx < t.rowsTail) {
            rowCount = t.rowsPerCore + 1;
            rowBegin = idx * rowCount;
        } else {
            rowCount = t.rowsPerCore;
            rowBegin = t.rowsTail * (t.rowsPerCore + 1) + (idx - t.rowsTail) * t.rowsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)weight);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        wPackGm.SetGlobalBuffer((__gm__ float *)usrWs);

        uint32_t kCube = K * K * K;
        pipe.InitBuffer(rawWQue, 1, Align8(Co * kCube) * sizeof(float));
        pipe.InitBuffer(packQue, 1, Align8(K * Co) * sizeof(float));
        pipe.InitBuffer(wTileQue, 1, Align8(ciTile * K * Co) * sizeof(float));
        pipe.InitBuffer(xRowQue, 2, Align8(W) * sizeof(float));
        pipe.InitBuffer(accBuf, Align8(convW * Co) * sizeof(float));
        pipe.InitBuffer(maxBuf, Align8(OW * Co) * sizeof(float));
        pipe.InitBuffer(biasBuf, Align8(Co) * sizeof(float));
        pipe.InitBuffer(redBuf, Align8(Co) * sizeof(float) + 64);
        pipe.InitBuffer(outQue, 1, Align8(OW) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        RepackWeights();
        SyncAll();

        LoadBias();
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint32_t row = rowBegin + r;
            uint32_t h2 = row % OH;
            uint32_t d2 = (row / OH) % OD;
            uint32_t n = row / (OH * OD);
            ComputeRow(n, d2, h2);
        }
    }

private:
    __aicore__ inline uint32_t Align8(uint32_t v) { return (v + 7) / 8 * 8; }

    // ---------------- stage 1 ----------------
    __aicore__ inline void RepackWeights()
    {
        uint32_t ciBegin = GetBlockIdx() * cinPerCore;
        uint32_t ciEnd = ciBegin + cinPerCore;
        if (ciEnd > Ci) {
            ciEnd = Ci;
        }
        uint32_t kCube = K * K * K;
        for (uint32_t ci = ciBegin; ci < ciEnd; ++ci) {
            LocalTensor<float> raw = rawWQue.AllocTensor<float>();
            DataCopyPad(raw, wGm[static_cast<uint64_t>(ci) * Co * kCube],
                        {1, static_cast<uint32_t>(Co * kCube * sizeof(float)), 0, 0, 0},
                        {false, 0, 0, 0.0f});
            rawWQue.EnQue(raw);
            raw = rawWQue.DeQue<float>();
            WaitMte2ForScalar();

            for (uint32_t kd = 0; kd < K; ++kd) {
                for (uint32_t kh = 0; kh < K; ++kh) {
                    LocalTensor<float> blk = packQue.AllocTensor<float>();
                    for (uint32_t kw = 0; kw < K; ++kw) {
                        for (uint32_t co = 0; co < Co; ++co) {
                            blk.SetValue(kw * Co + co, raw.GetValue(co * kCube + (kd * K + kh) * K + kw));
                        }
                    }
                    ScalarToMte3();
                    packQue.EnQue(blk);
                    blk = packQue.DeQue<float>();
                    uint64_t dst = (static_cast<uint64_t>(kd * K + kh) * Ci + ci) * K * Co;
                    DataCopyPad(wPackGm[dst], blk, {1, static_cast<uint32_t>(K * Co * sizeof(float)), 0, 0, 0});
                    packQue.FreeTensor(blk);
                }
            }
            rawWQue.FreeTensor(raw);
        }
    }

    // ---------------- stage 2 ----------------
    __aicore__ inline void LoadBias()
    {
        LocalTensor<float> b = biasBuf.Get<float>();
        DataCopyPad(b, bGm, {1, static_cast<uint32_t>(Co * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0.0f});
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t d2, uint32_t h2)
    {
        LocalTensor<float> runMax = maxBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(runMax, -3.402823466e+38f, OW * Co);

        for (uint32_t od = d2 * win; od < (d2 + 1) * win; ++od) {
            for (uint32_t oh = h2 * win; oh < (h2 + 1) * win; ++oh) {
                Duplicate(acc, 0.0f, convW * Co);
                AccumulateDeconvRow(n, od, oh, acc);
                // fold this deconv row into the per-(w2, co) running maxima
                for (uint32_t w2 = 0; w2 < OW; ++w2) {
                    for (uint32_t j = 0; j < win; ++j) {
                        Max(runMax[w2 * Co], runMax[w2 * Co], acc[(w2 * win + j) * Co], Co);
                    }
                }
            }
        }

        // + bias, then sum over channels
        LocalTensor<float> b = biasBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> outRow = outQue.AllocTensor<float>();
        for (uint32_t w2 = 0; w2 < OW; ++w2) {
            Add(runMax[w2 * Co], runMax[w2 * Co], b, Co);
            ReduceSum<float>(red, runMax[w2 * Co], red[Align8(Co)], Co);
            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            outRow.SetValue(w2, red.GetValue(0));
        }
        ScalarToMte3();
        outQue.EnQue(outRow);
        outRow = outQue.DeQue<float>();
        uint64_t dst = ((static_cast<uint64_t>(n) * OD + d2) * OH + h2) * OW;
        DataCopyPad(yGm[dst], outRow, {1, static_cast<uint32_t>(OW * sizeof(float)), 0, 0, 0});
        outQue.FreeTensor(outRow);
    }

    // acc[ow][co] += sum_{ci,kd,kh,kw} x[n,ci,id,ih,iw] * w[ci,co,kd,kh,kw]
    // where od = id*S - P + kd, oh = ih*S - P + kh, ow = iw*S - P + kw
    __aicore__ inline void AccumulateDeconvRow(uint32_t n, uint32_t od, uint32_t oh, LocalTensor<float> &acc)
    {
        for (uint32_t kd = 0; kd < K; ++kd) {
            int32_t td = static_cast<int32_t>(od + P) - static_cast<int32_t>(kd);
            if (td < 0 || td % S != 0 || td / S >= static_cast<int32_t>(D)) {
                continue;
            }
            uint32_t id = td / S;
            for (uint32_t kh = 0; kh < K; ++kh) {
                int32_t th = static_cast<int32_t>(oh + P) - static_cast<int32_t>(kh);
                if (th < 0 || th % S != 0 || th / S >= static_cast<int32_t>(H)) {
                    continue;
                }
                uint32_t ih = th / S;
                for (uint32_t c0 = 0; c0 < Ci; c0 += ciTile) {
                    uint32_t cCnt = (Ci - c0) < ciTile ? (Ci - c0) : ciTile;
                    LocalTensor<float> wt = wTileQue.AllocTensor<float>();
                    uint64_t src = (static_cast<uint64_t>(kd * K + kh) * Ci + c0) * K * Co;
                    DataCopyPad(wt, wPackGm[src], {1, static_cast<uint32_t>(cCnt * K * Co * sizeof(float)), 0, 0, 0},
                                {false, 0, 0, 0.0f});
                    wTileQue.EnQue(wt);
                    wt = wTileQue.DeQue<float>();

                    for (uint32_t c = 0; c < cCnt; ++c) {
                        LocalTensor<float> xr = xRowQue.AllocTensor<float>();
                        uint64_t xOff = (((static_cast<uint64_t>(n) * Ci + c0 + c) * D + id) * H + ih) * W;
                        DataCopyPad(xr, xGm[xOff], {1, static_cast<uint32_t>(W * sizeof(float)), 0, 0, 0},
                                    {false, 0, 0, 0.0f});
                        xRowQue.EnQue(xr);
                        xr = xRowQue.DeQue<float>();
                        WaitMte2ForScalar();
                        for (uint32_t iw = 0; iw < W; ++iw) {
                            float xv = xr.GetValue(iw);
                            int32_t base = static_cast<int32_t>(iw * S) - static_cast<int32_t>(P);
                            for (uint32_t kw = 0; kw < K; ++kw) {
                                int32_t ow = base + static_cast<int32_t>(kw);
                                if (ow < 0 || ow >= static_cast<int32_t>(convW)) {
                                    continue;
                                }
                                Axpy(acc[ow * Co], wt[(c * K + kw) * Co], xv, Co);
                            }
                        }
                        xRowQue.FreeTensor(xr);
                    }
                    wTileQue.FreeTensor(wt);
                }
            }
        }
    }

    __aicore__ inline void WaitMte2ForScalar()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void ScalarToMte3()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> rawWQue, wTileQue;
    TQue<QuePosition::VECIN, 2> xRowQue;
    TQue<QuePosition::VECOUT, 1> packQue, outQue;
    TBuf<TPosition::VECCALC> accBuf, maxBuf, biasBuf, redBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm, wPackGm;

    uint32_t N, Ci, Co, D, H, W, K, S, P, win, OD, OH, OW, ciTile, convW, cinPerCore;
    uint32_t rowBegin = 0, rowCount = 0;
};

extern "C" __global__ __aicore__ void deconv3d_pool_channel_sum(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    Deconv3dPoolChannelSumKernel op;
    op.Init(x, weight, bias, y, usrWs, t);
    op.Process();
}
