/**
 * TrailingAxesLayerNorm kernel.
 *
 * y = (x - mean) / sqrt(var + eps) * gamma + beta, statistics taken over each row of
 * the [rowNum, rowLen] view of x (biased variance).
 *
 * Rows can be far larger than UB, so every row is streamed twice:
 *   pass 1: per tile, mean_t and M2_t = sum (x - mean_t)^2 are computed on the vector
 *           unit and merged into running (count, mean, M2) with Chan's parallel
 *           update - numerically stable, unlike sum / sum-of-squares.
 *   pass 2: normalise, apply gamma / beta, write back.
 * All arithmetic is fp32; float16 tensors are widened on load.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t NBUF = 2;
}

template <typename T>
class TrailingAxesLayerNormKernel {
public:
    __aicore__ inline TrailingAxesLayerNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const TrailingAxesLayerNormTilingData &td)
    {
        rowLen = td.rowLen;
        tileLen = td.tileLen;
        eps = td.eps;
        uint32_t core = GetBlockIdx();
        rowCnt = td.rowsPerCore + (core < td.bigCores ? 1 : 0);
        rowStart = core * td.rowsPerCore + (core < td.bigCores ? core : td.bigCores);

        xGm.SetGlobalBuffer((__gm__ T *)x);
        gGm.SetGlobalBuffer((__gm__ T *)gamma);
        bGm.SetGlobalBuffer((__gm__ T *)beta);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(xQue, NBUF, tileLen * sizeof(T));
        pipe.InitBuffer(gQue, NBUF, tileLen * sizeof(T));
        pipe.InitBuffer(bQue, NBUF, tileLen * sizeof(T));
        pipe.InitBuffer(yQue, NBUF, tileLen * sizeof(T));
        pipe.InitBuffer(f0Buf, tileLen * sizeof(float));
        pipe.InitBuffer(f1Buf, tileLen * sizeof(float));
        pipe.InitBuffer(f2Buf, tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, 32);
        pipe.InitBuffer(workBuf, (tileLen / 8 + 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCnt; ++r) {
            uint64_t base = static_cast<uint64_t>(rowStart + r) * rowLen;
            float mean = 0.0f;
            float rstd = 0.0f;
            RowStatistics(base, mean, rstd);
            NormalizeRow(base, mean, rstd);
        }
    }

private:
    __aicore__ inline void Load(TQue<QuePosition::VECIN, NBUF> &que, GlobalTensor<T> &gm, uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = que.AllocTensor<T>();
        if (len == tileLen) {
            DataCopy(t, gm[off], len);
        } else {
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
            DataCopyPad(t, gm[off], cp, pad);
        }
        que.EnQue(t);
    }

    // Returns a fp32 view of the tile (in place for float, widened copy for half).
    __aicore__ inline LocalTensor<float> Widen(LocalTensor<T> &src, TBuf<TPosition::VECCALC> &buf, uint32_t len)
    {
        if constexpr (std::is_same<T, float>::value) {
            return src;
        } else {
            LocalTensor<float> dst = buf.Get<float>();
            Cast(dst, src, RoundMode::CAST_NONE, len);
            PipeBarrier<PIPE_V>();
            return dst;
        }
    }

    __aicore__ inline float SumOf(const LocalTensor<float> &src, uint32_t len)
    {
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        ReduceSum<float>(red, src, work, len);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return red.GetValue(0);
    }

    __aicore__ inline void RowStatistics(uint64_t base, float &mean, float &rstd)
    {
        float cnt = 0.0f;
        float m = 0.0f;
        float m2 = 0.0f;
        for (uint64_t off = 0; off < rowLen; off += tileLen) {
            uint32_t len = (rowLen - off) < tileLen ? static_cast<uint32_t>(rowLen - off) : tileLen;
            Load(xQue, xGm, base + off, len);
            LocalTensor<T> xt = xQue.DeQue<T>();
            LocalTensor<float> xf = Widen(xt, f0Buf, len);

            float n = static_cast<float>(len);
            float tileMean = SumOf(xf, len) / n;
            LocalTensor<float> dev = f1Buf.Get<float>();
            Adds(dev, xf, -tileMean, len);
            PipeBarrier<PIPE_V>();
            Mul(dev, dev, dev, len);
            PipeBarrier<PIPE_V>();
            float tileM2 = SumOf(dev, len);
            xQue.FreeTensor(xt);

            // Chan et al. merge of (cnt, m, m2) with (n, tileMean, tileM2)
            float total = cnt + n;
            float delta = tileMean - m;
            m += delta * (n / total);
            m2 += tileM2 + delta * delta * (cnt * n / total);
            cnt = total;
        }
        mean = m;
        float var = m2 / cnt;
        // 1/sqrt on the scalar side: one value per row
        rstd = 1.0f / sqrt(var + eps);
    }

    __aicore__ inline void NormalizeRow(uint64_t base, float mean, float rstd)
    {
        for (uint64_t off = 0; off < rowLen; off += tileLen) {
            uint32_t len = (rowLen - off) < tileLen ? static_cast<uint32_t>(rowLen - off) : tileLen;
            Load(xQue, xGm, base + off, len);
            Load(gQue, gGm, off, len);
            Load(bQue, bGm, off, len);

            LocalTensor<T> xt = xQue.DeQue<T>();
            LocalTensor<T> gt = gQue.DeQue<T>();
            LocalTensor<T> bt = bQue.DeQue<T>();
            LocalTensor<float> xf = Widen(xt, f0Buf, len);
            LocalTensor<float> gf = Widen(gt, f1Buf, len);
            LocalTensor<float> bf = Widen(bt, f2Buf, len);

            Adds(xf, xf, -mean, len);
            PipeBarrier<PIPE_V>();
            Muls(xf, xf, rstd, len);
            PipeBarrier<PIPE_V>();
            Mul(xf, xf, gf, len);
            PipeBarrier<PIPE_V>();

            LocalTensor<T> yt = yQue.AllocTensor<T>();
            if constexpr (std::is_same<T, float>::value) {
                Add(yt, xf, bf, len);
            } else {
                Add(xf, xf, bf, len);
                PipeBarrier<PIPE_V>();
                Cast(yt, xf, RoundMode::CAST_ROUND, len);
            }
            yQue.EnQue(yt);
            xQue.FreeTensor(xt);
            gQue.FreeTensor(gt);
            bQue.FreeTensor(bt);

            yt = yQue.DeQue<T>();
            if (len == tileLen) {
                DataCopy(yGm[base + off], yt, len);
            } else {
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                DataCopyPad(yGm[base + off], yt, cp);
            }
            yQue.FreeTensor(yt);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, NBUF> xQue, gQue, bQue;
    TQue<QuePosition::VECOUT, NBUF> yQue;
    TBuf<TPosition::VECCALC> f0Buf, f1Buf, f2Buf, redBuf, workBuf;
    GlobalTensor<T> xGm, gGm, bGm, yGm;
    uint64_t rowLen = 0;
    uint32_t tileLen = 0;
    uint32_t rowStart = 0;
    uint32_t rowCnt = 0;
    float eps = 1e-5f;
};

extern "C" __global__ __aicore__ void trailing_axes_layer_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TrailingAxesLayerNormKernel<DTYPE_X> op;
    op.Init(x, gamma, beta, y, td);
    op.Process();
}
