/*
 * ValidConvDualMish: y = mish(mish(conv2d(x, weight) + bias)), stride 1, no padding.
 *
 * Convolution as implicit GEMM, one block of `rowsPerBlock` output rows at a time:
 *   1. im2col of the block into this worker's private workspace slice  [K = Cin*KH*KW, cols]
 *   2. Matmul API: y_block[Cout, cols] = weight[Cout, K] x col[K, cols], stored straight into y
 *      (rows of the C block are Ho*Wo apart)
 *   3. vector epilogue, per output channel: + bias, Mish, Mish, in fp32.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class ValidConvDualMishKernel {
public:
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, T>, MatmulType<TPosition::GM, CubeFormat::ND, T>,
           MatmulType<TPosition::GM, CubeFormat::ND, T>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;

    __aicore__ inline ValidConvDualMishKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR usrWs,
                                const ValidConvDualMishTilingData &td, TPipe *p)
    {
        N = td.n; Cin = td.cin; H = td.hin; W = td.win; Cout = td.cout;
        KH = td.kh; KW = td.kw; Ho = td.hout; Wo = td.wout;
        rowsPerBlock = td.rowsPerBlock;
        blocksPerImage = td.blocksPerImage;
        epiTile = td.epiTile;
        K = Cin * KH * KW;

        worker = GetBlockIdx();
        workers = GetBlockNum() * GetTaskRation();

        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        biasGm.SetGlobalBuffer((__gm__ T *)bias);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        colGm.SetGlobalBuffer((__gm__ T *)usrWs + td.colElemsPerWorker * worker, td.colElemsPerWorker);

        pipe = p;
        uint32_t woAligned = (Wo * sizeof(T) + 31) / 32 * 32 / sizeof(T);
        pipe->InitBuffer(rowQ, 2, rowsPerBlock * woAligned * sizeof(T));
        pipe->InitBuffer(epiInQ, 2, epiTile * sizeof(T));
        pipe->InitBuffer(epiOutQ, 2, epiTile * sizeof(T));
        pipe->InitBuffer(f32Buf, epiTile * sizeof(float));
        pipe->InitBuffer(tmpBuf, epiTile * sizeof(float));
        pipe->InitBuffer(scratchBuf, epiTile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t total = N * blocksPerImage;
        for (uint32_t blk = worker; blk < total; blk += workers) {
            uint32_t n = blk / blocksPerImage;
            uint32_t oh0 = (blk % blocksPerImage) * rowsPerBlock;
            uint32_t rows = (oh0 + rowsPerBlock > Ho) ? (Ho - oh0) : rowsPerBlock;
            Im2Col(n, oh0, rows);
            Gemm(n, oh0, rows);
            Epilogue(n, oh0, rows);
        }
    }

private:
    // col[(ci*KH + i)*KW + j, r*Wo + ow] = x[n, ci, oh0 + r + i, ow + j]
    __aicore__ inline void Im2Col(uint32_t n, uint32_t oh0, uint32_t rows)
    {
        uint32_t cols = rows * Wo;
        DataCopyExtParams inPrm(static_cast<uint16_t>(rows), Wo * sizeof(T), (W - Wo) * sizeof(T), 0, 0);
        DataCopyExtParams outPrm(static_cast<uint16_t>(rows), Wo * sizeof(T), 0, 0, 0);
        for (uint32_t ci = 0; ci < Cin; ++ci) {
            for (uint32_t i = 0; i < KH; ++i) {
                uint64_t rowBase = ((static_cast<uint64_t>(n) * Cin + ci) * H + oh0 + i) * W;
                for (uint32_t j = 0; j < KW; ++j) {
                    LocalTensor<T> buf = rowQ.AllocTensor<T>();
                    DataCopyPad(buf, xGm[rowBase + j], inPrm, DataCopyPadExtParams<T>(false, 0, 0, 0));
                    rowQ.EnQue(buf);
                    buf = rowQ.DeQue<T>();
                    uint64_t kIdx = (static_cast<uint64_t>(ci) * KH + i) * KW + j;
                    DataCopyPad(colGm[kIdx * cols], buf, outPrm);
                    rowQ.FreeTensor(buf);
                }
            }
        }
        // col must be visible to the cube unit before the GEMM starts
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Gemm(uint32_t n, uint32_t oh0, uint32_t rows)
    {
        uint32_t cols = rows * Wo;
        // A: weight [Cout, K]; B: col [K, cols]; C rows strided by Ho*Wo inside y[n]
        mm.SetOrgShape(Cout, cols, K, K, Ho * Wo);
        mm.SetSingleShape(Cout, cols, K);
        mm.SetTensorA(wGm);
        mm.SetTensorB(colGm);
        uint64_t cOff = static_cast<uint64_t>(n) * Cout * Ho * Wo + static_cast<uint64_t>(oh0) * Wo;
        mm.IterateAll(yGm[cOff]);
        mm.End();
    }

    // mish(v) = v * tanh(softplus(v)) = v * e(e + 2) / (e(e + 2) + 2), e = exp(min(v, 20))
    __aicore__ inline void Mish(LocalTensor<float> &v, LocalTensor<float> &t, uint32_t cnt)
    {
        LocalTensor<float> s = scratchBuf.Get<float>();
        Mins(t, v, 20.0f, cnt);
        Exp(t, t, cnt);
        Adds(s, t, 2.0f, cnt);
        Mul(t, t, s, cnt);          // t = e(e+2)
        Adds(s, t, 2.0f, cnt);
        Div(t, t, s, cnt);          // tanh(softplus(v))
        Mul(v, v, t, cnt);
    }

    __aicore__ inline void Epilogue(uint32_t n, uint32_t oh0, uint32_t rows)
    {
        uint32_t cols = rows * Wo;
        LocalTensor<float> v = f32Buf.Get<float>();
        LocalTensor<float> t = tmpBuf.Get<float>();
        for (uint32_t co = 0; co < Cout; ++co) {
            float b = static_cast<float>(biasGm.GetValue(co));
            uint64_t base = (static_cast<uint64_t>(n) * Cout + co) * Ho * Wo + static_cast<uint64_t>(oh0) * Wo;
            for (uint32_t off = 0; off < cols; off += epiTile) {
                uint32_t cnt = (cols - off > epiTile) ? epiTile : (cols - off);
                LocalTensor<T> in = epiInQ.AllocTensor<T>();
                DataCopyPad(in, yGm[base + off], DataCopyExtParams(1, cnt * sizeof(T), 0, 0, 0),
                            DataCopyPadExtParams<T>(false, 0, 0, 0));
                epiInQ.EnQue(in);
                in = epiInQ.DeQue<T>();
                if constexpr (IsSameType<T, float>::value) {
                    Adds(v, in, b, cnt);
                } else {
                    Cast(v, in, RoundMode::CAST_NONE, cnt);
                    Adds(v, v, b, cnt);
                }
                epiInQ.FreeTensor(in);

                Mish(v, t, cnt);
                Mish(v, t, cnt);

                LocalTensor<T> out = epiOutQ.AllocTensor<T>();
                if constexpr (IsSameType<T, float>::value) {
                    DataCopy(out, v, (cnt + 7) / 8 * 8);
                } else {
                    Cast(out, v, RoundMode::CAST_ROUND, cnt);
                }
                epiOutQ.EnQue(out);
                out = epiOutQ.DeQue<T>();
                DataCopyPad(yGm[base + off], out, DataCopyExtParams(1, cnt * sizeof(T), 0, 0, 0));
                epiOutQ.FreeTensor(out);
            }
        }
    }

private:
    TPipe *pipe = nullptr;
    TQue<QuePosition::VECIN, 2> rowQ, epiInQ;
    TQue<QuePosition::VECOUT, 2> epiOutQ;
    TBuf<TPosition::VECCALC> f32Buf, tmpBuf, scratchBuf;
    GlobalTensor<T> xGm, wGm, biasGm, yGm, colGm;
    uint32_t N, Cin, H, W, Cout, KH, KW, Ho, Wo, K;
    uint32_t rowsPerBlock, blocksPerImage, epiTile;
    uint32_t worker, workers;
};

extern "C" __global__ __aicore__ void valid_conv_dual_mish(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    TPipe pipe;
    ValidConvDualMishKernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(x, weight, bias, y, usr, td, &pipe);
    op.Process();
}
