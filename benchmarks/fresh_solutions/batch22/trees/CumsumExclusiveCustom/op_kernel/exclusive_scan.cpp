// ExclusiveScan: y[..., k, ...] = sum_{j < k} x[..., j, ...] along one axis (y at k = 0 is zero).
// Sums are carried in float32 for both float32 and float16 data.
#include "kernel_operator.h"

using namespace AscendC;

// Axis is not innermost: each step along the axis is a whole vector of `inner` values,
// so the scan is a running vector sum. Output row k is written before row k is added.
template <typename T>
class ScanAcrossRows {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ExclusiveScanTilingData &td)
    {
        axis = td.axis;
        inner = td.inner;
        tile = td.tile;
        tpr = td.tilesPerRow;
        uint64_t b = GetBlockIdx();
        first = td.items * b / td.cores;
        last = td.items * (b + 1) / td.cores;
        xg.SetGlobalBuffer((__gm__ T *)x);
        yg.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(qi, 2, tile * sizeof(T));
        pipe.InitBuffer(qo, 2, tile * sizeof(T));
        pipe.InitBuffer(accB, tile * sizeof(float));
        pipe.InitBuffer(cvtB, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t it = first; it < last; ++it) {
            uint64_t o = it / tpr;
            uint64_t c0 = (it % tpr) * tile;
            uint32_t w = static_cast<uint32_t>(inner - c0 < tile ? inner - c0 : tile);
            Scan(o * axis * inner + c0, w);
        }
    }

private:
    __aicore__ inline void Scan(uint64_t base, uint32_t w)
    {
        LocalTensor<float> acc = accB.Get<float>();
        LocalTensor<float> cvt = cvtB.Get<float>();
        Duplicate(acc, 0.0f, tile);
        DataCopyExtParams cp{1, static_cast<uint32_t>(w * sizeof(T)), 0, 0, 0};

        for (uint64_t k = 0; k < axis; ++k) {
            uint64_t off = base + k * inner;
            // emit the running sum (excludes row k)
            LocalTensor<T> o = qo.AllocTensor<T>();
            if constexpr (std::is_same_v<T, float>) {
                DataCopy(o, acc, tile);
            } else {
                Cast(o, acc, RoundMode::CAST_ROUND, w);
            }
            qo.EnQue(o);

            if (k + 1 < axis) {
                LocalTensor<T> in = qi.AllocTensor<T>();
                DataCopyPad(in, xg[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
                qi.EnQue(in);
                in = qi.DeQue<T>();
                if constexpr (std::is_same_v<T, float>) {
                    Add(acc, acc, in, w);
                } else {
                    Cast(cvt, in, RoundMode::CAST_NONE, w);
                    Add(acc, acc, cvt, w);
                }
                qi.FreeTensor(in);
            }

            o = qo.DeQue<T>();
            DataCopyPad(yg[off], o, cp);
            qo.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qi;
    TQue<QuePosition::VECOUT, 2> qo;
    TBuf<TPosition::VECCALC> accB, cvtB;
    GlobalTensor<T> xg, yg;
    uint64_t axis = 0, inner = 0, first = 0, last = 0;
    uint32_t tile = 0, tpr = 1;
};

// Axis is innermost: each row is scanned chunk by chunk. Within a chunk the dependency chain
// is sequential, so it runs on the scalar unit over the UB copy (float32 carry); DMA of the
// next chunk overlaps through the double-buffered queues.
template <typename T>
class ScanAlongRow {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ExclusiveScanTilingData &td)
    {
        len = td.axis;
        chunk = td.tile;
        uint64_t b = GetBlockIdx();
        first = td.items * b / td.cores;
        last = td.items * (b + 1) / td.cores;
        xg.SetGlobalBuffer((__gm__ T *)x);
        yg.SetGlobalBuffer((__gm__ T *)y);
        pipe.InitBuffer(qi, 2, chunk * sizeof(T));
        pipe.InitBuffer(qo, 2, chunk * sizeof(T));
        pipe.InitBuffer(fin, chunk * sizeof(float));
        pipe.InitBuffer(fout, chunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t r = first; r < last; ++r) {
            float carry = 0.0f;
            for (uint64_t c = 0; c < len; c += chunk) {
                uint32_t n = static_cast<uint32_t>(len - c < chunk ? len - c : chunk);
                carry = Chunk(r * len + c, n, carry);
            }
        }
    }

private:
    __aicore__ inline float Chunk(uint64_t off, uint32_t n, float carry)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        LocalTensor<T> in = qi.AllocTensor<T>();
        DataCopyPad(in, xg[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        qi.EnQue(in);
        in = qi.DeQue<T>();

        LocalTensor<float> a = fin.Get<float>();
        LocalTensor<float> s = fout.Get<float>();
        if constexpr (std::is_same_v<T, float>) {
            DataCopy(a, in, (n + 7) / 8 * 8);
        } else {
            Cast(a, in, RoundMode::CAST_NONE, n);
        }
        qi.FreeTensor(in);

        event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        for (uint32_t i = 0; i < n; ++i) {
            s.SetValue(i, carry);
            carry += a.GetValue(i);
        }
        event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);

        LocalTensor<T> o = qo.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            DataCopy(o, s, (n + 7) / 8 * 8);
        } else {
            Cast(o, s, RoundMode::CAST_ROUND, n);
        }
        qo.EnQue(o);
        o = qo.DeQue<T>();
        DataCopyPad(yg[off], o, cp);
        qo.FreeTensor(o);
        return carry;
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qi;
    TQue<QuePosition::VECOUT, 2> qo;
    TBuf<TPosition::VECCALC> fin, fout;
    GlobalTensor<T> xg, yg;
    uint64_t len = 0, first = 0, last = 0;
    uint32_t chunk = 0;
};

extern "C" __global__ __aicore__ void exclusive_scan(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ScanAcrossRows<DTYPE_X> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ScanAlongRow<DTYPE_X> op;
        op.Init(x, y, td);
        op.Process();
    }
}
