// TextImageCrossAttention
//
//   tq  = text  * Wt^T + bt                      [B, Lq, D]
//   tkv = image * Wi^T + bi                      [B, Lk, D]
//   Q = tq * Wq^T + bq,  K = tkv * Wk^T + bk,  V = tkv * Wv^T + bv   (Wq|Wk|Wv = in_proj_weight)
//   per head h:  ctx_h = softmax(Q_h K_h^T / sqrt(hd)) V_h
//   out = ctx * Wo^T + bo
//
// Dense layers: rows split over cores with one reusable transposed-B Matmul object.
// Attention: one (batch, head) per step; head slices are addressed in place through the
// org shapes (row pitch D), so no head transposes are needed.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class CrossAttnKernel {
    using Plain = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using Trans = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;

public:
    Matmul<Plain, Trans, Plain, Plain> linMm;
    Matmul<Plain, Trans, Plain, Plain> scoreMm;
    Matmul<Plain, Plain, Plain, Plain> mixMm;

    __aicore__ inline CrossAttnKernel() {}

    __aicore__ inline void Init(GM_ADDR *io, GM_ADDR usr, const TextImageCrossAttentionTilingData &td, TPipe *pipe)
    {
        B = td.batch; Lq = td.lenQ; Lk = td.lenKv; D = td.dModel; Di = td.dImg;
        H = td.heads; hd = td.headDim; slab = td.rowSlab; kvPad = td.kvPad; scale = td.scale;
        me = GetBlockIdx();
        nCores = GetBlockNum();

        text.SetGlobalBuffer((__gm__ T *)io[0]);
        image.SetGlobalBuffer((__gm__ T *)io[1]);
        wt.SetGlobalBuffer((__gm__ T *)io[2]);
        bt.SetGlobalBuffer((__gm__ T *)io[3]);
        wi.SetGlobalBuffer((__gm__ T *)io[4]);
        bi.SetGlobalBuffer((__gm__ T *)io[5]);
        win.SetGlobalBuffer((__gm__ T *)io[6]);
        bin.SetGlobalBuffer((__gm__ T *)io[7]);
        wo.SetGlobalBuffer((__gm__ T *)io[8]);
        bo.SetGlobalBuffer((__gm__ T *)io[9]);
        out.SetGlobalBuffer((__gm__ T *)io[10]);

        uint64_t qElems = static_cast<uint64_t>(B) * Lq * D;
        uint64_t kvElems = static_cast<uint64_t>(B) * Lk * D;
        __gm__ T *p = (__gm__ T *)usr;
        tqWs.SetGlobalBuffer(p);            p += qElems;
        tkvWs.SetGlobalBuffer(p);           p += kvElems;
        qWs.SetGlobalBuffer(p);             p += qElems;
        kWs.SetGlobalBuffer(p);             p += kvElems;
        vWs.SetGlobalBuffer(p);             p += kvElems;
        ctxWs.SetGlobalBuffer(p);           p += qElems;
        scoreWs.SetGlobalBuffer(p + static_cast<uint64_t>(me) * Lq * kvPad);

        pipe->InitBuffer(inQ, 2, kvPad * sizeof(T));
        pipe->InitBuffer(outQ, 2, kvPad * sizeof(T));
        pipe->InitBuffer(work, kvPad * sizeof(float));
        pipe->InitBuffer(red, kvPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t rq = B * Lq, rk = B * Lk;
        Dense(text, wt, bt, tqWs, rq, D, D);
        Dense(image, wi, bi, tkvWs, rk, Di, D);
        SyncAll();
        uint64_t dd = static_cast<uint64_t>(D) * D;
        Dense(tqWs, win, bin, qWs, rq, D, D);
        Dense(tkvWs, win[dd], bin[D], kWs, rk, D, D);
        Dense(tkvWs, win[2 * dd], bin[2 * D], vWs, rk, D, D);
        SyncAll();
        Attention();
        SyncAll();
        Dense(ctxWs, wo, bo, out, rq, D, D);
    }

private:
    // y[rows, n] = x[rows, k] * w[n, k]^T + b, this core's slab only
    __aicore__ inline void Dense(const GlobalTensor<T> &x, const GlobalTensor<T> &w, const GlobalTensor<T> &b,
                                 const GlobalTensor<T> &y, uint32_t rows, uint32_t k, uint32_t n)
    {
        uint32_t r0 = me * slab;
        if (r0 >= rows) {
            return;
        }
        uint32_t cnt = rows - r0 < slab ? rows - r0 : slab;
        linMm.SetOrgShape(cnt, n, k);
        linMm.SetTensorA(x[static_cast<uint64_t>(r0) * k]);
        linMm.SetTensorB(w, true);
        linMm.SetBias(b);
        linMm.SetTail(cnt, n, k);
        linMm.IterateAll(y[static_cast<uint64_t>(r0) * n]);
        linMm.End();
    }

    __aicore__ inline void Attention()
    {
        for (uint32_t u = me; u < B * H; u += nCores) {
            uint32_t b = u / H, h = u % H;
            uint64_t qOff = static_cast<uint64_t>(b) * Lq * D + h * hd;
            uint64_t kvOff = static_cast<uint64_t>(b) * Lk * D + h * hd;

            // S[Lq, Lk] = Q_h K_h^T ; A and B rows are D apart, C rows kvPad apart
            scoreMm.SetOrgShape(Lq, Lk, D, D, kvPad);
            scoreMm.SetTensorA(qWs[qOff]);
            scoreMm.SetTensorB(kWs[kvOff], true);
            scoreMm.SetTail(Lq, Lk, hd);
            scoreMm.IterateAll(scoreWs);
            scoreMm.End();
            PipeBarrier<PIPE_ALL>();

            for (uint32_t r = 0; r < Lq; ++r) {
                SoftmaxRow(r);
            }
            PipeBarrier<PIPE_ALL>();

            // ctx_h[Lq, hd] = P[Lq, Lk] V_h[Lk, hd]; V rows D apart, output rows D apart
            mixMm.SetOrgShape(Lq, D, kvPad, D, D);
            mixMm.SetTensorA(scoreWs);
            mixMm.SetTensorB(vWs[kvOff]);
            mixMm.SetTail(Lq, hd, Lk);
            mixMm.IterateAll(ctxWs[qOff]);
            mixMm.End();
            PipeBarrier<PIPE_ALL>();
        }
    }

    __aicore__ inline void SoftmaxRow(uint32_t r)
    {
        LocalTensor<T> s = inQ.AllocTensor<T>();
        DataCopy(s, scoreWs[static_cast<uint64_t>(r) * kvPad], kvPad);
        inQ.EnQue(s);
        s = inQ.DeQue<T>();

        LocalTensor<float> v = work.Get<float>();
        LocalTensor<float> tmp = red.Get<float>();
        if constexpr (sizeof(T) == 2) {
            Cast(v, s, RoundMode::CAST_NONE, kvPad);
        } else {
            DataCopy(v, s, kvPad);
        }
        inQ.FreeTensor(s);

        Muls(v, v, scale, Lk);
        ReduceMax(tmp, v, tmp, Lk, false);
        float mx = tmp.GetValue(0);
        Adds(v, v, -mx, Lk);
        Exp(v, v, Lk);
        ReduceSum(tmp, v, tmp, Lk);
        float inv = 1.0f / tmp.GetValue(0);
        Muls(v, v, inv, Lk);
        for (uint32_t j = Lk; j < kvPad; ++j) {
            v.SetValue(j, 0.0f);
        }

        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (sizeof(T) == 2) {
            Cast(o, v, RoundMode::CAST_ROUND, kvPad);
        } else {
            DataCopy(o, v, kvPad);
        }
        outQ.EnQue(o);
        o = outQ.DeQue<T>();
        DataCopy(scoreWs[static_cast<uint64_t>(r) * kvPad], o, kvPad);
        outQ.FreeTensor(o);
    }

    uint32_t B, Lq, Lk, D, Di, H, hd, slab, kvPad, me, nCores;
    float scale;
    GlobalTensor<T> text, image, wt, bt, wi, bi, win, bin, wo, bo, out;
    GlobalTensor<T> tqWs, tkvWs, qWs, kWs, vWs, ctxWs, scoreWs;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> work, red;
};

extern "C" __global__ __aicore__ void text_image_cross_attention(
    GM_ADDR text, GM_ADDR image, GM_ADDR text_weight, GM_ADDR text_bias, GM_ADDR image_weight,
    GM_ADDR image_bias, GM_ADDR in_proj_weight, GM_ADDR in_proj_bias, GM_ADDR out_weight, GM_ADDR out_bias,
    GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    GM_ADDR io[11] = {text, image, text_weight, text_bias, image_weight, image_bias,
                      in_proj_weight, in_proj_bias, out_weight, out_bias, out};
    TPipe pipe;
    CrossAttnKernel<DTYPE_TEXT> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.linMm, &td.linear, op.scoreMm, &td.score,
                      op.mixMm, &td.mix);
    op.Init(io, usr, td, &pipe);
    op.Process();
}
