/*
 * SeparableConv2d kernel
 *
 *   dw[n, c]  = depthwise_conv(x[n, c], Wd[c])          (vector cores)
 *   y[n]      = Wp[outC, C] @ dw[n][C, outH*outW]        (cube, Matmul API)
 *
 * Depthwise: one padded input row is kept in UB (zero margins written once). For every
 * tap (kh, kw) the strided/dilated window is picked with Gather using a precomputed byte
 * offset table and accumulated with Axpy, so stride, padding and dilation are all handled
 * by the same vector path.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr int32_t ROW_BUF = 2;
constexpr uint32_t MAX_TAPS = 64;   // kernel area kept in scalar registers/stack

template <typename T>
class SeparableConv2dKernel {
public:
    using AT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<AT, BT, CT> mm;
    TPipe pipe;

    __aicore__ inline SeparableConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wd, GM_ADDR wp, GM_ADDR y, GM_ADDR usrWs,
                                const SeparableConv2dTilingData *td)
    {
        t = td;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        wdGm.SetGlobalBuffer((__gm__ T *)wd);
        wpGm.SetGlobalBuffer((__gm__ T *)wp);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        dwGm.SetGlobalBuffer((__gm__ T *)usrWs);

        workers = GetBlockNum() * GetTaskRation();
        wid = GetBlockIdx();
        taps = t->kH * t->kW;
        pipe.InitBuffer(rowQue, ROW_BUF, t->rowBufLen * sizeof(T));
        pipe.InitBuffer(accQue, 1, t->outWAlign * sizeof(T));
        pipe.InitBuffer(gatherBuf, t->outWAlign * sizeof(T));
        pipe.InitBuffer(offsetBuf, t->kW * t->outWAlign * sizeof(uint32_t));
        pipe.InitBuffer(wBuf, 32 + MAX_TAPS * sizeof(T));
        BuildOffsets();
    }

    __aicore__ inline void DepthwisePhase()
    {
        uint32_t planes = t->batch * t->inC;
        for (uint32_t p = wid; p < planes; p += workers) {
            DepthwisePlane(p);
        }
    }

    __aicore__ inline void PointwisePhase()
    {
        uint32_t pixels = t->outH * t->outW;
        uint32_t units = t->batch * t->colBlockNum;
        for (uint32_t u = wid; u < units; u += workers) {
            uint32_t img = u / t->colBlockNum;
            uint32_t col0 = (u % t->colBlockNum) * t->colBlock;
            uint32_t cols = pixels - col0 < t->colBlock ? pixels - col0 : t->colBlock;
            uint64_t imgOff = static_cast<uint64_t>(img) * pixels;
            mm.SetTensorA(wpGm);
            mm.SetTensorB(dwGm[imgOff * t->inC + col0]);
            mm.SetTail(t->outC, cols, t->inC);
            mm.IterateAll(yGm[imgOff * t->outC + col0]);
        }
        mm.End();
    }

private:
    // offs[kw][ow] = byte address, inside the padded row buffer, of the input sample read by
    // output column ow for horizontal tap kw
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        uint32_t base0 = t->rowOffset - t->pad;
        for (uint32_t kw = 0; kw < t->kW; ++kw) {
            for (uint32_t ow = 0; ow < t->outWAlign; ++ow) {
                uint32_t owc = ow < t->outW ? ow : t->outW - 1;
                uint32_t idx = base0 + owc * t->stride + kw * t->dilation;
                offs.SetValue(kw * t->outWAlign + ow, idx * static_cast<uint32_t>(sizeof(T)));
            }
        }
    }

    __aicore__ inline void DepthwisePlane(uint32_t plane)
    {
        uint32_t ch = plane % t->inC;
        // fetch this channel's kH*kW weights into scalars
        LocalTensor<T> wl = wBuf.Get<T>();
        DataCopyExtParams wcp{1, static_cast<uint32_t>(taps * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> wpad{false, 0, 0, 0};
        DataCopyPad(wl, wdGm[static_cast<uint64_t>(ch) * taps], wcp, wpad);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
        float wv[MAX_TAPS];
        for (uint32_t i = 0; i < taps && i < MAX_TAPS; ++i) {
            wv[i] = static_cast<float>(wl.GetValue(i));
        }

        uint64_t inPlane = static_cast<uint64_t>(plane) * t->inH * t->inW;
        uint64_t outPlane = static_cast<uint64_t>(plane) * t->outH * t->outW;
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        LocalTensor<T> g = gatherBuf.Get<T>();

        for (uint32_t oh = 0; oh < t->outH; ++oh) {
            LocalTensor<T> acc = accQue.AllocTensor<T>();
            Duplicate(acc, static_cast<T>(0), t->outWAlign);
            for (uint32_t kh = 0; kh < t->kH; ++kh) {
                int32_t ih = static_cast<int32_t>(oh * t->stride + kh * t->dilation) - static_cast<int32_t>(t->pad);
                if (ih < 0 || ih >= static_cast<int32_t>(t->inH)) {
                    continue;   // whole row lies in the zero padding
                }
                LocalTensor<T> row = rowQue.AllocTensor<T>();
                // margins must read as zero; cheap compared with the taps
                Duplicate(row, static_cast<T>(0), t->rowBufLen);
                event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
                SetFlag<HardEvent::V_MTE2>(ev);
                WaitFlag<HardEvent::V_MTE2>(ev);
                DataCopyExtParams cp{1, static_cast<uint32_t>(t->inW * sizeof(T)), 0, 0, 0};
                DataCopyPadExtParams<T> pp{false, 0, 0, 0};
                DataCopyPad(row[t->rowOffset], xGm[inPlane + static_cast<uint64_t>(ih) * t->inW], cp, pp);
                rowQue.EnQue(row);
                LocalTensor<T> r = rowQue.DeQue<T>();
                for (uint32_t kw = 0; kw < t->kW; ++kw) {
                    Gather(g, r, offs[kw * t->outWAlign], 0, t->outWAlign);
                    PipeBarrier<PIPE_V>();
                    Axpy(acc, g, static_cast<T>(wv[kh * t->kW + kw]), t->outWAlign);
                    PipeBarrier<PIPE_V>();
                }
                rowQue.FreeTensor(r);
            }
            accQue.EnQue(acc);
            LocalTensor<T> o = accQue.DeQue<T>();
            DataCopyExtParams st{1, static_cast<uint32_t>(t->outW * sizeof(T)), 0, 0, 0};
            DataCopyPad(dwGm[outPlane + static_cast<uint64_t>(oh) * t->outW], o, st);
            accQue.FreeTensor(o);
        }
    }

    const SeparableConv2dTilingData *t = nullptr;
    TQue<QuePosition::VECIN, ROW_BUF> rowQue;
    TQue<QuePosition::VECOUT, 1> accQue;
    TBuf<TPosition::VECCALC> gatherBuf, offsetBuf, wBuf;
    GlobalTensor<T> xGm, wdGm, wpGm, yGm, dwGm;
    uint32_t workers = 1;
    uint32_t wid = 0;
    uint32_t taps = 1;
};

extern "C" __global__ __aicore__ void separable_conv2d(GM_ADDR x, GM_ADDR depthwise_weight, GM_ADDR pointwise_weight,
                                                       GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    SeparableConv2dKernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.pwTiling);
    op.Init(x, depthwise_weight, pointwise_weight, y, usrWs, &td);
    op.DepthwisePhase();
    // every image's depthwise result must be complete before any GEMM reads it
    SyncAll();
    op.PointwisePhase();
}
