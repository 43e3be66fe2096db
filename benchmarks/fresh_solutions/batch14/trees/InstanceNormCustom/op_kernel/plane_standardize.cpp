// PlaneStandardize: per-(sample, channel) standardization over the spatial plane.
//   y = (x - mean) / sqrt(var + eps), statistics over H*W, biased variance, no affine.
// Pass 1 streams the plane to accumulate element-wise partial sums in fp32,
// pass 2 streams it again and applies y = x * a + b.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class PlaneStandardizeOp {
public:
    __aicore__ inline PlaneStandardizeOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const PlaneStandardizeTilingData &td)
    {
        planeSize = td.planeSize;
        chunk = td.chunk;
        eps = td.epsilon;
        const uint32_t id = GetBlockIdx();
        myPlanes = td.planesPerCore + (id < td.extraPlanes ? 1 : 0);
        firstPlane = id * td.planesPerCore + (id < td.extraPlanes ? id : td.extraPlanes);

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(qIn, 2, chunk * sizeof(T));
        pipe.InitBuffer(qOut, 2, chunk * sizeof(T));
        pipe.InitBuffer(valBuf, chunk * sizeof(float));
        pipe.InitBuffer(sumBuf, chunk * sizeof(float));
        pipe.InitBuffer(sqBuf, chunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < myPlanes; ++p) {
            const uint64_t base = static_cast<uint64_t>(firstPlane + p) * planeSize;
            float scale, shift;
            Statistics(base, scale, shift);
            Apply(base, scale, shift);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<T> t = qIn.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(t, xGm[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        qIn.EnQue(t);
    }

    // fp32 view of the tile currently at the head of qIn (the caller frees `raw`)
    __aicore__ inline LocalTensor<float> ToFloat(LocalTensor<T> &raw, uint32_t len)
    {
        if constexpr (IsSameType<T, float>::value) {
            return raw;
        } else {
            LocalTensor<float> v = valBuf.Get<float>();
            Cast(v, raw, RoundMode::CAST_NONE, len);
            return v;
        }
    }

    __aicore__ inline void Statistics(uint64_t base, float &scale, float &shift)
    {
        LocalTensor<float> sum = sumBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        Duplicate(sum, 0.0f, chunk);
        Duplicate(sq, 0.0f, chunk);
        for (uint32_t off = 0; off < planeSize; off += chunk) {
            const uint32_t len = (planeSize - off) < chunk ? (planeSize - off) : chunk;
            CopyIn(base + off, len);
            LocalTensor<T> raw = qIn.DeQue<T>();
            LocalTensor<float> v = ToFloat(raw, len);
            Add(sum, sum, v, len);
            // sq += v * v
            MulAddDst(sq, v, v, len);
            qIn.FreeTensor(raw);
        }
        const uint32_t used = planeSize < chunk ? planeSize : chunk;
        LocalTensor<float> scratch = valBuf.Get<float>();
        ReduceSum(sum, sum, scratch, used);
        ReduceSum(sq, sq, scratch, used);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        const float inv = 1.0f / static_cast<float>(planeSize);
        const float mean = sum.GetValue(0) * inv;
        float var = sq.GetValue(0) * inv - mean * mean;
        if (var < 0.0f) var = 0.0f;

        // 1/sqrt(var+eps) with the vector unit
        sum.SetValue(0, var + eps);
        event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
        Rsqrt(sum, sum, 1);
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        scale = sum.GetValue(0);
        shift = -mean * scale;
    }

    __aicore__ inline void Apply(uint64_t base, float scale, float shift)
    {
        for (uint32_t off = 0; off < planeSize; off += chunk) {
            const uint32_t len = (planeSize - off) < chunk ? (planeSize - off) : chunk;
            CopyIn(base + off, len);
            LocalTensor<T> raw = qIn.DeQue<T>();
            LocalTensor<T> o = qOut.AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                Muls(o, raw, scale, len);
                Adds(o, o, shift, len);
            } else {
                LocalTensor<float> v = ToFloat(raw, len);
                Muls(v, v, scale, len);
                Adds(v, v, shift, len);
                Cast(o, v, RoundMode::CAST_ROUND, len);
            }
            qIn.FreeTensor(raw);
            qOut.EnQue(o);
            o = qOut.DeQue<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[base + off], o, cp);
            qOut.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qIn;
    TQue<QuePosition::VECOUT, 2> qOut;
    TBuf<TPosition::VECCALC> valBuf, sumBuf, sqBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t planeSize = 0, chunk = 0, myPlanes = 0, firstPlane = 0;
    float eps = 1e-5f;
};

extern "C" __global__ __aicore__ void plane_standardize(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        PlaneStandardizeOp<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        PlaneStandardizeOp<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
