/*
 * Deconv3dPoolSoftmaxSwishMax kernel (fp32).
 *
 * For one pooled row (n, dp, hp):
 *   1. for each (jd, jh) of the pooling window, build the transposed-conv row (od, oh) for all
 *      output channels, stride-phase by stride-phase (contiguous vectors, Axpy per tap);
 *   2. max-pool along W directly out of the phase buffers with Gather (one index table per jw);
 *   3. add bias, softmax across channels, subtract the per-channel offset, swish, max across
 *      channels -> one output row.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr float LOWEST = -3.4e38f;
constexpr uint32_t MAX_K = 16;
}

class Deconv3dPoolSoftmaxSwishMaxKernel {
public:
    __aicore__ inline Deconv3dPoolSoftmaxSwishMaxKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR off, GM_ADDR y,
                                const Deconv3dPoolSoftmaxSwishMaxTilingData &t)
    {
        t_ = t;
        uint32_t blk = GetBlockIdx();
        first_ = blk * t.rowsPerCore + (blk < t.rowsExtra ? blk : t.rowsExtra);
        count_ = t.rowsPerCore + (blk < t.rowsExtra ? 1 : 0);
        k3_ = t.ksize * t.ksize * t.ksize;
        phaseRow_ = t.stride * t.phaseLen;

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)w);
        bGm_.SetGlobalBuffer((__gm__ float *)bias);
        offGm_.SetGlobalBuffer((__gm__ float *)off);
        yGm_.SetGlobalBuffer((__gm__ float *)y);

        pipe_.InitBuffer(accB_, t.cout * phaseRow_ * sizeof(float));
        pipe_.InitBuffer(tapB_, t.ksize * t.ksize * t.ksize * t.phaseLen * sizeof(float));
        pipe_.InitBuffer(wB_, ((t.cout * k3_ + 7) / 8 * 8) * sizeof(float));
        pipe_.InitBuffer(poolB_, t.cout * t.wpAlign * sizeof(float));
        pipe_.InitBuffer(idxB_, t.poolK * t.wpAlign * sizeof(uint32_t));
        pipe_.InitBuffer(tmpB_, 3 * t.wpAlign * sizeof(float));
        pipe_.InitBuffer(outQ_, 2, t.wpAlign * sizeof(float));

        // gather tables: pooled column wp, window offset jw -> deconv column ow = wp*ps + jw
        LocalTensor<uint32_t> idx = idxB_.Get<uint32_t>();
        for (uint32_t jw = 0; jw < t.poolK; ++jw) {
            for (uint32_t c = 0; c < t.wp; ++c) {
                uint32_t ow = c * t.poolS + jw;
                idx.SetValue(jw * t.wpAlign + c, ((ow % t.stride) * t.phaseLen + ow / t.stride) * 4U);
            }
        }
    }

    __aicore__ inline void Process()
    {
        uint32_t perSample = t_.dp * t_.hp;
        for (uint32_t i = 0; i < count_; ++i) {
            uint32_t r = first_ + i;
            uint32_t n = r / perSample;
            uint32_t dp = (r % perSample) / t_.hp;
            uint32_t hp = r % t_.hp;
            PooledRow(n, dp, hp);
        }
    }

private:
    // Kernel index list along one spatial dim for a given output coordinate.
    __aicore__ inline uint32_t Taps(uint32_t o, uint32_t inExt, uint32_t *kIdx, uint32_t *iIdx)
    {
        uint32_t cnt = 0;
        for (uint32_t kk = 0; kk < t_.ksize; ++kk) {
            int32_t v = static_cast<int32_t>(o + t_.pad) - static_cast<int32_t>(kk);
            if (v < 0 || v % static_cast<int32_t>(t_.stride) != 0) {
                continue;
            }
            uint32_t ii = static_cast<uint32_t>(v) / t_.stride;
            if (ii < inExt) {
                kIdx[cnt] = kk;
                iIdx[cnt] = ii;
                ++cnt;
            }
        }
        return cnt;
    }

    __aicore__ inline void DeconvRow(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accB_.Get<float>();
        LocalTensor<float> taps = tapB_.Get<float>();
        LocalTensor<float> wl = wB_.Get<float>();
        uint32_t kdI[MAX_K], idI[MAX_K], khI[MAX_K], ihI[MAX_K];
        uint32_t nd = Taps(od, t_.din, kdI, idI);
        uint32_t nh = Taps(oh, t_.hin, khI, ihI);
        uint32_t K = t_.ksize;
        uint32_t tp = t_.phaseLen;

        Duplicate(acc, 0.0f, t_.cout * phaseRow_);
        if (nd == 0 || nh == 0) {
            return;
        }
        for (uint32_t ci = 0; ci < t_.cin; ++ci) {
            PipeBarrier<PIPE_ALL>();
            DataCopyPad(wl, wGm_[static_cast<uint64_t>(ci) * t_.cout * k3_],
                        DataCopyExtParams{1, t_.cout * k3_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                        DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            Duplicate(taps, 0.0f, K * K * K * tp);
            PipeBarrier<PIPE_ALL>();
            for (uint32_t a = 0; a < nd; ++a) {
                for (uint32_t b = 0; b < nh; ++b) {
                    uint64_t rowOff = (((static_cast<uint64_t>(n) * t_.cin + ci) * t_.din + idI[a]) * t_.hin + ihI[b]) * t_.win;
                    for (uint32_t kw = 0; kw < K; ++kw) {
                        int32_t rel = static_cast<int32_t>(kw) - static_cast<int32_t>(t_.pad);
                        int32_t ph = ((rel % static_cast<int32_t>(t_.stride)) + t_.stride) % t_.stride;
                        int32_t sh = (ph - rel) / static_cast<int32_t>(t_.stride);
                        LocalTensor<float> dst = taps[((a * K + b) * K + kw) * tp];
                        uint8_t left = 0;
                        uint64_t src = rowOff;
                        int32_t cnt;
                        if (sh >= 0) {
                            src += sh;
                            cnt = static_cast<int32_t>(t_.win) - sh;
                        } else {
                            left = static_cast<uint8_t>(-sh);
                            cnt = static_cast<int32_t>(t_.win);
                        }
                        if (cnt > static_cast<int32_t>(tp) - left) {
                            cnt = static_cast<int32_t>(tp) - left;
                        }
                        if (cnt <= 0) {
                            continue;
                        }
                        DataCopyPad(dst, xGm_[src],
                                    DataCopyExtParams{1, static_cast<uint32_t>(cnt) * 4U, 0, 0, 0},
                                    DataCopyPadExtParams<float>{left > 0, left, 0, 0.0f});
                    }
                }
            }
            PipeBarrier<PIPE_ALL>();
            for (uint32_t co = 0; co < t_.cout; ++co) {
                uint32_t wb = co * k3_;
                for (uint32_t a = 0; a < nd; ++a) {
                    for (uint32_t b = 0; b < nh; ++b) {
                        for (uint32_t kw = 0; kw < K; ++kw) {
                            int32_t rel = static_cast<int32_t>(kw) - static_cast<int32_t>(t_.pad);
                            uint32_t ph = static_cast<uint32_t>(((rel % static_cast<int32_t>(t_.stride)) + t_.stride) % t_.stride);
                            float wv = wl.GetValue(wb + (kdI[a] * K + khI[b]) * K + kw);
                            Axpy(acc[co * phaseRow_ + ph * tp], taps[((a * K + b) * K + kw) * tp], wv, tp);
                        }
                    }
                }
            }
        }
    }

    __aicore__ inline void PooledRow(uint32_t n, uint32_t dp, uint32_t hp)
    {
        LocalTensor<float> pool = poolB_.Get<float>();
        LocalTensor<float> acc = accB_.Get<float>();
        LocalTensor<uint32_t> idx = idxB_.Get<uint32_t>();
        LocalTensor<float> tmp = tmpB_.Get<float>();
        LocalTensor<float> mx = tmp[t_.wpAlign];
        LocalTensor<float> sum = tmp[2 * t_.wpAlign];
        uint32_t wp = t_.wp;
        uint32_t wa = t_.wpAlign;

        Duplicate(pool, LOWEST, t_.cout * wa);
        for (uint32_t jd = 0; jd < t_.poolK; ++jd) {
            for (uint32_t jh = 0; jh < t_.poolK; ++jh) {
                DeconvRow(n, dp * t_.poolS + jd, hp * t_.poolS + jh);
                PipeBarrier<PIPE_V>();
                for (uint32_t co = 0; co < t_.cout; ++co) {
                    for (uint32_t jw = 0; jw < t_.poolK; ++jw) {
                        Gather(tmp, acc[co * phaseRow_], idx[jw * wa], 0U, wp);
                        Max(pool[co * wa], pool[co * wa], tmp, wp);
                    }
                }
            }
        }

        // bias is constant per channel, so it commutes with the max pool
        Duplicate(mx, LOWEST, wp);
        for (uint32_t co = 0; co < t_.cout; ++co) {
            Adds(pool[co * wa], pool[co * wa], bGm_.GetValue(co), wp);
            Max(mx, mx, pool[co * wa], wp);
        }
        Duplicate(sum, 0.0f, wp);
        for (uint32_t co = 0; co < t_.cout; ++co) {
            Sub(pool[co * wa], pool[co * wa], mx, wp);
            Exp(pool[co * wa], pool[co * wa], wp);
            Add(sum, sum, pool[co * wa], wp);
        }

        LocalTensor<float> res = outQ_.AllocTensor<float>();
        Duplicate(res, LOWEST, wp);
        for (uint32_t co = 0; co < t_.cout; ++co) {
            LocalTensor<float> v = pool[co * wa];
            Div(v, v, sum, wp);                       // softmax probability
            Adds(v, v, -offGm_.GetValue(co), wp);     // minus channel offset
            // swish: v * sigmoid(v) = v / (1 + exp(-v))
            Muls(tmp, v, -1.0f, wp);
            Exp(tmp, tmp, wp);
            Adds(tmp, tmp, 1.0f, wp);
            Div(v, v, tmp, wp);
            Max(res, res, v, wp);
        }
        outQ_.EnQue(res);
        res = outQ_.DeQue<float>();
        uint64_t dst = ((static_cast<uint64_t>(n) * t_.dp + dp) * t_.hp + hp) * wp;
        DataCopyPad(yGm_[dst], res, DataCopyExtParams{1, wp * 4U, 0, 0, 0});
        outQ_.FreeTensor(res);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> accB_, tapB_, wB_, poolB_, idxB_, tmpB_;
    TQue<TPosition::VECOUT, 2> outQ_;
    GlobalTensor<float> xGm_, wGm_, bGm_, offGm_, yGm_;
    Deconv3dPoolSoftmaxSwishMaxTilingData t_;
    uint32_t first_ = 0, count_ = 0, k3_ = 0, phaseRow_ = 0;
};

extern "C" __global__ __aicore__ void deconv3d_pool_softmax_swish_max(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                      GM_ADDR offset, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Deconv3dPoolSoftmaxSwishMaxKernel op;
    op.Init(x, weight, bias, offset, y, tilingData);
    op.Process();
}
