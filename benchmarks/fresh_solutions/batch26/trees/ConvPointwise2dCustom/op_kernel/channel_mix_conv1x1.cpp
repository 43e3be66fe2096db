// ChannelMixConv1x1: a 1x1 convolution is a per-image GEMM
//     y[n] (Cout x HW) = filter (Cout x Cin) * x[n] (Cin x HW)
// in plain NCHW layout, so no data re-arrangement is needed: each task multiplies a
// slab of filter rows by a column slab of x[n] and writes the matching block of y[n].
// An optional per-channel bias is added afterwards on the vector unit.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class ChannelMixConv1x1Kernel {
public:
    using GmT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<GmT, GmT, GmT, MatmulType<TPosition::GM, CubeFormat::ND, float>> gemm;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                const ChannelMixConv1x1TilingData &t, TPipe *pipe)
    {
        batch = t.batch;
        cin = t.inChannels;
        cout = t.outChannels;
        hw = t.spatial;
        taskCols = t.colsPerTask;
        taskRows = t.rowsPerTask;
        hasBias = t.withBias != 0;
        biasTile = t.biasTile;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        fGm.SetGlobalBuffer((__gm__ T *)filter);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        if (hasBias) {
            bGm.SetGlobalBuffer((__gm__ T *)bias);
            pipe->InitBuffer(vecQ, 2, biasTile * sizeof(T));
        }
        self = GetBlockIdx();
        team = GetBlockNum() * GetTaskRation();
    }

    __aicore__ inline void Process()
    {
        const uint32_t rowTasks = (cout + taskRows - 1) / taskRows;
        const uint32_t colTasks = (hw + taskCols - 1) / taskCols;
        const uint32_t perImage = rowTasks * colTasks;
        const uint32_t tasks = batch * perImage;

        gemm.SetOrgShape(cout, hw, cin);
        for (uint32_t task = self; task < tasks; task += team) {
            const uint32_t img = task / perImage;
            const uint32_t rt = (task % perImage) / colTasks;
            const uint32_t ct = task % colTasks;
            const uint32_t row0 = rt * taskRows;
            const uint32_t col0 = ct * taskCols;
            const uint32_t m = (row0 + taskRows > cout) ? cout - row0 : taskRows;
            const uint32_t nn = (col0 + taskCols > hw) ? hw - col0 : taskCols;

            const uint64_t xOff = static_cast<uint64_t>(img) * cin * hw + col0;
            const uint64_t yOff = static_cast<uint64_t>(img) * cout * hw + static_cast<uint64_t>(row0) * hw + col0;
            gemm.SetSingleShape(m, nn, cin);
            gemm.SetTensorA(fGm[static_cast<uint64_t>(row0) * cin]);
            gemm.SetTensorB(xGm[xOff]);
            gemm.IterateAll(yGm[yOff]);
            gemm.End();

            if (hasBias) {
                AddBias(yOff, row0, m, nn);
            }
        }
    }

private:
    // y rows of this block get their channel's bias; each row is `cols` contiguous values
    __aicore__ inline void AddBias(uint64_t yOff, uint32_t row0, uint32_t m, uint32_t cols)
    {
        for (uint32_t r = 0; r < m; ++r) {
            const T bv = bGm.GetValue(row0 + r);
            for (uint32_t c = 0; c < cols; c += biasTile) {
                const uint32_t len = (cols - c > biasTile) ? biasTile : cols - c;
                const uint64_t off = yOff + static_cast<uint64_t>(r) * hw + c;
                LocalTensor<T> buf = vecQ.AllocTensor<T>();
                DataCopyPad(buf, yGm[off], DataCopyExtParams(1, len * sizeof(T), 0, 0, 0),
                            DataCopyPadExtParams<T>(false, 0, 0, 0));
                vecQ.EnQue(buf);
                buf = vecQ.DeQue<T>();
                Adds(buf, buf, bv, len);
                event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
                SetFlag<HardEvent::V_MTE3>(ev);
                WaitFlag<HardEvent::V_MTE3>(ev);
                DataCopyPad(yGm[off], buf, DataCopyExtParams(1, len * sizeof(T), 0, 0, 0));
                vecQ.FreeTensor(buf);
            }
        }
    }

    TQue<QuePosition::VECIN, 2> vecQ;
    GlobalTensor<T> xGm, fGm, bGm, yGm;
    uint32_t batch = 0, cin = 0, cout = 0, hw = 0;
    uint32_t taskCols = 0, taskRows = 0, biasTile = 0;
    uint32_t self = 0, team = 1;
    bool hasBias = false;
};

extern "C" __global__ __aicore__ void channel_mix_conv1x1(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    ChannelMixConv1x1Kernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.gemm, &tilingData.gemm);
    op.Init(x, filter, bias, y, tilingData, &pipe);
    op.Process();
}
