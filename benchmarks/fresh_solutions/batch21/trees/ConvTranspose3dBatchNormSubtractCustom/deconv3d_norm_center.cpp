/*
 * deconv3d_norm_center.cpp
 *
 *   y   = transposed 3-D convolution of x (+ bias)
 *   z   = gamma * (y - mu_c) / sqrt(var_c + eps) + beta          (statistics over N, D, H, W)
 *   out = z - mean_{D,H,W}(z)                                    (per sample and channel)
 *
 * Substituting, beta and mu_c cancel and
 *   out[n, c] = (gamma_c / sqrt(var_c + eps)) * (y[n, c] - m[n, c]),
 * with m[n, c] the spatial mean of y for that sample/channel.
 *
 * Each AI core owns whole output channels:
 *   pass 1: build y row by row (scatter form, every input voxel pushes into up to
 *           K output columns), write it to `out`, accumulate per-sample sums and the
 *           channel's sum of squares;
 *   pass 2: stream the channel's planes back and apply (y - m) * scale in place.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t MAX_BATCH = 64;
constexpr uint32_t CHUNK = 8192;

struct Deconv3dNormCenterTiling {
    uint32_t n, cin, cout;
    uint32_t id, ih, iw;
    uint32_t od, oh, ow;
    uint32_t k, stride, pad;
    float eps;
};

class Deconv3dNormCenter {
public:
    __aicore__ inline Deconv3dNormCenter() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR gamma, GM_ADDR out,
                                const Deconv3dNormCenterTiling &tiling)
    {
        tl = tiling;
        inPlane = tl.id * tl.ih * tl.iw;
        outPlane = tl.od * tl.oh * tl.ow;
        k3 = tl.k * tl.k * tl.k;
        kPitch = Round8(k3);   // DataCopyPad puts each GM block at a 32-byte boundary in UB

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tl.n * tl.cin * inPlane);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)tl.cin * tl.cout * k3);
        biasGm.SetGlobalBuffer((__gm__ float *)bias, tl.cout);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, tl.cout);
        outGm.SetGlobalBuffer((__gm__ float *)out, (uint64_t)tl.n * tl.cout * outPlane);

        pipe.InitBuffer(xBuf, Round8(tl.cin * inPlane) * sizeof(float));
        pipe.InitBuffer(wBuf, tl.cin * kPitch * sizeof(float));
        pipe.InitBuffer(rowBuf, Round8(tl.ow) * sizeof(float));
        pipe.InitBuffer(inQ, 2, CHUNK * sizeof(float));
        pipe.InitBuffer(outQ, 2, CHUNK * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c = GetBlockIdx(); c < tl.cout; c += GetBlockNum()) {
            float sampleSum[MAX_BATCH];
            float sq = 0.0f;
            BuildChannel(c, sampleSum, sq);

            const float cnt = (float)outPlane;
            float total = 0.0f;
            for (uint32_t b = 0; b < tl.n; ++b) total += sampleSum[b];
            const float mu = total / (cnt * tl.n);
            float var = sq / (cnt * tl.n) - mu * mu;
            var = var > 0.0f ? var : 0.0f;
            const float scale = gammaGm.GetValue(c) * InvSqrt(var + tl.eps);

            // everything written by pass 1 must land in GM before pass 2 reads it back
            PipeBarrier<PIPE_ALL>();
            for (uint32_t b = 0; b < tl.n; ++b) {
                CenterPlane(((uint64_t)b * tl.cout + c) * outPlane, sampleSum[b] / cnt, scale);
            }
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    __aicore__ inline uint32_t Round8(uint32_t v) { return (v + 7) & ~7u; }

    // Newton refined reciprocal square root, scalar unit only
    __aicore__ inline float InvSqrt(float v)
    {
        float r = 1.0f;
        // coarse start: scale v into [1, 4)
        float s = v;
        float f = 1.0f;
        while (s > 4.0f) { s *= 0.25f; f *= 0.5f; }
        while (s < 1.0f) { s *= 4.0f; f *= 2.0f; }
        r = 0.75f;
        for (int i = 0; i < 6; ++i) {
            r = r * (1.5f - 0.5f * s * r * r);
        }
        return r * f;
    }

    __aicore__ inline void BuildChannel(uint32_t c, float *sampleSum, float &sq)
    {
        LocalTensor<float> xl = xBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> row = rowBuf.Get<float>();
        const float b0 = biasGm.GetValue(c);

        // this channel's taps: w[ci][c][...] -> wl[ci * kPitch + ...]
        DataCopyPad(wl, wGm[(uint64_t)c * k3],
                    {(uint16_t)tl.cin, k3 * 4, (tl.cout - 1) * k3 * 4, 0, 0}, {false, 0, 0, 0});

        const int32_t K = tl.k, S = tl.stride, P = tl.pad;
        for (uint32_t b = 0; b < tl.n; ++b) {
            Sync<HardEvent::S_MTE2>();
            DataCopyPad(xl, xGm[(uint64_t)b * tl.cin * inPlane], {1, tl.cin * inPlane * 4, 0, 0, 0},
                        {false, 0, 0, 0});
            Sync<HardEvent::MTE2_S>();

            float s = 0.0f;
            for (uint32_t d = 0; d < tl.od; ++d) {
                for (uint32_t h = 0; h < tl.oh; ++h) {
                    Sync<HardEvent::MTE3_S>();      // previous row has left UB
                    for (uint32_t w = 0; w < tl.ow; ++w) row.SetValue(w, b0);

                    for (int32_t kd = 0; kd < K; ++kd) {
                        int32_t nd = (int32_t)d + P - kd;
                        if (nd < 0 || nd % S) continue;
                        nd /= S;
                        if (nd >= (int32_t)tl.id) continue;
                        for (int32_t kh = 0; kh < K; ++kh) {
                            int32_t nh = (int32_t)h + P - kh;
                            if (nh < 0 || nh % S) continue;
                            nh /= S;
                            if (nh >= (int32_t)tl.ih) continue;
                            for (uint32_t ci = 0; ci < tl.cin; ++ci) {
                                const uint32_t xr = ci * inPlane + (nd * tl.ih + nh) * tl.iw;
                                const uint32_t wr = ci * kPitch + (kd * K + kh) * K;
                                // scatter: input column i feeds output column i*S - P + kw
                                for (uint32_t i = 0; i < tl.iw; ++i) {
                                    const float xv = xl.GetValue(xr + i);
                                    for (int32_t kw = 0; kw < K; ++kw) {
                                        int32_t o = (int32_t)i * S - P + kw;
                                        if (o < 0 || o >= (int32_t)tl.ow) continue;
                                        row.SetValue(o, row.GetValue(o) + xv * wl.GetValue(wr + kw));
                                    }
                                }
                            }
                        }
                    }

                    for (uint32_t w = 0; w < tl.ow; ++w) {
                        float v = row.GetValue(w);
                        s += v;
                        sq += v * v;
                    }
                    Sync<HardEvent::S_MTE3>();
                    uint64_t dst = ((uint64_t)b * tl.cout + c) * outPlane + (d * tl.oh + h) * tl.ow;
                    DataCopyPad(outGm[dst], row, {1, tl.ow * 4, 0, 0, 0});
                }
            }
            sampleSum[b] = s;
        }
        Sync<HardEvent::MTE3_S>();
    }

    __aicore__ inline void CenterPlane(uint64_t base, float mean, float scale)
    {
        for (uint32_t off = 0; off < outPlane; off += CHUNK) {
            uint32_t len = outPlane - off < CHUNK ? outPlane - off : CHUNK;
            LocalTensor<float> in = inQ.AllocTensor<float>();
            DataCopyPad(in, outGm[base + off], {1, len * 4, 0, 0, 0}, {false, 0, 0, 0});
            inQ.EnQue(in);

            in = inQ.DeQue<float>();
            LocalTensor<float> res = outQ.AllocTensor<float>();
            Adds(res, in, -mean, len);
            PipeBarrier<PIPE_V>();
            Muls(res, res, scale, len);
            outQ.EnQue(res);
            inQ.FreeTensor(in);

            res = outQ.DeQue<float>();
            DataCopyPad(outGm[base + off], res, {1, len * 4, 0, 0, 0});
            outQ.FreeTensor(res);
        }
    }

    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, wBuf, rowBuf;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<float> xGm, wGm, biasGm, gammaGm, outGm;
    Deconv3dNormCenterTiling tl;
    uint32_t inPlane = 0, outPlane = 0, k3 = 0, kPitch = 0;
};

extern "C" __global__ __aicore__ void deconv3d_norm_center(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR gamma,
                                                           GM_ADDR out, GM_ADDR tiling)
{
    Deconv3dNormCenterTiling tl;
    auto gm = reinterpret_cast<__gm__ uint8_t *>(tiling);
    auto local = reinterpret_cast<uint8_t *>(&tl);
    for (uint32_t i = 0; i < sizeof(tl); ++i) {
        local[i] = gm[i];
    }
    Deconv3dNormCenter op;
    op.Init(x, w, bias, gamma, out, tl);
    op.Process();
}
