#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t HEAD = 8;   // zero block in front of the scan buffer

// exclusive scan = inclusive scan - x, inclusive scan done Hillis-Steele style per tile,
// tiles chained through a scalar running sum.
class KernelCumsumExclusive {
public:
    __aicore__ inline KernelCumsumExclusive() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, CumsumExclusiveCustomTilingData* td)
    {
        scanLen = td->scanLen;
        tileLength = td->tileLength;
        tileNum = td->tileNum;
        lastTileLength = td->lastTileLength;

        uint32_t core = AscendC::GetBlockIdx();
        uint32_t smallRows = td->bigCoreRows - 1;
        if (core < td->bigCoreNum) {
            rowNum = td->bigCoreRows;
            rowOffset = core * td->bigCoreRows;
        } else {
            rowNum = smallRows;
            rowOffset = td->bigCoreNum * td->bigCoreRows + (core - td->bigCoreNum) * smallRows;
        }
        uint64_t base = (uint64_t)rowOffset * scanLen;
        xGm.SetGlobalBuffer((__gm__ float*)x + base, (uint64_t)rowNum * scanLen);
        yGm.SetGlobalBuffer((__gm__ float*)y + base, (uint64_t)rowNum * scanLen);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(scanBufA, (tileLength + HEAD) * sizeof(float));
        pipe.InitBuffer(scanBufB, (tileLength + HEAD) * sizeof(float));
        pipe.InitBuffer(gathBuf, tileLength * sizeof(float));
        pipe.InitBuffer(idxBuf, 3 * tileLength * sizeof(uint32_t));

        // idx_s[i] -> byte offset of element (i - s), or of the zero head when i < s
        AscendC::LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t k = 0; k < 3; ++k) {
            uint32_t sh = 1u << k;
            for (uint32_t i = 0; i < tileLength; ++i) {
                uint32_t e = (i >= sh) ? (HEAD + i - sh) : 0;
                idx.SetValue(k * tileLength + i, e * sizeof(float));
            }
        }
        AscendC::LocalTensor<float> a = scanBufA.Get<float>();
        AscendC::LocalTensor<float> b = scanBufB.Get<float>();
        for (uint32_t i = 0; i < HEAD; ++i) {
            a.SetValue(i, 0.0f);
            b.SetValue(i, 0.0f);
        }
        event_t e0 = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(e0);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(e0);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowNum; ++r) {
            float running = 0.0f;
            for (uint32_t t = 0; t < tileNum; ++t) {
                uint32_t len = (t == tileNum - 1) ? lastTileLength : tileLength;
                uint64_t off = (uint64_t)r * scanLen + (uint64_t)t * tileLength;
                CopyIn(off, len);
                running = Compute(len, running);
                CopyOut(off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[off], len);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline float Compute(uint32_t len, float running)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> a = scanBufA.Get<float>();
        AscendC::LocalTensor<float> b = scanBufB.Get<float>();
        AscendC::LocalTensor<float> g = gathBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();

        AscendC::DataCopy(a[HEAD], xLocal, len);
        AscendC::PipeBarrier<PIPE_V>();

        // strides 1, 2, 4: gather the shifted copy
        for (uint32_t k = 0; k < 3 && (1u << k) < len; ++k) {
            AscendC::Gather(g, a, idx[k * tileLength], 0, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Add(a[HEAD], a[HEAD], g, len);
            AscendC::PipeBarrier<PIPE_V>();
        }
        // strides >= 8 are block aligned
        AscendC::LocalTensor<float> cur = a;
        AscendC::LocalTensor<float> nxt = b;
        for (uint32_t s = 8; s < len; s <<= 1) {
            AscendC::DataCopy(nxt[HEAD], cur[HEAD], s);
            AscendC::Add(nxt[HEAD + s], cur[HEAD + s], cur[HEAD], len - s);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::LocalTensor<float> sw = cur;
            cur = nxt;
            nxt = sw;
        }

        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        float tileSum = cur.GetValue(HEAD + len - 1);

        // y = inclusive - x + running
        AscendC::Sub(yLocal, cur[HEAD], xLocal, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(yLocal, yLocal, running, len);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
        return running + tileSum;
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopy(yGm[off], yLocal, len);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scanBufA, scanBufB, gathBuf, idxBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t scanLen, tileLength, tileNum, lastTileLength;
    uint32_t rowNum, rowOffset;
};

extern "C" __global__ __aicore__ void cumsum_exclusive_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCumsumExclusive op;
    op.Init(x, y, &tilingData);
    op.Process();
}
