// TripletDistanceHinge
//   d_ap = || a - p + eps ||_2,  d_an = || a - n + eps ||_2    (per row)
//   loss = mean_rows( max(d_ap - d_an + margin, 0) )
// Stage 1: every core handles a contiguous block of rows and produces a partial sum.
// Stage 2: after a cross-core barrier, core 0 folds the partials into the scalar loss.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;
constexpr uint32_t ROW_GROUP = 64;        // rows whose distances are finalised together
constexpr uint32_t PARTIAL_FLOATS = 8;    // 32B slot per core in the workspace

template <typename T>
class TripletDistanceHingeKernel {
public:
    __aicore__ inline TripletDistanceHingeKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR p, GM_ADDR n, GM_ADDR loss, GM_ADDR usrWs,
                                const TripletDistanceHingeTilingData &td)
    {
        rows = td.rows;
        dim = td.dim;
        tile = td.colTile;
        margin = td.margin;
        eps = td.eps;
        invRows = td.invRows;
        usedCores = td.usedCores;

        rowStart = GetBlockIdx() * td.rowsPerCore;
        rowStop = rowStart + td.rowsPerCore;
        if (rowStop > rows) {
            rowStop = rows;
        }

        aGm.SetGlobalBuffer((__gm__ T *)a);
        pGm.SetGlobalBuffer((__gm__ T *)p);
        nGm.SetGlobalBuffer((__gm__ T *)n);
        lossGm.SetGlobalBuffer((__gm__ float *)loss, 1);
        partGm.SetGlobalBuffer((__gm__ float *)usrWs, usedCores * PARTIAL_FLOATS);

        pipe.InitBuffer(qa, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(qp, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(qn, DEPTH, tile * sizeof(T));
        pipe.InitBuffer(fa, tile * sizeof(float));
        pipe.InitBuffer(fp, tile * sizeof(float));
        pipe.InitBuffer(fn, tile * sizeof(float));
        pipe.InitBuffer(accPos, tile * sizeof(float));
        pipe.InitBuffer(accNeg, tile * sizeof(float));
        pipe.InitBuffer(grpPos, ROW_GROUP * sizeof(float));
        pipe.InitBuffer(grpNeg, ROW_GROUP * sizeof(float));
        pipe.InitBuffer(scratch, tile * sizeof(float));
        pipe.InitBuffer(small, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        float partial = 0.0f;
        for (uint32_t g = rowStart; g < rowStop; g += ROW_GROUP) {
            uint32_t cnt = (rowStop - g) < ROW_GROUP ? (rowStop - g) : ROW_GROUP;
            LocalTensor<float> sp = grpPos.Get<float>();
            LocalTensor<float> sn = grpNeg.Get<float>();
            for (uint32_t r = 0; r < cnt; ++r) {
                float dpos = 0.0f;
                float dneg = 0.0f;
                RowSquaredDistances(g + r, dpos, dneg);
                sp.SetValue(r, dpos);
                sn.SetValue(r, dneg);
            }
            partial += FinishGroup(cnt);
        }
        PublishPartial(partial);

        SyncAll();

        if (GetBlockIdx() == 0) {
            Combine();
        }
    }

private:
    __aicore__ inline void CopyTile(TQue<QuePosition::VECIN, DEPTH> &q, GlobalTensor<T> &src, uint64_t off,
                                    uint32_t len)
    {
        LocalTensor<T> t = q.AllocTensor<T>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(T), 0, 0, 0};
        DataCopyPadExtParams<T> pd{false, 0, 0, 0};
        DataCopyPad(t, src[off], cp, pd);
        q.EnQue(t);
    }

    __aicore__ inline LocalTensor<float> Widen(LocalTensor<T> &src, TBuf<TPosition::VECCALC> &dstBuf, uint32_t len)
    {
        if constexpr (sizeof(T) == sizeof(float)) {
            return src.template ReinterpretCast<float>();
        } else {
            LocalTensor<float> d = dstBuf.Get<float>();
            Cast(d, src, RoundMode::CAST_NONE, len);
            return d;
        }
    }

    __aicore__ inline void RowSquaredDistances(uint32_t row, float &dpos, float &dneg)
    {
        LocalTensor<float> ap = accPos.Get<float>();
        LocalTensor<float> an = accNeg.Get<float>();
        Duplicate(ap, 0.0f, tile);
        Duplicate(an, 0.0f, tile);
        uint64_t base = (uint64_t)row * dim;

        for (uint32_t c = 0; c < dim; c += tile) {
            uint32_t len = (dim - c) < tile ? (dim - c) : tile;
            CopyTile(qa, aGm, base + c, len);
            CopyTile(qp, pGm, base + c, len);
            CopyTile(qn, nGm, base + c, len);
            LocalTensor<T> ta = qa.DeQue<T>();
            LocalTensor<T> tp = qp.DeQue<T>();
            LocalTensor<T> tn = qn.DeQue<T>();
            LocalTensor<float> va = Widen(ta, fa, len);
            LocalTensor<float> vp = Widen(tp, fp, len);
            LocalTensor<float> vn = Widen(tn, fn, len);
            LocalTensor<float> diff = scratch.Get<float>();

            // positive branch
            Sub(diff, va, vp, len);
            Adds(diff, diff, eps, len);
            Mul(diff, diff, diff, len);
            Add(ap, ap, diff, len);
            // negative branch
            Sub(diff, va, vn, len);
            Adds(diff, diff, eps, len);
            Mul(diff, diff, diff, len);
            Add(an, an, diff, len);

            qa.FreeTensor(ta);
            qp.FreeTensor(tp);
            qn.FreeTensor(tn);
        }

        LocalTensor<float> s = small.Get<float>();
        LocalTensor<float> work = scratch.Get<float>();
        ReduceSum(s, ap, work, tile);
        ReduceSum(s[8], an, work, tile);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        dpos = s.GetValue(0);
        dneg = s.GetValue(8);
    }

    // hinge over a group of rows, returns the group's sum of losses
    __aicore__ inline float FinishGroup(uint32_t cnt)
    {
        LocalTensor<float> sp = grpPos.Get<float>();
        LocalTensor<float> sn = grpNeg.Get<float>();
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);

        Sqrt(sp, sp, cnt);
        Sqrt(sn, sn, cnt);
        Sub(sp, sp, sn, cnt);
        Adds(sp, sp, margin, cnt);
        Maxs(sp, sp, 0.0f, cnt);

        LocalTensor<float> s = small.Get<float>();
        ReduceSum(s[16], sp, sn, cnt);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        return s.GetValue(16);
    }

    __aicore__ inline void PublishPartial(float partial)
    {
        LocalTensor<float> s = small.Get<float>();
        Duplicate(s[32], 0.0f, PARTIAL_FLOATS);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        s.SetValue(32, partial);
        event_t evS3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(evS3);
        WaitFlag<HardEvent::S_MTE3>(evS3);
        DataCopy(partGm[GetBlockIdx() * PARTIAL_FLOATS], s[32], PARTIAL_FLOATS);
    }

    __aicore__ inline void Combine()
    {
        LocalTensor<float> all = scratch.Get<float>();
        LocalTensor<float> s = small.Get<float>();
        // gather slot[0] of every core's 32B partial record
        DataCopyExtParams cp{static_cast<uint16_t>(usedCores), sizeof(float),
                             (PARTIAL_FLOATS - 1) * sizeof(float), 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        DataCopyPad(all, partGm, cp, pd); // each 4B block lands in its own 32B UB block
        event_t evMV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evMV);
        WaitFlag<HardEvent::MTE2_V>(evMV);

        // pick the first lane of every 32B block: strided sum through a scalar loop is
        // cheap here (usedCores <= 48)
        event_t evMS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evMS);
        WaitFlag<HardEvent::MTE2_S>(evMS);
        float total = 0.0f;
        for (uint32_t i = 0; i < usedCores; ++i) {
            total += all.GetValue(i * PARTIAL_FLOATS);
        }
        s.SetValue(40, total * invRows);
        event_t evS3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(evS3);
        WaitFlag<HardEvent::S_MTE3>(evS3);
        DataCopyExtParams out{1, sizeof(float), 0, 0, 0};
        DataCopyPad(lossGm, s[40], out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, DEPTH> qa, qp, qn;
    TBuf<TPosition::VECCALC> fa, fp, fn, accPos, accNeg, grpPos, grpNeg, scratch, small;
    GlobalTensor<T> aGm, pGm, nGm;
    GlobalTensor<float> lossGm, partGm;
    uint32_t rows, dim, tile, usedCores, rowStart, rowStop;
    float margin, eps, invRows;
};

extern "C" __global__ __aicore__ void triplet_distance_hinge(GM_ADDR anchor, GM_ADDR positive, GM_ADDR negative,
                                                             GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(0)) {
        TripletDistanceHingeKernel<float> op;
        op.Init(anchor, positive, negative, loss, usr, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        TripletDistanceHingeKernel<half> op;
        op.Init(anchor, positive, negative, loss, usr, td);
        op.Process();
    }
}
