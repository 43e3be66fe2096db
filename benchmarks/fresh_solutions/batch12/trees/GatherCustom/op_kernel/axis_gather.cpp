/*
 * AxisGather kernel.
 *
 * Vector path (inner == 1, source row fits in UB): the source row is loaded once, every chunk of
 * indices is turned into byte offsets (int64 -> int32 cast, * sizeof(T)) and the Gather
 * instruction picks the elements.
 * Generic path: indices are streamed through UB and each element is read with a scalar load
 * from global memory; used for inner > 1 or very long rows.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T, typename IdxT>
class AxisGatherKernel {
public:
    __aicore__ inline AxisGatherKernel() {}

    __aicore__ inline void Init(GM_ADDR self, GM_ADDR index, GM_ADDR out, const AxisGatherTilingData &td)
    {
        srcAxis = td.srcAxis;
        srcAxisAlign = td.srcAxisAlign;
        dstAxis = td.dstAxis;
        inner = td.innerNum;
        chunk = td.chunkLen;
        vec = td.vectorPath;
        rowLo = GetBlockIdx() * td.rowsPerCore;
        rowHi = rowLo + td.rowsPerCore;
        if (rowHi > td.outerNum) {
            rowHi = td.outerNum;
        }

        selfGm.SetGlobalBuffer((__gm__ T *)self);
        idxGm.SetGlobalBuffer((__gm__ IdxT *)index);
        outGm.SetGlobalBuffer((__gm__ T *)out);

        pipe.InitBuffer(idxQ, 2, chunk * sizeof(IdxT));
        pipe.InitBuffer(outQ, 2, chunk * sizeof(T));
        pipe.InitBuffer(offBuf, chunk * sizeof(int32_t));
        if (vec) {
            pipe.InitBuffer(rowQ, 1, srcAxisAlign * sizeof(T));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowLo; r < rowHi; ++r) {
            if (vec) {
                VectorRow(r);
            } else {
                ScalarRow(r);
            }
        }
    }

private:
    __aicore__ inline void LoadIdx(uint64_t off, uint32_t n)
    {
        LocalTensor<IdxT> il = idxQ.AllocTensor<IdxT>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(IdxT)), 0, 0, 0};
        DataCopyPadExtParams<IdxT> pad{false, 0, 0, 0};
        DataCopyPad(il, idxGm[off], cp, pad);
        idxQ.EnQue(il);
    }

    __aicore__ inline void StoreOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> ol = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(outGm[off], ol, cp);
        outQ.FreeTensor(ol);
    }

    __aicore__ inline void VectorRow(uint32_t r)
    {
        LocalTensor<T> row = rowQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(srcAxis * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(row, selfGm[static_cast<uint64_t>(r) * srcAxis], cp, pad);
        rowQ.EnQue(row);
        row = rowQ.DeQue<T>();

        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        uint64_t base = static_cast<uint64_t>(r) * dstAxis;
        for (uint32_t j0 = 0; j0 < dstAxis; j0 += chunk) {
            uint32_t n = (dstAxis - j0) < chunk ? (dstAxis - j0) : chunk;
            LoadIdx(base + j0, n);
            LocalTensor<IdxT> il = idxQ.DeQue<IdxT>();
            if constexpr (sizeof(IdxT) == 8) {
                Cast(off, il, RoundMode::CAST_NONE, n);
            } else {
                Adds(off, il, static_cast<int32_t>(0), n);
            }
            PipeBarrier<PIPE_V>();
            Muls(off, off, static_cast<int32_t>(sizeof(T)), n);   // element index -> byte offset
            PipeBarrier<PIPE_V>();
            idxQ.FreeTensor(il);

            LocalTensor<T> ol = outQ.AllocTensor<T>();
            Gather(ol, row, off.ReinterpretCast<uint32_t>(), 0, n);
            outQ.EnQue(ol);
            StoreOut(base + j0, n);
        }
        rowQ.FreeTensor(row);
    }

    __aicore__ inline void ScalarRow(uint32_t r)
    {
        uint64_t dstSlab = static_cast<uint64_t>(dstAxis) * inner;
        uint64_t srcBase = static_cast<uint64_t>(r) * srcAxis * inner;
        uint64_t base = static_cast<uint64_t>(r) * dstSlab;
        for (uint64_t e0 = 0; e0 < dstSlab; e0 += chunk) {
            uint32_t n = static_cast<uint32_t>((dstSlab - e0) < chunk ? (dstSlab - e0) : chunk);
            LoadIdx(base + e0, n);
            LocalTensor<IdxT> il = idxQ.DeQue<IdxT>();
            LocalTensor<T> ol = outQ.AllocTensor<T>();
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(ev);
            WaitFlag<HardEvent::MTE2_S>(ev);
            for (uint32_t e = 0; e < n; ++e) {
                uint64_t flat = e0 + e;
                int64_t id = static_cast<int64_t>(il.GetValue(e));
                if (id < 0) {
                    id += srcAxis;
                }
                uint64_t src = srcBase + static_cast<uint64_t>(id) * inner + flat % inner;
                ol.SetValue(e, selfGm.GetValue(src));
            }
            idxQ.FreeTensor(il);
            event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
            SetFlag<HardEvent::S_MTE3>(ev2);
            WaitFlag<HardEvent::S_MTE3>(ev2);
            outQ.EnQue(ol);
            StoreOut(base + e0, n);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> idxQ;
    TQue<QuePosition::VECIN, 1> rowQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> offBuf;
    GlobalTensor<T> selfGm, outGm;
    GlobalTensor<IdxT> idxGm;
    uint32_t srcAxis, srcAxisAlign, dstAxis, inner, chunk, vec;
    uint32_t rowLo, rowHi;
};

extern "C" __global__ __aicore__ void axis_gather(GM_ADDR self, GM_ADDR index, GM_ADDR out,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AxisGatherKernel<DTYPE_SELF, DTYPE_INDEX> op;
    op.Init(self, index, out, td);
    op.Process();
}
