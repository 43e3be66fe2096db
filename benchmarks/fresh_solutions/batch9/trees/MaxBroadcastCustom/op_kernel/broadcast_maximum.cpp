// BroadcastMaximum kernel: y = max(a, b) with broadcasting.
// One output row (last dimension) at a time; a broadcast operand in the last dimension is a
// single scalar per row and is applied with Maxs, otherwise the two row tiles meet in Max.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class BroadcastMaximumKernel {
public:
    __aicore__ inline BroadcastMaximumKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, const BroadcastMaximumTilingData &td)
    {
        td_ = td;
        aGm.SetGlobalBuffer((__gm__ T *)a);
        bGm.SetGlobalBuffer((__gm__ T *)b);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        rowBeg = td.rowsPerCore * GetBlockIdx();
        rowEnd = rowBeg + td.rowsPerCore;
        if (rowEnd > td.outerRows) {
            rowEnd = td.outerRows;
        }
        pipe.InitBuffer(qa, 2, td.tileLen * sizeof(T));
        pipe.InitBuffer(qb, 2, td.tileLen * sizeof(T));
        pipe.InitBuffer(qy, 2, td.tileLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint32_t inner = td_.innerLen;
        uint64_t aInnerStep = td_.aInnerBcast ? 0 : 1;
        uint64_t bInnerStep = td_.bInnerBcast ? 0 : 1;
        for (uint64_t row = rowBeg; row < rowEnd; ++row) {
            uint64_t aBase = 0, bBase = 0;
            RowOrigins(row, aBase, bBase);
            for (uint32_t off = 0; off < inner; off += td_.tileLen) {
                uint32_t n = (inner - off) < td_.tileLen ? (inner - off) : td_.tileLen;
                DoTile(aBase + off * aInnerStep, bBase + off * bInnerStep, row * inner + off, n);
            }
        }
    }

private:
    // decompose a row index over the leading output dims and accumulate input offsets
    __aicore__ inline void RowOrigins(uint64_t row, uint64_t &aOff, uint64_t &bOff)
    {
        uint64_t rem = row;
        for (int32_t d = static_cast<int32_t>(td_.outerRank) - 1; d >= 0; --d) {
            uint64_t extent = td_.outerShape[d];
            uint64_t idx = rem % extent;
            rem /= extent;
            aOff += idx * td_.aStride[d];
            bOff += idx * td_.bStride[d];
        }
    }

    __aicore__ inline void DoTile(uint64_t aOff, uint64_t bOff, uint64_t yOff, uint32_t n)
    {
        DataCopyExtParams cp(1, n * sizeof(T), 0, 0, 0);
        DataCopyPadExtParams<T> pad(false, 0, 0, 0);
        bool aScalar = td_.aInnerBcast != 0;
        bool bScalar = td_.bInnerBcast != 0;

        LocalTensor<T> out = qy.AllocTensor<T>();
        if (aScalar && bScalar) {
            T va = aGm.GetValue(aOff);
            T vb = bGm.GetValue(bOff);
            Duplicate(out, static_cast<float>(va) > static_cast<float>(vb) ? va : vb, n);
        } else if (aScalar || bScalar) {
            // stream the full operand, fold in the scalar
            LocalTensor<T> v = qa.AllocTensor<T>();
            if (aScalar) {
                DataCopyPad(v, bGm[bOff], cp, pad);
            } else {
                DataCopyPad(v, aGm[aOff], cp, pad);
            }
            qa.EnQue(v);
            T s = aScalar ? aGm.GetValue(aOff) : bGm.GetValue(bOff);
            v = qa.DeQue<T>();
            Maxs(out, v, s, n);
            qa.FreeTensor(v);
        } else {
            LocalTensor<T> va = qa.AllocTensor<T>();
            LocalTensor<T> vb = qb.AllocTensor<T>();
            DataCopyPad(va, aGm[aOff], cp, pad);
            DataCopyPad(vb, bGm[bOff], cp, pad);
            qa.EnQue(va);
            qb.EnQue(vb);
            va = qa.DeQue<T>();
            vb = qb.DeQue<T>();
            Max(out, va, vb, n);
            qa.FreeTensor(va);
            qb.FreeTensor(vb);
        }
        qy.EnQue(out);
        out = qy.DeQue<T>();
        DataCopyPad(yGm[yOff], out, cp);
        qy.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qa, qb;
    TQue<QuePosition::VECOUT, 2> qy;
    GlobalTensor<T> aGm, bGm, yGm;
    BroadcastMaximumTilingData td_;
    uint64_t rowBeg = 0, rowEnd = 0;
};

extern "C" __global__ __aicore__ void broadcast_maximum(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace,
                                                        GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    BroadcastMaximumKernel<DTYPE_A> op;
    op.Init(a, b, y, td);
    op.Process();
}
