// PixelSelfAttentionNorm
// Treat every pixel of an NCHW map as a token, run multi-head self-attention over the pixels of
// each image, add the input back and layer-normalise over channels. Output keeps NCHW.
//
//  stage 1 (cube)   qkv[b] = x[b]^T · Win^T + bin                      -> workspace [B, L, 3C]
//  --- SyncAll ---
//  stage 2 (cube+vec) per (b, head, query block):
//                   s = Q·K^T ; p = softmax(scale * s) ; ctx = p·V     -> ctx overwrites Q columns
//  --- SyncAll ---
//  stage 3 (cube+vec) per (b, token block):
//                   z = Wout · ctx^T   (written in place into y, channel-major)
//                   y = LayerNorm_C(z + bout + x) * gamma + beta
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using GmF = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using GmFT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;

class PixelSelfAttentionNormKernel {
public:
    matmul::Matmul<GmFT, GmFT, GmF, GmF> mmProj;   // A^T, B^T, bias
    matmul::Matmul<GmF, GmFT, GmF, GmF> mmScore;   // Q · K^T
    matmul::Matmul<GmF, GmF, GmF, GmF> mmCtx;      // P · V
    matmul::Matmul<GmF, GmFT, GmF, GmF> mmOut;     // Wout · ctx^T

    __aicore__ inline PixelSelfAttentionNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wIn, GM_ADDR bIn, GM_ADDR wOut, GM_ADDR bOut, GM_ADDR gamma,
                                GM_ADDR beta, GM_ADDR y, GM_ADDR usr, const PixelSelfAttentionNormTilingData *t)
    {
        td = t;
        Bn = t->batch; C = t->embed; L = t->seqLen; nh = t->heads; hd = t->headDim;
        core = GetBlockIdx();
        cores = t->coreNum;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wInGm.SetGlobalBuffer((__gm__ float *)wIn);
        bInGm.SetGlobalBuffer((__gm__ float *)bIn);
        wOutGm.SetGlobalBuffer((__gm__ float *)wOut);
        bOutGm.SetGlobalBuffer((__gm__ float *)bOut);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm.SetGlobalBuffer((__gm__ float *)beta);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        qkvGm.SetGlobalBuffer((__gm__ float *)usr);
        uint64_t qkvElems = static_cast<uint64_t>(Bn) * L * 3 * C;
        scoreGm.SetGlobalBuffer((__gm__ float *)usr + qkvElems + static_cast<uint64_t>(core) * t->qBlock * L);

        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mmProj, &t->projTiling, mmScore, &t->scoreTiling,
                          mmCtx, &t->ctxTiling, mmOut, &t->outTiling);

        chunk = t->softmaxChunk;
        tb = t->tokBlock;
        pipe.InitBuffer(inQ, 2, chunk * sizeof(float));
        pipe.InitBuffer(outQ, 2, chunk * sizeof(float));
        pipe.InitBuffer(redWork, chunk * sizeof(float));
        pipe.InitBuffer(redOut, 64 * sizeof(float));
        // stage 3 tiles: [C, tokBlock] for z and for the residual
        pipe.InitBuffer(zBuf, C * tb * sizeof(float));
        pipe.InitBuffer(xBuf, C * tb * sizeof(float));
        pipe.InitBuffer(statBuf, 3 * tb * sizeof(float));
        pipe.InitBuffer(paramBuf, 3 * C * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        Project();
        SyncAll();
        Attend();
        SyncAll();
        ProjectOutAndNorm();
    }

private:
    template <HardEvent E>
    __aicore__ inline void Wait()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(e);
        WaitFlag<E>(e);
    }

    // ---------------- stage 1
    __aicore__ inline void Project()
    {
        uint32_t per = td->projRowsPerCore;
        uint32_t l0 = core * per;
        if (l0 >= L) {
            return;
        }
        uint32_t rows = (L - l0) < per ? (L - l0) : per;
        for (uint32_t b = 0; b < Bn; ++b) {
            mmProj.SetTensorA(xGm[static_cast<uint64_t>(b) * C * L + l0], true);
            mmProj.SetTensorB(wInGm, true);
            mmProj.SetBias(bInGm);
            mmProj.SetTail(rows, 3 * C, C);
            mmProj.IterateAll(qkvGm[(static_cast<uint64_t>(b) * L + l0) * 3 * C]);
        }
        mmProj.End();
    }

    // ---------------- stage 2
    __aicore__ inline void Attend()
    {
        uint32_t qB = td->qBlock;
        uint32_t items = Bn * nh * td->qBlocks;
        for (uint32_t it = core; it < items; it += cores) {
            uint32_t b = it / (nh * td->qBlocks);
            uint32_t r = it - b * nh * td->qBlocks;
            uint32_t h = r / td->qBlocks;
            uint32_t q0 = (r - h * td->qBlocks) * qB;
            uint32_t rows = (L - q0) < qB ? (L - q0) : qB;
            uint64_t base = static_cast<uint64_t>(b) * L * 3 * C;

            mmScore.SetTensorA(qkvGm[base + static_cast<uint64_t>(q0) * 3 * C + h * hd]);
            mmScore.SetTensorB(qkvGm[base + C + h * hd], true);
            mmScore.SetTail(rows, L, hd);
            mmScore.IterateAll(scoreGm);
            PipeBarrier<PIPE_ALL>();

            for (uint32_t i = 0; i < rows; ++i) {
                SoftmaxRow(static_cast<uint64_t>(i) * L);
            }
            PipeBarrier<PIPE_ALL>();

            mmCtx.SetTensorA(scoreGm);
            mmCtx.SetTensorB(qkvGm[base + 2 * C + h * hd]);
            mmCtx.SetTail(rows, hd, L);
            mmCtx.IterateAll(qkvGm[base + static_cast<uint64_t>(q0) * 3 * C + h * hd]);
            PipeBarrier<PIPE_ALL>();
        }
        mmScore.End();
        mmCtx.End();
    }

    __aicore__ inline float Reduce(const LocalTensor<float> &v, uint32_t n, bool doMax)
    {
        LocalTensor<float> o = redOut.Get<float>();
        LocalTensor<float> w = redWork.Get<float>();
        if (doMax) {
            ReduceMax<float>(o, v, w, static_cast<int32_t>(n), false);
        } else {
            ReduceSum<float>(o, v, w, static_cast<int32_t>(n));
        }
        Wait<HardEvent::V_S>();
        return o.GetValue(0);
    }

    __aicore__ inline void Fetch(uint64_t off, uint32_t n)
    {
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopy(t, scoreGm[off], n);   // L is a multiple of 8
        inQ.EnQue(t);
    }

    // softmax(scale * s) over one row of length L, in place in the score workspace
    __aicore__ inline void SoftmaxRow(uint64_t rowOff)
    {
        const float sc = td->scale;
        float mx = -3.402823466e+38f;
        for (uint32_t c = 0; c < L; c += chunk) {
            uint32_t n = (L - c) < chunk ? (L - c) : chunk;
            Fetch(rowOff + c, n);
            LocalTensor<float> v = inQ.DeQue<float>();
            float m = Reduce(v, n, true);
            mx = m > mx ? m : mx;
            inQ.FreeTensor(v);
        }
        float sum = 0.0f;
        for (uint32_t c = 0; c < L; c += chunk) {
            uint32_t n = (L - c) < chunk ? (L - c) : chunk;
            Fetch(rowOff + c, n);
            LocalTensor<float> v = inQ.DeQue<float>();
            Adds(v, v, -mx, n);
            Muls(v, v, sc, n);
            Exp(v, v, n);
            sum += Reduce(v, n, false);
            inQ.FreeTensor(v);
        }
        float inv = 1.0f / sum;
        for (uint32_t c = 0; c < L; c += chunk) {
            uint32_t n = (L - c) < chunk ? (L - c) : chunk;
            Fetch(rowOff + c, n);
            LocalTensor<float> v = inQ.DeQue<float>();
            LocalTensor<float> o = outQ.AllocTensor<float>();
            Adds(v, v, -mx, n);
            Muls(v, v, sc, n);
            Exp(v, v, n);
            Muls(o, v, inv, n);
            inQ.FreeTensor(v);
            outQ.EnQue(o);
            o = outQ.DeQue<float>();
            DataCopy(scoreGm[rowOff + c], o, n);
            outQ.FreeTensor(o);
        }
    }

    // ---------------- stage 3
    __aicore__ inline void ProjectOutAndNorm()
    {
        LocalTensor<float> par = paramBuf.Get<float>();   // [bout | gamma | beta]
        DataCopyExtParams cpC{1, static_cast<uint32_t>(C * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(par, bOutGm, cpC, np);
        DataCopyPad(par[C], gammaGm, cpC, np);
        DataCopyPad(par[2 * C], betaGm, cpC, np);
        Wait<HardEvent::MTE2_S>();

        uint32_t blocks = (L + tb - 1) / tb;
        uint32_t items = Bn * blocks;
        for (uint32_t it = core; it < items; it += cores) {
            uint32_t b = it / blocks;
            uint32_t t0 = (it - b * blocks) * tb;
            uint32_t cols = (L - t0) < tb ? (L - t0) : tb;
            uint64_t ybase = static_cast<uint64_t>(b) * C * L + t0;

            mmOut.SetTensorA(wOutGm);
            mmOut.SetTensorB(qkvGm[(static_cast<uint64_t>(b) * L + t0) * 3 * C], true);
            mmOut.SetTail(C, cols, C);
            mmOut.IterateAll(yGm[ybase]);
            PipeBarrier<PIPE_ALL>();
            NormBlock(ybase, cols);
        }
        mmOut.End();
    }

    __aicore__ inline void NormBlock(uint64_t base, uint32_t cols)
    {
        LocalTensor<float> z = zBuf.Get<float>();
        LocalTensor<float> xr = xBuf.Get<float>();
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> par = paramBuf.Get<float>();
        LocalTensor<float> mean = st;
        LocalTensor<float> rstd = st[tb];
        LocalTensor<float> tmp = st[2 * tb];
        uint32_t colsA = (cols + 7) / 8 * 8;

        // [C, cols] tiles, channel-major, rows padded to colsA in UB
        DataCopyExtParams cp{static_cast<uint16_t>(C), static_cast<uint32_t>(cols * sizeof(float)),
                             static_cast<uint32_t>((L - cols) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        Wait<HardEvent::V_MTE2>();
        DataCopyPad(z, yGm[base], cp, np);
        DataCopyPad(xr, xGm[base], cp, np);
        Wait<HardEvent::MTE2_V>();

        float invC = 1.0f / static_cast<float>(C);
        Duplicate(mean, 0.0f, colsA);
        for (uint32_t c = 0; c < C; ++c) {
            LocalTensor<float> row = z[c * colsA];
            Add(row, row, xr[c * colsA], colsA);
            Adds(row, row, par.GetValue(c), colsA);
            Add(mean, mean, row, colsA);
        }
        Muls(mean, mean, invC, colsA);
        Duplicate(rstd, 0.0f, colsA);
        for (uint32_t c = 0; c < C; ++c) {
            LocalTensor<float> row = z[c * colsA];
            Sub(row, row, mean, colsA);
            Mul(tmp, row, row, colsA);
            Add(rstd, rstd, tmp, colsA);
        }
        Muls(rstd, rstd, invC, colsA);
        Adds(rstd, rstd, td->eps, colsA);
        Sqrt(rstd, rstd, colsA);
        Duplicate(tmp, 1.0f, colsA);
        Div(rstd, tmp, rstd, colsA);
        for (uint32_t c = 0; c < C; ++c) {
            LocalTensor<float> row = z[c * colsA];
            Mul(row, row, rstd, colsA);
            Muls(row, row, par.GetValue(C + c), colsA);
            Adds(row, row, par.GetValue(2 * C + c), colsA);
        }
        Wait<HardEvent::V_MTE3>();
        DataCopyExtParams st2{static_cast<uint16_t>(C), static_cast<uint32_t>(cols * sizeof(float)), 0,
                              static_cast<uint32_t>((L - cols) * sizeof(float)), 0};
        DataCopyPad(yGm[base], z, st2);
        Wait<HardEvent::MTE3_MTE2>();
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> redWork, redOut, zBuf, xBuf, statBuf, paramBuf;
    GlobalTensor<float> xGm, wInGm, bInGm, wOutGm, bOutGm, gammaGm, betaGm, yGm, qkvGm, scoreGm;
    const PixelSelfAttentionNormTilingData *td = nullptr;
    uint32_t Bn, C, L, nh, hd, core, cores, chunk, tb;
};

extern "C" __global__ __aicore__ void pixel_self_attention_norm(GM_ADDR x, GM_ADDR in_proj_weight,
                                                                GM_ADDR in_proj_bias, GM_ADDR out_proj_weight,
                                                                GM_ADDR out_proj_bias, GM_ADDR gamma, GM_ADDR beta,
                                                                GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    PixelSelfAttentionNormKernel op;
    op.Init(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, gamma, beta, y, usr, &td);
    op.Process();
}
