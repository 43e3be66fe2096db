// conv3x3_gated_ramp
//   y = max(0, z * clamp(z + 3, 0, 6) / 6),   z = conv2d(x, W, b)  (3x3, stride 1, no padding)
//
// Work unit = one output row (n, oh) for all output channels.
// The 3x3 window is unrolled by the DMA engine: for every (ci, kw) one
// DataCopyPad with 3 blocks (kh = 0..2) reads the shifted input rows straight
// from GM into the patch buffer, so no scalar shuffling is needed. The vector
// unit then does acc[co] += w * patch[ci,kh,kw] with Axpy, and the activation
// is evaluated on the whole [Co, Wo] tile before a single strided store.
#include "kernel_operator.h"

using namespace AscendC;

struct Conv3x3GatedRampTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t height;
    uint32_t width;
    uint32_t cout;
    uint32_t outH;
    uint32_t outW;
    uint32_t outWAlign;   // outW rounded up to 8 floats
    uint32_t rowsPerCore;
};

namespace {
constexpr uint32_t KSIZE = 3;
constexpr uint32_t TAPS = KSIZE * KSIZE;
}

class Conv3x3GatedRamp {
public:
    __aicore__ inline Conv3x3GatedRamp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, const Conv3x3GatedRampTiling &tl)
    {
        cfg = tl;
        const uint64_t inElems = (uint64_t)cfg.batch * cfg.cin * cfg.height * cfg.width;
        const uint64_t outElems = (uint64_t)cfg.batch * cfg.cout * cfg.outH * cfg.outW;
        xGm.SetGlobalBuffer((__gm__ float *)x, inElems);
        wGm.SetGlobalBuffer((__gm__ float *)weight, cfg.cout * cfg.cin * TAPS);
        bGm.SetGlobalBuffer((__gm__ float *)bias, cfg.cout);
        yGm.SetGlobalBuffer((__gm__ float *)y, outElems);

        const uint32_t tileElems = cfg.cout * cfg.outWAlign;
        pipe.InitBuffer(patchQue, 2, cfg.cin * TAPS * cfg.outWAlign * sizeof(float));
        pipe.InitBuffer(outQue, 1, tileElems * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileElems * sizeof(float));
        pipe.InitBuffer(paramBuf, ((cfg.cout * cfg.cin * TAPS + cfg.cout + 7) / 8 * 8) * sizeof(float));

        // weights and bias are tiny (Co*Ci*9 + Co floats): keep them resident in UB
        LocalTensor<float> prm = paramBuf.Get<float>();
        const uint32_t wCount = cfg.cout * cfg.cin * TAPS;
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0};
        DataCopyPad(prm, wGm, DataCopyExtParams{1, wCount * (uint32_t)sizeof(float), 0, 0, 0}, noPad);
        DataCopyPad(prm[(wCount + 7) / 8 * 8], bGm, DataCopyExtParams{1, cfg.cout * (uint32_t)sizeof(float), 0, 0, 0},
                    noPad);
        biasPos = (wCount + 7) / 8 * 8;
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void Process()
    {
        const uint32_t allRows = cfg.batch * cfg.outH;
        const uint32_t first = GetBlockIdx() * cfg.rowsPerCore;
        const uint32_t last = (first + cfg.rowsPerCore < allRows) ? first + cfg.rowsPerCore : allRows;
        for (uint32_t r = first; r < last; ++r) {
            const uint32_t n = r / cfg.outH;
            const uint32_t oh = r % cfg.outH;
            LoadPatch(n, oh);
            Accumulate();
            Store(n, oh);
        }
    }

private:
    __aicore__ inline void LoadPatch(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> patch = patchQue.AllocTensor<float>();
        const uint64_t plane = (uint64_t)cfg.height * cfg.width;
        // three consecutive input rows per (ci, kw); row gap in GM is width-outW elements
        DataCopyExtParams cp;
        cp.blockCount = KSIZE;
        cp.blockLen = cfg.outW * sizeof(float);
        cp.srcStride = (cfg.width - cfg.outW) * sizeof(float);
        cp.dstStride = 0;   // each row lands padded to outWAlign, back to back
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(cfg.outWAlign - cfg.outW), 0.0f};
        for (uint32_t ci = 0; ci < cfg.cin; ++ci) {
            const uint64_t src = ((uint64_t)n * cfg.cin + ci) * plane + (uint64_t)oh * cfg.width;
            for (uint32_t kw = 0; kw < KSIZE; ++kw) {
                // layout in UB: [ci][kw][kh][outWAlign]
                DataCopyPad(patch[(ci * TAPS + kw * KSIZE) * cfg.outWAlign], xGm[src + kw], cp, pad);
            }
        }
        patchQue.EnQue(patch);
    }

    __aicore__ inline void Accumulate()
    {
        LocalTensor<float> patch = patchQue.DeQue<float>();
        LocalTensor<float> acc = outQue.AllocTensor<float>();
        LocalTensor<float> prm = paramBuf.Get<float>();
        const uint32_t wo = cfg.outWAlign;

        for (uint32_t co = 0; co < cfg.cout; ++co) {
            LocalTensor<float> dst = acc[co * wo];
            Duplicate(dst, prm.GetValue(biasPos + co), wo);
            for (uint32_t ci = 0; ci < cfg.cin; ++ci) {
                const uint32_t wRow = (co * cfg.cin + ci) * TAPS;   // OIHW: [kh][kw]
                for (uint32_t kw = 0; kw < KSIZE; ++kw) {
                    for (uint32_t kh = 0; kh < KSIZE; ++kh) {
                        const float wv = prm.GetValue(wRow + kh * KSIZE + kw);
                        Axpy(dst, patch[(ci * TAPS + kw * KSIZE + kh) * wo], wv, wo);
                    }
                }
            }
        }
        patchQue.FreeTensor(patch);

        // gated ramp: z * clamp(z+3, 0, 6) / 6, then clip negatives
        const uint32_t cnt = cfg.cout * wo;
        LocalTensor<float> gate = tmpBuf.Get<float>();
        Adds(gate, acc, 3.0f, cnt);
        Maxs(gate, gate, 0.0f, cnt);
        Mins(gate, gate, 6.0f, cnt);
        Mul(acc, acc, gate, cnt);
        Muls(acc, acc, 1.0f / 6.0f, cnt);
        Maxs(acc, acc, 0.0f, cnt);
        outQue.EnQue(acc);
    }

    __aicore__ inline void Store(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> res = outQue.DeQue<float>();
        const uint64_t planeOut = (uint64_t)cfg.outH * cfg.outW;
        DataCopyExtParams cp;
        cp.blockCount = cfg.cout;
        cp.blockLen = cfg.outW * sizeof(float);
        cp.srcStride = 0;   // UB rows are outWAlign long, i.e. exactly the 32B-rounded blockLen
        cp.dstStride = (planeOut - cfg.outW) * sizeof(float);
        cp.rsv = 0;
        DataCopyPad(yGm[(uint64_t)n * cfg.cout * planeOut + (uint64_t)oh * cfg.outW], res, cp);
        outQue.FreeTensor(res);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> patchQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<TPosition::VECCALC> tmpBuf;
    TBuf<TPosition::VECCALC> paramBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    Conv3x3GatedRampTiling cfg;
    uint32_t biasPos = 0;
};

extern "C" __global__ __aicore__ void conv3x3_gated_ramp(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                        GM_ADDR tiling)
{
    Conv3x3GatedRampTiling tl;
    auto p = reinterpret_cast<__gm__ uint32_t *>(tiling);
    uint32_t *q = reinterpret_cast<uint32_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(tl) / sizeof(uint32_t); ++i) {
        q[i] = p[i];
    }
    Conv3x3GatedRamp k;
    k.Init(x, weight, bias, y, tl);
    k.Process();
}
