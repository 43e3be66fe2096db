/*
 * VolumeConvDirect - direct 3-D convolution (NCDHW) on the vector unit.
 *
 * One task = one output row y[n, co, od, oh, :].  For every (ci, kd, kh) tap whose
 * input row is inside the volume, the input row is loaded once; for each kw the
 * needed columns (stride / dilation / padding included) are picked with Gather
 * using precomputed byte offsets, then accumulated with Axpy.  Out-of-range
 * columns point to a zero slot kept after the row, so padding costs nothing.
 */
#include "kernel_operator.h"
using namespace AscendC;

class VolumeConvDirectKernel {
public:
    __aicore__ inline VolumeConvDirectKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                const VolumeConvDirectTilingData &tiling)
    {
        t = tiling;
        cinPerGroup = t.cin / t.groups;
        coutPerGroup = t.cout / t.groups;
        taps = cinPerGroup * t.kd * t.kh * t.kw;
        tapsAlign = (taps + 7) / 8 * 8;

        uint64_t id = GetBlockIdx();
        rowCount = t.rowsPerCore + (id < t.rowsRemain ? 1 : 0);
        rowFirst = id * t.rowsPerCore + (id < t.rowsRemain ? id : t.rowsRemain);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        fGm.SetGlobalBuffer((__gm__ float *)filter);
        if (t.hasBias) {
            bGm.SetGlobalBuffer((__gm__ float *)bias);
        }
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(rowQue, 2, (t.wAlign + 8) * sizeof(float));
        pipe.InitBuffer(outQue, 2, t.owAlign * sizeof(float));
        pipe.InitBuffer(wBuf, tapsAlign * sizeof(float));
        pipe.InitBuffer(offBuf, t.kw * t.owAlign * sizeof(uint32_t));
        pipe.InitBuffer(gatBuf, t.owAlign * sizeof(float));
        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        int64_t cachedCo = -1;
        for (uint64_t r = 0; r < rowCount; ++r) {
            uint64_t task = rowFirst + r;
            uint32_t yh = task % t.oh;   task /= t.oh;
            uint32_t yd = task % t.od;   task /= t.od;
            uint32_t co = task % t.cout;
            uint32_t b = task / t.cout;
            if ((int64_t)co != cachedCo) {
                LoadFilter(co);
                cachedCo = co;
            }
            ComputeRow(b, co, yd, yh);
        }
    }

private:
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        const uint32_t zeroSlot = t.wAlign * sizeof(float);
        for (uint32_t k = 0; k < t.kw; ++k) {
            for (uint32_t o = 0; o < t.owAlign; ++o) {
                int64_t iw = (int64_t)o * t.sw + (int64_t)k * t.dw - t.pw;
                bool ok = o < t.ow && iw >= 0 && iw < (int64_t)t.w;
                off.SetValue(k * t.owAlign + o, ok ? (uint32_t)iw * sizeof(float) : zeroSlot);
            }
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void LoadFilter(uint32_t co)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        event_t e0 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
        SetFlag<HardEvent::S_MTE2>(e0);
        WaitFlag<HardEvent::S_MTE2>(e0);
        DataCopyExtParams cp{1, taps * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(wl, fGm[(uint64_t)co * taps], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void ComputeRow(uint32_t b, uint32_t co, uint32_t yd, uint32_t yh)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<float> gat = gatBuf.Get<float>();
        LocalTensor<float> acc = outQue.AllocTensor<float>();
        Duplicate(acc, t.hasBias ? bGm.GetValue(co) : 0.0f, t.owAlign);

        uint32_t g = co / coutPerGroup;
        for (uint32_t c = 0; c < cinPerGroup; ++c) {
            uint32_t ci = g * cinPerGroup + c;
            for (uint32_t a = 0; a < t.kd; ++a) {
                int64_t id = (int64_t)yd * t.sd + (int64_t)a * t.dd - t.pd;
                if (id < 0 || id >= (int64_t)t.d) continue;
                for (uint32_t bb = 0; bb < t.kh; ++bb) {
                    int64_t ih = (int64_t)yh * t.sh + (int64_t)bb * t.dh - t.ph;
                    if (ih < 0 || ih >= (int64_t)t.h) continue;
                    uint64_t src = ((((uint64_t)b * t.cin + ci) * t.d + id) * t.h + ih) * t.w;
                    LocalTensor<float> row = rowQue.AllocTensor<float>();
                    Duplicate(row[t.wAlign], 0.0f, 8);                 // zero slot for padding
                    DataCopyExtParams cp{1, t.w * (uint32_t)sizeof(float), 0, 0, 0};
                    DataCopyPad(row, xGm[src], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                    rowQue.EnQue(row);
                    row = rowQue.DeQue<float>();
                    uint32_t tapBase = ((c * t.kd + a) * t.kh + bb) * t.kw;
                    for (uint32_t k = 0; k < t.kw; ++k) {
                        float wv = wl.GetValue(tapBase + k);
                        Gather(gat, row, off[k * t.owAlign], 0u, t.ow);
                        Axpy(acc, gat, wv, t.ow);
                    }
                    rowQue.FreeTensor(row);
                }
            }
        }
        outQue.EnQue(acc);
        acc = outQue.DeQue<float>();
        uint64_t dst = ((((uint64_t)b * t.cout + co) * t.od + yd) * t.oh + yh) * t.ow;
        DataCopyExtParams op{1, t.ow * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[dst], acc, op);
        outQue.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> wBuf, offBuf, gatBuf;
    GlobalTensor<float> xGm, fGm, bGm, yGm;
    VolumeConvDirectTilingData t;
    uint32_t cinPerGroup, coutPerGroup, taps, tapsAlign;
    uint64_t rowFirst, rowCount;
};

extern "C" __global__ __aicore__ void volume_conv_direct(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    VolumeConvDirectKernel kernel;
    kernel.Init(x, filter, bias, y, td);
    kernel.Process();
}
