/*
 * window_token_mixer.cpp
 *
 * Token-mixing half of a windowed all-MLP vision block:
 *
 *   1. LayerNorm over channels for every token of x [B, H*W, C]
 *   2. (optionally shifted) zero padding of the H x W grid, split into
 *      non-overlapping win x win windows
 *   3. inside each window, per head: a dense win^2 -> win^2 mixing across
 *      token positions (a grouped 1x1 convolution in the reference model),
 *      applied to that head's C/heads channels, plus a per-position bias
 *   4. crop the padding away and add the residual x
 *
 * Work unit = one window of one image. The whole window (win^2 tokens x C)
 * lives in UB; LayerNorm is done token by token with vector reductions, the
 * mixing is a chain of Axpy calls over head slices (headDim floats each).
 */
#include "kernel_operator.h"

using AscendC::GlobalTensor;
using AscendC::LocalTensor;

struct WindowTokenMixerTiling {
    uint32_t batch;
    uint32_t height;
    uint32_t width;
    uint32_t dim;        // C
    uint32_t heads;
    uint32_t headDim;    // C / heads
    uint32_t win;        // window side
    uint32_t padTop;     // rows of zeros added above the grid
    uint32_t padLeft;    // columns of zeros added left of the grid
    uint32_t winRows;    // windows along padded height
    uint32_t winCols;    // windows along padded width
    float eps;
};

__aicore__ inline void CopyTilingFromGm(WindowTokenMixerTiling *t, GM_ADDR g)
{
    auto *d = reinterpret_cast<uint32_t *>(t);
    auto *s = reinterpret_cast<__gm__ uint32_t *>(g);
    for (uint32_t i = 0; i < sizeof(WindowTokenMixerTiling) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

class WindowTokenMixer {
public:
    __aicore__ inline WindowTokenMixer() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR mixW, GM_ADDR mixB,
                                GM_ADDR y, const WindowTokenMixerTiling &tiling)
    {
        t = tiling;
        area = t.win * t.win;
        tokens = t.height * t.width;
        const uint64_t xLen = (uint64_t)t.batch * tokens * t.dim;
        xGm.SetGlobalBuffer((__gm__ float *)x, xLen);
        yGm.SetGlobalBuffer((__gm__ float *)y, xLen);
        gGm.SetGlobalBuffer((__gm__ float *)gamma, t.dim);
        bGm.SetGlobalBuffer((__gm__ float *)beta, t.dim);
        wGm.SetGlobalBuffer((__gm__ float *)mixW, (uint64_t)t.heads * area * area);
        mbGm.SetGlobalBuffer((__gm__ float *)mixB, (uint64_t)t.heads * area);

        pipe.InitBuffer(rawQ, 1, area * t.dim * sizeof(float));
        pipe.InitBuffer(outQ, 2, t.dim * sizeof(float));
        pipe.InitBuffer(normBuf, area * t.dim * sizeof(float));
        pipe.InitBuffer(wBuf, AlignUp(t.heads * area * area) * sizeof(float));
        pipe.InitBuffer(mbBuf, AlignUp(t.heads * area) * sizeof(float));
        pipe.InitBuffer(gammaBuf, t.dim * sizeof(float));
        pipe.InitBuffer(betaBuf, t.dim * sizeof(float));
        pipe.InitBuffer(sqBuf, t.dim * sizeof(float));
        pipe.InitBuffer(sumBuf, 8 * sizeof(float));
        pipe.InitBuffer(workBuf, t.dim * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadParams();
        const uint32_t perImage = t.winRows * t.winCols;
        const uint32_t units = t.batch * perImage;
        for (uint32_t u = AscendC::GetBlockIdx(); u < units; u += AscendC::GetBlockNum()) {
            uint32_t b = u / perImage;
            uint32_t wr = (u % perImage) / t.winCols;
            uint32_t wc = u % t.winCols;
            GatherWindow(b, wr, wc);
            MixWindow(b, wr, wc);
        }
    }

private:
    __aicore__ inline uint32_t AlignUp(uint32_t n) { return (n + 7) / 8 * 8; }

    // maps window slot q to the flat token index in the un-padded grid, or -1 for padding
    __aicore__ inline int32_t SlotToken(uint32_t wr, uint32_t wc, uint32_t q)
    {
        int32_t h = (int32_t)(wr * t.win + q / t.win) - (int32_t)t.padTop;
        int32_t w = (int32_t)(wc * t.win + q % t.win) - (int32_t)t.padLeft;
        if (h < 0 || w < 0 || h >= (int32_t)t.height || w >= (int32_t)t.width) {
            return -1;
        }
        return h * (int32_t)t.width + w;
    }

    __aicore__ inline void LoadParams()
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> mb = mbBuf.Get<float>();
        AscendC::DataCopy(wl, wGm, AlignUp(t.heads * area * area));
        AscendC::DataCopy(mb, mbGm, AlignUp(t.heads * area));
        AscendC::DataCopy(gammaBuf.Get<float>(), gGm, t.dim);
        AscendC::DataCopy(betaBuf.Get<float>(), bGm, t.dim);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(ev);
    }

    // Copies the window's tokens into UB and layer-normalises them; padding slots become 0.
    __aicore__ inline void GatherWindow(uint32_t b, uint32_t wr, uint32_t wc)
    {
        LocalTensor<float> raw = rawQ.AllocTensor<float>();
        const uint64_t imgBase = (uint64_t)b * tokens * t.dim;
        for (uint32_t q = 0; q < area; ++q) {
            int32_t tok = SlotToken(wr, wc, q);
            if (tok >= 0) {
                AscendC::DataCopy(raw[q * t.dim], xGm[imgBase + (uint64_t)tok * t.dim], t.dim);
            }
        }
        rawQ.EnQue(raw);
        raw = rawQ.DeQue<float>();

        LocalTensor<float> nrm = normBuf.Get<float>();
        LocalTensor<float> gam = gammaBuf.Get<float>();
        LocalTensor<float> bet = betaBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> red = sumBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        const float invC = 1.0f / static_cast<float>(t.dim);

        for (uint32_t q = 0; q < area; ++q) {
            LocalTensor<float> dst = nrm[q * t.dim];
            if (SlotToken(wr, wc, q) < 0) {
                AscendC::Duplicate(dst, 0.0f, t.dim);
                continue;
            }
            LocalTensor<float> src = raw[q * t.dim];
            AscendC::ReduceSum(red, src, work, t.dim);
            VecToScalar();
            float mean = red.GetValue(0) * invC;
            ScalarToVec();
            AscendC::Adds(dst, src, -mean, t.dim);
            AscendC::Mul(sq, dst, dst, t.dim);
            AscendC::ReduceSum(red, sq, work, t.dim);
            VecToScalar();
            float var = red.GetValue(0) * invC;
            ScalarToVec();
            // 1/sqrt(var + eps) on one lane, read back as a scalar
            AscendC::Duplicate(sq, var + t.eps, 8);
            AscendC::Sqrt(sq, sq, 8);
            VecToScalar();
            float rstd = 1.0f / sq.GetValue(0);
            ScalarToVec();
            AscendC::Muls(dst, dst, rstd, t.dim);
            AscendC::Mul(dst, dst, gam, t.dim);
            AscendC::Add(dst, dst, bet, t.dim);
        }
        rawWin = raw;   // kept for the residual, released in MixWindow
    }

    __aicore__ inline void MixWindow(uint32_t b, uint32_t wr, uint32_t wc)
    {
        LocalTensor<float> nrm = normBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> mb = mbBuf.Get<float>();
        const uint64_t imgBase = (uint64_t)b * tokens * t.dim;

        for (uint32_t p = 0; p < area; ++p) {
            int32_t tok = SlotToken(wr, wc, p);
            if (tok < 0) {
                continue;   // padded slot: cropped away afterwards
            }
            LocalTensor<float> o = outQ.AllocTensor<float>();
            for (uint32_t h = 0; h < t.heads; ++h) {
                const uint32_t row = h * area + p;          // output channel of the grouped conv
                LocalTensor<float> seg = o[h * t.headDim];
                AscendC::Duplicate(seg, mb.GetValue(row), t.headDim);
                for (uint32_t q = 0; q < area; ++q) {
                    if (SlotToken(wr, wc, q) < 0) {
                        continue;   // zero input, no contribution
                    }
                    float coef = wl.GetValue(row * area + q);
                    AscendC::Axpy(seg, nrm[q * t.dim + h * t.headDim], coef, t.headDim);
                }
            }
            // residual
            AscendC::Add(o, o, rawWin[p * t.dim], t.dim);
            outQ.EnQue(o);
            o = outQ.DeQue<float>();
            AscendC::DataCopy(yGm[imgBase + (uint64_t)tok * t.dim], o, t.dim);
            outQ.FreeTensor(o);
        }
        rawQ.FreeTensor(rawWin);
    }

    __aicore__ inline void VecToScalar()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
    }
    __aicore__ inline void ScalarToVec()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> rawQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> normBuf, wBuf, mbBuf, gammaBuf, betaBuf, sqBuf, sumBuf, workBuf;
    GlobalTensor<float> xGm, yGm, gGm, bGm, wGm, mbGm;
    LocalTensor<float> rawWin;
    WindowTokenMixerTiling t;
    uint32_t area = 0;
    uint32_t tokens = 0;
};

extern "C" __global__ __aicore__ void window_token_mixer(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                         GM_ADDR mixW, GM_ADDR mixB, GM_ADDR y,
                                                         GM_ADDR tiling)
{
    WindowTokenMixerTiling t;
    CopyTilingFromGm(&t, tiling);
    WindowTokenMixer op;
    op.Init(x, gamma, beta, mixW, mixB, y, t);
    op.Process();
}
