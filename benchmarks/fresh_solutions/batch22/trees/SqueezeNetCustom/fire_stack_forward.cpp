/*
 * fire_stack_forward: device side of a small "fire module" classification
 * network (squeeze 1x1 -> expand 1x1 || expand 3x3, concatenated).
 *
 * One entry point, three stage kinds selected by tiling.mode:
 *   MODE_CONV   : direct conv2d + bias + ReLU, NCHW, writes into a channel
 *                 window [coOff, coOff+co) of a tensor with coTotal channels,
 *                 so the two expand branches land side by side (free concat).
 *   MODE_MAXPOOL: 3x3 / stride 2 max pooling, ceil-mode output size.
 *   MODE_AVG    : global average over H*W, output [N, C].
 *
 * The host program launches this kernel once per stage, in network order.
 *
 * Conv scheme: a work unit is (n, output row, group of output channels).
 * For every (ci, kh) the needed input row is pulled into UB, the K shifted /
 * strided views of it are laid out as K dense rows ("im2row", built on the
 * scalar unit because the shifts are not 32B aligned), and each output
 * channel accumulates   acc[co] += w[co,ci,kh,kw] * im2row[kw]   with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t MODE_CONV = 0;
constexpr uint32_t MODE_MAXPOOL = 1;
constexpr uint32_t MODE_AVG = 2;

struct FireStackForwardTiling {
    uint32_t mode;
    uint32_t n;
    uint32_t ci;
    uint32_t h;
    uint32_t w;
    uint32_t co;         // channels produced by this stage
    uint32_t ho;
    uint32_t wo;
    uint32_t woPad;      // wo rounded up to 8
    uint32_t wPad;       // w rounded up to 8
    uint32_t k;
    uint32_t stride;
    uint32_t pad;
    uint32_t coOff;      // first output channel in the destination tensor
    uint32_t coTotal;    // channel count of the destination tensor
    uint32_t coPerGroup; // output channels accumulated together
};

class FireStackForward {
public:
    __aicore__ inline FireStackForward() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR bias, GM_ADDR y, GM_ADDR tilingGm)
    {
        auto src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
        uint32_t *dst = reinterpret_cast<uint32_t *>(&t);
        for (uint32_t i = 0; i < sizeof(FireStackForwardTiling) / sizeof(uint32_t); ++i) {
            dst[i] = src[i];
        }
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)wt);
        bGm.SetGlobalBuffer((__gm__ float *)bias);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        if (t.mode == MODE_CONV) {
            pipe.InitBuffer(rowBuf, t.wPad * sizeof(float));
            pipe.InitBuffer(colBuf, t.k * t.woPad * sizeof(float));
            pipe.InitBuffer(accBuf, t.coPerGroup * t.woPad * sizeof(float));
        } else if (t.mode == MODE_MAXPOOL) {
            pipe.InitBuffer(rowBuf, 3 * t.wPad * sizeof(float));
            pipe.InitBuffer(accBuf, t.woPad * sizeof(float));
        } else {
            pipe.InitBuffer(rowBuf, ((t.h * t.w + 7) / 8 * 8) * sizeof(float));
            pipe.InitBuffer(colBuf, 64 * sizeof(float));                 // ReduceSum scratch
            pipe.InitBuffer(accBuf, ((t.co + 7) / 8 * 8) * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (t.mode == MODE_CONV) {
            RunConv();
        } else if (t.mode == MODE_MAXPOOL) {
            RunMaxPool();
        } else {
            RunAvg();
        }
    }

private:
    template <HardEvent EV>
    __aicore__ inline void Wait()
    {
        event_t id = static_cast<event_t>(pipe.FetchEventID(EV));
        SetFlag<EV>(id);
        WaitFlag<EV>(id);
    }

    // ---------------------------------------------------------------- conv
    __aicore__ inline void RunConv()
    {
        const uint32_t groups = (t.co + t.coPerGroup - 1) / t.coPerGroup;
        const uint32_t units = t.n * t.ho * groups;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            const uint32_t g = u % groups;
            const uint32_t oh = (u / groups) % t.ho;
            const uint32_t b = u / (groups * t.ho);
            const uint32_t co0 = g * t.coPerGroup;
            uint32_t cnt = t.co - co0;
            if (cnt > t.coPerGroup) {
                cnt = t.coPerGroup;
            }
            ConvUnit(b, oh, co0, cnt);
        }
    }

    __aicore__ inline void ConvUnit(uint32_t b, uint32_t oh, uint32_t co0, uint32_t cnt)
    {
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> col = colBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();

        Duplicate(acc, 0.0f, cnt * t.woPad);
        const uint32_t plane = t.h * t.w;
        const uint32_t kk = t.k * t.k;

        for (uint32_t c = 0; c < t.ci; ++c) {
            for (uint32_t kh = 0; kh < t.k; ++kh) {
                const int32_t ih = static_cast<int32_t>(oh * t.stride + kh) - static_cast<int32_t>(t.pad);
                if (ih < 0 || ih >= static_cast<int32_t>(t.h)) {
                    continue;  // whole tap row is zero padding
                }
                DataCopyExtParams cp{1, static_cast<uint32_t>(t.w * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pp{false, 0, 0, 0};
                // previous Axpy batch must be done reading col before we refill it
                Wait<HardEvent::V_S>();
                DataCopyPad(row, xGm[((uint64_t)b * t.ci + c) * plane + (uint64_t)ih * t.w], cp, pp);
                Wait<HardEvent::MTE2_S>();

                for (uint32_t kw = 0; kw < t.k; ++kw) {
                    const uint32_t base = kw * t.woPad;
                    for (uint32_t ow = 0; ow < t.woPad; ++ow) {
                        const int32_t iw = static_cast<int32_t>(ow * t.stride + kw) - static_cast<int32_t>(t.pad);
                        float v = 0.0f;
                        if (ow < t.wo && iw >= 0 && iw < static_cast<int32_t>(t.w)) {
                            v = row.GetValue(iw);
                        }
                        col.SetValue(base + ow, v);
                    }
                }
                Wait<HardEvent::S_V>();

                for (uint32_t j = 0; j < cnt; ++j) {
                    const uint64_t wBase = ((uint64_t)(co0 + j) * t.ci + c) * kk + kh * t.k;
                    for (uint32_t kw = 0; kw < t.k; ++kw) {
                        const float wv = wGm.GetValue(wBase + kw);
                        Axpy(acc[j * t.woPad], col[kw * t.woPad], wv, t.woPad);
                    }
                }
                // the next DataCopyPad overwrites row, which the scalar loop read
                Wait<HardEvent::S_MTE2>();
            }
        }

        for (uint32_t j = 0; j < cnt; ++j) {
            Adds(acc[j * t.woPad], acc[j * t.woPad], bGm.GetValue(co0 + j), t.woPad);
        }
        Relu(acc, acc, cnt * t.woPad);
        Wait<HardEvent::V_MTE3>();

        // cnt rows of wo floats into channels coOff+co0.. of the destination
        const uint64_t planeOut = (uint64_t)t.ho * t.wo;
        DataCopyExtParams out{static_cast<uint16_t>(cnt), static_cast<uint32_t>(t.wo * sizeof(float)), 0,
                              static_cast<uint32_t>((planeOut - t.wo) * sizeof(float)), 0};
        DataCopyPad(yGm[((uint64_t)b * t.coTotal + t.coOff + co0) * planeOut + (uint64_t)oh * t.wo], acc, out);
        Wait<HardEvent::MTE3_V>();
    }

    // ------------------------------------------------------------- maxpool
    __aicore__ inline void RunMaxPool()
    {
        const uint32_t units = t.n * t.co * t.ho;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            const uint32_t oh = u % t.ho;
            const uint32_t nc = u / t.ho;
            LocalTensor<float> rows = rowBuf.Get<float>();
            LocalTensor<float> o = accBuf.Get<float>();

            const uint32_t h0 = oh * 2;
            uint32_t nRows = t.h - h0;
            if (nRows > 3) {
                nRows = 3;
            }
            DataCopyExtParams cp{static_cast<uint16_t>(nRows), static_cast<uint32_t>(t.w * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pp{false, 0, 0, 0};
            DataCopyPad(rows, xGm[(uint64_t)nc * t.h * t.w + (uint64_t)h0 * t.w], cp, pp);
            Wait<HardEvent::MTE2_S>();

            for (uint32_t ow = 0; ow < t.wo; ++ow) {
                const uint32_t w0 = ow * 2;
                uint32_t w1 = w0 + 3;
                if (w1 > t.w) {
                    w1 = t.w;  // ceil-mode window clipped at the right edge
                }
                float m = rows.GetValue(w0);
                for (uint32_t r = 0; r < nRows; ++r) {
                    for (uint32_t iw = w0; iw < w1; ++iw) {
                        float v = rows.GetValue(r * t.wPad + iw);
                        m = v > m ? v : m;
                    }
                }
                o.SetValue(ow, m);
            }
            Wait<HardEvent::S_MTE3>();
            DataCopyExtParams oc{1, static_cast<uint32_t>(t.wo * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[(uint64_t)nc * t.ho * t.wo + (uint64_t)oh * t.wo], o, oc);
            Wait<HardEvent::MTE3_S>();
            Wait<HardEvent::S_MTE2>();
        }
    }

    // ------------------------------------------------------ global average
    __aicore__ inline void RunAvg()
    {
        const uint32_t hw = t.h * t.w;
        const float inv = 1.0f / static_cast<float>(hw);
        for (uint32_t b = GetBlockIdx(); b < t.n; b += GetBlockNum()) {
            LocalTensor<float> plane = rowBuf.Get<float>();
            LocalTensor<float> work = colBuf.Get<float>();
            LocalTensor<float> o = accBuf.Get<float>();
            for (uint32_t c = 0; c < t.co; ++c) {
                DataCopyExtParams cp{1, static_cast<uint32_t>(hw * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pp{false, 0, 0, 0};
                DataCopyPad(plane, xGm[((uint64_t)b * t.co + c) * hw], cp, pp);
                Wait<HardEvent::MTE2_V>();
                ReduceSum<float>(work, plane, work, hw);
                Wait<HardEvent::V_S>();
                o.SetValue(c, work.GetValue(0) * inv);
                Wait<HardEvent::V_MTE2>();
            }
            Wait<HardEvent::S_MTE3>();
            DataCopyExtParams oc{1, static_cast<uint32_t>(t.co * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[(uint64_t)b * t.co], o, oc);
            Wait<HardEvent::MTE3_S>();
        }
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> rowBuf, colBuf, accBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    FireStackForwardTiling t;
};

extern "C" __global__ __aicore__ void fire_stack_forward(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR tiling)
{
    FireStackForward op;
    op.Init(x, weight, bias, y, tiling);
    op.Process();
}
