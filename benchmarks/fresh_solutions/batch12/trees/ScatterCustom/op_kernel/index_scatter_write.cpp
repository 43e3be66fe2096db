/*
 * IndexScatterWrite kernel.
 * The tensors are viewed as [outer, axis, inner]; one outer slice of `self` (axis*inner values)
 * is the unit of work. The slice is brought into UB window by window; for every window the
 * matching index/src slice is streamed through UB and the hits are written with scalar stores.
 * Index entries are applied in increasing order, so with duplicate indices the last one wins.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T, typename IdxT>
class ScatterWriteKernel {
public:
    __aicore__ inline ScatterWriteKernel() {}

    __aicore__ inline void Init(GM_ADDR self, GM_ADDR index, GM_ADDR src, GM_ADDR out,
                                const IndexScatterWriteTilingData &td)
    {
        axis = td.axisLen;
        inner = td.inner;
        idxAxis = td.idxAxisLen;
        window = td.windowLen;
        chunk = td.idxChunk;
        oBegin = GetBlockIdx() * td.outerPerCore;
        oEnd = oBegin + td.outerPerCore;
        if (oEnd > td.outer) {
            oEnd = td.outer;
        }

        selfGm.SetGlobalBuffer((__gm__ T *)self);
        idxGm.SetGlobalBuffer((__gm__ IdxT *)index);
        srcGm.SetGlobalBuffer((__gm__ T *)src);
        outGm.SetGlobalBuffer((__gm__ T *)out);

        pipe.InitBuffer(winBuf, window * sizeof(T));
        pipe.InitBuffer(idxBuf, chunk * sizeof(IdxT));
        pipe.InitBuffer(srcBuf, chunk * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint64_t slab = static_cast<uint64_t>(axis) * inner;
        uint64_t updSlab = static_cast<uint64_t>(idxAxis) * inner;
        for (uint32_t o = oBegin; o < oEnd; ++o) {
            for (uint64_t w0 = 0; w0 < slab; w0 += window) {
                uint32_t wLen = static_cast<uint32_t>((slab - w0) < window ? (slab - w0) : window);
                Window(o * slab, o * updSlab, updSlab, w0, wLen);
            }
        }
    }

private:
    template <HardEvent EV>
    __aicore__ inline void Wait()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(EV));
        SetFlag<EV>(e);
        WaitFlag<EV>(e);
    }

    __aicore__ inline void Window(uint64_t selfBase, uint64_t updBase, uint64_t updSlab, uint64_t w0, uint32_t wLen)
    {
        LocalTensor<T> win = winBuf.Get<T>();
        LocalTensor<IdxT> idxL = idxBuf.Get<IdxT>();
        LocalTensor<T> srcL = srcBuf.Get<T>();

        Wait<HardEvent::MTE3_MTE2>();   // previous window fully stored before we overwrite UB
        DataCopyExtParams cp{1, static_cast<uint32_t>(wLen * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
        DataCopyPad(win, selfGm[selfBase + w0], cp, noPad);

        for (uint64_t e0 = 0; e0 < updSlab; e0 += chunk) {
            uint32_t cLen = static_cast<uint32_t>((updSlab - e0) < chunk ? (updSlab - e0) : chunk);
            Wait<HardEvent::S_MTE2>();   // scalar loop of the previous chunk is done with idxL/srcL
            DataCopyExtParams ci{1, static_cast<uint32_t>(cLen * sizeof(IdxT)), 0, 0, 0};
            DataCopyPadExtParams<IdxT> ip{false, 0, 0, 0};
            DataCopyPad(idxL, idxGm[updBase + e0], ci, ip);
            DataCopyExtParams cs{1, static_cast<uint32_t>(cLen * sizeof(T)), 0, 0, 0};
            DataCopyPad(srcL, srcGm[updBase + e0], cs, noPad);
            Wait<HardEvent::MTE2_S>();

            for (uint32_t e = 0; e < cLen; ++e) {
                uint64_t flat = e0 + e;
                uint64_t q = flat % inner;
                int64_t id = static_cast<int64_t>(idxL.GetValue(e));
                if (id < 0) {
                    id += axis;
                }
                uint64_t pos = static_cast<uint64_t>(id) * inner + q;
                if (pos >= w0 && pos < w0 + wLen) {
                    win.SetValue(static_cast<uint32_t>(pos - w0), srcL.GetValue(e));
                }
            }
        }

        Wait<HardEvent::S_MTE3>();
        DataCopyPad(outGm[selfBase + w0], win, cp);
    }

    TPipe pipe;
    TBuf<TPosition::VECCALC> winBuf, idxBuf, srcBuf;
    GlobalTensor<T> selfGm, srcGm, outGm;
    GlobalTensor<IdxT> idxGm;
    uint32_t axis, inner, idxAxis, window, chunk;
    uint32_t oBegin, oEnd;
};

extern "C" __global__ __aicore__ void index_scatter_write(GM_ADDR self, GM_ADDR index, GM_ADDR src, GM_ADDR out,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ScatterWriteKernel<DTYPE_SELF, DTYPE_INDEX> op;
    op.Init(self, index, src, out, td);
    op.Process();
}
