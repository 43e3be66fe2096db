// kernel: y = x; y[indices[i], :] = src[i, :], each core owns a row range of y
#include "kernel_operator.h"
using namespace AscendC;

class IdxCopy {
public:
    __aicore__ inline IdxCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR src, GM_ADDR y, uint32_t rows, uint32_t cols,
                                uint32_t nIdx, uint32_t rpc, uint32_t chunk, uint32_t blk)
    {
        C = cols;
        nI = nIdx;
        ck = chunk;
        ib = blk;
        r0 = rpc * GetBlockIdx();
        r1 = r0 + rpc;
        if (r1 > rows) r1 = rows;
        xG.SetGlobalBuffer((__gm__ float*)x);
        iG.SetGlobalBuffer((__gm__ int64_t*)idx);
        sG.SetGlobalBuffer((__gm__ float*)src);
        yG.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(q, 2, ck * sizeof(float));
        pipe.InitBuffer(iB, ib * sizeof(int64_t));
    }
    __aicore__ inline void Process()
    {
        if (r0 >= r1) return;
        Move(xG, (uint64_t)r0 * C, (uint64_t)r0 * C, (uint64_t)(r1 - r0) * C);
        LocalTensor<int64_t> il = iB.Get<int64_t>();
        DataCopyPadExtParams<int64_t> pd{false, 0, 0, 0};
        for (uint32_t b = 0; b < nI; b += ib) {
            uint32_t cnt = (nI - b < ib) ? (nI - b) : ib;
            SetFlag<HardEvent::S_MTE2>(EVENT_ID1);
            WaitFlag<HardEvent::S_MTE2>(EVENT_ID1);
            DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(int64_t)), 0, 0, 0};
            DataCopyPad(il, iG[b], cp, pd);
            SetFlag<HardEvent::MTE2_S>(EVENT_ID1);
            WaitFlag<HardEvent::MTE2_S>(EVENT_ID1);
            for (uint32_t i = 0; i < cnt; i++) {
                int64_t r = il.GetValue(i);
                if (r < (int64_t)r0 || r >= (int64_t)r1) continue;
                Move(sG, (uint64_t)(b + i) * C, (uint64_t)r * C, C);
            }
        }
    }

private:
    __aicore__ inline void Move(GlobalTensor<float>& from, uint64_t so, uint64_t dO, uint64_t n)
    {
        for (uint64_t o = 0; o < n; o += ck) {
            uint32_t c = (n - o < ck) ? static_cast<uint32_t>(n - o) : ck;
            DataCopyExtParams cp{1, static_cast<uint32_t>(c * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
            LocalTensor<float> t = q.AllocTensor<float>();
            DataCopyPad(t, from[so + o], cp, pd);
            q.EnQue(t);
            t = q.DeQue<float>();
            DataCopyPad(yG[dO + o], t, cp);
            q.FreeTensor(t);
        }
    }

    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> q;
    TBuf<TPosition::VECCALC> iB;
    GlobalTensor<float> xG, sG, yG;
    GlobalTensor<int64_t> iG;
    uint32_t C, nI, ck, ib, r0, r1;
};

extern "C" __global__ __aicore__ void index_copy_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR src, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    IdxCopy op;
    op.Init(x, indices, src, y, td.rows, td.cols, td.nIdx, td.rowsPerCore, td.chunk, td.idxBlk);
    op.Process();
}
