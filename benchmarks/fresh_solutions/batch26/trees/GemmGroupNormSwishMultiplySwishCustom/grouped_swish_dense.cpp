/*
 * Dense layer followed by a per-row group standardization and a doubled SiLU gate:
 *
 *   h   = x @ W^T + bias                       (cube unit, Matmul high-level API)
 *   g   = groupnorm(h) * gamma + beta          (groups of `groupSize` channels per row)
 *   s   = g * sigmoid(g)
 *   t   = s * scaleVec
 *   out = t * sigmoid(t)
 *
 * grouped_swish_dense           : the matmul, writes h to GM
 * grouped_swish_dense_epilogue  : the vector part, row by row in group-aligned segments
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct GroupedSwishDenseTiling {
    TCubeTiling cube;
    uint32_t rows;        // M
    uint32_t channels;    // N
    uint32_t groupSize;   // channels per group (32)
    uint32_t segLen;      // channels handled per UB pass, multiple of groupSize * 8
    float eps;
};

__aicore__ inline void FetchTiling(GroupedSwishDenseTiling &dst, GM_ADDR src)
{
    auto in = reinterpret_cast<__gm__ uint32_t *>(src);
    auto out = reinterpret_cast<uint32_t *>(&dst);
    for (uint32_t i = 0; i < sizeof(GroupedSwishDenseTiling) / sizeof(uint32_t); ++i) {
        out[i] = in[i];
    }
}

/* ------------------------------------------------------------------ GEMM -- */
using AMat = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BMat = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // W is [N, K]
using CMat = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasMat = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void grouped_swish_dense(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR h,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GroupedSwishDenseTiling tl;
    FetchTiling(tl, tiling);
    const TCubeTiling &ct = tl.cube;

    GlobalTensor<float> xG, wG, bG, hG;
    xG.SetGlobalBuffer((__gm__ float *)x, ct.M * ct.Ka);
    wG.SetGlobalBuffer((__gm__ float *)w, ct.N * ct.Kb);
    bG.SetGlobalBuffer((__gm__ float *)bias, ct.N);
    hG.SetGlobalBuffer((__gm__ float *)h, ct.M * ct.N);

    // which (m, n) tile of the output this core owns
    uint32_t blk = GetBlockIdx();
    uint32_t mTiles = (ct.M + ct.singleCoreM - 1) / ct.singleCoreM;
    uint32_t mIdx = blk % mTiles;
    uint32_t nIdx = blk / mTiles;
    uint32_t mOff = mIdx * ct.singleCoreM;
    uint32_t nOff = nIdx * ct.singleCoreN;
    if (mOff >= (uint32_t)ct.M || nOff >= (uint32_t)ct.N) {
        return;
    }
    uint32_t tailM = (ct.M - mOff) < (uint32_t)ct.singleCoreM ? (ct.M - mOff) : ct.singleCoreM;
    uint32_t tailN = (ct.N - nOff) < (uint32_t)ct.singleCoreN ? (ct.N - nOff) : ct.singleCoreN;

    TPipe pipe;
    matmul::Matmul<AMat, BMat, CMat, BiasMat> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &ct);
    mm.SetTensorA(xG[(uint64_t)mOff * ct.Ka]);
    mm.SetTensorB(wG[(uint64_t)nOff * ct.Kb], true);
    mm.SetBias(bG[nOff]);
    mm.SetTail(tailM, tailN);
    mm.IterateAll(hG[(uint64_t)mOff * ct.N + nOff]);
    mm.End();
}

/* -------------------------------------------------------------- epilogue -- */
class GroupGateEpilogue {
public:
    __aicore__ inline GroupGateEpilogue() {}
    __aicore__ inline void Init(GM_ADDR h, GM_ADDR gamma, GM_ADDR beta, GM_ADDR scaleVec, GM_ADDR out,
                                const GroupedSwishDenseTiling &tl)
    {
        rows = tl.rows;
        channels = tl.channels;
        gsz = tl.groupSize;
        seg = tl.segLen;
        eps = tl.eps;
        groupsPerSeg = seg / gsz;
        hG.SetGlobalBuffer((__gm__ float *)h);
        gG.SetGlobalBuffer((__gm__ float *)gamma);
        bG.SetGlobalBuffer((__gm__ float *)beta);
        sG.SetGlobalBuffer((__gm__ float *)scaleVec);
        oG.SetGlobalBuffer((__gm__ float *)out);

        uint32_t bytes = seg * sizeof(float);
        pipe.InitBuffer(inQ, 2, bytes);
        pipe.InitBuffer(parQ, 1, 3 * bytes);     // gamma | beta | scaleVec for the segment
        pipe.InitBuffer(outQ, 2, bytes);
        pipe.InitBuffer(expBuf, bytes);
        pipe.InitBuffer(tmpBuf, bytes);
        pipe.InitBuffer(statBuf, 4 * groupsPerSeg * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t segsPerRow = channels / seg;
        uint32_t work = rows * segsPerRow;
        for (uint32_t it = GetBlockIdx(); it < work; it += GetBlockNum()) {
            uint32_t r = it / segsPerRow;
            uint32_t c0 = (it % segsPerRow) * seg;
            CopyIn(r, c0);
            Compute();
            CopyOut(r, c0);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r, uint32_t c0)
    {
        LocalTensor<float> xs = inQ.AllocTensor<float>();
        LocalTensor<float> par = parQ.AllocTensor<float>();
        DataCopy(xs, hG[(uint64_t)r * channels + c0], seg);
        DataCopy(par, gG[c0], seg);
        DataCopy(par[seg], bG[c0], seg);
        DataCopy(par[2 * seg], sG[c0], seg);
        inQ.EnQue(xs);
        parQ.EnQue(par);
    }

    // expand one value per group to a full segment (groupSize = 32 -> 4 blocks per group)
    __aicore__ inline void Expand(const LocalTensor<float> &dst, const LocalTensor<float> &perGroup)
    {
        uint16_t blocksPerGroup = gsz / 8;
        for (uint16_t j = 0; j < blocksPerGroup; ++j) {
            Brcb(dst[j * 8], perGroup, groupsPerSeg / 8, {blocksPerGroup, (uint16_t)(8 * blocksPerGroup)});
        }
    }

    __aicore__ inline void SiluInPlace(const LocalTensor<float> &v, const LocalTensor<float> &scratch)
    {
        Muls(scratch, v, -1.0f, seg);
        Exp(scratch, scratch, seg);
        Adds(scratch, scratch, 1.0f, seg);
        Div(v, v, scratch, seg);            // v / (1 + e^-v) == v * sigmoid(v)
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xs = inQ.DeQue<float>();
        LocalTensor<float> par = parQ.DeQue<float>();
        LocalTensor<float> ys = outQ.AllocTensor<float>();
        LocalTensor<float> full = expBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> mean = st;
        LocalTensor<float> sq = st[groupsPerSeg];
        LocalTensor<float> rstd = st[2 * groupsPerSeg];
        float inv = 1.0f / (float)gsz;
        uint8_t blkPerGroup = (uint8_t)(gsz / 8);

        // per-group sum and sum of squares: one repeat covers one group
        WholeReduceSum(mean, xs, (int32_t)gsz, (int32_t)groupsPerSeg, 1, 1, blkPerGroup);
        Mul(tmp, xs, xs, seg);
        PipeBarrier<PIPE_V>();
        WholeReduceSum(sq, tmp, (int32_t)gsz, (int32_t)groupsPerSeg, 1, 1, blkPerGroup);
        PipeBarrier<PIPE_V>();
        Muls(mean, mean, inv, groupsPerSeg);
        Muls(sq, sq, inv, groupsPerSeg);
        PipeBarrier<PIPE_V>();
        Mul(rstd, mean, mean, groupsPerSeg);
        PipeBarrier<PIPE_V>();
        Sub(rstd, sq, rstd, groupsPerSeg);       // biased variance
        PipeBarrier<PIPE_V>();
        Maxs(rstd, rstd, 0.0f, groupsPerSeg);
        Adds(rstd, rstd, eps, groupsPerSeg);
        Rsqrt(rstd, rstd, groupsPerSeg);
        PipeBarrier<PIPE_V>();

        // ys = (x - mean) * rstd * gamma + beta
        Expand(full, mean);
        PipeBarrier<PIPE_V>();
        Sub(ys, xs, full, seg);
        Expand(full, rstd);
        PipeBarrier<PIPE_V>();
        Mul(ys, ys, full, seg);
        Mul(ys, ys, par, seg);
        Add(ys, ys, par[seg], seg);
        PipeBarrier<PIPE_V>();

        SiluInPlace(ys, tmp);
        Mul(ys, ys, par[2 * seg], seg);
        PipeBarrier<PIPE_V>();
        SiluInPlace(ys, tmp);

        outQ.EnQue(ys);
        inQ.FreeTensor(xs);
        parQ.FreeTensor(par);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t c0)
    {
        LocalTensor<float> ys = outQ.DeQue<float>();
        DataCopy(oG[(uint64_t)r * channels + c0], ys, seg);
        outQ.FreeTensor(ys);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECIN, 1> parQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> expBuf, tmpBuf, statBuf;
    GlobalTensor<float> hG, gG, bG, sG, oG;
    uint32_t rows, channels, gsz, seg, groupsPerSeg;
    float eps;
};

extern "C" __global__ __aicore__ void grouped_swish_dense_epilogue(GM_ADDR h, GM_ADDR gamma, GM_ADDR beta,
                                                                   GM_ADDR scaleVec, GM_ADDR out, GM_ADDR tiling)
{
    GroupedSwishDenseTiling tl;
    FetchTiling(tl, tiling);
    GroupGateEpilogue ep;
    ep.Init(h, gamma, beta, scaleVec, out, tl);
    ep.Process();
}
