/*
 * DenseClampMishGroupNorm
 *   h = x @ weight^T + bias + shift
 *   h = clamp(h, clip_min, clip_max)
 *   h = h * tanh(softplus(h))                       (Mish)
 *   y = group_norm(h, num_groups) * gamma + beta    (per row, groups of N/num_groups features)
 *
 * The output is cut into blocks of blockM rows x blockN columns, blockN being a
 * multiple of the group size. For each block the cube unit writes the raw GEMM
 * (with bias) into workspace, then the vector unit runs the epilogue row by row.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);

using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class DenseClampMishGroupNormKernel {
public:
    __aicore__ inline DenseClampMishGroupNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR shift, GM_ADDR gamma,
                                GM_ADDR beta, GM_ADDR y, GM_ADDR usrWs,
                                const DenseClampMishGroupNormTilingData &td)
    {
        M = td.m; N = td.n; K = td.k;
        bm = td.blockM; bn = td.blockN; gs = td.groupSize;
        lo = td.clipLo; hi = td.clipHi; eps = td.eps;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        biasGm.SetGlobalBuffer((__gm__ float *)bias);
        shiftGm.SetGlobalBuffer((__gm__ float *)shift);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm.SetGlobalBuffer((__gm__ float *)beta);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        cGm.SetGlobalBuffer((__gm__ float *)usrWs);

        pipe.InitBuffer(rowIn, 2, bn * sizeof(float));
        pipe.InitBuffer(rowOut, 2, bn * sizeof(float));
        pipe.InitBuffer(shiftBuf, bn * sizeof(float));
        pipe.InitBuffer(gammaBuf, bn * sizeof(float));
        pipe.InitBuffer(betaBuf, bn * sizeof(float));
        pipe.InitBuffer(tmpA, bn * sizeof(float));
        pipe.InitBuffer(tmpB, bn * sizeof(float));
        uint32_t gPerBlock = bn / gs;
        pipe.InitBuffer(statBuf, ((gPerBlock + 7) / 8 * 8) * 2 * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t mBlocks = (M + bm - 1) / bm;
        const uint32_t nBlocks = (N + bn - 1) / bn;
        const uint32_t total = mBlocks * nBlocks;
        for (uint32_t blk = GetBlockIdx(); blk < total; blk += GetBlockNum()) {
            // walk N-major so consecutive blocks of a core reuse the same epilogue params
            uint32_t nb = blk / mBlocks;
            uint32_t mb = blk % mBlocks;
            uint32_t m0 = mb * bm, n0 = nb * bn;
            uint32_t mLen = (M - m0 < bm) ? M - m0 : bm;
            uint32_t nLen = (N - n0 < bn) ? N - n0 : bn;

            mm.SetTensorA(xGm[static_cast<uint64_t>(m0) * K]);
            mm.SetTensorB(wGm[static_cast<uint64_t>(n0) * K], true);
            mm.SetBias(biasGm[n0]);
            mm.SetTail(mLen, nLen, K);
            mm.IterateAll(cGm[static_cast<uint64_t>(m0) * N + n0]);

            Epilogue(m0, n0, mLen, nLen);
        }
        mm.End();
    }

    Matmul<AType, BType, CType, BiasType> mm;

private:
    __aicore__ inline void LoadVec(TBuf<TPosition::VECCALC> &buf, GlobalTensor<float> &src, uint32_t off, uint32_t len)
    {
        LocalTensor<float> t = buf.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, src[off], cp, pad);
    }

    __aicore__ inline void Epilogue(uint32_t m0, uint32_t n0, uint32_t mLen, uint32_t nLen)
    {
        LoadVec(shiftBuf, shiftGm, n0, nLen);
        LoadVec(gammaBuf, gammaGm, n0, nLen);
        LoadVec(betaBuf, betaGm, n0, nLen);
        event_t evLoad = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evLoad);
        WaitFlag<HardEvent::MTE2_V>(evLoad);

        LocalTensor<float> sh = shiftBuf.Get<float>();
        LocalTensor<float> ga = gammaBuf.Get<float>();
        LocalTensor<float> be = betaBuf.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(nLen * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};

        for (uint32_t r = 0; r < mLen; ++r) {
            uint64_t off = static_cast<uint64_t>(m0 + r) * N + n0;
            LocalTensor<float> h = rowIn.AllocTensor<float>();
            DataCopyPad(h, cGm[off], cp, pad);
            rowIn.EnQue(h);
            h = rowIn.DeQue<float>();

            LocalTensor<float> o = rowOut.AllocTensor<float>();
            Activate(o, h, sh, nLen);
            rowIn.FreeTensor(h);
            NormalizeGroups(o, nLen);
            Mul(o, o, ga, nLen);
            Add(o, o, be, nLen);
            rowOut.EnQue(o);

            o = rowOut.DeQue<float>();
            DataCopyPad(yGm[off], o, cp);
            rowOut.FreeTensor(o);
        }
    }

    // o = mish(clamp(h + shift))
    __aicore__ inline void Activate(LocalTensor<float> &o, LocalTensor<float> &h, LocalTensor<float> &sh, uint32_t len)
    {
        LocalTensor<float> e = tmpA.Get<float>();
        LocalTensor<float> q = tmpB.Get<float>();
        Add(o, h, sh, len);
        Maxs(o, o, lo, len);
        Mins(o, o, hi, len);
        // tanh(ln(1 + e^v)) = ((1+e^v)^2 - 1) / ((1+e^v)^2 + 1); clamp keeps exp finite
        Mins(e, o, 20.0f, len);
        Exp(e, e, len);
        Adds(e, e, 1.0f, len);
        Mul(e, e, e, len);
        Adds(q, e, 1.0f, len);
        Adds(e, e, -1.0f, len);
        Div(e, e, q, len);
        Mul(o, o, e, len);
    }

    __aicore__ inline void NormalizeGroups(LocalTensor<float> &o, uint32_t len)
    {
        const uint32_t groups = len / gs;
        const float invGs = 1.0f / static_cast<float>(gs);
        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> sq = tmpA.Get<float>();
        LocalTensor<float> work = tmpB.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        const uint32_t gAlign = (groups + 7) / 8 * 8;

        for (uint32_t g = 0; g < groups; ++g) {
            LocalTensor<float> seg = o[g * gs];
            ReduceSum(red, seg, work, gs);
            PipeBarrier<PIPE_ALL>();
            float mean = red.GetValue(0) * invGs;
            Adds(seg, seg, -mean, gs);
            Mul(sq, seg, seg, gs);
            ReduceSum(red, sq, work, gs);
            PipeBarrier<PIPE_ALL>();
            stat.SetValue(g, red.GetValue(0) * invGs + eps);
        }
        // vectorized 1/sqrt(var + eps) for every group of the row
        Sqrt(stat, stat, groups);
        Duplicate(stat[gAlign], 1.0f, groups);
        Div(stat, stat[gAlign], stat, groups);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t g = 0; g < groups; ++g) {
            Muls(o[g * gs], o[g * gs], stat.GetValue(g), gs);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowIn;
    TQue<QuePosition::VECOUT, 2> rowOut;
    TBuf<TPosition::VECCALC> shiftBuf, gammaBuf, betaBuf, tmpA, tmpB, statBuf, redBuf;

    GlobalTensor<float> xGm, wGm, biasGm, shiftGm, gammaGm, betaGm, yGm, cGm;
    uint32_t M, N, K, bm, bn, gs;
    float lo, hi, eps;
};

extern "C" __global__ __aicore__ void dense_clamp_mish_group_norm(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                   GM_ADDR shift, GM_ADDR gamma, GM_ADDR beta,
                                                                   GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (workspace == nullptr) {
        return;
    }
    SetSysWorkspace(workspace);
    GM_ADDR usrWs = GetUserWorkspace(workspace);

    DenseClampMishGroupNormKernel op;
    REGIST_MATMUL_OBJ(GetTPipePtr(), GetSysWorkSpacePtr(), op.mm, &td.mmTiling);
    op.Init(x, weight, bias, shift, gamma, beta, y, usrWs, td);
    op.Process();
}
