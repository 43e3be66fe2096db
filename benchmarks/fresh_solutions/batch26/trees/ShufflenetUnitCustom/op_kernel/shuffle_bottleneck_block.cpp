// ShuffleBottleneckBlock: grouped 1x1 -> BN -> ReLU -> depthwise 3x3 -> BN -> channel shuffle
//                         -> grouped 1x1 -> BN -> ReLU, plus (projected or identity) shortcut.
//
// All BatchNorms arrive folded into per-channel (scale, bias). The kernel runs in three
// stages separated by full-core barriers; stage outputs live in the user workspace:
//   stage 1: t1 = relu(bn1(conv1(x)))                      (per image, per pixel tile, per group)
//   stage 2: t2[shuffled c] = bn2(dw3x3(t1[c]))            (per image, channel and row)
//   stage 3: y = relu(bn3(conv3(t2))) + shortcut(x)         (per image, pixel tile, group)
#include "kernel_operator.h"

using namespace AscendC;

class ShuffleBottleneckBlockKernel {
public:
    __aicore__ inline ShuffleBottleneckBlockKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w1, GM_ADDR s1, GM_ADDR b1, GM_ADDR w2, GM_ADDR s2,
                                GM_ADDR b2, GM_ADDR w3, GM_ADDR s3, GM_ADDR b3, GM_ADDR wp, GM_ADDR sp,
                                GM_ADDR bp, GM_ADDR y, GM_ADDR usrWs, const ShuffleBottleneckBlockTilingData &td)
    {
        N = td.batch; Cin = td.inCh; Cmid = td.midCh; Cout = td.outCh;
        H = td.height; W = td.width; G = td.groups;
        proj = td.hasProjection != 0;
        pixTile = td.pixTile; tilesPerImg = td.tilesPerImage;
        rowStride = td.rowStride;
        HW = H * W;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        w1Gm.SetGlobalBuffer((__gm__ float *)w1);
        s1Gm.SetGlobalBuffer((__gm__ float *)s1);
        b1Gm.SetGlobalBuffer((__gm__ float *)b1);
        w2Gm.SetGlobalBuffer((__gm__ float *)w2);
        s2Gm.SetGlobalBuffer((__gm__ float *)s2);
        b2Gm.SetGlobalBuffer((__gm__ float *)b2);
        w3Gm.SetGlobalBuffer((__gm__ float *)w3);
        s3Gm.SetGlobalBuffer((__gm__ float *)s3);
        b3Gm.SetGlobalBuffer((__gm__ float *)b3);
        if (proj) {
            wpGm.SetGlobalBuffer((__gm__ float *)wp);
            spGm.SetGlobalBuffer((__gm__ float *)sp);
            bpGm.SetGlobalBuffer((__gm__ float *)bp);
        }
        yGm.SetGlobalBuffer((__gm__ float *)y);

        uint64_t plane = static_cast<uint64_t>(N) * Cmid * HW + 2 * td.wsGuard;
        __gm__ float *ws = (__gm__ float *)usrWs;
        // t1 keeps a guard band in front so that the column-shifted reads never leave the buffer
        guard = td.wsGuard;
        t1Gm.SetGlobalBuffer(ws);
        t2Gm.SetGlobalBuffer(ws + plane);

        core = GetBlockIdx();
        coreNum = GetBlockNum();

        uint32_t maxCpg = (Cmid / G > Cout / G) ? Cmid / G : Cout / G;
        pipe.InitBuffer(inQ, 2, pixTile * sizeof(float));
        pipe.InitBuffer(outQ, 1, pixTile * sizeof(float));
        pipe.InitBuffer(accBuf, maxCpg * pixTile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        StagePointwiseIn();
        SyncAll();
        pipe.Reset();
        pipe.InitBuffer(rowQ, 1, 9 * rowStride * sizeof(float));
        pipe.InitBuffer(rowOutQ, 1, rowStride * sizeof(float));
        StageDepthwise();
        SyncAll();
        pipe.Reset();
        uint32_t maxCpg = (Cmid / G > Cout / G) ? Cmid / G : Cout / G;
        pipe.InitBuffer(inQ, 2, pixTile * sizeof(float));
        pipe.InitBuffer(outQ, 1, pixTile * sizeof(float));
        pipe.InitBuffer(accBuf, maxCpg * pixTile * sizeof(float));
        StagePointwiseOut();
    }

private:
    __aicore__ inline void LoadPixels(const GlobalTensor<float> &src, uint64_t off, uint32_t cnt)
    {
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopyPad(t, src[off], DataCopyExtParams(1, cnt * sizeof(float), 0, 0, 0),
                    DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        inQ.EnQue(t);
    }

    __aicore__ inline void StorePixels(const GlobalTensor<float> &dst, uint64_t off, LocalTensor<float> &src,
                                       uint32_t cnt)
    {
        LocalTensor<float> o = outQ.AllocTensor<float>();
        DataCopy(o, src, (cnt + 7) / 8 * 8);
        outQ.EnQue(o);
        o = outQ.DeQue<float>();
        DataCopyPad(dst[off], o, DataCopyExtParams(1, cnt * sizeof(float), 0, 0, 0));
        outQ.FreeTensor(o);
    }

    // ---------------- stage 1: grouped pointwise conv + BN + ReLU ----------------
    __aicore__ inline void StagePointwiseIn()
    {
        uint32_t cinG = Cin / G, cmidG = Cmid / G;
        uint32_t items = N * tilesPerImg * G;
        LocalTensor<float> acc = accBuf.Get<float>();
        for (uint32_t it = core; it < items; it += coreNum) {
            uint32_t g = it % G;
            uint32_t tile = (it / G) % tilesPerImg;
            uint32_t n = it / G / tilesPerImg;
            uint32_t p0 = tile * pixTile;
            uint32_t cnt = (p0 + pixTile > HW) ? HW - p0 : pixTile;
            uint32_t cntA = (cnt + 7) / 8 * 8;

            Duplicate(acc, 0.0f, cmidG * pixTile);
            for (uint32_t ci = 0; ci < cinG; ++ci) {
                uint32_t cAbs = g * cinG + ci;
                LoadPixels(xGm, (static_cast<uint64_t>(n) * Cin + cAbs) * HW + p0, cnt);
                LocalTensor<float> xin = inQ.DeQue<float>();
                for (uint32_t co = 0; co < cmidG; ++co) {
                    float wv = w1Gm.GetValue((g * cmidG + co) * cinG + ci);
                    Axpy(acc[co * pixTile], xin, wv, cntA);
                }
                inQ.FreeTensor(xin);
            }
            for (uint32_t co = 0; co < cmidG; ++co) {
                uint32_t cAbs = g * cmidG + co;
                LocalTensor<float> row = acc[co * pixTile];
                Muls(row, row, s1Gm.GetValue(cAbs), cntA);
                Adds(row, row, b1Gm.GetValue(cAbs), cntA);
                Relu(row, row, cntA);
                StorePixels(t1Gm, guard + (static_cast<uint64_t>(n) * Cmid + cAbs) * HW + p0, row, cnt);
            }
        }
    }

    // ---------------- stage 2: depthwise 3x3 (pad 1) + BN, written shuffled ----------------
    __aicore__ inline void StageDepthwise()
    {
        uint32_t items = N * Cmid * H;
        uint32_t cpg = Cmid / G;
        for (uint32_t it = core; it < items; it += coreNum) {
            uint32_t r = it % H;
            uint32_t c = (it / H) % Cmid;
            uint32_t n = it / H / Cmid;
            uint64_t planeOff = (static_cast<uint64_t>(n) * Cmid + c) * HW;

            // slot (kh*3 + kw) holds input row r+kh-1 shifted by kw-1 columns
            LocalTensor<float> rows = rowQ.AllocTensor<float>();
            for (int32_t kh = 0; kh < 3; ++kh) {
                int32_t ir = static_cast<int32_t>(r) + kh - 1;
                for (int32_t kw = 0; kw < 3; ++kw) {
                    LocalTensor<float> slot = rows[(kh * 3 + kw) * rowStride];
                    if (ir < 0 || ir >= static_cast<int32_t>(H)) {
                        continue;  // zeroed below
                    }
                    uint64_t src = guard + planeOff + static_cast<uint64_t>(ir) * W + kw - 1;
                    DataCopyPad(slot, t1Gm[src], DataCopyExtParams(1, W * sizeof(float), 0, 0, 0),
                                DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
                }
            }
            rowQ.EnQue(rows);
            rows = rowQ.DeQue<float>();
            // zero padding: rows outside the image and the wrapped-around border columns
            for (int32_t kh = 0; kh < 3; ++kh) {
                int32_t ir = static_cast<int32_t>(r) + kh - 1;
                if (ir < 0 || ir >= static_cast<int32_t>(H)) {
                    Duplicate(rows[kh * 3 * rowStride], 0.0f, 3 * rowStride);
                }
            }
            PipeBarrier<PIPE_V>();
            event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            for (uint32_t kh = 0; kh < 3; ++kh) {
                rows.SetValue((kh * 3 + 0) * rowStride, 0.0f);
                rows.SetValue((kh * 3 + 2) * rowStride + W - 1, 0.0f);
            }
            event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(sv);
            WaitFlag<HardEvent::S_V>(sv);

            LocalTensor<float> o = rowOutQ.AllocTensor<float>();
            Duplicate(o, 0.0f, rowStride);
            for (uint32_t k = 0; k < 9; ++k) {
                Axpy(o, rows[k * rowStride], w2Gm.GetValue(c * 9 + k), rowStride);
            }
            Muls(o, o, s2Gm.GetValue(c), rowStride);
            Adds(o, o, b2Gm.GetValue(c), rowStride);
            rowOutQ.EnQue(o);
            rowQ.FreeTensor(rows);

            // channel shuffle: channel (grp, j) of the [G, cpg] view moves to j * G + grp
            uint32_t dstC = (c % cpg) * G + (c / cpg);
            o = rowOutQ.DeQue<float>();
            DataCopyPad(t2Gm[(static_cast<uint64_t>(n) * Cmid + dstC) * HW + static_cast<uint64_t>(r) * W], o,
                        DataCopyExtParams(1, W * sizeof(float), 0, 0, 0));
            rowOutQ.FreeTensor(o);
        }
    }

    // ---------------- stage 3: grouped pointwise conv + BN + ReLU + shortcut ----------------
    __aicore__ inline void StagePointwiseOut()
    {
        uint32_t cmidG = Cmid / G, coutG = Cout / G;
        uint32_t items = N * tilesPerImg * G;
        LocalTensor<float> acc = accBuf.Get<float>();
        for (uint32_t it = core; it < items; it += coreNum) {
            uint32_t g = it % G;
            uint32_t tile = (it / G) % tilesPerImg;
            uint32_t n = it / G / tilesPerImg;
            uint32_t p0 = tile * pixTile;
            uint32_t cnt = (p0 + pixTile > HW) ? HW - p0 : pixTile;
            uint32_t cntA = (cnt + 7) / 8 * 8;

            Duplicate(acc, 0.0f, coutG * pixTile);
            for (uint32_t cj = 0; cj < cmidG; ++cj) {
                LoadPixels(t2Gm, (static_cast<uint64_t>(n) * Cmid + g * cmidG + cj) * HW + p0, cnt);
                LocalTensor<float> tin = inQ.DeQue<float>();
                for (uint32_t co = 0; co < coutG; ++co) {
                    Axpy(acc[co * pixTile], tin, w3Gm.GetValue((g * coutG + co) * cmidG + cj), cntA);
                }
                inQ.FreeTensor(tin);
            }
            for (uint32_t co = 0; co < coutG; ++co) {
                uint32_t cAbs = g * coutG + co;
                LocalTensor<float> row = acc[co * pixTile];
                Muls(row, row, s3Gm.GetValue(cAbs), cntA);
                Adds(row, row, b3Gm.GetValue(cAbs), cntA);
                Relu(row, row, cntA);
            }

            if (proj) {
                // projection shortcut: every input channel feeds every output channel
                for (uint32_t ci = 0; ci < Cin; ++ci) {
                    LoadPixels(xGm, (static_cast<uint64_t>(n) * Cin + ci) * HW + p0, cnt);
                    LocalTensor<float> xin = inQ.DeQue<float>();
                    for (uint32_t co = 0; co < coutG; ++co) {
                        uint32_t cAbs = g * coutG + co;
                        float coef = wpGm.GetValue(cAbs * Cin + ci) * spGm.GetValue(cAbs);
                        Axpy(acc[co * pixTile], xin, coef, cntA);
                    }
                    inQ.FreeTensor(xin);
                }
                for (uint32_t co = 0; co < coutG; ++co) {
                    Adds(acc[co * pixTile], acc[co * pixTile], bpGm.GetValue(g * coutG + co), cntA);
                }
            } else {
                for (uint32_t co = 0; co < coutG; ++co) {
                    LoadPixels(xGm, (static_cast<uint64_t>(n) * Cin + g * coutG + co) * HW + p0, cnt);
                    LocalTensor<float> xin = inQ.DeQue<float>();
                    Add(acc[co * pixTile], acc[co * pixTile], xin, cntA);
                    inQ.FreeTensor(xin);
                }
            }

            for (uint32_t co = 0; co < coutG; ++co) {
                LocalTensor<float> row = acc[co * pixTile];
                StorePixels(yGm, (static_cast<uint64_t>(n) * Cout + g * coutG + co) * HW + p0, row, cnt);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TQue<QuePosition::VECIN, 1> rowQ;
    TQue<QuePosition::VECOUT, 1> rowOutQ;
    TBuf<QuePosition::VECCALC> accBuf;

    GlobalTensor<float> xGm, w1Gm, s1Gm, b1Gm, w2Gm, s2Gm, b2Gm, w3Gm, s3Gm, b3Gm, wpGm, spGm, bpGm, yGm;
    GlobalTensor<float> t1Gm, t2Gm;

    uint32_t N, Cin, Cmid, Cout, H, W, G, HW;
    uint32_t pixTile, tilesPerImg, rowStride, guard;
    uint32_t core, coreNum;
    bool proj;
};

extern "C" __global__ __aicore__ void shuffle_bottleneck_block(
    GM_ADDR x, GM_ADDR conv1_weight, GM_ADDR bn1_scale, GM_ADDR bn1_bias, GM_ADDR dw_weight, GM_ADDR bn2_scale,
    GM_ADDR bn2_bias, GM_ADDR conv3_weight, GM_ADDR bn3_scale, GM_ADDR bn3_bias, GM_ADDR proj_weight,
    GM_ADDR proj_scale, GM_ADDR proj_bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    ShuffleBottleneckBlockKernel op;
    op.Init(x, conv1_weight, bn1_scale, bn1_bias, dw_weight, bn2_scale, bn2_bias, conv3_weight, bn3_scale,
            bn3_bias, proj_weight, proj_scale, proj_bias, y, usr, td);
    op.Process();
}
