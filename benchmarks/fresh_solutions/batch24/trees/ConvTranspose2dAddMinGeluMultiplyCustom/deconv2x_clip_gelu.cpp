/**
 * deconv2x_clip_gelu
 *
 *   t = conv_transpose(x, w, b)   kernel 4x4, stride 2, no padding
 *   t = min(t + ADD, 0)
 *   y = gelu(t) * MUL             exact (erf) gelu
 *
 * Gather formulation of the transposed convolution.  For output row oh only
 * kh with kh == oh (mod 2) contribute, from input row ih = (oh - kh) / 2.
 * Along the width, even output columns 2j take w[kw=0]*x[j] + w[kw=2]*x[j-1]
 * and odd columns 2j+1 take w[kw=1]*x[j] + w[kw=3]*x[j-1].  So per input row
 * we keep two aligned copies, x[j] and x[j-1], and accumulate the even and
 * odd halves of each output channel with Axpy.  A Gather at the end
 * interleaves the halves into the final row.
 *
 * Weight layout expected in GM: [ci][kh][co][kw] (rearranged on the host).
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t KSZ = 4;
constexpr uint32_t STRIDE = 2;

struct Deconv2xClipGeluTiling {
    uint32_t batch, cin, inH, inW;
    uint32_t cout, outH, outW;
    uint32_t halfPitch;        // >= inW + 1, multiple of 8
    uint32_t outPitch;         // >= outW, multiple of 8
    uint32_t rowsPerCore;
    float addValue;
    float mulValue;
};

class Deconv2xClipGelu {
public:
    __aicore__ inline Deconv2xClipGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const Deconv2xClipGeluTiling &cfg)
    {
        cfg_ = cfg;
        hp_ = cfg.halfPitch;
        xg_.SetGlobalBuffer((__gm__ float *)x, (uint64_t)cfg.batch * cfg.cin * cfg.inH * cfg.inW);
        wg_.SetGlobalBuffer((__gm__ float *)w, (uint64_t)cfg.cin * KSZ * cfg.cout * KSZ);
        bg_.SetGlobalBuffer((__gm__ float *)b, cfg.cout);
        yg_.SetGlobalBuffer((__gm__ float *)y, (uint64_t)cfg.batch * cfg.cout * cfg.outH * cfg.outW);

        pipe_.InitBuffer(srcQ_, 2, 2 * hp_ * sizeof(float));             // x[j] | x[j-1]
        pipe_.InitBuffer(wQ_, 2, cfg.cout * KSZ * sizeof(float));
        pipe_.InitBuffer(yQ_, 1, cfg.cout * cfg.outPitch * sizeof(float));
        pipe_.InitBuffer(accB_, cfg.cout * 2 * hp_ * sizeof(float));     // [co][even | odd]
        pipe_.InitBuffer(idxB_, cfg.outPitch * sizeof(uint32_t));
        pipe_.InitBuffer(tmpB_, cfg.outPitch * sizeof(float));

        uint32_t total = cfg.batch * cfg.outH;
        r0_ = GetBlockIdx() * cfg.rowsPerCore;
        r1_ = r0_ + cfg.rowsPerCore < total ? r0_ + cfg.rowsPerCore : total;
    }

    __aicore__ inline void Process()
    {
        BuildInterleave();
        for (uint32_t r = r0_; r < r1_; ++r) {
            uint32_t n = r / cfg_.outH;
            uint32_t oh = r % cfg_.outH;
            ResetAcc();
            for (uint32_t kh = oh % STRIDE; kh < KSZ; kh += STRIDE) {
                if (oh < kh) continue;
                uint32_t ih = (oh - kh) / STRIDE;
                if (ih >= cfg_.inH) continue;
                for (uint32_t ci = 0; ci < cfg_.cin; ++ci) {
                    LoadRow(n, ci, ih);
                    LoadWeights(ci, kh);
                    Accumulate();
                }
            }
            Epilogue();
            Store(n, oh);
        }
    }

private:
    // out[2j + p] <- acc[p * hp + j]  (byte offsets for Gather)
    __aicore__ inline void BuildInterleave()
    {
        LocalTensor<uint32_t> idx = idxB_.Get<uint32_t>();
        for (uint32_t o = 0; o < cfg_.outPitch; ++o) {
            uint32_t j = o / 2, p = o % 2;
            if (j >= hp_) j = hp_ - 1;
            idx.SetValue(o, (p * hp_ + j) * sizeof(float));
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void ResetAcc()
    {
        LocalTensor<float> acc = accB_.Get<float>();
        for (uint32_t co = 0; co < cfg_.cout; ++co) {
            Duplicate(acc[co * 2 * hp_], bg_.GetValue(co), 2 * hp_);
        }
    }

    __aicore__ inline void LoadRow(uint32_t n, uint32_t ci, uint32_t ih)
    {
        LocalTensor<float> s = srcQ_.AllocTensor<float>();
        uint64_t off = (((uint64_t)n * cfg_.cin + ci) * cfg_.inH + ih) * cfg_.inW;
        DataCopyExtParams cp{1, cfg_.inW * (uint32_t)sizeof(float), 0, 0, 0};
        // x[j]: row followed by zeros
        Duplicate(s[cfg_.inW], 0.0f, hp_ - cfg_.inW);
        PipeBarrier<PIPE_ALL>();
        DataCopyPad(s, xg_[off], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        // x[j-1]: one leading zero, then the row, zero tail
        DataCopyPad(s[hp_], xg_[off], cp,
                    DataCopyPadExtParams<float>{true, 1, static_cast<uint8_t>(hp_ - cfg_.inW - 1), 0.0f});
        srcQ_.EnQue(s);
    }

    __aicore__ inline void LoadWeights(uint32_t ci, uint32_t kh)
    {
        LocalTensor<float> wl = wQ_.AllocTensor<float>();
        DataCopy(wl, wg_[((uint64_t)ci * KSZ + kh) * cfg_.cout * KSZ], cfg_.cout * KSZ);
        wQ_.EnQue(wl);
    }

    __aicore__ inline void Accumulate()
    {
        LocalTensor<float> s = srcQ_.DeQue<float>();
        LocalTensor<float> wl = wQ_.DeQue<float>();
        LocalTensor<float> acc = accB_.Get<float>();
        LocalTensor<float> cur = s;          // x[j]
        LocalTensor<float> prev = s[hp_];    // x[j-1]
        for (uint32_t co = 0; co < cfg_.cout; ++co) {
            LocalTensor<float> even = acc[co * 2 * hp_];
            LocalTensor<float> odd = acc[co * 2 * hp_ + hp_];
            const uint32_t wb = co * KSZ;
            Axpy(even, cur, wl.GetValue(wb + 0), hp_);
            Axpy(even, prev, wl.GetValue(wb + 2), hp_);
            Axpy(odd, cur, wl.GetValue(wb + 1), hp_);
            Axpy(odd, prev, wl.GetValue(wb + 3), hp_);
        }
        wQ_.FreeTensor(wl);
        srcQ_.FreeTensor(s);
    }

    __aicore__ inline void Epilogue()
    {
        LocalTensor<float> acc = accB_.Get<float>();
        LocalTensor<uint32_t> idx = idxB_.Get<uint32_t>();
        LocalTensor<float> tmp = tmpB_.Get<float>();
        LocalTensor<float> out = yQ_.AllocTensor<float>();
        const uint32_t P = cfg_.outPitch;
        const float invSqrt2 = 0.70710678118654752f;
        for (uint32_t co = 0; co < cfg_.cout; ++co) {
            LocalTensor<float> o = out[co * P];
            Gather(o, acc[co * 2 * hp_], idx, 0, P);
            Adds(o, o, cfg_.addValue, P);
            Mins(o, o, 0.0f, P);
            // gelu(v) = 0.5 * v * (1 + erf(v / sqrt(2)))
            Muls(tmp, o, invSqrt2, P);
            Erf(tmp, tmp, P);
            Adds(tmp, tmp, 1.0f, P);
            Mul(o, o, tmp, P);
            Muls(o, o, 0.5f * cfg_.mulValue, P);
        }
        yQ_.EnQue(out);
    }

    // one strided copy writes row oh of every output channel
    __aicore__ inline void Store(uint32_t n, uint32_t oh)
    {
        LocalTensor<float> out = yQ_.DeQue<float>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(cfg_.cout);
        cp.blockLen = cfg_.outW * sizeof(float);
        cp.srcStride = (cfg_.outPitch * sizeof(float) - ((cfg_.outW * sizeof(float) + 31) / 32 * 32)) / 32;
        cp.dstStride = (cfg_.outH - 1) * cfg_.outW * sizeof(float);
        cp.rsv = 0;
        uint64_t dst = ((uint64_t)n * cfg_.cout * cfg_.outH + oh) * cfg_.outW;
        DataCopyPad(yg_[dst], out, cp);
        yQ_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> srcQ_, wQ_;
    TQue<QuePosition::VECOUT, 1> yQ_;
    TBuf<QuePosition::VECCALC> accB_, idxB_, tmpB_;
    GlobalTensor<float> xg_, wg_, bg_, yg_;
    Deconv2xClipGeluTiling cfg_;
    uint32_t hp_ = 0, r0_ = 0, r1_ = 0;
};

extern "C" __global__ __aicore__ void deconv2x_clip_gelu(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                                         GM_ADDR tiling)
{
    Deconv2xClipGeluTiling cfg;
    auto *s = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto *d = reinterpret_cast<uint32_t *>(&cfg);
    for (uint32_t i = 0; i < sizeof(cfg) / 4; ++i) d[i] = s[i];
    Deconv2xClipGelu op;
    op.Init(x, w, b, y, cfg);
    op.Process();
}
