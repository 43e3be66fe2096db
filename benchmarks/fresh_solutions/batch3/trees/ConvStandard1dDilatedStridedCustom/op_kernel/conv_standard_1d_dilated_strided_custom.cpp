#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr uint32_t OUT_ROWS = 4;   // rows per staging copy of the result tile

// conv1d as im2col + GEMM:
//   col[ci*k + j][l] = x[n, ci, (l0 + l)*s + j*d]   (vector Gather, per-core GM scratch)
//   y[n, :, l0:l0+cnt] = W(cout, cin*k) @ col        (cube)
class KernelConv1dIm2col {
public:
    using A_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using B_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using C_T = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline KernelConv1dIm2col() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR usr,
                                const ConvStandard1dDilatedStridedCustomTilingData& t)
    {
        nB = t.batch; cin = t.cin; cout = t.cout;
        lin = t.lenIn; lout = t.lenOut;
        k = t.ksize; s = t.stride; d = t.dilation;
        lt = t.lTile; tpb = t.tilesPerBatch; cores = t.coreNum;
        kk = cin * k;
        bid = GetBlockIdx();

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)nB * cin * lin);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)cout * kk);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)nB * cout * lout);
        uint64_t perCore = (uint64_t)(kk + cout) * lt;
        __gm__ float* base = (__gm__ float*)usr + perCore * bid;
        colGm.SetGlobalBuffer(base, (uint64_t)kk * lt);
        tileGm.SetGlobalBuffer(base + (uint64_t)kk * lt, (uint64_t)cout * lt);

        segCap = ((lt - 1) * s + (k - 1) * d + 1 + 7) / 8 * 8;
        pipe.InitBuffer(segQ, 2, segCap * sizeof(float));
        pipe.InitBuffer(colQ, 2, lt * sizeof(float));
        pipe.InitBuffer(stageQ, 1, OUT_ROWS * lt * sizeof(float));
        pipe.InitBuffer(offBuf, lt * sizeof(uint32_t));

        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t i = 0; i < lt; ++i) {
            off.SetValue(i, i * s * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint32_t total = nB * tpb;
        for (uint32_t t = bid; t < total; t += cores) {
            uint32_t n = t / tpb;
            uint32_t l0 = (t % tpb) * lt;
            uint32_t cnt = (l0 + lt > lout) ? (lout - l0) : lt;
            Im2col(n, l0, cnt);
            PipeBarrier<PIPE_ALL>();
            mm.SetTensorA(wGm);
            mm.SetTensorB(colGm);
            mm.SetTail(cout, cnt, kk);
            mm.IterateAll(tileGm);
            mm.End();
            PipeBarrier<PIPE_ALL>();
            WriteBack(n, l0, cnt);
        }
    }

    TPipe pipe;
    Matmul<A_T, B_T, C_T> mm;

private:
    __aicore__ inline void Im2col(uint32_t n, uint32_t l0, uint32_t cnt)
    {
        uint32_t span = (cnt - 1) * s + (k - 1) * d + 1;
        uint32_t cntA = (cnt + 7) / 8 * 8;
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t ci = 0; ci < cin; ++ci) {
            LocalTensor<float> seg = segQ.AllocTensor<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(span * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(seg, xGm[((uint64_t)n * cin + ci) * lin + (uint64_t)l0 * s], cp, pad);
            segQ.EnQue(seg);
            seg = segQ.DeQue<float>();
            for (uint32_t j = 0; j < k; ++j) {
                LocalTensor<float> col = colQ.AllocTensor<float>();
                Gather(col, seg, off, static_cast<uint32_t>(j * d * sizeof(float)), cntA);
                colQ.EnQue(col);
                col = colQ.DeQue<float>();
                DataCopyExtParams op{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
                DataCopyPad(colGm[(uint64_t)(ci * k + j) * lt], col, op);
                colQ.FreeTensor(col);
            }
            segQ.FreeTensor(seg);
        }
    }

    // tileGm (cout x lt, first cnt cols valid) -> y[n, :, l0:l0+cnt]
    __aicore__ inline void WriteBack(uint32_t n, uint32_t l0, uint32_t cnt)
    {
        for (uint32_t r0 = 0; r0 < cout; r0 += OUT_ROWS) {
            uint32_t rc = (r0 + OUT_ROWS > cout) ? (cout - r0) : OUT_ROWS;
            LocalTensor<float> buf = stageQ.AllocTensor<float>();
            DataCopyExtParams in{static_cast<uint16_t>(rc), static_cast<uint32_t>(cnt * sizeof(float)),
                                 static_cast<uint32_t>((lt - cnt) * sizeof(float)), 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(buf, tileGm[(uint64_t)r0 * lt], in, pad);
            stageQ.EnQue(buf);
            buf = stageQ.DeQue<float>();
            DataCopyExtParams out{static_cast<uint16_t>(rc), static_cast<uint32_t>(cnt * sizeof(float)),
                                  0, static_cast<uint32_t>((lout - cnt) * sizeof(float)), 0};
            DataCopyPad(yGm[((uint64_t)n * cout + r0) * lout + l0], buf, out);
            stageQ.FreeTensor(buf);
        }
    }

    TQue<QuePosition::VECIN, 2> segQ;
    TQue<QuePosition::VECOUT, 2> colQ;
    TQue<QuePosition::VECIN, 1> stageQ;
    TBuf<TPosition::VECCALC> offBuf;
    GlobalTensor<float> xGm, wGm, yGm, colGm, tileGm;
    uint32_t nB, cin, cout, lin, lout, k, s, d, lt, tpb, cores, kk, bid, segCap;
};

extern "C" __global__ __aicore__ void conv_standard_1d_dilated_strided_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    KernelConv1dIm2col op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.mmTiling);
    op.Init(x, weight, y, usr, td);
    op.Process();
}
