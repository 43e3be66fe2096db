// NormReluProjectDownsample
//   y = avgpool2x2( conv1x1( relu( batchnorm(x) ) ) )
// Batch statistics are computed in the kernel (training-mode normalisation).
//
// Because the 1x1 convolution and the 2x2 average are both linear they commute, so the
// kernel pools first (4x fewer points) and projects afterwards:
//   y[n, o, i, j] = sum_c W[o, c] * 0.25 * sum_{2x2} relu(scale[c] * x + shift[c])
//
// Phase 1: per-channel mean / variance -> scale, shift in workspace (channels spread over cores)
// SyncAll
// Phase 2: one task = one pooled row (n, i) and a column segment; all cores share the tasks.
#include "kernel_operator.h"

using namespace AscendC;

class NormReluProjectDownsampleKernel {
public:
    __aicore__ inline NormReluProjectDownsampleKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR w, GM_ADDR y, GM_ADDR usrWs,
                                const NormReluProjectDownsampleTilingData &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm.SetGlobalBuffer((__gm__ float *)beta);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        paramGm.SetGlobalBuffer((__gm__ float *)usrWs);
        cinAlign = (tl.inC + 7) / 8 * 8;
        segAlign = (tl.segOut + 7) / 8 * 8;
        pairAlign = (2 * tl.segOut + 7) / 8 * 8;
        coreId = GetBlockIdx();
        coreNum = GetBlockNum();
    }

    __aicore__ inline void Process()
    {
        ChannelStatistics();
        SyncAll();
        pipe.Reset();
        PoolAndProject();
    }

private:
    // -------------------------------------------------------------- phase 1
    __aicore__ inline void ChannelStatistics()
    {
        const uint32_t plane = tl.height * tl.width;
        const uint32_t chunk = tl.statChunk;
        pipe.InitBuffer(statQue, 2, chunk * sizeof(float));
        pipe.InitBuffer(sqBuf, chunk * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();

        for (uint32_t c = coreId; c < tl.inC; c += coreNum) {
            float sum = 0.0f;
            float sumSq = 0.0f;
            for (uint32_t b = 0; b < tl.batch; ++b) {
                const uint64_t base = (static_cast<uint64_t>(b) * tl.inC + c) * plane;
                for (uint32_t off = 0; off < plane; off += chunk) {
                    const uint32_t len = (plane - off) < chunk ? (plane - off) : chunk;
                    LocalTensor<float> buf = statQue.AllocTensor<float>();
                    DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
                    DataCopyPad(buf, xGm[base + off], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                    statQue.EnQue(buf);
                    buf = statQue.DeQue<float>();
                    Mul(sq, buf, buf, len);
                    ReduceSum(red, buf, buf, len);
                    ReduceSum(red[8], sq, sq, len);
                    event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
                    SetFlag<HardEvent::V_S>(e);
                    WaitFlag<HardEvent::V_S>(e);
                    sum += red.GetValue(0);
                    sumSq += red.GetValue(8);
                    statQue.FreeTensor(buf);
                }
            }
            const float cnt = static_cast<float>(tl.batch) * static_cast<float>(plane);
            const float mean = sum / cnt;
            float var = sumSq / cnt - mean * mean;
            var = var < 0.0f ? 0.0f : var;
            // rstd through the vector unit
            red.SetValue(16, var + tl.epsilon);
            event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(sv);
            WaitFlag<HardEvent::S_V>(sv);
            Sqrt(red[16], red[16], 1);
            event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            const float scale = gammaGm.GetValue(c) / red.GetValue(16);
            const float shift = betaGm.GetValue(c) - mean * scale;
            red.SetValue(24, scale);
            red.SetValue(32, shift);
            event_t s3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
            SetFlag<HardEvent::S_MTE3>(s3);
            WaitFlag<HardEvent::S_MTE3>(s3);
            DataCopyExtParams one{1, sizeof(float), 0, 0, 0};
            DataCopyPad(paramGm[c], red[24], one);
            DataCopyPad(paramGm[cinAlign + c], red[32], one);
            event_t m3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_S));
            SetFlag<HardEvent::MTE3_S>(m3);
            WaitFlag<HardEvent::MTE3_S>(m3);
        }
    }

    // -------------------------------------------------------------- phase 2
    __aicore__ inline void PoolAndProject()
    {
        pipe.InitBuffer(pairQue, 2, 2 * pairAlign * sizeof(float));
        pipe.InitBuffer(pooledBuf, tl.inC * segAlign * sizeof(float));
        pipe.InitBuffer(evenBuf, segAlign * sizeof(float));
        pipe.InitBuffer(oddBuf, segAlign * sizeof(float));
        pipe.InitBuffer(paramBuf, 2 * cinAlign * sizeof(float));
        pipe.InitBuffer(wBuf, tl.coChunk * cinAlign * sizeof(float));
        pipe.InitBuffer(outQue, 2, tl.coChunk * segAlign * sizeof(float));

        LocalTensor<float> params = paramBuf.Get<float>();
        DataCopy(params, paramGm, 2 * cinAlign);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);

        const uint32_t tasks = tl.batch * tl.outH * tl.segNum;
        for (uint32_t task = coreId; task < tasks; task += coreNum) {
            const uint32_t seg = task % tl.segNum;
            const uint32_t row = (task / tl.segNum) % tl.outH;
            const uint32_t b = task / (tl.segNum * tl.outH);
            const uint32_t col0 = seg * tl.segOut;
            const uint32_t len = (tl.outW - col0) < tl.segOut ? (tl.outW - col0) : tl.segOut;
            PoolAllChannels(b, row, col0, len, params);
            Project(b, row, col0, len);
        }
    }

    // normalise + relu + 2x2 average for every input channel of the segment
    __aicore__ inline void PoolAllChannels(uint32_t b, uint32_t row, uint32_t col0, uint32_t len,
                                           const LocalTensor<float> &params)
    {
        LocalTensor<float> pooled = pooledBuf.Get<float>();
        LocalTensor<float> ev = evenBuf.Get<float>();
        LocalTensor<float> od = oddBuf.Get<float>();
        const uint32_t inLen = 2 * len;
        const uint32_t inLenAlign = (inLen + 7) / 8 * 8;
        for (uint32_t c = 0; c < tl.inC; ++c) {
            LocalTensor<float> pair = pairQue.AllocTensor<float>();
            const uint64_t src = ((static_cast<uint64_t>(b) * tl.inC + c) * tl.height + 2 * row) * tl.width + 2 * col0;
            // two consecutive input rows, each padded to a 32-byte boundary in UB
            DataCopyExtParams cp{2, inLen * static_cast<uint32_t>(sizeof(float)),
                                 (tl.width - inLen) * static_cast<uint32_t>(sizeof(float)), 0, 0};
            DataCopyPad(pair, xGm[src], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            pairQue.EnQue(pair);
            pair = pairQue.DeQue<float>();

            const float scale = params.GetValue(c);
            const float shift = params.GetValue(cinAlign + c);
            Muls(pair, pair, scale, 2 * inLenAlign);
            Adds(pair, pair, shift, 2 * inLenAlign);
            Relu(pair, pair, 2 * inLenAlign);
            Add(pair, pair, pair[inLenAlign], inLen);  // vertical pair

            // horizontal pair: split even / odd lanes
            uint64_t kept = 0;
            GatherMaskParams gp{1, static_cast<uint16_t>((inLen + 63) / 64), 8, 0};
            GatherMask(ev, pair, 1, false, 0, gp, kept);
            GatherMask(od, pair, 2, false, 0, gp, kept);
            LocalTensor<float> dst = pooled[c * segAlign];
            Add(dst, ev, od, len);
            Muls(dst, dst, 0.25f, len);
            pairQue.FreeTensor(pair);
        }
    }

    // out[o] = sum_c W[o, c] * pooled[c], for output channels in chunks
    __aicore__ inline void Project(uint32_t b, uint32_t row, uint32_t col0, uint32_t len)
    {
        LocalTensor<float> pooled = pooledBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        for (uint32_t o0 = 0; o0 < tl.outC; o0 += tl.coChunk) {
            const uint32_t oc = (tl.outC - o0) < tl.coChunk ? (tl.outC - o0) : tl.coChunk;
            DataCopyExtParams wcp{static_cast<uint16_t>(oc), tl.inC * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(wl, wGm[static_cast<uint64_t>(o0) * tl.inC], wcp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(e);
            WaitFlag<HardEvent::MTE2_S>(e);

            LocalTensor<float> out = outQue.AllocTensor<float>();
            Duplicate(out, 0.0f, oc * segAlign);
            for (uint32_t o = 0; o < oc; ++o) {
                LocalTensor<float> dst = out[o * segAlign];
                for (uint32_t c = 0; c < tl.inC; ++c) {
                    Axpy(dst, pooled[c * segAlign], wl.GetValue(o * cinAlign + c), len);
                }
            }
            outQue.EnQue(out);
            out = outQue.DeQue<float>();
            const uint64_t planeOut = static_cast<uint64_t>(tl.outH) * tl.outW;
            const uint64_t dst = ((static_cast<uint64_t>(b) * tl.outC + o0) * tl.outH + row) * tl.outW + col0;
            DataCopyExtParams ocp{static_cast<uint16_t>(oc), len * static_cast<uint32_t>(sizeof(float)),
                                  (segAlign - ((len + 7) / 8 * 8)) * static_cast<uint32_t>(sizeof(float)) / 32,
                                  static_cast<uint32_t>((planeOut - len) * sizeof(float)), 0};
            DataCopyPad(yGm[dst], out, ocp);
            outQue.FreeTensor(out);
            event_t m = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_MTE2));
            SetFlag<HardEvent::MTE3_MTE2>(m);
            WaitFlag<HardEvent::MTE3_MTE2>(m);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> statQue, pairQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> sqBuf, redBuf, pooledBuf, evenBuf, oddBuf, paramBuf, wBuf;
    GlobalTensor<float> xGm, gammaGm, betaGm, wGm, yGm, paramGm;
    NormReluProjectDownsampleTilingData tl;
    uint32_t cinAlign = 0, segAlign = 0, pairAlign = 0, coreId = 0, coreNum = 1;
};

extern "C" __global__ __aicore__ void norm_relu_project_downsample(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                                   GM_ADDR weight, GM_ADDR y, GM_ADDR workspace,
                                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    NormReluProjectDownsampleKernel op;
    op.Init(x, gamma, beta, weight, y, usr, tilingData);
    op.Process();
}
