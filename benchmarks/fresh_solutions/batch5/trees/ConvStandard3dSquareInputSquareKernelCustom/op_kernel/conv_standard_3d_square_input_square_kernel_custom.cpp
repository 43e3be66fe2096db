#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// conv3d = im2col (vector core, per output depth slice) + cube GEMM
//   y[n, :, od, :, :] (cout x OH*OW) = W (cout x Cin*K^3) * col (Cin*K^3 x OH*OW)
class KernelConv3dIm2col {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<AType, BType, CType, CType> mm;
    TPipe pipe;

    __aicore__ inline KernelConv3dIm2col() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR usrWs,
                                const ConvStandard3dSquareInputSquareKernelCustomTilingData& t)
    {
        N = t.batch; Cin = t.cin; Cout = t.cout;
        D = t.inD; H = t.inH; W = t.inW; K = t.ksize;
        OD = t.outD; OH = t.outH; OW = t.outW;
        kDim = t.kDim; plane = t.planeSize;
        owPad = (OW + 7) / 8 * 8;

        workerNum = GetBlockNum() * GetTaskRation();
        workerId = GetBlockIdx();

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        colGm.SetGlobalBuffer((__gm__ float*)usrWs + (uint64_t)workerId * kDim * plane, (uint64_t)kDim * plane);

        pipe.InitBuffer(rowQ, 2, OH * owPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t total = N * OD;
        for (uint32_t s = workerId; s < total; s += workerNum) {
            uint32_t n = s / OD;
            uint32_t od = s % OD;
            Im2col(n, od);
            // col must be fully in GM before the cube reads it
            PipeBarrier<PIPE_ALL>();

            uint64_t yOff = (uint64_t)n * Cout * OD * plane + (uint64_t)od * plane;
            mm.SetOrgShape(Cout, plane, kDim, kDim, OD * plane);
            mm.SetTensorA(wGm);
            mm.SetTensorB(colGm);
            mm.IterateAll(yGm[yOff]);
        }
        mm.End();
    }

private:
    // col[k, oh*OW + ow] = x[n, ic, od+kd, oh+kh, ow+kw], k = ((ic*K + kd)*K + kh)*K + kw
    __aicore__ inline void Im2col(uint32_t n, uint32_t od)
    {
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        uint32_t rowBytes = OW * sizeof(float);
        for (uint32_t ic = 0; ic < Cin; ++ic) {
            for (uint32_t kd = 0; kd < K; ++kd) {
                for (uint32_t kh = 0; kh < K; ++kh) {
                    for (uint32_t kw = 0; kw < K; ++kw) {
                        uint32_t k = ((ic * K + kd) * K + kh) * K + kw;
                        uint64_t src = ((((uint64_t)n * Cin + ic) * D + od + kd) * H + kh) * W + kw;

                        LocalTensor<float> buf = rowQ.AllocTensor<float>();
                        // OH strided rows of OW elements; the (W - OW) tail of each input row skipped
                        DataCopyExtParams in{static_cast<uint16_t>(OH), rowBytes,
                                             static_cast<uint32_t>((W - OW) * sizeof(float)), 0, 0};
                        DataCopyPad(buf, xGm[src], in, noPad);
                        rowQ.EnQue(buf);
                        buf = rowQ.DeQue<float>();
                        // packed back out as one contiguous col row
                        DataCopyExtParams out{static_cast<uint16_t>(OH), rowBytes, 0, 0, 0};
                        DataCopyPad(colGm[(uint64_t)k * plane], buf, out);
                        rowQ.FreeTensor(buf);
                    }
                }
            }
        }
    }

private:
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> rowQ;
    GlobalTensor<float> xGm, wGm, yGm, colGm;
    uint32_t N, Cin, Cout, D, H, W, K, OD, OH, OW;
    uint32_t kDim, plane, owPad;
    uint32_t workerNum, workerId;
};

extern "C" __global__ __aicore__ void conv_standard_3d_square_input_square_kernel_custom(GM_ADDR x, GM_ADDR weight,
                                                                                         GM_ADDR y, GM_ADDR workspace,
                                                                                         GM_ADDR tiling)
{
    SetSysWorkspace(workspace);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    GET_TILING_DATA(tilingData, tiling);
    KernelConv3dIm2col op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    op.Init(x, weight, y, usrWs, tilingData);
    op.Process();
}
