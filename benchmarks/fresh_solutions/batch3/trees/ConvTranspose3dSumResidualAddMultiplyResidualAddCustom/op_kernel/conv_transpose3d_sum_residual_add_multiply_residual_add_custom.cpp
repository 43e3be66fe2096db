#include "kernel_operator.h"

using namespace AscendC;

// ConvTranspose3d via sub-pixel decomposition:
// for an output depth slice od, output (oh, ow) with oh = s*a + ph, ow = s*b + pw only sees
// taps kh = ph + p (mod s), kw = pw + p (mod s), and reads input at (a + dh, b + dw).
// Each (ph, pw) sub-grid is therefore a dense shifted-window accumulation (Axpy),
// and the sub-grids are interleaved back with Gather before the fused epilogue:
//   o = convT(x) + conv_bias ;  y = ((o + bias) + o) * o + o
class KernelConvT3dFused {
public:
    __aicore__ inline KernelConvT3dFused() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR cb, GM_ADDR b, GM_ADDR y,
                                const ConvTranspose3dSumResidualAddMultiplyResidualAddCustomTilingData& t)
    {
        N = t.n; Cin = t.cin; Cout = t.cout;
        D = t.inD; H = t.inH; W = t.inW;
        OD = t.outD; OH = t.outH; OW = t.outW;
        K = t.ksize; S = t.stride; P = t.pad;
        SH = t.subH; SW = t.subW; SWA = t.subWAlign;
        coBlk = t.coBlock;
        nCoBlk = Cout / coBlk;
        subLen = SH * SWA;
        accLen = S * S * subLen;
        planeLen = OH * OW;

        tBeg = GetBlockIdx() * t.tilesPerCore;
        tEnd = tBeg + t.tilesPerCore;
        if (tEnd > t.totalTiles) tEnd = t.totalTiles;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)N * Cin * D * H * W);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)Cin * Cout * K * K * K);
        cbGm.SetGlobalBuffer((__gm__ float*)cb, Cout);
        bGm.SetGlobalBuffer((__gm__ float*)b, Cout);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)N * Cout * OD * planeLen);

        pipe.InitBuffer(winQ, 2, subLen * sizeof(float));
        pipe.InitBuffer(outQ, 2, planeLen * sizeof(float));
        pipe.InitBuffer(accBuf, coBlk * accLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, planeLen * sizeof(float));
        pipe.InitBuffer(idxBuf, planeLen * sizeof(uint32_t));
        BuildGatherIndex();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = tBeg; t < tEnd; ++t) {
            uint32_t cbi = t % nCoBlk;
            uint32_t od = (t / nCoBlk) % OD;
            uint32_t n = t / (nCoBlk * OD);
            Accumulate(n, od, cbi * coBlk);
            for (uint32_t j = 0; j < coBlk; ++j) {
                Epilogue(n, od, cbi * coBlk + j, j);
            }
        }
    }

private:
    // byte offset into one channel's accumulator for every (oh, ow)
    __aicore__ inline void BuildGatherIndex()
    {
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t oh = 0; oh < OH; ++oh) {
            for (uint32_t ow = 0; ow < OW; ++ow) {
                uint32_t sub = (oh % S) * S + (ow % S);
                uint32_t e = sub * subLen + (oh / S) * SWA + (ow / S);
                idx.SetValue(oh * OW + ow, e * sizeof(float));
            }
        }
    }

    __aicore__ inline void Accumulate(uint32_t n, uint32_t od, uint32_t co0)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, coBlk * accLen);

        for (uint32_t ci = 0; ci < Cin; ++ci) {
            for (uint32_t kd = 0; kd < K; ++kd) {
                int32_t num = (int32_t)od + (int32_t)P - (int32_t)kd;
                if (num < 0 || num % (int32_t)S != 0) continue;
                uint32_t id = num / S;
                if (id >= D) continue;
                uint64_t planeOff = (((uint64_t)n * Cin + ci) * D + id) * H * W;

                for (uint32_t ph = 0; ph < S; ++ph) {
                    for (uint32_t kh = 0; kh < K; ++kh) {
                        int32_t rh = (int32_t)ph + (int32_t)P - (int32_t)kh;
                        if (((rh % (int32_t)S) + (int32_t)S) % (int32_t)S != 0) continue;
                        int32_t dh = rh / (int32_t)S;
                        for (uint32_t pw = 0; pw < S; ++pw) {
                            for (uint32_t kw = 0; kw < K; ++kw) {
                                int32_t rw = (int32_t)pw + (int32_t)P - (int32_t)kw;
                                if (((rw % (int32_t)S) + (int32_t)S) % (int32_t)S != 0) continue;
                                int32_t dw = rw / (int32_t)S;
                                uint32_t sub = ph * S + pw;
                                uint64_t wOff = (((uint64_t)ci * Cout + co0) * K + kd) * K * K + kh * K + kw;
                                Tap(acc, planeOff, dh, dw, sub, wOff);
                            }
                        }
                    }
                }
            }
        }
    }

    // window[a][b] = x[a + dh][b + dw] (zero outside), acc[j][sub] += w_j * window
    __aicore__ inline void Tap(LocalTensor<float>& acc, uint64_t planeOff, int32_t dh, int32_t dw,
                               uint32_t sub, uint64_t wOff)
    {
        int32_t aLo = dh < 0 ? -dh : 0;
        int32_t aHi = ((int32_t)H - dh < (int32_t)SH) ? (int32_t)H - dh : (int32_t)SH;
        int32_t bLo = dw < 0 ? -dw : 0;
        int32_t bHi = ((int32_t)W - dw < (int32_t)SW) ? (int32_t)W - dw : (int32_t)SW;
        if (aHi <= aLo || bHi <= bLo) return;
        uint32_t nRows = aHi - aLo;
        uint32_t len = bHi - bLo;

        LocalTensor<float> win = winQ.AllocTensor<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(nRows), static_cast<uint32_t>(len * sizeof(float)),
                             static_cast<uint32_t>((W - len) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{true, static_cast<uint8_t>(bLo), static_cast<uint8_t>(SWA - bHi), 0.0f};
        DataCopyPad(win, xGm[planeOff + (uint64_t)(aLo + dh) * W + (bLo + dw)], cp, pad);
        winQ.EnQue(win);
        win = winQ.DeQue<float>();

        uint32_t cnt = nRows * SWA;
        uint64_t wStride = (uint64_t)K * K * K;   // next output channel in (Cin, Cout, k, k, k)
        for (uint32_t j = 0; j < coBlk; ++j) {
            float wv = wGm.GetValue(wOff + j * wStride);
            Axpy(acc[j * accLen + sub * subLen + aLo * SWA], win, wv, cnt);
        }
        winQ.FreeTensor(win);
    }

    __aicore__ inline void Epilogue(uint32_t n, uint32_t od, uint32_t co, uint32_t j)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<float> o = tmpBuf.Get<float>();
        LocalTensor<float> res = outQ.AllocTensor<float>();
        float cbias = cbGm.GetValue(co);
        float bias = bGm.GetValue(co);

        Gather(o, acc[j * accLen], idx, (uint32_t)0, planeLen);   // de-interleave sub-grids
        Adds(o, o, cbias, planeLen);
        Muls(res, o, 2.0f, planeLen);       // (o + bias) + o
        Adds(res, res, bias, planeLen);
        Mul(res, res, o, planeLen);         // * o
        Add(res, res, o, planeLen);         // + o

        outQ.EnQue(res);
        res = outQ.DeQue<float>();
        DataCopy(yGm[(((uint64_t)n * Cout + co) * OD + od) * planeLen], res, planeLen);
        outQ.FreeTensor(res);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> winQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> accBuf, tmpBuf, idxBuf;
    GlobalTensor<float> xGm, wGm, cbGm, bGm, yGm;
    uint32_t N, Cin, Cout, D, H, W, OD, OH, OW, K, S, P;
    uint32_t SH, SW, SWA, coBlk, nCoBlk, subLen, accLen, planeLen;
    uint32_t tBeg, tEnd;
};

extern "C" __global__ __aicore__ void conv_transpose3d_sum_residual_add_multiply_residual_add_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConvT3dFused op;
    op.Init(x, weight, conv_bias, bias, y, td);
    op.Process();
}
