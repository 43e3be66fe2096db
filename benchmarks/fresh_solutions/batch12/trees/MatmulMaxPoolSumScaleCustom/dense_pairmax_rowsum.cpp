/*
 * dense_pairmax_rowsum.cpp
 *
 *   z[m, n]  = sum_k x[m, k] * w[n, k] + bias[n]         (cube, Matmul API)
 *   p[m, j]  = max(z[m, 2j], z[m, 2j+1])                  (pairwise max)
 *   y[m]     = scale * sum_j p[m, j]                       (row sum)
 *
 * Every core owns a column slice of z (all rows, singleCoreN columns). The
 * cube writes that slice to a GM workspace with IterateAll; the vector side
 * then streams it back in chunks, splits even/odd columns with GatherMask,
 * takes Max, reduces each row and atomically adds its partial row sums into y
 * (y is zeroed by the host before launch).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

struct DensePairmaxRowsumTiling {
    TCubeTiling cube;
    uint32_t chunk;      // columns of z handled per vector step (even, multiple of 64)
    float scale;
};

using XType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using WType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, true>;   // w is [N, K]
using ZType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

class DensePairmaxRowsum {
public:
    __aicore__ inline DensePairmaxRowsum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR ws,
                                const DensePairmaxRowsumTiling &tiling, AscendC::TPipe *p)
    {
        td = tiling;
        pipe = p;
        const TCubeTiling &c = td.cube;
        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)c.M * c.Ka);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)c.N * c.Kb);
        biasGm.SetGlobalBuffer((__gm__ float *)bias, c.N);
        yGm.SetGlobalBuffer((__gm__ float *)y, c.M);
        zGm.SetGlobalBuffer((__gm__ float *)ws, (uint64_t)c.M * c.N);

        pipe->InitBuffer(zQue, 2, td.chunk * sizeof(float));
        pipe->InitBuffer(evenBuf, td.chunk / 2 * sizeof(float));
        pipe->InitBuffer(oddBuf, td.chunk / 2 * sizeof(float));
        pipe->InitBuffer(redBuf, 8 * sizeof(float));
        pipe->InitBuffer(workBuf, td.chunk / 2 * sizeof(float));
        pipe->InitBuffer(outQue, 1, ((c.singleCoreM + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const TCubeTiling &c = td.cube;
        const uint32_t mBlocks = (c.M + c.singleCoreM - 1) / c.singleCoreM;
        const uint32_t nBlocks = (c.N + c.singleCoreN - 1) / c.singleCoreN;
        const uint32_t blk = AscendC::GetBlockIdx();
        if (blk >= mBlocks * nBlocks) {
            return;
        }
        const uint32_t mIdx = blk % mBlocks;
        const uint32_t nIdx = blk / mBlocks;
        m0 = mIdx * c.singleCoreM;
        n0 = nIdx * c.singleCoreN;
        rows = (c.M - m0 < (uint32_t)c.singleCoreM) ? (c.M - m0) : c.singleCoreM;
        cols = (c.N - n0 < (uint32_t)c.singleCoreN) ? (c.N - n0) : c.singleCoreN;

        // ---- cube: z[m0:m0+rows, n0:n0+cols] ----
        mm.SetTensorA(xGm[(uint64_t)m0 * c.Ka]);
        mm.SetTensorB(wGm[(uint64_t)n0 * c.Kb], true);
        mm.SetBias(biasGm[n0]);
        mm.SetTail(rows, cols);
        mm.IterateAll(zGm[(uint64_t)m0 * c.N + n0]);
        mm.End();

        // ---- vector: pairwise max + row sums ----
        Epilogue();
    }

    Matmul<XType, WType, ZType, BType> mm;
    DensePairmaxRowsumTiling td;

private:
    __aicore__ inline void Epilogue()
    {
        const uint32_t ldz = td.cube.N;
        AscendC::LocalTensor<float> ev = evenBuf.Get<float>();
        AscendC::LocalTensor<float> od = oddBuf.Get<float>();
        AscendC::LocalTensor<float> red = redBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> out = outQue.AllocTensor<float>();
        AscendC::Duplicate(out, 0.0f, (rows + 7) / 8 * 8);

        for (uint32_t r = 0; r < rows; ++r) {
            float rowSum = 0.0f;
            for (uint32_t c0 = 0; c0 < cols; c0 += td.chunk) {
                uint32_t len = (cols - c0 < td.chunk) ? (cols - c0) : td.chunk;
                AscendC::LocalTensor<float> z = zQue.AllocTensor<float>();
                AscendC::DataCopy(z, zGm[(uint64_t)(m0 + r) * ldz + n0 + c0], len);
                zQue.EnQue(z);
                z = zQue.DeQue<float>();

                // pattern 1 keeps elements 0,2,4,...; pattern 2 keeps 1,3,5,...
                uint64_t kept = 0;
                AscendC::GatherMaskParams gp{1, static_cast<uint16_t>(len / 64), 8, 0};
                AscendC::GatherMask(ev, z, 1, false, 0, gp, kept);
                AscendC::GatherMask(od, z, 2, false, 0, gp, kept);
                zQue.FreeTensor(z);

                AscendC::Max(ev, ev, od, len / 2);
                AscendC::ReduceSum(red, ev, work, len / 2);
                event_t e = static_cast<event_t>(pipe->FetchEventID(AscendC::HardEvent::V_S));
                AscendC::SetFlag<AscendC::HardEvent::V_S>(e);
                AscendC::WaitFlag<AscendC::HardEvent::V_S>(e);
                rowSum += red.GetValue(0);
            }
            out.SetValue(r, rowSum * td.scale);
        }

        outQue.EnQue(out);
        out = outQue.DeQue<float>();
        // other column slices contribute to the same rows
        AscendC::SetAtomicAdd<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(rows * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[m0], out, cp);
        AscendC::SetAtomicNone();
        outQue.FreeTensor(out);
    }

    AscendC::TPipe *pipe = nullptr;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> zQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> evenBuf, oddBuf, redBuf, workBuf;
    AscendC::GlobalTensor<float> xGm, wGm, biasGm, yGm, zGm;
    uint32_t m0 = 0, n0 = 0, rows = 0, cols = 0;
};

extern "C" __global__ __aicore__ void dense_pairmax_rowsum(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    DensePairmaxRowsumTiling td;
    auto *dst = reinterpret_cast<uint32_t *>(&td);
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    for (uint32_t i = 0; i < sizeof(DensePairmaxRowsumTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    AscendC::SetSysWorkspace(workspace);
    GM_ADDR userWs = AscendC::GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    AscendC::TPipe pipe;
    DensePairmaxRowsum op;
    op.Init(x, w, bias, y, userWs, td, &pipe);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &op.td.cube);
    op.Process();
}
