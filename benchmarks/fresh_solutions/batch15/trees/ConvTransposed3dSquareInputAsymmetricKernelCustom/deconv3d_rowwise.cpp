// deconv3d_rowwise.cpp
// Stride-1 transposed 3-D convolution, NCDHW float32, weight (Cin, Cout, KD, KH, KW), no bias.
//
//   y[n, co, od, oh, ow] = sum_{ci,kd,kh,kw} x[n, ci, od-kd, oh-kh, ow-kw] * w[ci, co, kd, kh, kw]
//
// One unit of work = one output row (n, od, oh) for every output channel.  The
// accumulator (Cout x rowAlign floats) stays in UB.  For each contributing input row
// the KW right-shifted copies are materialised side by side in UB (left padding of
// DataCopyPad inserts the zeros), and the Cout x KW weight taps of that (ci, kd, kh)
// are fetched with one strided DataCopyPad.
#include "kernel_operator.h"

using namespace AscendC;

struct Deconv3dRowwiseTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t din;
    uint32_t hin;
    uint32_t win;
    uint32_t kd;
    uint32_t kh;
    uint32_t kw;
    uint32_t dout;
    uint32_t hout;
    uint32_t wout;
    uint32_t rowAlign;    // wout rounded up to 8 floats
    uint32_t tapAlign;    // kw rounded up to 8 floats (one weight block per co)
    uint32_t rowsTotal;   // batch * dout * hout
    uint32_t rowsPerCore;
};

class Deconv3dRowwise {
public:
    __aicore__ inline Deconv3dRowwise() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const Deconv3dRowwiseTiling &t)
    {
        tl = t;
        x_gm.SetGlobalBuffer((__gm__ float *)x);
        w_gm.SetGlobalBuffer((__gm__ float *)w);
        y_gm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(shiftQ, 2, tl.kw * tl.rowAlign * sizeof(float));
        pipe.InitBuffer(tapQ, 2, tl.cout * tl.tapAlign * sizeof(float));
        pipe.InitBuffer(accQ, 1, tl.cout * tl.rowAlign * sizeof(float));

        row_lo = GetBlockIdx() * tl.rowsPerCore;
        row_hi = row_lo + tl.rowsPerCore;
        if (row_hi > tl.rowsTotal) row_hi = tl.rowsTotal;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = row_lo; r < row_hi; ++r) {
            uint32_t oh = r % tl.hout;
            uint32_t od = (r / tl.hout) % tl.dout;
            uint32_t n = r / (tl.hout * tl.dout);
            OneRow(n, od, oh);
        }
    }

private:
    __aicore__ inline void OneRow(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accQ.AllocTensor<float>();
        Duplicate(acc, 0.0f, tl.cout * tl.rowAlign);

        for (uint32_t ci = 0; ci < tl.cin; ++ci) {
            for (uint32_t a = 0; a < tl.kd; ++a) {
                int32_t id = (int32_t)od - (int32_t)a;
                if (id < 0 || id >= (int32_t)tl.din) continue;
                for (uint32_t b = 0; b < tl.kh; ++b) {
                    int32_t ih = (int32_t)oh - (int32_t)b;
                    if (ih < 0 || ih >= (int32_t)tl.hin) continue;
                    LoadTaps(ci, a, b);
                    LoadShifted(n, ci, (uint32_t)id, (uint32_t)ih);
                    Accumulate(acc);
                }
            }
        }

        accQ.EnQue(acc);
        StoreRow(n, od, oh);
    }

    // w[ci, 0:cout, a, b, 0:kw] -> cout blocks of kw floats, each padded to tapAlign
    __aicore__ inline void LoadTaps(uint32_t ci, uint32_t a, uint32_t b)
    {
        LocalTensor<float> taps = tapQ.AllocTensor<float>();
        uint32_t vol = tl.kd * tl.kh * tl.kw;
        uint64_t off = (uint64_t)ci * tl.cout * vol + (a * tl.kh + b) * tl.kw;
        DataCopyExtParams p;
        p.blockCount = (uint16_t)tl.cout;
        p.blockLen = tl.kw * sizeof(float);
        p.srcStride = (vol - tl.kw) * sizeof(float);
        p.dstStride = 0;
        p.rsv = 0;
        DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(tl.tapAlign - tl.kw), 0.0f};
        DataCopyPad(taps, w_gm[off], p, pad);
        tapQ.EnQue(taps);
    }

    // x row, copied kw times; copy s is shifted right by s zeros
    __aicore__ inline void LoadShifted(uint32_t n, uint32_t ci, uint32_t id, uint32_t ih)
    {
        LocalTensor<float> sh = shiftQ.AllocTensor<float>();
        uint64_t off = ((((uint64_t)n * tl.cin + ci) * tl.din + id) * tl.hin + ih) * tl.win;
        DataCopyExtParams p{1, (uint32_t)(tl.win * sizeof(float)), 0, 0, 0};
        for (uint32_t s = 0; s < tl.kw; ++s) {
            DataCopyPadExtParams<float> pad{true, (uint8_t)s, 0, 0.0f};
            DataCopyPad(sh[s * tl.rowAlign], x_gm[off], p, pad);
        }
        shiftQ.EnQue(sh);
    }

    __aicore__ inline void Accumulate(LocalTensor<float> &acc)
    {
        LocalTensor<float> taps = tapQ.DeQue<float>();
        LocalTensor<float> sh = shiftQ.DeQue<float>();
        for (uint32_t s = 0; s < tl.kw; ++s) {
            uint32_t len = tl.win + s;
            LocalTensor<float> src = sh[s * tl.rowAlign];
            for (uint32_t co = 0; co < tl.cout; ++co) {
                float wv = taps.GetValue(co * tl.tapAlign + s);
                Axpy(acc[co * tl.rowAlign], src, wv, len);
            }
        }
        tapQ.FreeTensor(taps);
        shiftQ.FreeTensor(sh);
    }

    __aicore__ inline void StoreRow(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accQ.DeQue<float>();
        uint64_t plane = (uint64_t)tl.dout * tl.hout * tl.wout;
        uint64_t off = (uint64_t)n * tl.cout * plane + ((uint64_t)od * tl.hout + oh) * tl.wout;
        DataCopyExtParams p;
        p.blockCount = (uint16_t)tl.cout;
        p.blockLen = tl.wout * sizeof(float);
        p.srcStride = (tl.rowAlign - tl.wout) / 8;           // 32B blocks
        p.dstStride = (uint32_t)((plane - tl.wout) * sizeof(float));
        p.rsv = 0;
        DataCopyPad(y_gm[off], acc, p);
        accQ.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> shiftQ;
    TQue<QuePosition::VECIN, 2> tapQ;
    TQue<QuePosition::VECOUT, 1> accQ;
    GlobalTensor<float> x_gm, w_gm, y_gm;
    Deconv3dRowwiseTiling tl;
    uint32_t row_lo = 0;
    uint32_t row_hi = 0;
};

extern "C" __global__ __aicore__ void deconv3d_rowwise(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR tiling)
{
    Deconv3dRowwiseTiling t;
    __gm__ uint32_t *src = (__gm__ uint32_t *)tiling;
    uint32_t *dst = (uint32_t *)&t;
    for (uint32_t i = 0; i < sizeof(t) / 4; ++i) {
        dst[i] = src[i];
    }
    Deconv3dRowwise k;
    k.Init(x, w, y, t);
    k.Process();
}
