/*
 * AxisScatterAssign: y = x; y[o, index[o, j, r], r] = updates[o, j, r]
 *
 * Work unit is one outer slab.  A chunk of the y slab is staged in UB (copied
 * from x), then the index/update slab is streamed through UB and every entry
 * whose destination falls inside the resident chunk is written with a scalar
 * store.  For the common case where the slab fits in UB there is exactly one
 * chunk and one pass over the indices.  Entries are applied in order, so for
 * repeated indices the last one wins.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T, typename TIdx>
class AxisScatterAssignKernel {
public:
    __aicore__ inline AxisScatterAssignKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR updates, GM_ADDR y,
                                const AxisScatterAssignTilingData& td)
    {
        axisX = td.axisX;
        inner = td.inner;
        slabX = td.slabX;
        slabI = td.slabI;
        chunkX = td.chunkX;
        chunkI = td.chunkI;

        uint32_t bid = GetBlockIdx();
        slabCount = td.slabsPerCore + (bid < td.slabsTail ? 1 : 0);
        slabStart = bid * td.slabsPerCore + (bid < td.slabsTail ? bid : td.slabsTail);

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        idxGm.SetGlobalBuffer((__gm__ TIdx*)index);
        updGm.SetGlobalBuffer((__gm__ T*)updates);

        pipe.InitBuffer(dataBuf, chunkX * sizeof(T));
        pipe.InitBuffer(idxBuf, chunkI * sizeof(TIdx));
        pipe.InitBuffer(updBuf, chunkI * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t s = 0; s < slabCount; ++s) {
            uint64_t o = slabStart + s;
            for (uint64_t a = 0; a < slabX; a += chunkX) {
                uint32_t len = static_cast<uint32_t>((slabX - a) < chunkX ? (slabX - a) : chunkX);
                ScatterIntoChunk(o, a, len);
            }
        }
    }

private:
    template <HardEvent EVT>
    __aicore__ inline void Wait()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
        SetFlag<EVT>(e);
        WaitFlag<EVT>(e);
    }

    __aicore__ inline void ScatterIntoChunk(uint64_t o, uint64_t begin, uint32_t len)
    {
        LocalTensor<T> data = dataBuf.Get<T>();
        LocalTensor<TIdx> idx = idxBuf.Get<TIdx>();
        LocalTensor<T> upd = updBuf.Get<T>();

        DataCopyExtParams cpX{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> noPadT{false, 0, 0, 0};
        DataCopyPad(data, xGm[o * slabX + begin], cpX, noPadT);
        Wait<HardEvent::MTE2_S>();

        const uint64_t end = begin + len;
        for (uint64_t p = 0; p < slabI; p += chunkI) {
            uint32_t cnt = static_cast<uint32_t>((slabI - p) < chunkI ? (slabI - p) : chunkI);
            // make sure the scalar unit finished reading the previous index chunk
            Wait<HardEvent::S_MTE2>();
            DataCopyExtParams cpI{1, static_cast<uint32_t>(cnt * sizeof(TIdx)), 0, 0, 0};
            DataCopyPadExtParams<TIdx> noPadI{false, 0, 0, 0};
            DataCopyPad(idx, idxGm[o * slabI + p], cpI, noPadI);
            DataCopyExtParams cpU{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
            DataCopyPad(upd, updGm[o * slabI + p], cpU, noPadT);
            Wait<HardEvent::MTE2_S>();

            // position inside the slab of element e is (j * inner + r); its target is (index * inner + r)
            uint64_t flat = p;
            uint32_t r = static_cast<uint32_t>(flat % inner);
            for (uint32_t e = 0; e < cnt; ++e) {
                int64_t target = static_cast<int64_t>(idx.GetValue(e));
                if (target >= 0 && target < static_cast<int64_t>(axisX)) {
                    uint64_t dst = static_cast<uint64_t>(target) * inner + r;
                    if (dst >= begin && dst < end) {
                        data.SetValue(static_cast<uint32_t>(dst - begin), upd.GetValue(e));
                    }
                }
                if (++r == inner) {
                    r = 0;
                }
            }
        }

        Wait<HardEvent::S_MTE3>();
        DataCopyPad(yGm[o * slabX + begin], data, cpX);
        // the next chunk reloads `data`; wait for the store to drain first
        Wait<HardEvent::MTE3_MTE2>();
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> dataBuf, idxBuf, updBuf;
    GlobalTensor<T> xGm, yGm, updGm;
    GlobalTensor<TIdx> idxGm;
    uint32_t axisX = 0, inner = 1, chunkX = 0, chunkI = 0;
    uint64_t slabX = 0, slabI = 0;
    uint32_t slabStart = 0, slabCount = 0;
};

extern "C" __global__ __aicore__ void axis_scatter_assign(GM_ADDR x, GM_ADDR index, GM_ADDR updates, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AxisScatterAssignKernel<DTYPE_X, DTYPE_INDEX> op;
    op.Init(x, index, updates, y, td);
    op.Process();
}
