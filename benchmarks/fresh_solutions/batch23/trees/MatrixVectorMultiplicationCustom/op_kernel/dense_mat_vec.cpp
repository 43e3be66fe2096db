// y = A · v for a long reduction axis.  Each core owns a contiguous slab of rows; rows are
// handled in groups that share one UB copy of the current vector chunk, and every row keeps
// an element-wise fp32 partial (MulAddDst) that is collapsed with one ReduceSum at the end.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class DenseMatVecKernel {
    static constexpr uint32_t MAX_GROUP = 8;

public:
    __aicore__ inline DenseMatVecKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR v, GM_ADDR y, const DenseMatVecTilingData& td)
    {
        M = td.rows; K = td.cols; chunk = td.chunk;
        group = td.rowGroup > MAX_GROUP ? MAX_GROUP : td.rowGroup;
        rowBeg = GetBlockIdx() * td.rowsPerCore;
        rowEnd = rowBeg + td.rowsPerCore > M ? M : rowBeg + td.rowsPerCore;
        aGm.SetGlobalBuffer((__gm__ T*)a);
        vGm.SetGlobalBuffer((__gm__ T*)v, K);
        yGm.SetGlobalBuffer((__gm__ T*)y, M);

        pipe.InitBuffer(aQue, 2, chunk * sizeof(T));
        pipe.InitBuffer(vQue, 1, chunk * sizeof(T));
        pipe.InitBuffer(yQue, 1, 32 * sizeof(T));
        pipe.InitBuffer(partBuf, MAX_GROUP * chunk * sizeof(float));
        pipe.InitBuffer(redBuf, (chunk + 64) * sizeof(float));
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(aF32, chunk * sizeof(float));
            pipe.InitBuffer(vF32, chunk * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r0 = rowBeg; r0 < rowEnd; r0 += group) {
            uint32_t cnt = (rowEnd - r0) < group ? (rowEnd - r0) : group;
            RowGroup(r0, cnt);
        }
    }

private:
    __aicore__ inline void RowGroup(uint32_t r0, uint32_t cnt)
    {
        LocalTensor<float> part = partBuf.Get<float>();
        Duplicate(part, 0.0f, cnt * chunk);
        PipeBarrier<PIPE_V>();

        for (uint64_t k0 = 0; k0 < K; k0 += chunk) {
            uint32_t len = (K - k0) < chunk ? static_cast<uint32_t>(K - k0) : chunk;
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};

            LocalTensor<T> vt = vQue.AllocTensor<T>();
            DataCopyPad(vt, vGm[k0], cp, pad);
            vQue.EnQue(vt);
            vt = vQue.DeQue<T>();
            LocalTensor<float> vf = Widen(vt, vF32, len);

            for (uint32_t r = 0; r < cnt; ++r) {
                LocalTensor<T> at = aQue.AllocTensor<T>();
                DataCopyPad(at, aGm[(uint64_t)(r0 + r) * K + k0], cp, pad);
                aQue.EnQue(at);
                at = aQue.DeQue<T>();
                LocalTensor<float> af = Widen(at, aF32, len);
                MulAddDst(part[r * chunk], af, vf, len);
                PipeBarrier<PIPE_V>();
                aQue.FreeTensor(at);
            }
            vQue.FreeTensor(vt);
        }

        // collapse every partial to a scalar and store the group's results
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> sum = red[chunk];
        for (uint32_t r = 0; r < cnt; ++r) {
            ReduceSum<float>(sum, part[r * chunk], red, chunk);
            event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            results[r] = sum.GetValue(0);
            event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(sv);
            WaitFlag<HardEvent::S_V>(sv);
        }
        LocalTensor<T> out = yQue.AllocTensor<T>();
        for (uint32_t r = 0; r < cnt; ++r) {
            out.SetValue(r, static_cast<T>(results[r]));
        }
        yQue.EnQue(out);
        out = yQue.DeQue<T>();
        event_t sm = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sm);
        WaitFlag<HardEvent::S_MTE3>(sm);
        DataCopyPad(yGm[r0], out, {1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0});
        yQue.FreeTensor(out);
    }

    // fp16 input is accumulated in fp32; fp32 input is used in place.
    // Only the first len lanes are touched on a short tail chunk: the remaining lanes of
    // each partial keep what earlier full chunks accumulated, so nothing needs zeroing.
    __aicore__ inline LocalTensor<float> Widen(const LocalTensor<T>& src, TBuf<TPosition::VECCALC>& buf, uint32_t len)
    {
        if constexpr (std::is_same_v<T, float>) {
            return src;
        } else {
            LocalTensor<float> dst = buf.Get<float>();
            Cast(dst, src, RoundMode::CAST_NONE, len);
            PipeBarrier<PIPE_V>();
            return dst;
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> aQue;
    TQue<QuePosition::VECIN, 1> vQue;
    TQue<QuePosition::VECOUT, 1> yQue;
    TBuf<TPosition::VECCALC> partBuf, redBuf, aF32, vF32;
    GlobalTensor<T> aGm, vGm, yGm;
    float results[MAX_GROUP];
    uint32_t M, chunk, group, rowBeg, rowEnd;
    uint64_t K;
};

extern "C" __global__ __aicore__ void dense_mat_vec(GM_ADDR matrix, GM_ADDR vector, GM_ADDR y,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        DenseMatVecKernel<float> op;
        op.Init(matrix, vector, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        DenseMatVecKernel<half> op;
        op.Init(matrix, vector, y, td);
        op.Process();
    }
}
