// sliding_max_1d: running maximum over a window of K samples along the last
// axis of a [rows, L] tensor, stride 1, P implicit -inf samples on both ends.
// Output length L + 2P - K + 1.
//
// Interior outputs (whose window lies entirely inside the row) are done with
// vector Max over K shifted views of the row. Each view is a separate
// DataCopyPad from GM starting k elements further on, which lands on an aligned
// UB address, so no unaligned vector operand is ever needed. The P outputs at
// each end see a truncated window and are finished on the scalar unit.
#include "kernel_operator.h"

using namespace AscendC;

struct SlidingMax1dTiling {
    uint32_t rows;        // batch * channels
    uint32_t len;         // input length L
    uint32_t win;         // K
    uint32_t pad;         // P (< K)
    uint32_t outLen;      // L + 2P - K + 1
    uint32_t inner;       // L - K + 1 interior outputs
    uint32_t innerAlign;  // inner rounded to 8
    uint32_t rowsPerCore;
};

class SlidingMax1d {
public:
    __aicore__ inline SlidingMax1d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SlidingMax1dTiling &tiling)
    {
        t = tiling;
        rowStart = GetBlockIdx() * t.rowsPerCore;
        rowStop = rowStart + t.rowsPerCore;
        if (rowStop > t.rows) {
            rowStop = t.rows;
        }
        src.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.rows * t.len);
        dst.SetGlobalBuffer((__gm__ float *)y, (uint64_t)t.rows * t.outLen);

        pipe.InitBuffer(viewQ, 1, t.win * t.innerAlign * sizeof(float));
        pipe.InitBuffer(maxQ, 2, t.innerAlign * sizeof(float));
        pipe.InitBuffer(edgeBuf, 2 * 8 * sizeof(float) * ((t.pad + 7) / 8));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowStart; r < rowStop; ++r) {
            LoadViews(r);
            Reduce(r);
            StoreInner(r);
        }
    }

private:
    __aicore__ inline void LoadViews(uint32_t r)
    {
        LocalTensor<float> views = viewQ.AllocTensor<float>();
        DataCopyExtParams cp{1, t.inner * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        uint64_t base = (uint64_t)r * t.len;
        for (uint32_t k = 0; k < t.win; ++k) {
            // view k holds x[k .. k + inner - 1]
            DataCopyPad(views[k * t.innerAlign], src[base + k], cp, np);
        }
        viewQ.EnQue(views);
    }

    __aicore__ inline void Reduce(uint32_t r)
    {
        LocalTensor<float> views = viewQ.DeQue<float>();
        LocalTensor<float> best = maxQ.AllocTensor<float>();

        Max(best, views, views[t.innerAlign], t.inner);
        for (uint32_t k = 2; k < t.win; ++k) {
            Max(best, best, views[k * t.innerAlign], t.inner);
        }
        maxQ.EnQue(best);

        // truncated windows at both ends, scalar path (reads the DMA'd views)
        event_t m2sIn = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(m2sIn);
        WaitFlag<HardEvent::MTE2_S>(m2sIn);
        LocalTensor<float> edge = edgeBuf.Get<float>();
        uint32_t rightSlot = (t.pad + 7) / 8 * 8;
        LocalTensor<float> first = views;                          // x[0 ..]
        LocalTensor<float> last = views[(t.win - 1) * t.innerAlign]; // x[K-1 ..]
        for (uint32_t i = 0; i < t.pad; ++i) {
            // output i covers x[0 .. i + K - 1 - P]
            uint32_t hi = i + t.win - 1 - t.pad;
            float m = first.GetValue(0);
            for (uint32_t j = 1; j <= hi; ++j) {
                float v = first.GetValue(j);
                m = v > m ? v : m;
            }
            edge.SetValue(i, m);
        }
        for (uint32_t i = 0; i < t.pad; ++i) {
            // output P + inner + i covers x[inner + i .. L - 1]
            uint32_t lo = t.inner + i;
            float m = last.GetValue(lo - (t.win - 1));
            for (uint32_t j = lo + 1; j < t.len; ++j) {
                float v = last.GetValue(j - (t.win - 1));
                m = v > m ? v : m;
            }
            edge.SetValue(rightSlot + i, m);
        }
        event_t s2m = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(s2m);
        WaitFlag<HardEvent::S_MTE3>(s2m);

        uint64_t rowOut = (uint64_t)r * t.outLen;
        DataCopyExtParams ecp{1, t.pad * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(dst[rowOut], edge, ecp);
        DataCopyPad(dst[rowOut + t.pad + t.inner], edge[rightSlot], ecp);
        // the edge buffer is rewritten by the scalar unit on the next row
        event_t m2s = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(m2s);
        WaitFlag<HardEvent::MTE3_S>(m2s);

        viewQ.FreeTensor(views);
    }

    __aicore__ inline void StoreInner(uint32_t r)
    {
        LocalTensor<float> best = maxQ.DeQue<float>();
        DataCopyExtParams cp{1, t.inner * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(dst[(uint64_t)r * t.outLen + t.pad], best, cp);
        maxQ.FreeTensor(best);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> viewQ;
    TQue<QuePosition::VECOUT, 2> maxQ;
    TBuf<QuePosition::VECCALC> edgeBuf;
    GlobalTensor<float> src, dst;
    SlidingMax1dTiling t;
    uint32_t rowStart = 0, rowStop = 0;
};

extern "C" __global__ __aicore__ void sliding_max_1d(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    SlidingMax1dTiling t;
    __gm__ uint32_t *raw = reinterpret_cast<__gm__ uint32_t *>(tiling);
    uint32_t *out = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(SlidingMax1dTiling) / 4; i++) {
        out[i] = raw[i];
    }
    SlidingMax1d op;
    op.Init(x, y, t);
    op.Process();
}
