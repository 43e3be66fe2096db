#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

/*
 * Direct 3D convolution on the vector unit.
 *
 * For an output row (n, od, oh) we keep Cout accumulator rows of length outW in
 * UB. The input is streamed one (ci, kd, kh) slice at a time: kW copies of the
 * input row x[n, ci, od+kd, oh+kh, kw : kw+outW] are fetched from GM (the shift
 * is done by the DMA, so every UB operand stays 32 B aligned), and then
 *     acc[co] += w[co, ci, kd, kh, kw] * row[kw]      for all co, kw
 * is applied with Axpy. The whole filter is resident in UB.
 */
class KernelConv3dDirect {
public:
    __aicore__ inline KernelConv3dDirect() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvStandard3dAsymmetricInputAsymmetricKernelCustomTilingData &td)
    {
        cin = td.inC;
        inD = td.inD;
        inH = td.inH;
        inW = td.inW;
        cout = td.outC;
        kd = td.kD;
        kh = td.kH;
        kw = td.kW;
        outD = td.outD;
        outH = td.outH;
        outW = td.outW;
        owAlign = td.outWAlign;
        filterVol = cin * kd * kh * kw;

        uint32_t blk = GetBlockIdx();
        if (blk < td.tasksRemain) {
            taskCnt = td.tasksPerCore + 1;
            taskBeg = blk * taskCnt;
        } else {
            taskCnt = td.tasksPerCore;
            taskBeg = td.tasksRemain * (td.tasksPerCore + 1) + (blk - td.tasksRemain) * td.tasksPerCore;
        }

        uint64_t batch = td.taskNum / (outD * outH);
        xGm.SetGlobalBuffer((__gm__ float *)x, batch * cin * inD * inH * inW);
        wGm.SetGlobalBuffer((__gm__ float *)w, static_cast<uint64_t>(cout) * filterVol);
        yGm.SetGlobalBuffer((__gm__ float *)y, batch * cout * outD * outH * outW);

        uint32_t wElems = (cout * filterVol + 7) / 8 * 8;
        pipe.InitBuffer(weightBuf, wElems * sizeof(float));
        pipe.InitBuffer(rowQueue, BUFFER_NUM, kw * owAlign * sizeof(float));
        pipe.InitBuffer(accQueue, 1, cout * owAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadWeights();
        for (uint32_t i = 0; i < taskCnt; ++i) {
            uint32_t task = taskBeg + i;
            uint32_t oh = task % outH;
            uint32_t tmp = task / outH;
            uint32_t od = tmp % outD;
            uint32_t n = tmp / outD;
            ComputeRow(n, od, oh);
        }
    }

private:
    __aicore__ inline void LoadWeights()
    {
        weights = weightBuf.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cout * filterVol * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(weights, wGm, cp, pad);
        // Weights are read as scalars by the scalar unit.
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void LoadShiftedRows(uint64_t rowBase)
    {
        LocalTensor<float> rows = rowQueue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t s = 0; s < kw; ++s) {
            DataCopyPad(rows[s * owAlign], xGm[rowBase + s], cp, pad);
        }
        rowQueue.EnQue(rows);
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accQueue.AllocTensor<float>();
        Duplicate(acc, 0.0f, cout * owAlign);

        for (uint32_t ci = 0; ci < cin; ++ci) {
            for (uint32_t a = 0; a < kd; ++a) {
                for (uint32_t b = 0; b < kh; ++b) {
                    uint64_t rowBase = (((static_cast<uint64_t>(n) * cin + ci) * inD + (od + a)) * inH + (oh + b)) *
                                       inW;
                    LoadShiftedRows(rowBase);
                    LocalTensor<float> rows = rowQueue.DeQue<float>();

                    uint32_t wTap = ((ci * kd + a) * kh + b) * kw;  // offset inside one filter
                    for (uint32_t co = 0; co < cout; ++co) {
                        uint32_t wOff = co * filterVol + wTap;
                        LocalTensor<float> accRow = acc[co * owAlign];
                        for (uint32_t s = 0; s < kw; ++s) {
                            float wv = weights.GetValue(wOff + s);
                            Axpy(accRow, rows[s * owAlign], wv, outW);
                        }
                    }
                    rowQueue.FreeTensor(rows);
                }
            }
        }
        accQueue.EnQue(acc);
        StoreRow(n, od, oh);
    }

    __aicore__ inline void StoreRow(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accQueue.DeQue<float>();
        uint64_t planeStride = static_cast<uint64_t>(outD) * outH * outW;
        uint64_t dst = static_cast<uint64_t>(n) * cout * planeStride + (static_cast<uint64_t>(od) * outH + oh) * outW;
        // One strided burst: Cout rows of outW floats, jumping a whole output plane each.
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(cout);
        cp.blockLen = static_cast<uint32_t>(outW * sizeof(float));
        cp.srcStride = static_cast<uint32_t>((owAlign * sizeof(float) - ((outW * sizeof(float) + 31) / 32 * 32)) / 32);
        cp.dstStride = static_cast<uint32_t>((planeStride - outW) * sizeof(float));
        cp.rsv = 0;
        DataCopyPad(yGm[dst], acc, cp);
        accQueue.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TBuf<QuePosition::VECCALC> weightBuf;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQueue;
    TQue<QuePosition::VECOUT, 1> accQueue;
    GlobalTensor<float> xGm, wGm, yGm;
    LocalTensor<float> weights;
    uint32_t cin = 0, inD = 0, inH = 0, inW = 0;
    uint32_t cout = 0, kd = 0, kh = 0, kw = 0;
    uint32_t outD = 0, outH = 0, outW = 0, owAlign = 0;
    uint32_t filterVol = 0;
    uint32_t taskBeg = 0, taskCnt = 0;
};

extern "C" __global__ __aicore__ void conv_standard_3d_asymmetric_input_asymmetric_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConv3dDirect op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
